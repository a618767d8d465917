"""Mutant: the Unlucky 7 busts a player who already holds a 7, breaking V-UNLUCKY7-NO-BUST.

Receiving the Unlucky 7 never busts: its receiver discards every other Number and Modifier and keeps it as
their 7, even when a 7 is already in the row. This engine checks every incoming Number for a duplicate value
first, the Unlucky 7 included, so an Unlucky 7 arriving on a 7 busts instead of wiping the row.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.games.vengeance.scoring import lucky_pair_allowed
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-UNLUCKY7-NO-BUST", "V-BUST"}
# A game where only the Unlucky 7 matters plays as special_numbers = false (a plain 7 busts on a 7).
READINGS = {"unlucky7_busts_on_7", "special_numbers=false"}


class DuplicateFirstGame(VengeanceGame):
    """The reference game, looking for a duplicate before any special card's effect."""

    def _place_number(self, seat: int, number: Card) -> None:
        player = self.players[seat]
        duplicate = any(c.is_number and c.value == number.value for c in player.cards)
        if duplicate and not lucky_pair_allowed(self.ruleset, player.cards, number):
            player.cards.append(number)  # the bug: the Unlucky 7 is a duplicate like any other
            self._set_status(seat, BUSTED)
            self._emit("bust", "V-BUST", seat, number.text)
            return
        super()._place_number(seat, number)


class Engine(VengeanceMutantAdapter):
    """The reference, busting on an Unlucky 7 received while holding a 7."""

    game_class = DuplicateFirstGame


if __name__ == "__main__":
    serve(Engine())
