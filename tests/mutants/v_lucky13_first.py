"""Mutant: a second 13 is safe only when the Lucky 13 came first, breaking V-LUCKY13-PAIR.

A player holding a Lucky 13 may hold one other 13 without busting, whichever of the two came first: a Lucky
13 received on a regular 13 is safe too. This engine lets only a Lucky 13 already in the row protect its
holder, so the Lucky 13 arriving second busts.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.games.vengeance.scoring import THIRTEEN, is_special
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-LUCKY13-PAIR", "V-BUST"}
# A game where only the Lucky 13 matters plays exactly as special_numbers = false: the diagnosis may say so.
READINGS = {"lucky13_must_come_first", "special_numbers=false"}


class HeldLuckyGame(VengeanceGame):
    """The reference game, where the Lucky 13 protects only once it is held."""

    def _place_number(self, seat: int, number: Card) -> None:
        player = self.players[seat]
        thirteens = [c for c in player.cards if c.is_number and c.value == THIRTEEN]
        if len(thirteens) == 1 and number.value == THIRTEEN \
                and not is_special(self.ruleset, thirteens[0], Special.LUCKY_13):
            player.cards.append(number)  # the bug: a regular 13 held first is not covered
            self._set_status(seat, BUSTED)
            self._emit("bust", "V-BUST", seat, number.text)
            return
        super()._place_number(seat, number)


class Engine(VengeanceMutantAdapter):
    """The reference, busting on a Lucky 13 that arrives after a regular 13."""

    game_class = HeldLuckyGame


if __name__ == "__main__":
    serve(Engine())
