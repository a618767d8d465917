"""Mutant: round scores go below 0 in standard mode (-N cards are never floored), breaking V-SCORE-FLOOR.

Without Brutal Mode (or the negative_scores option) a round score cannot go below 0: a 3 with a -10 scores
0. This engine plays every Vengeance ruleset as if negative scores were allowed, so the same hand shows
-7 and banks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-SCORE-FLOOR", "V-SCORE"}
READINGS = {"negative_scores=true"}


class Engine(VengeanceMutantAdapter):
    """The reference, never flooring a round score at 0."""

    forced_options: ClassVar[Mapping[str, Any]] = {"negative_scores": True}


if __name__ == "__main__":
    serve(Engine())
