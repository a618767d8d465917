"""Mutant: x2 doubles the Flip 7 bonus too (a Flip 7 with x2 earns 30), breaking F7-MOD-X2.

x2 doubles the sum of the Number cards only, never the +N cards or the 15-point bonus. Only a Flip 7 with
an x2 in the row shows it, and only in the banked total, since a Flip 7 ends the round at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card, Kind
from flip7_spec.machine import BUSTED
from flip7_spec.play import score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-MOD-X2", "F7-FLIP7-BONUS", "F7-SCORE"}
READINGS = {"x2_doubles_bonus"}


class Engine(MutantAdapter):
    """The reference, multiplying the Flip 7 bonus by the x2."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = score(ruleset, hand, status == BUSTED)
        multiplier = 1 << sum(1 for c in hand if c.kind is Kind.MULTIPLY)
        return parts.after_modifiers + parts.bonus * multiplier


if __name__ == "__main__":
    serve(Engine())
