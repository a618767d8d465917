"""Mutant: a busted player still scores their +N cards, breaking F7-SCORE-BUST.

A busted player scores 0 for the round. This engine takes only the Numbers (and the x2) away from a busted
row and banks its +N cards (the `score` command and the round scores shown and banked alike).
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card, Kind
from flip7_spec.machine import BUSTED
from flip7_spec.play import round_score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-SCORE-BUST", "F7-SCORE"}
READINGS = {"bust_banks_adds"}


class Engine(MutantAdapter):
    """The reference, banking a busted row's +N cards."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        if status == BUSTED:
            return sum(c.value for c in hand if c.kind is Kind.ADD)  # the bug: 0 is what a bust banks
        return round_score(ruleset, hand, busted=False)


if __name__ == "__main__":
    serve(Engine())
