"""The z3 prover of round scoring: theorems proved of each game's scoring model, and hands that expose
misreadings. Each game brings its model, theorems and misreadings as a plug-in (:mod:`.plugin`); this
package names no game.

The core specification never imports this package, and importing the package itself does not load z3: the
names below are loaded from their modules on first use.

* :func:`prove` (:mod:`flip7_spec.symbolic.prover`) proves the theorems of a ruleset's game with z3 and
  checks them against a scorer (default :func:`flip7_spec.play.round_score`);
* :func:`distinguishing_cases` (:mod:`flip7_spec.symbolic.prover`) gives, for each plausible
  misreading of the scoring rules, a hand with the fewest cards on which it scores differently from the
  specification;
* :class:`SymbolicError` (:mod:`flip7_spec.symbolic.terms`) is raised for a ruleset or hand a model cannot
  represent, and for a solver that gave no answer in time.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

DEFAULT_TIMEOUT_MS: Final = 20_000
"""The default z3 timeout, in milliseconds, of one proof, optimisation or search."""

_EXPORTS: Final = {
    "NoTheorems": "theorems",
    "ProofReport": "theorems",
    "TheoremResult": "theorems",
    "prove": "prover",
    "theorem_set": "prover",
    "ScoringCase": "misreadings",
    "distinguishing_cases": "prover",
    "misreadings_for": "prover",
    "search_cases": "prover",
    "SymbolicError": "terms",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = ["DEFAULT_TIMEOUT_MS", *sorted(_EXPORTS)]
