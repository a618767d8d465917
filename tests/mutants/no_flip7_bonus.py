"""Mutant: no 15-point bonus for a Flip 7, breaking F7-FLIP7-BONUS.

The Flip 7 still ends the round; the player who made it banks only the points of their cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.machine import BUSTED
from flip7_spec.play import score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-FLIP7-BONUS", "F7-SCORE"}
READINGS = {"no_flip7_bonus"}


class Engine(MutantAdapter):
    """The reference, without the Flip 7 bonus."""

    game_class = ScoredGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        return score(ruleset, hand, status == BUSTED).after_modifiers


if __name__ == "__main__":
    serve(Engine())
