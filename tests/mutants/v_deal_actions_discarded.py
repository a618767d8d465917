"""Mutant: a Steal, Swap or Discard revealed in the initial deal is always discarded with no effect,
breaking V-ACTION-MANDATORY.

An Action must be used when it has a valid target; only one revealed while no face-up card is on the table
(at the very start of a round) is discarded with no effect. This engine reads that exception as covering
the whole deal, so it discards these Actions even when cards dealt before them could be taken, swapped or
discarded.
"""

from __future__ import annotations

from typing import Final

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.cards import DISCARD, STEAL, SWAP
from flip7_spec.games.vengeance.engine import Turns, VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-ACTION-MANDATORY", "V-SWAP", "V-STEAL"}  # the rule, and the actions it skips
READINGS = {"deal_table_actions_discarded"}

TABLE_ACTIONS: Final = frozenset({STEAL, SWAP, DISCARD})


class DealDiscardsGame(VengeanceGame):
    """The reference game, discarding every Steal, Swap and Discard dealt in the initial deal."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        top = self._stack[-1]
        if revealed.kind in TABLE_ACTIONS and isinstance(top, Turns) and top.dealing:
            # the bug: the start-of-round exception applied to the whole deal
            self._discard_in_play(revealed, "no face-up card on the table", "V-ACTION-START-NO-CARDS")
            return
        super()._resolve_revealed(seat, revealed)


class Engine(VengeanceMutantAdapter):
    """The reference, never using a table Action in the deal."""

    game_class = DealDiscardsGame


if __name__ == "__main__":
    serve(Engine())
