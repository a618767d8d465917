"""Mutant: a player who stayed has banked and can no longer be targeted, breaking V-STAYED-TARGET.

In Vengeance staying banks nothing: the stayed player's row stays face up, and Just One More, Flip Four,
Modifiers, Steal, Swap and Discard may all still aim at it. This engine plays the base game's reading,
where a stayed player is out of reach: only active players can be targeted (the reference's list is kept
when nobody is active).
"""

from __future__ import annotations

from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-STAYED-TARGET", "V-ACTION-TARGET", "V-STAY-NO-BANK"}
READINGS = {"stayed_untargetable"}


class BankedStayGame(VengeanceGame):
    """The reference game, with stayed players out of reach."""

    def _not_busted(self) -> list[int]:
        return self._active_seats() or super()._not_busted()  # the bug: stayed players are left out


class Engine(VengeanceMutantAdapter):
    """The reference, never targeting a stayed player."""

    game_class = BankedStayGame


if __name__ == "__main__":
    serve(Engine())
