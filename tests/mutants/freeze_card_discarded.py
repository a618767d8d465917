"""Mutant: the Freeze card goes to the discard pile when it freezes its target, breaking
F7-FREEZE-KEEPS-CARDS.

A frozen player keeps their cards and the Freeze card stays with them until the end of the round. This
engine discards the Freeze card as soon as it has taken effect (the frozen player still banks their
points).
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import FREEZE
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FREEZE-KEEPS-CARDS", "F7-FREEZE"}
READINGS = {"freeze_card_discarded"}


class SpentFreezeGame(Flip7Game):
    """The reference game, discarding each Freeze card once its target is frozen."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        if action.kind is FREEZE:
            self.discard.append(self.players[seat].cards.pop())  # the bug: the reference left it in the row


class Engine(MutantAdapter):
    """The reference, discarding Freeze cards once used."""

    game_class = SpentFreezeGame


if __name__ == "__main__":
    serve(Engine())
