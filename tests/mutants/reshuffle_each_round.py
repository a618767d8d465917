"""Mutant: the discard pile and the rest of the deck are reshuffled together before every round, breaking
F7-DISCARD-PILE.

The rules set a finished round's cards aside in the discard pile and pass on the remaining deck,
reshuffling the discards only when the deck runs out. This engine gathers both into a freshly shuffled
deck at the start of every round after the first (its shuffle takes the next reshuffle order it was given,
so it runs out of orders, or gets orders of other cards, from round 2 on).
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.machine import Frame
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-DISCARD-PILE", "F7-RESHUFFLE"}
READINGS = {"reshuffle_every_round"}


class FreshDeckGame(Flip7Game):
    """The reference game, shuffling every card that is not on the table before each round."""

    def _begin_round(self) -> Frame[Flip7Game]:
        if self.round > 1 and self.discard:
            self.discard.extend(self.pile)  # the bug: the deck should be passed on as it is
            self.pile.clear()
            self._reshuffle("F7-RESHUFFLE")
        return super()._begin_round()


class Engine(MutantAdapter):
    """The reference, with a new shuffle every round."""

    game_class = FreshDeckGame


if __name__ == "__main__":
    serve(Engine())
