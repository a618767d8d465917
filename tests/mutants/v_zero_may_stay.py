"""Mutant: a player holding The Zero may Stay, breaking V-ZERO-MUST-HIT.

While a player holds The Zero they must Hit on their turn: they cannot Stay voluntarily (only a Just One More
makes them Stay). This engine's turn offers Hit and Stay to anyone the stay minimum allows, The Zero or not.
"""

from __future__ import annotations

from flip7_spec.events import HIT, STAY, Decision, DecisionKind
from flip7_spec.games.vengeance.engine import Turns, VengeanceGame
from flip7_spec.machine import Frame, next_active
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-ZERO-MUST-HIT", "V-HIT-STAY"}
# Until The Zero's score shows, a game plays as special_numbers = false: the diagnosis may say so.
READINGS = {"zero_may_stay", "special_numbers=false"}


class FreeStayTurns(Turns):
    """The deal and the Hit/Stay rotation, offering Stay whatever the row holds."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        if self.dealing:
            super().step(game)
            return
        self.pos = next_active(game.order, game.players, self.pos)
        seat = game.order[self.pos]
        row = game.players[seat].cards
        minimum = game.ruleset.stay_minimum
        too_few = (minimum == "one_card" and not row) or (
            minimum == "two_numbers" and len([c for c in row if c.is_number]) < 2)
        if too_few:
            game._offer(Decision(seat, DecisionKind.HIT_OR_STAY, (HIT,)), "V-STAY-MINIMUM")
        else:
            game._offer(Decision(seat, DecisionKind.HIT_OR_STAY, (HIT, STAY)), "V-HIT-STAY")  # the bug


class FreeStayGame(VengeanceGame):
    """The reference game with :class:`FreeStayTurns` opening every round."""

    def _begin_round(self) -> Frame[VengeanceGame]:
        super()._begin_round()
        return FreeStayTurns(dealing=self.ruleset.initial_deal)


class Engine(VengeanceMutantAdapter):
    """The reference, without The Zero's must-Hit."""

    game_class = FreeStayGame


if __name__ == "__main__":
    serve(Engine())
