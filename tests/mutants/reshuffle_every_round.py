"""Mutant: the discard pile goes back into the deck at the start of every round, breaking F7-DISCARD-PILE.

The rules set a finished round's cards aside in the discard pile and pass on the remaining deck, shuffling
the discards in only when the deck runs out. This engine puts them back under the deck every round (under,
not shuffled in, so that the game stays deterministic): the draw pile is too big from round 2 on.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-DISCARD-PILE", "F7-RESHUFFLE"}
READINGS = {"discard_back_each_round"}


class RecyclingGame(Flip7Game):
    """The reference game, returning the discard pile to the deck before each round."""

    def _start_round(self) -> None:
        self.pile[:0] = self.discard  # the bug: the top of the pile is its last element
        self.discard.clear()
        super()._start_round()


class Engine(MutantAdapter):
    """The reference, recycling the discard pile every round."""

    game_class = RecyclingGame


if __name__ == "__main__":
    serve(Engine())
