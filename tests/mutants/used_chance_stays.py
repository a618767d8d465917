"""Mutant: a used Second Chance stays in front of its player, breaking F7-CHANCE-USE.

A player who is saved by their Second Chance discards both the duplicate and the Second Chance. This engine
discards only the duplicate and leaves the spent Second Chance where it was in the row (it no longer
protects, so another one may be kept).
"""

from __future__ import annotations

from flip7_spec.cards import Card, Kind
from flip7_spec.games.flip7.cards import SECOND_CHANCE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.machine import ACTIVE
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-USE", "F7-CHANCE-ROUND-END"}
READINGS = {"second_chance_stays"}


class SpentChanceGame(Flip7Game):
    """The reference game, putting a used Second Chance back in its place in the row."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        place = next((i for i, c in enumerate(player.cards) if c.kind is SECOND_CHANCE), None)
        protected = player.has_chance
        super()._receive(seat, drawn, flip3, via)
        used = protected and not player.has_chance and player.status is ACTIVE
        if used and place is not None and drawn.kind is Kind.NUMBER:
            # the reference discarded the duplicate, then the Second Chance: the bug takes the latter back
            player.cards.insert(place, self.discard.pop())


class Engine(MutantAdapter):
    """The reference, keeping spent Second Chances on the table."""

    game_class = SpentChanceGame


if __name__ == "__main__":
    serve(Engine())
