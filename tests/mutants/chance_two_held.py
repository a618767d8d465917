"""Mutant: a player who holds a Second Chance keeps a second one instead of giving it away, breaking
F7-CHANCE-GIVE.

A player may hold only one Second Chance; another goes to an active player who holds none (or is
discarded). This engine lets the player keep both and use them one after the other.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import SECOND_CHANCE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-GIVE", "F7-CHANCE-KEEP"}
READINGS = {"second_chance_kept_twice"}


class HoardingGame(Flip7Game):
    """The reference game, where a row may hold any number of Second Chances."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        if drawn.kind is SECOND_CHANCE and player.has_chance:
            player.cards.append(drawn)  # the bug: kept, not given away
            return
        super()._receive(seat, drawn, flip3, via)
        if any(c.kind is SECOND_CHANCE for c in player.cards):
            player.has_chance = True  # one used, another still held


class Engine(MutantAdapter):
    """The reference, letting a player hold two Second Chances."""

    game_class = HoardingGame


if __name__ == "__main__":
    serve(Engine())
