"""Mutant: a frozen player scores 0, as if a Freeze were a bust, breaking F7-FREEZE.

A frozen player banks the points in front of them and leaves the round. This engine scores any row
holding the Freeze card 0 (the `score` command and the round scores shown and banked alike).
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import FREEZE
from flip7_spec.machine import BUSTED
from flip7_spec.play import round_score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-FREEZE", "F7-SCORE"}
READINGS = {"frozen_banks_nothing"}


class Engine(MutantAdapter):
    """The reference, scoring frozen players 0."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        frozen = any(c.kind is FREEZE for c in hand)
        return round_score(ruleset, hand, busted=status == BUSTED or frozen)  # the bug: frozen as busted


if __name__ == "__main__":
    serve(Engine())
