"""Mutant: x2 doubles the +N cards too ((numbers + adds) x 2), breaking F7-MOD-X2.

The rules double the sum of the Number cards only: 3 5 x2 +4 scores 8 x 2 + 4 = 20, not (8 + 4) x 2 = 24.
A shown round score with an x2 and a +N card in the hand gives it away.
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card, Kind
from flip7_spec.machine import BUSTED
from flip7_spec.play import score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-MOD-X2", "F7-SCORE"}
READINGS = {"x2_doubles_adds"}


class Engine(MutantAdapter):
    """The reference, scoring (numbers + adds) x 2."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = score(ruleset, hand, status == BUSTED)
        if parts.busted:
            return 0
        multiplier = 1 << sum(1 for c in hand if c.kind is Kind.MULTIPLY)
        adds = parts.after_modifiers - parts.after_multiplier
        return (parts.number_sum + adds) * multiplier + parts.bonus


if __name__ == "__main__":
    serve(Engine())
