"""Mutant: after a round in which every player busted, the same Dealer deals again, breaking
F7-DEALER-ROTATION.

After every round the deck passes to the left and that player becomes the Dealer, whatever happened in
the round. This engine treats a round that everybody busted as void for the Dealer, who keeps the deck.
"""

from __future__ import annotations

from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-DEALER-ROTATION", "F7-ALL-BUST"}
READINGS = {"dealer_keeps_deck_after_all_bust"}


class RedealGame(Flip7Game):
    """The reference game, taking the deck back to the Dealer after an all-bust round."""

    def _start_round(self) -> None:
        # the rows of the round just ended keep their statuses until the new round replaces them
        if self.players and all(p.status is BUSTED for p in self.players):
            self.dealer = (self.dealer - 1) % self.n  # the bug: the deck should have passed left
        super()._start_round()


class Engine(MutantAdapter):
    """The reference, redealing after an all-bust round."""

    game_class = RedealGame


if __name__ == "__main__":
    serve(Engine())
