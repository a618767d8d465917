"""Mutant: a Second Chance its drawer cannot keep may go to any other player, breaking F7-CHANCE-GIVE.

A player may hold one Second Chance; a further one must go to an active player who holds none, and is
discarded when nobody qualifies. This engine lets the drawer hand it to any other player: one who already
holds a Second Chance (who then holds two, each saving them once), or one who has stayed, been frozen or
busted.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Decision, DecisionKind
from flip7_spec.games.flip7.cards import SECOND_CHANCE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree, Give
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-GIVE"}
READINGS = {"chance_given_to_anyone"}


class GiveToOthers(Give):
    """A spare Second Chance, offered to every other seat."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        others = tuple(seat for seat in range(game.n) if seat != self.giver)  # the bug: nobody else is ruled out
        if not others:
            game._stack.pop()
            game._discard_in_play(self.chance, "no other player", "F7-CHANCE-GIVE", self.entry)
            return
        decision = Decision(self.giver, DecisionKind.GIVE, others, self.chance.text)
        if len(others) == 1:
            game._forced(decision, "F7-CHANCE-GIVE")
        else:
            game._ask(decision)


class GiveToOthersGame(Flip7Game):
    """The reference game, where a row may end up holding several Second Chances."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        if drawn.kind is SECOND_CHANCE and player.has_chance:
            self._stack.append(GiveToOthers(drawn, seat, self._put_in_play(drawn)))
            return
        super()._receive(seat, drawn, flip3, via)
        player.has_chance = any(c.kind is SECOND_CHANCE for c in player.cards)  # whichever is left protects


class Engine(MutantAdapter):
    """The reference, giving spare Second Chances to anyone."""

    game_class = GiveToOthersGame


if __name__ == "__main__":
    serve(Engine())
