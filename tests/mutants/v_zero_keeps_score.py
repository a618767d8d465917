"""Mutant: The Zero scores its value, 0, and no more (the rest of the row still scores), breaking
V-ZERO-SCORE.

A player holding The Zero scores 0 for the round unless they Flip 7. This engine treats The Zero as a plain
0, so its holder keeps the points of the rest of their row.
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.scoring import vengeance_score
from flip7_spec.machine import BUSTED
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import VengeanceMutantAdapter, VScoredGame

CLAUSES = {"V-ZERO-SCORE", "V-SCORE"}
# A game where only The Zero's score matters plays as special_numbers = false.
READINGS = {"zero_scores_its_value", "special_numbers=false"}


class Engine(VengeanceMutantAdapter):
    """The reference, without The Zero's effect on the score."""

    game_class = VScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = vengeance_score(ruleset, hand, status == BUSTED)
        return parts.after_modifiers + parts.bonus  # the bug: no zeroing for The Zero


if __name__ == "__main__":
    serve(Engine())
