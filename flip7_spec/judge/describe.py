"""The lines that explain one judged case on a terminal: where a failure diverged, what differed, the readings
that explain it; an error's message, raw reply and stderr; a skip's reason."""

from __future__ import annotations

import json
from typing import Any

from flip7_spec.judge import ERRORED, FAIL
from flip7_spec.results import CaseResult


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


SHOWN_DIFFERENCES = 3
"""Differing fields a failure shows on the terminal besides the first (the JSON report has them all)."""


_BLAME_NOTES = {"guess": " (a guess)", "possible": " (possibly)"}


def describe(result: CaseResult) -> list[str]:
    """The lines that explain a failed, errored or skipped result."""
    if result.outcome == FAIL:
        at = "" if result.step is None else f" at step {result.step}"
        decision = "" if result.decision is None else f" after {_short(result.decision)}"
        lines = [f"FAIL {result.case_id} [{result.level}]{at}{decision}",
                 f"     {result.where}: expected {_short(result.expected)}, found {_short(result.found)}"
                 f"  [clause {result.clause}{_BLAME_NOTES.get(str(result.blame), '')}]"]
        others = [d for d in result.differences or () if d.where != result.where]
        for other in others[:SHOWN_DIFFERENCES]:
            lines.append(f"     {other.where}: expected {_short(other.expected)}, found {_short(other.found)}")
        if len(others) > SHOWN_DIFFERENCES:
            more = len(others) - SHOWN_DIFFERENCES
            lines.append(f"     ... {more} more fields differ at this step (--json lists them)")
        causes = result.causes or ()
        if len(causes) > 1:
            for number, cause in enumerate(causes, 1):
                at = "" if cause.step is None else f"at step {cause.step}: "
                needs = f" (only together with {', '.join(cause.together)})" if cause.together else ""
                lines.append(f"     cause {number}: {at}{cause.text}{needs}")
        elif result.diagnosis is not None:
            lines.append(f"     {result.diagnosis.text}")
        if result.label:
            lines.append(f"     catches: {result.label}")
        if result.shrunk:
            lines.append(f"     minimal failing trace: {result.shrunk}")
        return lines
    if result.outcome == ERRORED:
        lines = [f"ERROR {result.case_id} [{result.level}]: {result.message}"]
        if result.step is not None or result.where is not None:
            at = "the start" if result.step is None else f"step {result.step}"
            decision = "" if result.decision is None else f" after {_short(result.decision)}"
            lines.append(f"     at {at}{decision}")
        if result.hand is not None:
            busted = " (busted)" if result.busted else ""
            lines.append(f"     scoring the hand {' '.join(result.hand)}{busted}")
        if result.raw:
            lines.append(f"     raw reply: {result.raw[:300]}")
        if result.stderr:
            tail = result.stderr.strip().splitlines()[-5:]
            lines.extend(f"     stderr: {line}" for line in tail)
        if result.shrunk:
            lines.append(f"     saved trace: {result.shrunk}")
        return lines
    return [f"SKIP {result.case_id} [{result.level}]: {result.message}"]
