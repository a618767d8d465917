"""Mutant: a Freeze cannot target the player who revealed it while another player is active, breaking
F7-FREEZE-SELF.

A player may Freeze themselves (to bank their points) even when others are still in. This engine offers
only the other active players, and picks the one other player by itself when there is just one.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Decision
from flip7_spec.games.flip7.cards import FREEZE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree, Target
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FREEZE-SELF", "F7-ACTION-TARGET"}
READINGS = {"freeze_not_self"}


class OthersOnlyTarget(Target):
    """A revealed Freeze waiting for its target, the revealer excluded unless alone."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        options = tuple(game._active_seats())
        others = tuple(seat for seat in options if seat != self.chooser)
        if others:
            options = others  # the bug: no Freeze on yourself
        decision = Decision(self.chooser, "target", options, self.action.text)
        if len(options) == 1:
            game._forced(decision, "F7-ACTION-ALONE")
        else:
            game._ask(decision)


class NoSelfFreezeGame(Flip7Game):
    """The reference game with :class:`OthersOnlyTarget` for every Freeze revealed outside a Flip Three."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        super()._receive(seat, drawn, flip3, via)
        top = self._stack[-1] if self._stack else None
        if drawn.kind is FREEZE and type(top) is Target and top.action is drawn:
            self._stack[-1] = OthersOnlyTarget(drawn, seat)


class Engine(MutantAdapter):
    """The reference, with no self-Freeze."""

    game_class = NoSelfFreezeGame


if __name__ == "__main__":
    serve(Engine())
