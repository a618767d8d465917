"""Mutant: the /2 rounds the halved sum up instead of down (21 halves to 11), breaking V-SCORE.

A held /2 halves the sum of the Number values and rounds down; this engine rounds up, so only an odd sum
shows it. The round score in every observation differs as soon as such a hand is on the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.scoring import floors_at_zero, is_special, vengeance_score
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import VengeanceMutantAdapter, VScoredGame, halvings, malus

CLAUSES = {"V-SCORE"}
READINGS = {"halve_rounds_up"}


class Engine(VengeanceMutantAdapter):
    """The reference, rounding each halving up."""

    game_class = VScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = vengeance_score(ruleset, hand, status == BUSTED)
        if parts.busted or not halvings(hand):
            return parts.total
        halved = parts.number_sum
        for _ in range(halvings(hand)):
            halved = -(-halved // 2)  # the bug: rounded up
        after = halved - malus(hand)
        if floors_at_zero(ruleset):
            after = max(0, after)
        if not parts.flip7 and any(is_special(ruleset, c, Special.ZERO) for c in hand):
            return 0
        return after + parts.bonus


if __name__ == "__main__":
    serve(Engine())
