"""The scoring functions of the public API with their arguments checked first.

``flip7_spec.round_score``, ``flip7_spec.score`` and ``flip7_spec.check_hand`` are these: a wrong argument
(a hand of strings, a ruleset name instead of a :class:`~flip7_spec.rulesets.Ruleset`) raises
:class:`~flip7_spec.errors.ArgumentError` instead of an ``AttributeError`` from deep inside. The unchecked
functions of :mod:`flip7_spec.play` stay what the engine and simulations call in their inner loops.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flip7_spec.arguments import card_sequence, ruleset_value, whole_number
from flip7_spec.cards import Card
from flip7_spec.errors import ArgumentError
from flip7_spec.limits import check_game_size
from flip7_spec.play import check_hand as play_check_hand
from flip7_spec.play import round_score as play_round_score
from flip7_spec.play import score as play_score
from flip7_spec.rulesets import Ruleset
from flip7_spec.scoring import Score


def _check(ruleset: Any, hand: Any, busted: Any) -> None:
    ruleset_value(ruleset)
    card_sequence(hand, "hand", texts=False)
    if not isinstance(busted, bool):
        raise ArgumentError(f"busted must be True or False, not {type(busted).__name__}")


def round_score(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> int:
    """The round score of a player holding ``hand`` (see :func:`flip7_spec.play.round_score`).

    Raises :class:`ArgumentError` unless ``ruleset`` is a Ruleset, ``hand`` a list of :class:`Card`
    (``cards("3 11 x2")`` builds one) and ``busted`` a bool.
    """
    _check(ruleset, hand, busted)
    return play_round_score(ruleset, hand, busted)


def score(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> Score:
    """The round score with its steps (see :func:`flip7_spec.play.score`); arguments checked as by
    :func:`round_score`."""
    _check(ruleset, hand, busted)
    return play_score(ruleset, hand, busted)


def check_hand(ruleset: Ruleset, hand: Sequence[Card], players: int = 3) -> None:
    """Whether ``hand`` could be a player's cards at a round's end (see :func:`flip7_spec.play.check_hand`);
    arguments checked as by :func:`round_score`, ``players`` within the limits."""
    _check(ruleset, hand, False)
    whole_number(players, "players")
    check_game_size(ruleset, players)
    play_check_hand(ruleset, hand, players)
