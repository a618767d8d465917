"""Mutant: a reshuffle in the middle of a round puts the cards on the table back into the deck too,
breaking F7-RESHUFFLE-TABLE-STAYS.

When the deck runs out mid-round only the discard pile is shuffled; every card in front of a player stays
where it is, a busted player's included. This engine rebuilds the deck from every card that is neither in
the draw pile nor in play (the table cards go under the reshuffled discards, and the rows still show
them).
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-RESHUFFLE-TABLE-STAYS", "F7-RESHUFFLE"}
READINGS = {"reshuffle_takes_table_cards"}


class TableShufflingGame(Flip7Game):
    """The reference game, with the table cards added to every new deck."""

    def _reshuffle(self, clause: str) -> None:
        super()._reshuffle(clause)
        table = [c for p in self.players for c in p.cards]
        self.pile[:0] = reversed(table)  # the bug: the top of the pile is its last element


class Engine(MutantAdapter):
    """The reference, reshuffling the table cards in."""

    game_class = TableShufflingGame


if __name__ == "__main__":
    serve(Engine())
