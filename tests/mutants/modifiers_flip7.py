"""Mutant: modifier cards count toward the seven cards of a Flip 7, breaking F7-MOD-NO-BUST.

Only seven different Number cards make a Flip 7; modifiers never count toward it. This engine ends the
round as a Flip 7, with the bonus, as soon as a player has seven Number and modifier cards in front of
them (and scores any such row with the bonus).
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.games.flip7.engine import FlipThree
from flip7_spec.machine import ACTIVE, BUSTED
from flip7_spec.play import round_score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-MOD-NO-BUST", "F7-FLIP7", "F7-FLIP7-BONUS"}
READINGS = {"modifiers_count_for_flip7"}

SEVEN = 7


def scoring_cards(hand: Sequence[Card]) -> int:
    """How many Number and modifier cards ``hand`` holds (the bug's count for a Flip 7)."""
    return sum(1 for c in hand if c.is_number or c.is_modifier)


class SevenCardsGame(ScoredGame):
    """The reference game, where seven Number and modifier cards end the round as a Flip 7."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        super()._receive(seat, drawn, flip3, via)
        player = self.players[seat]
        if player.status is ACTIVE and scoring_cards(player.cards) >= SEVEN and not self._ending:
            self._emit("flip7", "F7-FLIP7", seat)
            self._ending = True

    def _flip7_seat(self) -> int | None:
        return next((seat for seat, p in enumerate(self.players)
                     if p.status is ACTIVE and scoring_cards(p.cards) >= SEVEN), None)


class Engine(MutantAdapter):
    """The reference, counting modifiers toward Flip 7."""

    game_class = SevenCardsGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        points = round_score(ruleset, hand, status == BUSTED)
        distinct = len({c.value for c in hand if c.is_number})
        if status != BUSTED and scoring_cards(hand) >= SEVEN and distinct < SEVEN:
            points += ruleset.flip7_bonus  # the bug: a bonus the Numbers alone did not earn
        return points


if __name__ == "__main__":
    serve(Engine())
