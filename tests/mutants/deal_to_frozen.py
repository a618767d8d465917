"""Mutant: a player frozen earlier in the initial deal is still dealt a card, breaking F7-DEAL-FREEZE-EMPTY.

A Freeze in the deal may hit a player who has not been dealt yet: that player banks 0 and is out of the
round, so the deal skips them. This engine's deal only skips busted players: the frozen player is dealt their
card, which joins their row and takes effect like any dealt card.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game, Rotation
from flip7_spec.machine import ACTIVE, BUSTED, Frame
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-DEAL-FREEZE-EMPTY", "F7-DEAL", "F7-FREEZE"}
READINGS = {"deal_to_frozen_player"}


class DealUnlessBusted(Rotation):
    """The deal, skipping busted players only, then the Hit/Stay rotation."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        if self.dealing and self.pos < len(game.order):
            seat = game.order[self.pos]
            if game.players[seat].status not in (ACTIVE, BUSTED):
                self.pos += 1
                game._deal_to(seat, "deal", "F7-DEAL")  # the bug: out of the round, yet dealt
                return
        super().step(game)


class DealUnlessBustedGame(Flip7Game):
    """The reference game, with a deal that skips busted players only."""

    def _begin_round(self) -> Frame[Flip7Game]:
        super()._begin_round()
        return DealUnlessBusted(dealing=self.ruleset.initial_deal)


class Engine(MutantAdapter):
    """The reference, dealing to frozen players."""

    game_class = DealUnlessBustedGame


if __name__ == "__main__":
    serve(Engine())
