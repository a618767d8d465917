"""Mutant: a Number card taken by a Steal or a Swap never busts its new owner, breaking V-BUST-BY-ACTION.

A card received through a Steal or a Swap is received as if dealt: a value already held busts, a stayed
player included. This engine just puts the card in the row, so the new owner holds the same value twice
(and scores both) instead of busting.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.games.vengeance.scoring import is_special, lucky_pair_allowed
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-BUST-BY-ACTION", "V-BUST"}
READINGS = {"taken_card_never_busts"}


class SafeTakeGame(VengeanceGame):
    """The reference game, where a card from another row cannot bust."""

    def _receive_into_row(self, seat: int, received: Card) -> None:
        player = self.players[seat]
        if (received.is_number and received.value in player.values
                and not is_special(self.ruleset, received, Special.UNLUCKY_7)
                and not lucky_pair_allowed(self.ruleset, player.cards, received)):
            player.cards.append(received)  # the bug: a duplicate from another row joins it, no bust
            return
        super()._receive_into_row(seat, received)


class Engine(VengeanceMutantAdapter):
    """The reference, with Steal and Swap that never bust."""

    game_class = SafeTakeGame


if __name__ == "__main__":
    serve(Engine())
