"""Checks of the arguments of the public library calls, so that a wrong argument is a typed, one-line error.

A call such as ``new_game(ruleset, "3", deck)`` would otherwise fail deep inside the engine with whatever
Python raises there (``TypeError: '<' not supported ...``). These checks run first and raise
:class:`~flip7_spec.errors.ArgumentError` (a ``TypeError``) for a value of the wrong type, and
:class:`~flip7_spec.errors.LimitError` for one over a documented limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from flip7_spec.cards import Card
from flip7_spec.errors import ArgumentError
from flip7_spec.limits import DECK_CARDS, check_game_size, check_ruleset
from flip7_spec.rulesets import Ruleset


def whole_number(value: Any, name: str) -> int:
    """``value`` if it is an ``int`` (not a ``bool``); else :class:`ArgumentError`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{name} must be a whole number (int), not {type(value).__name__}")
    return value


def ruleset_value(value: Any, name: str = "ruleset") -> Ruleset:
    """``value`` if it is a :class:`Ruleset` (build one with ``preset`` or ``load_ruleset``) whose deck is a
    composition of (card text, count) pairs, within the limits of :func:`~flip7_spec.limits.check_ruleset`."""
    if not isinstance(value, Ruleset):
        raise ArgumentError(f"{name} must be a Ruleset (from preset() or load_ruleset()), not "
                            f"{type(value).__name__}")
    deck = value.deck
    if not isinstance(deck, tuple) or not all(
            isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str)
            and type(entry[1]) is int for entry in deck):
        raise ArgumentError(f"{name}.deck must be a tuple of (card text, count) pairs")
    check_ruleset(value, name)
    return value


def card_sequence(value: Any, name: str, texts: bool = True) -> None:
    """Refuse anything but a list or tuple of :class:`Card` (or, with ``texts``, card texts). A single string
    is refused too: ``cards("3 4 5")`` splits one."""
    what = "cards or card texts" if texts else "cards (see cards())"
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ArgumentError(f"{name} must be a list of {what}, not {type(value).__name__}")
    allowed = (Card, str) if texts else (Card,)
    for position, item in enumerate(value):
        if not isinstance(item, allowed):
            raise ArgumentError(f"{name}[{position}] must be a {'Card or a card text' if texts else 'Card'}, "
                                f"not {type(item).__name__}")


def check_game_arguments(ruleset: Any, players: Any, deck: Any, dealer: Any, reshuffles: Any,
                         reshuffler: Any) -> None:
    """The checks of :func:`flip7_spec.new_game` that come before any rule: types first, then the limits
    on players and deck size. Rule violations (a player count the ruleset does not allow, a deck that is
    not the ruleset's) stay :class:`~flip7_spec.errors.SetupError`, raised by the game itself."""
    ruleset_value(ruleset)
    whole_number(players, "players")
    whole_number(dealer, "dealer")
    card_sequence(deck, "deck")
    check_game_size(ruleset, players)
    DECK_CARDS.check(len(deck), "deck")
    if not isinstance(reshuffles, Iterable) or isinstance(reshuffles, str | bytes):
        raise ArgumentError(f"reshuffles must be a list of card orders, not {type(reshuffles).__name__}")
    if isinstance(reshuffles, Sequence):
        for position, order in enumerate(reshuffles):
            card_sequence(order, f"reshuffles[{position}]", texts=False)
    if reshuffler is not None and not callable(reshuffler):
        raise ArgumentError(f"reshuffler must be a function of the discard pile, not {type(reshuffler).__name__}")
