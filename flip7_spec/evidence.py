"""What a played game shows of the rules it went through: its events and every row as it was scored.

Events name the clause that made them happen, but many clauses (x2 doubles the Numbers only, a Flip 7 inside a
Flip Three, a tie at the target) are a situation rather than an event. Each game reads an :class:`Evidence`
and names the clauses it saw applied (``GameDefinition.clause_witness``); the conformance corpus counts them
(:mod:`flip7_spec.conformance.coverage`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ScoredRow:
    """One player's row at the moment its round is scored: the cards (in the order received) and the status."""

    cards: tuple[str, ...]
    status: str


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A round as it was scored: every row, the round scores, the totals after banking, the round number."""

    round: int
    rows: tuple[ScoredRow, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Evidence:
    """A game (or its first round) as the reference played it: the ruleset, the player count, every event in
    order (canonical JSON form, each with its ``clause``) and every scored round."""

    ruleset: Any
    players: int
    events: Sequence[dict[str, Any]]
    round_ends: Sequence[RoundEnd]
    over: bool

    def first_round(self) -> Evidence:
        """The evidence of the first round only: the events up to its ``round_end``, and its scoring."""
        end = next((i for i, e in enumerate(self.events) if e.get("event") == "round_end"), None)
        if end is None:
            return self
        return Evidence(self.ruleset, self.players, self.events[:end + 1], self.round_ends[:1], False)
