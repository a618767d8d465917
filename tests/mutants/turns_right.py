"""Mutant: the deal and the turns go to the right (counterclockwise), breaking F7-DEAL-ORDER.

Play goes clockwise: the deal and the Hit/Stay offers start at the Dealer's left and end with the Dealer.
This engine mirrors every seat around the Dealer: it starts at the Dealer's right and goes the other way,
still ending with the Dealer.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-DEAL-ORDER", "F7-SEATS"}
READINGS = {"turns_to_the_right"}


class RightwardGame(Flip7Game):
    """The reference game with each round's turn order reflected around the Dealer."""

    def _start_round(self) -> None:
        super()._start_round()
        # the bug: seat dealer + k plays where seat dealer - k should
        self.order = [(2 * self.dealer - seat) % self.n for seat in self.order]


class Engine(MutantAdapter):
    """The reference, playing to the right."""

    game_class = RightwardGame


if __name__ == "__main__":
    serve(Engine())
