"""Mutant: a Steal may take one of the resolver's own cards, breaking V-STEAL.

Steal takes one face-up card of another player who has not busted into the resolver's row. This engine offers
every face-up card on the table that is not busted, the resolver's own included: a card taken from one's own
row leaves its place and is received again at the end of the row.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Decision, DecisionKind
from flip7_spec.games.vengeance.cards import STEAL
from flip7_spec.games.vengeance.engine import Steal, VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-STEAL"}
READINGS = {"steal_from_own_row"}


class StealAnything(Steal):
    """A Steal from any row that has not busted."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        refs = game._takeable_refs(game._not_busted())  # the bug: the resolver's row is not left out
        if refs:
            game._offer(Decision(self.resolver, DecisionKind.CARD, tuple(refs), self.action.text), "V-STEAL")
        else:
            game._no_target(self.action)


class StealAnythingGame(VengeanceGame):
    """The reference game with :class:`StealAnything` for every Steal."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is STEAL:
            self._stack.append(StealAnything(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


class Engine(VengeanceMutantAdapter):
    """The reference, letting a Steal take the resolver's own card."""

    game_class = StealAnythingGame


if __name__ == "__main__":
    serve(Engine())
