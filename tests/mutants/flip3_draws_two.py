"""Mutant: the Flip Three card counts as the first of its three cards, so its target takes only two more,
breaking F7-FLIP3.

The target of a Flip Three accepts the next three cards, one at a time. This engine counts the revealed
Flip Three card itself as one of them and stops after two draws.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import FLIP_THREE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP3", "F7-FLIP3-COUNTS-ALL"}
READINGS = {"flip3_card_counted"}

DRAWS = 2  # the bug: three, the Flip Three card not among them


class FlipTwo(FlipThree):
    """A Flip Three that draws two cards."""

    __slots__ = ()

    def __init__(self, action: Card, target: int, entry: int | None = None) -> None:
        super().__init__(action, target, entry)
        self.remaining = DRAWS


class FlipTwoGame(Flip7Game):
    """The reference game, resolving every Flip Three as a :class:`FlipTwo`."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        if action.kind is FLIP_THREE:
            self._stack[-1] = FlipTwo(action, seat, entry)


class Engine(MutantAdapter):
    """The reference, with Flip Threes of two cards."""

    game_class = FlipTwoGame


if __name__ == "__main__":
    serve(Engine())
