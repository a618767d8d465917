"""Counting the cards an engine does not track: ``in_play`` and the pile sizes of the observation.

Every card of the game is always in exactly one place: the draw pile, the discard pile, in front of a
player, or in play (an Action waiting for its target, cards set aside in a Flip Three). An engine that
keeps the piles and the rows, but not what is between them, gets ``in_play`` as what is missing; one that
does not count a pile gets its size the same way. :class:`Census` knows the whole deck (the ``start``
request's ``deck``) and the order cards were revealed, so ``in_play`` comes out in the protocol's order.

::

    census = Census(request_deck)
    census.revealed("FLIP3")             # each card as it is turned over from the draw pile
    census.in_play(rows, draw_pile, discard_pile)            # ["FLIP3"]
    census.discard_size(rows, draw_size, in_play=[])         # when the engine does not count its discards
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from flip7_spec.protocol.adapter import EngineFailure


class Census:
    """The whole deck of one game (every card, whatever pile it starts in) and the order of reveals."""

    def __init__(self, deck: Iterable[str]) -> None:
        self.total: Counter[str] = Counter(deck)
        self._reveals: list[str] = []

    def revealed(self, card: str) -> None:
        """Note that ``card`` was turned over from the draw pile (in the order it happens)."""
        self._reveals.append(card)

    def _placed(self, groups: Iterable[Iterable[str]]) -> Counter[str]:
        placed: Counter[str] = Counter()
        for group in groups:
            placed.update(group)
        return placed

    def in_play(self, rows: Sequence[Sequence[str]], draw_pile: Iterable[str], discard_pile: Iterable[str]
                ) -> list[str]:
        """The cards neither in a pile nor in a row, in the order they were revealed (the latest reveals of
        a card text, when the same text was revealed several times). Raises :class:`EngineFailure` when the
        engine holds a card the deck does not have (a card created or duplicated)."""
        placed = self._placed([*rows, draw_pile, discard_pile])
        extra = placed - self.total
        if extra:
            raise EngineFailure(f"the engine holds cards the deck does not have: {sorted(extra.elements())}")
        missing = self.total - placed
        chosen: list[int] = []
        for index in range(len(self._reveals) - 1, -1, -1):
            text = self._reveals[index]
            if missing[text] > 0:
                missing[text] -= 1
                chosen.append(index)
        if +missing:
            raise EngineFailure(f"cards missing that were never revealed: {sorted(missing.elements())}")
        return [self._reveals[index] for index in sorted(chosen)]

    def remainder(self, rows: Sequence[Sequence[str]], *counts: int, in_play: Sequence[str] = ()) -> int:
        """How many cards are left once the rows, ``in_play`` and the given pile sizes are taken from the whole
        deck: the size of the one pile the engine does not count."""
        left = sum(self.total.values()) - sum(len(row) for row in rows) - len(in_play) - sum(counts)
        if left < 0:
            raise EngineFailure("the engine's rows and piles hold more cards than the deck")
        return left

    def discard_size(self, rows: Sequence[Sequence[str]], draw_size: int, in_play: Sequence[str] = ()) -> int:
        """The size of the discard pile of an engine that counts only its draw pile."""
        return self.remainder(rows, draw_size, in_play=in_play)

    def draw_size(self, rows: Sequence[Sequence[str]], discard_size: int, in_play: Sequence[str] = ()) -> int:
        """The size of the draw pile of an engine that counts only its discard pile."""
        return self.remainder(rows, discard_size, in_play=in_play)
