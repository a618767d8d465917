"""Mutant: a second 13 busts even with the Lucky 13 (the Lucky 13 has no effect), breaking V-LUCKY13-PAIR.

A player holding the Lucky 13 may hold one other 13 without busting, whichever of the two came first. This
engine busts on any 13 received while a 13 is held.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.games.vengeance.scoring import THIRTEEN
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

# A game where only the Lucky 13 matters plays exactly as special_numbers = false: the diagnosis may say so.
CLAUSES = {"V-LUCKY13-PAIR", "V-BUST", "V-SPECIAL-NUMBERS"}
# The Lucky 13 arriving second busts here as under lucky13_must_come_first; a game where only the Lucky 13
# matters plays as special_numbers = false.
READINGS = {"lucky13_no_pair", "lucky13_must_come_first", "special_numbers=false"}


class PlainThirteenGame(VengeanceGame):
    """The reference game, with no Lucky 13 pair."""

    def _place_number(self, seat: int, number: Card) -> None:
        player = self.players[seat]
        if number.value == THIRTEEN and THIRTEEN in player.values:
            # the bug: a duplicate 13 busts, Lucky 13 or not
            player.cards.append(number)
            self._set_status(seat, BUSTED)
            self._emit("bust", "V-BUST", seat, number.text)
            return
        super()._place_number(seat, number)


class Engine(VengeanceMutantAdapter):
    """The reference, busting on a Lucky 13 pair."""

    game_class = PlainThirteenGame


if __name__ == "__main__":
    serve(Engine())
