"""Mutant: a frozen player banks their Numbers only, their modifiers ignored, breaking F7-FREEZE.

A frozen player banks the points in front of them: Numbers, x2, +N cards. This engine banks a frozen row's
Number cards alone (the round scores shown and banked alike).
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card, Kind
from flip7_spec.games.flip7.cards import FREEZE
from flip7_spec.machine import BUSTED
from flip7_spec.play import round_score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-FREEZE", "F7-SCORE"}
READINGS = {"frozen_banks_numbers"}


class Engine(MutantAdapter):
    """The reference, ignoring a frozen player's modifiers."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        if any(c.kind is FREEZE for c in hand) and status != BUSTED:
            return sum(c.value for c in hand if c.kind is Kind.NUMBER)  # the bug: modifiers count too
        return round_score(ruleset, hand, status == BUSTED)


if __name__ == "__main__":
    serve(Engine())
