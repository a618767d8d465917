"""Mutant: an x2 card adds 2 points like a +2 instead of doubling the Numbers, breaking F7-MOD-X2.

x2 doubles the sum of the Number cards: 5 7 x2 scores 24. This engine sums every modifier's value, so the
same row scores 14 (the `score` command and the round scores shown and banked alike).
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
READINGS = {"x2_adds_two"}


class Engine(MutantAdapter):
    """The reference, adding x2 as +2."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = score(ruleset, hand, status == BUSTED)
        if parts.busted:
            return 0
        modifiers = sum(c.value for c in hand if c.kind in (Kind.ADD, Kind.MULTIPLY))  # the bug: x2 as +2
        return parts.number_sum + modifiers + parts.bonus


if __name__ == "__main__":
    serve(Engine())
