"""Mutant: the Dealer never changes, breaking F7-DEALER-ROTATION.

After each round the deck passes left and that player becomes the Dealer. This engine keeps the first
Dealer for the whole game.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-DEALER-ROTATION"}
READINGS = {"dealer_fixed"}


class FixedDealerGame(Flip7Game):
    """The reference game, undoing the deck's pass to the left before each new round."""

    def _start_round(self) -> None:
        if self.round:
            self.dealer = (self.dealer - 1) % self.n  # the bug: the deck stays with the same Dealer
        super()._start_round()


class Engine(MutantAdapter):
    """The reference, with a Dealer for life."""

    game_class = FixedDealerGame


if __name__ == "__main__":
    serve(Engine())
