"""Mutant: the Unlucky 7 wipes only the other Number cards and leaves the Modifiers, breaking
V-UNLUCKY7-WIPE.

A player who receives the Unlucky 7 discards all their other Number and Modifier cards. This engine
discards the Numbers only: a /2 or a -N card in the row stays there (and keeps counting).
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.games.vengeance.scoring import is_special
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-UNLUCKY7-WIPE"}
READINGS = {"unlucky7_keeps_modifiers"}


class NumbersOnlyWipeGame(VengeanceGame):
    """The reference game, with Modifiers surviving an Unlucky 7."""

    def _place_number(self, seat: int, number: Card) -> None:
        player = self.players[seat]
        kept = [c for c in player.cards if not c.is_number] if is_special(
            self.ruleset, number, Special.UNLUCKY_7) else []
        super()._place_number(seat, number)
        for modifier in kept:  # the bug: the Modifiers are taken back from the discard pile
            self.discard.remove(modifier)
        player.cards[:0] = kept


class Engine(VengeanceMutantAdapter):
    """The reference, keeping the Modifiers through an Unlucky 7."""

    game_class = NumbersOnlyWipeGame


if __name__ == "__main__":
    serve(Engine())
