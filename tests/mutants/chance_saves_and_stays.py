"""Mutant: a player saved by their Second Chance Stays, breaking F7-CHANCE-ENDS-TURN.

A player holding a Second Chance who receives a duplicate Number discards both cards and does not bust; their
turn ends, but they stay in the round (and a Flip Three they are taking goes on). This engine treats the save
as the end of that player's round: they Stay with what is in front of them.
"""

from __future__ import annotations

from flip7_spec.cards import Card, Kind
from flip7_spec.games.flip7.cards import SECOND_CHANCE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.machine import STAYED
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-ENDS-TURN", "F7-CHANCE-USE"}
READINGS = {"saved_by_chance_stays"}


class SavedThenStaysGame(Flip7Game):
    """The reference game, where a Second Chance buys a Stay."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        if drawn.kind is not Kind.NUMBER or drawn.value not in player.values or not player.has_chance:
            super()._receive(seat, drawn, flip3, via)
            return
        chance = next(c for c in player.cards if c.kind is SECOND_CHANCE)
        player.cards.remove(chance)
        player.has_chance = False
        self.discard.extend((drawn, chance))
        self._emit("chance_used", "F7-CHANCE-USE", seat, drawn.text)
        self._set_status(seat, STAYED)  # the bug: the rules keep the player in the round
        self._emit("stay", "F7-HIT-STAY", seat)


class Engine(MutantAdapter):
    """The reference, making a saved player Stay."""

    game_class = SavedThenStaysGame


if __name__ == "__main__":
    serve(Engine())
