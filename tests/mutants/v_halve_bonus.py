"""Mutant: the /2 halves the Flip 7 bonus too, breaking V-SCORE.

The 15-point bonus is added after the halving and the malus cards, so the official example (48, halved 24,
-4 gives 20, plus 15) scores 35. This engine halves the sum and the bonus together ((48 + 15) / 2 = 31,
-4 gives 27). Only a Flip 7 with a /2 in the row shows it, and only in the banked total, since a Flip 7
ends the round at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.scoring import floors_at_zero, vengeance_score
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import VengeanceMutantAdapter, VScoredGame, halvings, malus

CLAUSES = {"V-SCORE", "V-FLIP7"}
# With no -N card in the row, halving the bonus with the Numbers is the whole_total reading.
READINGS = {"halve_bonus", 'halve_order="whole_total"'}


class Engine(VengeanceMutantAdapter):
    """The reference, adding the Flip 7 bonus before the halving."""

    game_class = VScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = vengeance_score(ruleset, hand, status == BUSTED)
        if not parts.flip7 or not halvings(hand):
            return parts.total
        halved = parts.number_sum + parts.bonus  # the bug: the bonus is halved with the Numbers
        for _ in range(halvings(hand)):
            halved //= 2
        after = halved - malus(hand)
        return max(0, after) if floors_at_zero(ruleset) else after


if __name__ == "__main__":
    serve(Engine())
