"""One case as the judge runs it: a scoring hand with its expected score, or a trace (a round or a whole
game) with the observations the reference expects at each step; and the cases a trace file holds.

The corpus that builds cases (scoring hands, fixtures, generated games) is :mod:`flip7_spec.conformance.cases`;
this module holds only what judging one case needs, so that whoever judges a saved trace (the testing
library, say) needs no corpus.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flip7_spec.protocol import Level
from flip7_spec.rulesets import Ruleset, ruleset_from_json
from flip7_spec.trace.document import TraceDocument
from flip7_spec.trace.reader import read_traces


@dataclass(slots=True)
class Case:
    """One conformance case. ``trace`` for round and game cases; ``hand``/``expected`` for scoring cases."""

    id: str
    level: Level
    ruleset: Ruleset
    trace: dict[str, Any] | None = None
    hand: list[str] = field(default_factory=list)
    busted: bool = False
    expected: int | None = None
    clause: str | None = None
    label: str = ""
    generated: bool = False
    clauses: frozenset[str] | None = None
    """The clauses the case exercises, when whoever built it counted them already (see
    :mod:`flip7_spec.conformance.coverage`)."""
    shortfalls: dict[str, dict[str, str]] | None = None
    """On the last generated case of a run with aimed games: per ruleset name, the expected clauses the
    generated cases still exercise fewer times than asked, each with the reason (see
    :func:`flip7_spec.conformance.aimed.aimed_cases`)."""
    _document: TraceDocument | None = field(default=None, repr=False, compare=False)

    @property
    def document(self) -> TraceDocument:
        """The case's trace, read (once) as a :class:`~flip7_spec.trace.document.TraceDocument`. Raises
        ``ValueError`` for a scoring case, which has no trace."""
        if self._document is None or self._document.document is not self.trace:
            if self.trace is None:
                raise ValueError(f"{self.id}: a scoring case has no trace")
            self._document = TraceDocument.of(self.trace)
        return self._document


def trace_file_cases(path: Path, name: str, prefix: str = "fixture") -> list[Case]:
    """The cases of one trace file (``.json``: one trace, ``.jsonl``: one per line), named ``PREFIX:NAME``
    (``:LINE`` added for a line of a ``.jsonl``). A trace that cannot be read or whose ruleset is unknown
    gives no case (``flip7-spec replay`` explains such a file)."""
    out: list[Case] = []
    for source in read_traces(path):
        if source.error is not None or not isinstance(source.trace, dict):
            continue
        trace = source.trace
        try:
            document = TraceDocument.of(trace)
            ruleset = ruleset_from_json(document.ruleset_json)
        except Exception:
            continue
        level = Level.GAME if document.footer is not None or document.rounds > 1 else Level.ROUND
        case_name = name if source.line is None else f"{name}:{source.line}"
        out.append(Case(f"{prefix}:{case_name}", level, ruleset, trace=trace, label=document.description or "",
                        _document=document))
    return out
