"""The z3 plug-in of Flip 7: its scoring theorems, misreadings and distinguishing-hand search."""

from __future__ import annotations

from typing import Final

from flip7_spec.symbolic.misreadings import FLIP7_MISREADINGS, search_flip7_cases
from flip7_spec.symbolic.plugin import SymbolicGame
from flip7_spec.symbolic.theorems import Flip7Theorems

PLUGIN: Final = SymbolicGame(
    theorems=Flip7Theorems,
    misreadings=lambda ruleset: FLIP7_MISREADINGS,
    search_cases=search_flip7_cases,
)
