"""Mutant: a Modifier may be played on a busted player outside Brutal Mode, breaking V-MOD-TARGET.

A revealed Modifier goes to a player who has not busted; only Brutal Mode lets it reach a busted row. This
engine always offers every seat, as Brutal Mode does (a busted row still scores 0 in standard mode, but the
card is there, and the revealer may have to keep a Modifier less often).
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Decision, DecisionKind
from flip7_spec.games.vengeance.engine import PlayModifier, VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-MOD-TARGET", "V-BUST-OUT-OF-PLAY"}
# Until the rest of Brutal Mode shows (a score below 0, a Flip 7's choice), a game plays as brutal_mode = true.
READINGS = {"modifier_to_busted", "brutal_mode=true"}


class AnySeatModifier(PlayModifier):
    """A revealed Modifier that may go to any seat."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        seats = tuple(range(game.n))  # the bug: busted players too, Brutal Mode or not
        game._offer(Decision(self.chooser, DecisionKind.TARGET, seats, self.modifier.text), "V-MOD-ALONE")


class AnySeatModifierGame(VengeanceGame):
    """The reference game with :class:`AnySeatModifier` for every Modifier."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.is_modifier:
            self._stack.append(AnySeatModifier(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


class Engine(VengeanceMutantAdapter):
    """The reference, giving Modifiers to busted players too."""

    game_class = AnySeatModifierGame


if __name__ == "__main__":
    serve(Engine())
