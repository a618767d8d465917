"""Mutant: the -N cards are subtracted before the /2 halves, breaking V-SCORE.

The rules halve the sum of the Number values first, then subtract the -N cards (the official example: 48,
halved 24, -4 gives 20). This engine subtracts first and halves what is left (48 - 4 = 44, halved 22), so a
hand holding both a /2 and a -N card scores more than it should.
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
# Without a Flip 7, subtracting the -N cards before halving is the whole_total reading.
READINGS = {"malus_before_halve", 'halve_order="whole_total"'}


class Engine(VengeanceMutantAdapter):
    """The reference, applying the malus cards before the halving."""

    game_class = VScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = vengeance_score(ruleset, hand, status == BUSTED)
        if parts.busted or not halvings(hand):
            return parts.total
        after = parts.number_sum - malus(hand)  # the bug: the malus comes off before the halving
        for _ in range(halvings(hand)):
            after //= 2
        if floors_at_zero(ruleset):
            after = max(0, after)
        if not parts.flip7 and any(is_special(ruleset, c, Special.ZERO) for c in hand):
            return 0
        return after + parts.bonus


if __name__ == "__main__":
    serve(Engine())
