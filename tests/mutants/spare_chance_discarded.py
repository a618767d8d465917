"""Mutant: a player who already holds a Second Chance discards a second one, breaking F7-CHANCE-GIVE.

A further Second Chance must go to another active player who holds none, and is discarded only when
nobody qualifies. This engine always discards it, without offering it to anybody.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import SECOND_CHANCE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-GIVE", "F7-CHANCE-KEEP"}
READINGS = {"spare_chance_discarded"}


class NoGivingGame(Flip7Game):
    """The reference game, throwing away a Second Chance its receiver cannot keep."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        if drawn.kind is SECOND_CHANCE and self.players[seat].has_chance:
            self.discard.append(drawn)  # the bug: it should be given away
            self._emit("discard", "F7-CHANCE-GIVE", seat, drawn.text, (("reason", "already holds one"),))
            return
        super()._receive(seat, drawn, flip3, via)


class Engine(MutantAdapter):
    """The reference, never giving a Second Chance away."""

    game_class = NoGivingGame


if __name__ == "__main__":
    serve(Engine())
