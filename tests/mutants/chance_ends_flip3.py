"""Mutant: using a Second Chance during a Flip Three ends the Flip Three, breaking F7-CHANCE-ENDS-TURN.

Using a Second Chance on a Hit ends the turn, but in a Flip Three the Flip Three simply continues: its
target still takes the rest of its three cards. This engine stops drawing for the Flip Three once the
Second Chance is used (any cards it set aside are resolved as usual).
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import FLIP_THREE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.machine import ACTIVE
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-ENDS-TURN", "F7-FLIP3"}
READINGS = {"chance_ends_flip_three"}


class SavedStopsFlipThree(FlipThree):
    """A Flip Three that stops drawing when a draw used up its target's Second Chance."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        target = game.players[self.target]
        protected = target.has_chance
        super().step(game)
        if protected and not target.has_chance and target.status is ACTIVE:
            self.remaining = 0  # the bug: the Flip Three should go on


class ShortFlipThreeGame(Flip7Game):
    """The reference game, resolving every Flip Three as a :class:`SavedStopsFlipThree`."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        if action.kind is FLIP_THREE:
            self._stack[-1] = SavedStopsFlipThree(action, seat, entry)


class Engine(MutantAdapter):
    """The reference, where a Second Chance ends a Flip Three."""

    game_class = ShortFlipThreeGame


if __name__ == "__main__":
    serve(Engine())
