"""Mutant: a player made to Stay earlier in the initial deal is still dealt a card, breaking V-DEAL-ALWAYS.

The deal gives a card to every player who has neither busted nor stayed; a player out of the round by their
turn (the target of a Just One More dealt before them, who must then Stay) is skipped. This engine's deal
skips busted players only: the stayed player is dealt their card too, and it takes effect like any dealt card.
"""

from __future__ import annotations

from flip7_spec.games.vengeance.engine import Turns, VengeanceGame
from flip7_spec.machine import STAYED, Frame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-DEAL-ALWAYS", "V-DEAL"}
READINGS = {"deal_to_stayed_player"}


class DealToEveryoneIn(Turns):
    """The deal, dealing stayed players too, then the Hit/Stay rotation."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        dealing_stayed = self.dealing and self.pos < len(game.order) \
            and game.players[game.order[self.pos]].status is STAYED
        if not dealing_stayed:
            super().step(game)
            return
        seat = game.order[self.pos]
        self.pos += 1
        game._deal_to(seat, "deal", "V-DEAL")  # the bug: only a bust should keep them from their card


class DealToEveryoneInGame(VengeanceGame):
    """The reference game with :class:`DealToEveryoneIn` opening every round."""

    def _begin_round(self) -> Frame[VengeanceGame]:
        super()._begin_round()
        return DealToEveryoneIn(dealing=self.ruleset.initial_deal)


class Engine(VengeanceMutantAdapter):
    """The reference, dealing to players who stayed in the deal."""

    game_class = DealToEveryoneInGame


if __name__ == "__main__":
    serve(Engine())
