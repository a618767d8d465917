"""Mutant: Just One More does not force its target to Stay, breaking V-ONEMORE-STAY.

The target of Just One More accepts the next card and must then Stay, unless they busted or the round
ended. This engine deals the card and leaves an active target active, still in the Hit/Stay rotation.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Choice
from flip7_spec.games.vengeance.engine import ChooseTarget, JustOneMore, VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-ONEMORE-STAY", "V-ONEMORE"}
# A target holding The Zero plays on under either reading.
READINGS = {"onemore_no_stay", "onemore_zero_keeps_hitting"}


class NoStayJustOneMore(JustOneMore):
    """Just One More without the Stay that follows the card."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        if not self.drawn:
            super().step(game)
            return
        game._stack.pop()
        game._finish_action(self.action)  # the bug: no forced Stay


class NoStayChooseTarget(ChooseTarget):
    """A Just One More waiting for its target, starting :class:`NoStayJustOneMore` once it has one."""

    __slots__ = ()

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        super().decide(game, choice)
        top = game._stack[-1]
        if type(top) is JustOneMore:
            game._stack[-1] = NoStayJustOneMore(top.action, top.target)


class NoStayGame(VengeanceGame):
    """The reference game with :class:`NoStayChooseTarget` for every Just One More."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        super()._resolve_revealed(seat, revealed)
        top = self._stack[-1]
        if type(top) is ChooseTarget:
            self._stack[-1] = NoStayChooseTarget(top.action, top.resolver)


class Engine(VengeanceMutantAdapter):
    """The reference, with a Just One More that does not end the target's turns."""

    game_class = NoStayGame


if __name__ == "__main__":
    serve(Engine())
