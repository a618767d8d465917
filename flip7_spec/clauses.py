"""The registry of rule clauses: every rule and ruling the reference implements, each with a stable id.

A clause id is cited in a comment at the one place in the engine that implements it, named by the fixtures
and tests that exercise it, carried by the events the engine emits, and printed in divergence reports.
Ids never change meaning; a clause that is withdrawn keeps its id out of use.

Sources are those of RULES.md section 0 (S1-S9 for the base game, V1-V4 for Vengeance); the location in
RULES.md (for example ``A.1#14``) is given with each clause so the full text is one search away.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Clause:
    """One rule clause.

    ``confidence`` is ``H`` (official text), ``M`` (official source through a paraphrase or a publisher
    ruling relayed by the community FAQ) or ``L`` (inference or a reasoned guess). ``option`` names the
    ruleset option that selects between readings, when there is one.
    """

    id: str
    game: str
    statement: str
    source: str
    confidence: str
    where: str
    option: str | None = None


CLAUSES: Final[dict[str, Clause]] = {}
"""Every registered clause, by id, in registration order (each game registers its own)."""


def register(clauses: Iterable[Clause]) -> None:
    """Add the clauses of a game to the registry. Raises ``ValueError`` for an id registered already."""
    for clause in clauses:
        if clause.id in CLAUSES:
            raise ValueError(f"duplicate clause id {clause.id}")
        CLAUSES[clause.id] = clause


def unregister(clause_ids: Iterable[str]) -> None:
    """Remove clauses from the registry (a game being unregistered)."""
    for clause_id in clause_ids:
        CLAUSES.pop(clause_id, None)


def clauses_for(game: str) -> list[Clause]:
    """Every clause of ``game``, in registry order."""
    return [c for c in CLAUSES.values() if c.game == game]


def clause(clause_id: str) -> Clause:
    """The clause with this id. Raises ``KeyError`` naming the id if there is none."""
    try:
        return CLAUSES[clause_id]
    except KeyError:
        raise KeyError(f"unknown clause id {clause_id!r}") from None
