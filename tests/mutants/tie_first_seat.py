"""Mutant: a tie for the highest total at the target goes to the player in the lowest seat, breaking
F7-TIE.

A tie for the highest total at the end means everyone plays another round. This engine takes the first
seat that holds the highest total as the winner.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-TIE", "F7-WINNER"}
READINGS = {"tie_to_first_seat"}


class FirstSeatWinsGame(Flip7Game):
    """The reference game, breaking ties at the top by seat."""

    def _winners_at_target(self, leaders: list[int]) -> list[int] | None:
        return [self.totals.index(max(self.totals))]  # the bug: the first of the tied leaders wins


class Engine(MutantAdapter):
    """The reference, with the lowest seat winning a tie."""

    game_class = FirstSeatWinsGame


if __name__ == "__main__":
    serve(Engine())
