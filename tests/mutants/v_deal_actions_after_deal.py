"""Mutant: Actions and Modifiers dealt in the initial deal wait until everyone has a card, breaking
V-DEAL-PAUSE.

An Action or Modifier dealt in the initial deal pauses the deal: it is resolved at once, and the deal resumes
with the next player. This engine deals one card to every player first, setting the dealt Actions and
Modifiers aside, and resolves them afterwards in the order they were dealt, each by the player dealt it.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.engine import FlipFour, ResolveHeld, Turns, VengeanceGame
from flip7_spec.machine import Frame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-DEAL-PAUSE", "V-DEAL"}
READINGS = {"deal_actions_after_deal"}


class DealAllFirst(Turns):
    """The deal, then the dealt Actions and Modifiers, then the Hit/Stay rotation."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        assert isinstance(game, DealAllFirstGame)
        if self.dealing and self.pos >= len(game.order) and game.set_aside:
            # the bug: resolved only now; the first dealt ends on top of the stack
            for seat, dealt in reversed(game.set_aside):
                game._stack.append(ResolveHeld(seat, [dealt]))
            game.set_aside = []
            return
        super().step(game)


class DealAllFirstGame(VengeanceGame):
    """The reference game, with a deal that never pauses."""

    set_aside: list[tuple[int, Card]]

    def _begin_round(self) -> Frame[VengeanceGame]:
        super()._begin_round()
        self.set_aside = []
        return DealAllFirst(dealing=self.ruleset.initial_deal)

    def _deal_to(self, seat: int, via: str, clause: str, flip4: FlipFour | None = None) -> None:
        if via != "deal":
            super()._deal_to(seat, via, clause, flip4)
            return
        drawn = self._draw()
        if drawn is None:
            return
        self._emit("draw", clause, seat, drawn.text, (("via", via),))
        if drawn.is_number:
            self._place_number(seat, drawn)
            return
        self.in_play.append(drawn)
        self.set_aside.append((seat, drawn))


class Engine(VengeanceMutantAdapter):
    """The reference, resolving the deal's Actions and Modifiers after the deal."""

    game_class = DealAllFirstGame


if __name__ == "__main__":
    serve(Engine())
