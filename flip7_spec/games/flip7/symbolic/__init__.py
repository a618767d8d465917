"""The z3 plug-in of Flip 7: the model of its scoring (:mod:`.model`), its theorems (:mod:`.theorems`) and
its misreadings with their distinguishing-hand search (:mod:`.misreadings`)."""

from __future__ import annotations

from typing import Final

from flip7_spec.games.flip7.symbolic.misreadings import FLIP7_MISREADINGS, search_flip7_cases
from flip7_spec.games.flip7.symbolic.theorems import Flip7Theorems
from flip7_spec.symbolic.plugin import SymbolicGame

PLUGIN: Final = SymbolicGame(
    theorems=Flip7Theorems,
    misreadings=lambda ruleset: FLIP7_MISREADINGS,
    search_cases=search_flip7_cases,
)
