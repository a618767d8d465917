"""Mutant: a Flip Four's held-back cards are discarded once its target has stayed, breaking V-STAYED-TARGET.

After the four cards the target of a Flip Four resolves the cards it held back, one at a time, unless it
busted; a stayed target resolves them like anyone (a player who stayed still receives Actions and Modifiers,
and stays stayed). This engine resolves held-back cards only for an active target: a target who had stayed
before the Flip Four, or who is made to Stay by a held Just One More played on themselves, has the rest
discarded.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Choice
from flip7_spec.games.vengeance.cards import FLIP_FOUR, JUST_ONE_MORE
from flip7_spec.games.vengeance.engine import ChooseTarget, FlipFour, ResolveHeld, VengeanceGame
from flip7_spec.machine import ACTIVE
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-STAYED-TARGET", "V-FLIP4-HOLD", "V-FLIP4-RESOLVER-OUT"}
READINGS = {"held_dropped_when_target_out"}


class ResolveWhileActive(ResolveHeld):
    """Held-back cards, resolved while the target is active and discarded after."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        if self.cards and game.players[self.target].status is not ACTIVE:
            held = self.cards.pop(0)
            game._discard_in_play(held, "its Flip Four target is out", "V-FLIP4-RESOLVER-OUT")  # the bug
            return
        super().step(game)


class ActiveOnlyFlipFour(FlipFour):
    """A Flip Four whose held-back cards go to :class:`ResolveWhileActive`."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        super().step(game)
        top = game._stack[-1] if game._stack else None
        if type(top) is ResolveHeld and top.target == self.target and self not in game._stack:
            game._stack[-1] = ResolveWhileActive(top.target, top.cards)


class ActiveOnlyTarget(ChooseTarget):
    """A Just One More or Flip Four waiting for its target; a Flip Four then plays as :class:`ActiveOnlyFlipFour`."""

    __slots__ = ()

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        super().decide(game, choice)
        top = game._stack[-1]
        if type(top) is FlipFour:
            game._stack[-1] = ActiveOnlyFlipFour(top.action, top.target)


class ActiveOnlyGame(VengeanceGame):
    """The reference game with :class:`ActiveOnlyTarget` for every Just One More and Flip Four."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind in (JUST_ONE_MORE, FLIP_FOUR):
            self._stack.append(ActiveOnlyTarget(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


class Engine(VengeanceMutantAdapter):
    """The reference, dropping held-back cards of a stayed Flip Four target."""

    game_class = ActiveOnlyGame


if __name__ == "__main__":
    serve(Engine())
