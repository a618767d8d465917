"""Mutant: a player who busts discards their cards at once, breaking F7-BUST-CARDS-STAY.

A busted player's cards, the duplicate included, stay in front of them until the end of the round (and
stay out of a reshuffle in the middle of it). This engine clears the row the moment the player busts and
puts its cards on the discard pile.
"""

from __future__ import annotations

from flip7_spec.events import Status
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-BUST-CARDS-STAY", "F7-BUST"}
READINGS = {"bust_discards_cards"}


class ClearingGame(Flip7Game):
    """The reference game, emptying a row into the discard pile when its player busts."""

    def _set_status(self, seat: int, status: Status) -> None:
        super()._set_status(seat, status)
        if status is BUSTED:
            row = self.players[seat]
            self.discard.extend(row.cards)  # the bug: the row should stay on the table
            row.cards = []


class Engine(MutantAdapter):
    """The reference, discarding busted rows at once."""

    game_class = ClearingGame


if __name__ == "__main__":
    serve(Engine())
