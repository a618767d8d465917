"""Steering a game on the reference into a chosen state: rigged decks and cards moved to the top of the pile.

One implementation shared by the rare-state scripts of the Hypothesis strategies
(:mod:`flip7_spec.strategies.rare_states`) and the conformance corpus's aimed games
(:mod:`flip7_spec.conformance.aimed`). A steered game stays a plain value: the draw pile it records is the
order the cards were really drawn in, so its trace replays anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from flip7_spec.cards import Card
from flip7_spec.machine import Game

Wanted = Callable[[Card, list[Card]], bool]
"""A card predicate, given the cards already picked before it."""


class PileSteering:
    """Moves chosen cards of the draw pile to its top through :meth:`Game.restack
    <flip7_spec.machine.Game.restack>`, which keeps the game's :attr:`~flip7_spec.machine.Game.initial_deck`
    the order the cards are really drawn in. Used only before the first reshuffle, while the pile is the rest
    of the deck."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def put_on_top(self, wanted: Sequence[Wanted]) -> bool:
        """For each predicate in order, find the nearest pile card it accepts (given the cards already
        picked) and put the picked cards on top, the first on the very top. False (nothing moved) if a
        predicate finds no card."""
        game = self.game
        top_first = game.pile[::-1]
        picked = pick(top_first, wanted)
        if picked is None:
            return False
        rest = [c for i, c in enumerate(top_first) if i not in picked]
        new_top_first = [top_first[i] for i in picked] + rest
        game.restack(new_top_first)
        return True


def pick(top_first: Sequence[Card], wanted: Sequence[Wanted]) -> list[int] | None:
    """The positions of the cards ``wanted`` picks in order (each the nearest one its predicate accepts), or
    None when a predicate finds no card."""
    picked: list[int] = []
    for predicate in wanted:
        chosen = [top_first[i] for i in picked]
        index = next((i for i, c in enumerate(top_first) if i not in picked and predicate(c, chosen)), None)
        if index is None:
            return None
        picked.append(index)
    return picked


def rig(deck: list[Card], wanted: Sequence[Wanted], bottom: bool = False) -> list[Card] | None:
    """``deck`` (top first) with the cards ``wanted`` picks moved to its top (or, with ``bottom``, to its
    bottom in the same order), or None when a predicate finds no card."""
    picked = pick(deck, wanted)
    if picked is None:
        return None
    chosen = [deck[i] for i in picked]
    rest = [c for i, c in enumerate(deck) if i not in picked]
    return rest + chosen if bottom else chosen + rest


def any_number(c: Card, chosen: list[Card]) -> bool:
    """Any Number card."""
    return c.is_number


def new_number_for(held: set[int], plain: bool = False) -> Wanted:
    """A Number whose value is neither in ``held`` nor among the cards picked before it; with ``plain``, one
    without a special effect (a Vengeance Lucky 13 or Unlucky 7, say)."""
    def accept(c: Card, chosen: list[Card]) -> bool:
        return c.is_number and (not plain or c.special is None) and c.value not in held and \
            all(c.value != o.value for o in chosen)

    return accept


def card_text(text: str) -> Wanted:
    """The card ``text``."""
    return lambda c, chosen: c.text == text
