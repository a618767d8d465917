"""Mutant: a revealed Modifier stays with the player who revealed it, breaking V-MOD-TARGET.

In Vengeance a revealed Modifier is played by its revealer on any player who has not busted (a -10 is best
given away); only the one player not busted keeps it. This engine plays the base game's Modifiers: the card
goes straight into the revealer's row, with no choice.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-MOD-TARGET", "V-MOD-ALONE"}
READINGS = {"modifier_kept_by_revealer"}


class KeptModifierGame(VengeanceGame):
    """The reference game, where a Modifier joins its revealer's row."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if not revealed.is_modifier:
            super()._resolve_revealed(seat, revealed)
            return
        self.in_play.remove(revealed)
        self.players[seat].cards.append(revealed)  # the bug: no receiver is chosen
        self._emit("modifier", "V-MOD-TARGET", seat, revealed.text, (("target", seat),))


class Engine(VengeanceMutantAdapter):
    """The reference, keeping every Modifier with its revealer."""

    game_class = KeptModifierGame


if __name__ == "__main__":
    serve(Engine())
