"""Mutant: when a player Flips 7 the other players bank nothing, breaking F7-FLIP7-OTHERS-BANK.

A Flip 7 ends the round for everyone, and every player who has not busted banks the points in front of
them. This engine gives the round to the Flip 7 player alone: everybody else banks 0.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP7-OTHERS-BANK", "F7-BANK"}
READINGS = {"flip7_others_bank_nothing"}


class WinnerTakesAllGame(Flip7Game):
    """The reference game, zeroing every banked score but the Flip 7 player's."""

    def _round_scores(self) -> list[int]:
        scores = super()._round_scores()
        maker = self._flip7_seat()
        if maker is None:
            return scores
        return [score if seat == maker else 0 for seat, score in enumerate(scores)]  # the bug


class Engine(MutantAdapter):
    """The reference, where a Flip 7 takes the whole round."""

    game_class = WinnerTakesAllGame


if __name__ == "__main__":
    serve(Engine())
