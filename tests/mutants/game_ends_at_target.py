"""Mutant: the game ends the moment a player's total and round score reach the target, in the middle of a
round, breaking F7-GAME-END.

The game ends at the end of a round in which a player has reached 200: the round is played out first.
This engine stops the round (and so the game) as soon as a card brings a player who has not busted to the
target, and scores the round as it stands.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-GAME-END", "F7-ROUND-END"}
READINGS = {"game_ends_at_target"}


class SuddenEndGame(Flip7Game):
    """The reference game, ending the round as soon as someone's points reach the target."""

    def _deal_to(self, seat: int, via: str, clause: str, flip3: FlipThree | None = None) -> None:
        super()._deal_to(seat, via, clause, flip3)
        reached = self.totals[seat] + self.round_score(seat) >= self.ruleset.target_score
        if reached and self.players[seat].status is not BUSTED:
            self._ending = True  # the bug: the others should still play the round out


class Engine(MutantAdapter):
    """The reference, ending at the target at once."""

    game_class = SuddenEndGame


if __name__ == "__main__":
    serve(Engine())
