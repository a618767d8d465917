"""Mutant: the rest of a Flip Three's set-aside cards are discarded once its target is out of the round,
breaking F7-FLIP3-ASSIGN.

The target of a Flip Three assigns every card it set aside, and each takes effect unless its own receiver is
no longer active (a Freeze assigned to yourself, then a Flip Three assigned to another player: you are frozen,
and the other player still takes three cards). This engine stops handling the set-aside cards as soon as the
target is out (frozen or busted): whatever is left, assigned or not, is discarded.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.engine import Assign, Effects, Flip7Game, FlipThree
from flip7_spec.machine import ACTIVE
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP3-ASSIGN", "F7-FLIP3-ASSIGN-INACTIVE"}
READINGS = {"setaside_dropped_when_target_out"}

DROPPED = "F7-FLIP3-ASSIGN"


class OwnersEffects(Effects):
    """Assigned set-aside cards, dropped once their Flip Three's target is out."""

    __slots__ = ("owner",)

    def __init__(self, assigned: list[tuple[Card, int, int | None]], owner: int) -> None:
        super().__init__(assigned)
        self.owner = owner

    def step(self, game: Flip7Game) -> None:
        while self.assigned and game.players[self.owner].status is not ACTIVE:
            action, _, entry = self.assigned.pop(0)
            game._discard_in_play(action, "the Flip Three's target is out", DROPPED, entry)  # the bug
        super().step(game)


class OwnersAssign(Assign):
    """Set-aside cards assigned while their Flip Three's target is active."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        while self.pending_cards and game.players[self.chooser].status is not ACTIVE:
            action = self.pending_cards.pop(0)
            game._discard_in_play(action, "the Flip Three's target is out", DROPPED, self.entries.pop(0))  # the bug
        if self.pending_cards:
            super().step(game)
            return
        game._stack[-1] = OwnersEffects(self.assigned, self.chooser)


class OwnersFlipThree(FlipThree):
    """A Flip Three handing its set-aside cards to :class:`OwnersAssign`."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        depth = len(game._stack)
        super().step(game)
        top = game._stack[-1] if len(game._stack) >= depth else None
        if type(top) is Assign and top.chooser == self.target and top.clause == "F7-FLIP3-ASSIGN":
            game._stack[-1] = OwnersAssign(top.chooser, top.pending_cards, top.clause, top.entries)


class OwnersGame(Flip7Game):
    """The reference game with :class:`OwnersFlipThree` for every Flip Three."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        top = self._stack[-1] if self._stack else None
        if type(top) is FlipThree:  # one just started
            self._stack[-1] = OwnersFlipThree(top.action, top.target, top.entry)


class Engine(MutantAdapter):
    """The reference, dropping set-aside cards once their Flip Three's target is out."""

    game_class = OwnersGame


if __name__ == "__main__":
    serve(Engine())
