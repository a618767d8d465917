"""What a game brings to the prover: its theorems, its scoring misreadings and the search of the hands that
expose them. A game's definition returns one :class:`SymbolicGame` from its ``symbolic`` hook."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flip7_spec.symbolic.misreadings import CaseSearch, SymbolicMisreading
    from flip7_spec.symbolic.theorems import TheoremSet


@dataclass(frozen=True)
class SymbolicGame:
    """The z3 plug-in of one game.

    ``theorems(ruleset, players)`` builds the game's theorem set (``players`` fixes how many decks are in play,
    None: one); ``misreadings(ruleset)`` lists the plausible misreadings of its scoring;
    ``search_cases(ruleset, players, timeout_ms)`` searches a smallest distinguishing hand for each.
    """

    theorems: Callable[[Any, int | None], TheoremSet]
    misreadings: Callable[[Any], Sequence[SymbolicMisreading[Any]]]
    search_cases: Callable[[Any, int | None, int], list[CaseSearch]]
