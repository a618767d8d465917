"""Mutant: a Freeze or Flip Three set aside in a Flip Three does not count toward the three cards, breaking
F7-FLIP3-COUNTS-ALL.

Every card revealed in a Flip Three counts toward its three, the set-aside Actions included. This engine
counts only the cards that join the row (or bust it), so a set-aside card is followed by one more draw.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import FLIP_THREE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP3-COUNTS-ALL", "F7-FLIP3"}
READINGS = {"flip3_setaside_not_counted"}


class RowCardsFlipThree(FlipThree):
    """A Flip Three that draws again after each card it sets aside."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        set_aside = len(self.set_aside)
        super().step(game)
        if len(self.set_aside) > set_aside:
            self.remaining += 1  # the bug: the set-aside card was one of the three


class LongFlipThreeGame(Flip7Game):
    """The reference game, resolving every Flip Three as a :class:`RowCardsFlipThree`."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        if action.kind is FLIP_THREE:
            self._stack[-1] = RowCardsFlipThree(action, seat, entry)


class Engine(MutantAdapter):
    """The reference, with Flip Threes that do not count set-aside cards."""

    game_class = LongFlipThreeGame


if __name__ == "__main__":
    serve(Engine())
