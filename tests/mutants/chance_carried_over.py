"""Mutant: a Second Chance still held at the end of a round stays with its player into the next round,
breaking F7-CHANCE-ROUND-END.

Every Second Chance still held is discarded at the end of the round. This engine clears the rows but puts
each unused Second Chance back in front of its holder when the next round starts.
"""

from __future__ import annotations

from flip7_spec.games.flip7.cards import SECOND_CHANCE
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-ROUND-END", "F7-DISCARD-PILE"}
READINGS = {"chance_kept_next_round"}


class CarryOverGame(Flip7Game):
    """The reference game, carrying unused Second Chances from one round to the next."""

    holders: tuple[int, ...] = ()

    def _end_round(self) -> None:
        self.holders = tuple(seat for seat, p in enumerate(self.players)
                             if any(c.kind is SECOND_CHANCE for c in p.cards))
        super()._end_round()

    def _start_round(self) -> None:
        carried = []
        for seat in self.holders:  # the bug: take them back from the discard pile
            last = max(i for i, c in enumerate(self.discard) if c.kind is SECOND_CHANCE)
            carried.append((seat, self.discard.pop(last)))
        self.holders = ()
        super()._start_round()
        for seat, chance in carried:
            self.players[seat].cards.append(chance)
            self.players[seat].has_chance = True


class Engine(MutantAdapter):
    """The reference, never discarding an unused Second Chance."""

    game_class = CarryOverGame


if __name__ == "__main__":
    serve(Engine())
