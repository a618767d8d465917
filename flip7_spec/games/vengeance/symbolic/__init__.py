"""The z3 plug-in of Flip 7: With a Vengeance: the model of its scoring (:mod:`.model`), its theorems
(:mod:`.theorems`) and its misreadings with their distinguishing-hand search (:mod:`.misreadings`)."""

from __future__ import annotations

from typing import Final

from flip7_spec.games.vengeance.symbolic.misreadings import search_vengeance_cases, vengeance_misreadings
from flip7_spec.games.vengeance.symbolic.theorems import VengeanceTheorems
from flip7_spec.symbolic.plugin import SymbolicGame

PLUGIN: Final = SymbolicGame(
    theorems=VengeanceTheorems,
    misreadings=vengeance_misreadings,
    search_cases=search_vengeance_cases,
)
