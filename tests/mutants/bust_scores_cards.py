"""Mutant: a busted player scores their cards instead of 0, breaking F7-SCORE-BUST.

The duplicate is ignored and the row is scored as if the player had stayed (the `score` command and the
round scores shown and banked alike).
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.play import round_score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-SCORE-BUST", "F7-SCORE"}
READINGS = {"bust_banks_cards"}


class Engine(MutantAdapter):
    """The reference, scoring busted rows."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        return round_score(ruleset, hand, busted=False)  # the bug: busted or not


if __name__ == "__main__":
    serve(Engine())
