"""Mutant: only Number cards count toward a Flip Four's four, breaking V-FLIP4.

The target of a Flip Four accepts the next four cards, whatever they are: an Action or a Modifier among them
is held back and still counts as one of the four. This engine counts the Numbers only, so its Flip Four draws
on until four Number cards have come (or the target busts, or the round ends).
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Choice
from flip7_spec.games.vengeance.cards import FLIP_FOUR
from flip7_spec.games.vengeance.engine import ChooseTarget, FlipFour, VengeanceGame
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-FLIP4", "V-FLIP4-HOLD"}
READINGS = {"flip4_numbers_only_count"}


class NumbersFlipFour(FlipFour):
    """A Flip Four that ends after four Number cards."""

    __slots__ = ("numbers_left",)

    def __init__(self, action: Card, target: int) -> None:
        super().__init__(action, target)
        self.numbers_left = 4

    def step(self, game: VengeanceGame) -> None:
        if self.numbers_left and game.players[self.target].status is not BUSTED:
            held = len(self.held)
            game._deal_to(self.target, "flip4", "V-FLIP4", self)
            if len(self.held) == held:
                self.numbers_left -= 1  # the bug: a held-back card does not count
            return
        self.remaining = 0  # the reference's ending: pop, discard or resolve the held-back cards
        super().step(game)


class NumbersChooseTarget(ChooseTarget):
    """A Just One More or Flip Four waiting for its target; a Flip Four then plays as :class:`NumbersFlipFour`."""

    __slots__ = ()

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        super().decide(game, choice)
        top = game._stack[-1]
        if type(top) is FlipFour:
            game._stack[-1] = NumbersFlipFour(top.action, top.target)


class NumbersFlipFourGame(VengeanceGame):
    """The reference game with :class:`NumbersFlipFour` for every Flip Four."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is FLIP_FOUR:
            self._stack.append(NumbersChooseTarget(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


class Engine(VengeanceMutantAdapter):
    """The reference, with a Flip Four that counts Number cards only."""

    game_class = NumbersFlipFourGame


if __name__ == "__main__":
    serve(Engine())
