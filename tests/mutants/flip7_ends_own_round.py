"""Mutant: a Flip 7 ends the round only for the player who made it (they stop, the others play on),
breaking F7-FLIP7.

Seven different Numbers end the round at once for everyone: the others bank what is in front of them.
This engine takes the Flip 7 player out of the round like a Stay and lets the others go on.
"""

from __future__ import annotations

from flip7_spec.cards import Card, Kind
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.machine import ACTIVE, STAYED
from flip7_spec.protocol.server import serve
from flip7_spec.scoring import FLIP7_SIZE
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP7", "F7-ROUND-END"}
READINGS = {"flip7_ends_own_turn"}


class SoloFlip7Game(Flip7Game):
    """The reference game, where a Flip 7 only stops its player."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        ending = self._ending
        super()._receive(seat, drawn, flip3, via)
        player = self.players[seat]
        if (self._ending and not ending and drawn.kind is Kind.NUMBER and player.status is ACTIVE
                and len(player.values) >= FLIP7_SIZE):
            self._ending = False  # the bug: the round goes on for the others
            self._set_status(seat, STAYED)


class Engine(MutantAdapter):
    """The reference, ending the round for the Flip 7 player only."""

    game_class = SoloFlip7Game


if __name__ == "__main__":
    serve(Engine())
