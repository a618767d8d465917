"""Mutant: the game ends when a card is needed and both piles are empty, breaking F7-EMPTY-DECK.

When a card is needed and both the deck and the discard pile are empty, the round ends; it is scored, and the
next round is dealt from the discard pile, reshuffled. This engine stops the whole game there: the round is
scored, and the highest total wins.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter, out_of_cards_end

CLAUSES = {"F7-EMPTY-DECK"}
READINGS = {"game_ends_on_empty_piles"}


class OutOfCardsGame(Flip7Game):
    """The reference game, ending the game when no card is left anywhere."""

    out_of_cards = False

    def _draw(self) -> Card | None:
        if not self.pile and not self.discard:
            self.out_of_cards = True  # the bug: this should end the round only
        return super()._draw()

    def _end_round(self) -> None:
        if self.out_of_cards:
            out_of_cards_end(self)
        else:
            super()._end_round()


class Engine(MutantAdapter):
    """The reference, ending the game when both piles are empty."""

    game_class = OutOfCardsGame


if __name__ == "__main__":
    serve(Engine())
