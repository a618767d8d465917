"""What a run checked, and what it left unchecked: a run that checked nothing never passes.

A skipped case checks nothing. conform's verdict is *unchecked* (exit code 3, docs/protocol.md "Exit
codes") when no case ran at all, or when every case of a part of the corpus (scoring, fixtures, saved
traces, generated games) was skipped by the engine's own ``skipped`` replies although its handshake declares
what those cases need: the engine promised them and checked none. Cases skipped because the handshake does not
declare what they need are the engine's own choice; they are counted, with the rules they leave unchecked,
but do not make the verdict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from flip7_spec.conformance import SKIPPED
from flip7_spec.conformance.cases import PARTS, part_of
from flip7_spec.conformance.coverage import Coverage
from flip7_spec.judge.runner import BY_ENGINE
from flip7_spec.protocol import Level
from flip7_spec.results import CaseResult

PART_NAMES = {"scoring": "scoring cases", "trace": "saved traces", "fixture": "fixture cases",
              "generated": "generated games"}

SHOWN_REASONS = 5
"""Skip reasons the summary shows before its table (``-v`` lists every skipped case)."""
SHOWN_CLAUSES = 8
"""Clauses a skip reason's line names at most."""


def _case_results(results: Sequence[CaseResult]) -> list[CaseResult]:
    """One result per case: the result at the case's own level (a legal result repeats its case)."""
    return [r for r in results if r.level != Level.LEGAL]


def ran_count(results: Sequence[CaseResult]) -> int:
    """How many cases ran (passed, failed or errored), each case once."""
    return sum(r.outcome != SKIPPED for r in _case_results(results))


def unchecked_lines(results: Sequence[CaseResult], asked: Sequence[str]) -> list[str]:
    """Why the run's verdict is *unchecked*, one line each; empty when the run checked what it could.

    ``asked`` names the parts of the corpus the run asked for (:data:`~.cases.PARTS`)."""
    cases = _case_results(results)
    if not cases:
        return ["unchecked: the corpus held no case for what the engine declares; nothing was checked"]
    if ran_count(results) == 0:
        counts = Counter(r.message for r in cases)
        reason = min(counts, key=lambda text: (-counts[text], text))
        count = counts[reason]
        return [f"unchecked: every one of the {len(cases)} cases was skipped, so nothing was checked "
                f"({count} because {reason})"]
    lines = []
    for part in PARTS:
        if part not in asked:
            continue
        mine = [r for r in cases if part_of(r.case_id) == part]
        if not mine or any(r.outcome != SKIPPED for r in mine):
            continue
        by_engine = [r for r in mine if r.skipped_by == BY_ENGINE]
        if by_engine:
            lines.append(f"unchecked: every one of the {len(mine)} {PART_NAMES[part]} was skipped, "
                         f"{len(by_engine)} of them by the engine's own skipped reply although its handshake "
                         f"declares what they need (first: {by_engine[0].message})")
    return lines


def broken_promise_lines(results: Sequence[CaseResult]) -> list[str]:
    """A warning when the engine replied ``skipped`` to cases its handshake declares it can run."""
    by_engine = [r for r in _case_results(results) if r.outcome == SKIPPED and r.skipped_by == BY_ENGINE]
    if not by_engine:
        return []
    return [f"warning: the engine skipped {len(by_engine)} cases its handshake declares it can run "
            f"(first: {by_engine[0].case_id}: {by_engine[0].message}); declare only what it runs"]


def skip_reason_lines(results: Sequence[CaseResult], coverage: Coverage | None = None,
                      limit: int = SHOWN_REASONS) -> list[str]:
    """The most frequent skip reasons, each with the rule clauses that only its skipped cases would have
    exercised (no case that ran reached them), most frequent first."""
    reasons = Counter(r.message for r in _case_results(results) if r.outcome == SKIPPED)
    if not reasons:
        return []
    total = sum(reasons.values())
    ordered = sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    lines = [f"skipped {total} of {len(_case_results(results))} cases; "
             f"top reasons (the rules they leave unchecked; -v lists every case):"]
    for reason, count in ordered[:limit]:
        lines.append(f"  {count:>5}  {reason}")
        left = coverage.left_unchecked(reason) if coverage is not None else []
        if left:
            shown = ", ".join(left[:SHOWN_CLAUSES]) + (f" and {len(left) - SHOWN_CLAUSES} more"
                                                       if len(left) > SHOWN_CLAUSES else "")
            lines.append(f"         leaves unchecked: {shown}")
    if len(ordered) > limit:
        rest = sum(count for _, count in ordered[limit:])
        lines.append(f"  {rest:>5}  for {len(ordered) - limit} other reasons")
    return lines
