"""Causes and fingerprints: what a run's diagnoses add up to.

Each failing case carries the readings that explain its divergences (``causes``, see
:mod:`flip7_spec.conformance.runner`); here they are grouped by cause for the summary, and combined, per base
ruleset, into the engine's *fingerprint*: the preset plus the fewest readings that explain every diagnosed
cause (a greedy cover: a reading that explains more causes first). A fingerprint is a ruleset file: the
reference plays its deviations, so ``conform --ruleset FINGERPRINT`` runs the same corpus against a reference
that deviates as the engine does.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.cases import Case
from flip7_spec.conformance.runner import CaseResult
from flip7_spec.errors import ChanceError, Flip7Error
from flip7_spec.misreadings import split_deviation
from flip7_spec.outputs import write_file
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.trace.record import record_choices, trace_choices, trace_reshuffles

UNEXPLAINED = "unexplained"


@dataclass(frozen=True, slots=True)
class Cause:
    """One group of the summary: a reading (or an unexplained clause), how many failures show it, and the first
    case that did."""

    text: str
    reading: str | None
    count: int
    example: str


def causes_of(result: CaseResult) -> list[dict[str, Any]]:
    """The causes of one failure: its diagnosed readings in order, or one unexplained cause with its clause."""
    causes = result.extra.get("causes")
    if isinstance(causes, list) and causes:
        return [c for c in causes if isinstance(c, dict)]
    diagnosis = result.extra.get("diagnosis")
    if isinstance(diagnosis, dict):
        return [diagnosis]
    return [{"reading": None, "text": f"{UNEXPLAINED}: clause {result.clause} (a guess) at {result.where}"}]


def _label(cause: dict[str, Any]) -> str:
    if cause.get("reading") is None:
        text = str(cause.get("text", UNEXPLAINED))
        return text.split(" at $", 1)[0]  # group unexplained causes by clause, not by place
    text = str(cause.get("text") or cause["reading"])
    return text.split("; this case fits ", 1)[0]  # a reading is one cause, whatever else a case also fits


def cause_table(results: Sequence[CaseResult]) -> list[Cause]:
    """Every cause among the failures, with its count and first example, the most frequent first."""
    counts: Counter[str] = Counter()
    first: dict[str, tuple[str | None, str]] = {}
    for result in results:
        if result.outcome != FAIL:
            continue
        for label in dict.fromkeys(_label(c) for c in causes_of(result)):
            counts[label] += 1
            if label not in first:
                reading = next((c.get("reading") for c in causes_of(result) if _label(c) == label), None)
                first[label] = (reading, result.case_id)
    return [Cause(label, first[label][0], count, first[label][1]) for label, count in counts.most_common()]


def cause_lines(results: Sequence[CaseResult], limit: int = 12) -> list[str]:
    """The summary's causes, one line each: count, cause, one example."""
    table = cause_table(results)
    if not table:
        return []
    lines = ["failures by cause (count, cause, first case):"]
    for cause in table[:limit]:
        lines.append(f"  {cause.count:5d}  {cause.text}  e.g. {cause.example}")
    if len(table) > limit:
        lines.append(f"  ... and {len(table) - limit} more causes (--json lists them all)")
    return lines


def _base_of(result: CaseResult) -> str | None:
    base = result.extra.get("base")
    return base if isinstance(base, str) else None


def fingerprints(results: Sequence[CaseResult]) -> dict[str, Ruleset]:
    """Per base preset, the preset with the fewest deviations that explain every diagnosed cause of the
    failures of its cases (an option read two ways keeps the more frequent reading)."""
    explained: dict[str, list[set[str]]] = {}
    for result in results:
        base = _base_of(result)
        if result.outcome != FAIL or base is None:
            continue
        for cause in causes_of(result):
            reading = cause.get("reading")
            if reading is None:
                continue
            candidates = {str(reading), *(str(r) for r in cause.get("also", ()))}
            explained.setdefault(base, []).append(candidates)
    out: dict[str, Ruleset] = {}
    for base, uncovered in explained.items():
        chosen: list[str] = []
        options: set[str] = set()
        while uncovered:
            counts = Counter(r for candidates in uncovered for r in candidates if _option(r) not in options)
            if not counts:
                break
            reading, _ = counts.most_common(1)[0]
            chosen.append(reading)
            option = _option(reading)
            if option is not None:
                options.add(option)
            uncovered = [c for c in uncovered if reading not in c]
        ruleset = preset(base)
        out[base] = replace(ruleset, name=f"{base}-fingerprint", base=base, deviations=tuple(chosen),
                            description=f"{base} as the engine plays it: " + ", ".join(chosen))
    return out


def _option(reading: str) -> str | None:
    split = split_deviation(reading)
    return None if split is None else split[0]


def fingerprint_paths(path: Path, bases: Sequence[str]) -> dict[str, Path]:
    """Where each base's fingerprint is written: ``path`` itself for one, ``STEM-BASE.SUFFIX`` for several."""
    if len(bases) == 1:
        return {bases[0]: path}
    return {base: path.with_name(f"{path.stem}-{base}{path.suffix}") for base in bases}


def fingerprint_text(ruleset: Ruleset, suffix: str) -> str:
    """The ruleset file of a fingerprint, as TOML (``.toml``) or JSON (otherwise)."""
    data = {"name": ruleset.name, "base": ruleset.base, "description": ruleset.description,
            "deviations": list(ruleset.deviations)}
    if suffix.lower() != ".toml":
        return json.dumps(data, indent=2) + "\n"
    # strings only: JSON string syntax is a valid TOML basic string for these
    lines = [f"{key} = {json.dumps(value)}" for key, value in data.items() if key != "deviations"]
    lines.append("deviations = [" + ", ".join(json.dumps(d) for d in ruleset.deviations) + "]")
    return "\n".join(lines) + "\n"


# ---- a fingerprint run: the fixtures replayed by a reference that deviates as the engine does --------------


def rerecorded(case: Case, fingerprint: Ruleset) -> Case:
    """``case`` (a fixture or saved trace of the fingerprint's base) with its observations recorded again by the
    reference under the fingerprint's deviations, as far as its decisions and reshuffle orders still fit."""
    assert case.trace is not None
    ruleset = replace(case.ruleset, deviations=fingerprint.deviations)
    header = case.trace["header"]
    choices = trace_choices(case.trace)
    reshuffles = trace_reshuffles(case.trace)
    for count in range(len(choices), -1, -1):
        try:
            trace = record_choices(ruleset, header["players"], header["dealer"], header["deck"],
                                   choices[:count], reshuffles, description=header.get("description"),
                                   strict=False)
            break
        except (ChanceError, Flip7Error):
            continue  # the decisions after this point need a reshuffle this reading plays differently
    else:
        return case
    return replace(case, ruleset=ruleset, trace=trace)


def fingerprint_lines(results: Sequence[CaseResult]) -> list[str]:
    """The summary's last lines: per base preset, the readings that explain the diagnosed failures."""
    lines = []
    for base, ruleset in fingerprints(results).items():
        readings = ", ".join(ruleset.deviations) or "none"
        lines.append(f"fingerprint of the engine on {base}: {readings}")
    if lines and any(r.outcome == FAIL and c.get("reading") is None for r in results for c in causes_of(r)):
        lines.append("  (some failures have no known reading: the fingerprint does not explain those)")
    return lines


def write_fingerprints(path: Path, results: Sequence[CaseResult]) -> list[Path]:
    """Write each base's fingerprint as a ruleset file (see :func:`fingerprint_paths`); the paths written."""
    found = fingerprints(results)
    if not found:
        return []
    written = []
    for base, target in fingerprint_paths(path, list(found)).items():
        write_file(target, fingerprint_text(found[base], target.suffix), "--fingerprint")  # whole or not at all
        written.append(target)
    return written


def fingerprint_cases(cases: Sequence[Case], rulesets: Sequence[Ruleset]) -> list[Case]:
    """For a run with fingerprints among ``rulesets``: the trace cases of a fingerprint's base re-recorded
    under its deviations (:func:`rerecorded`); the others as they are."""
    by_base = {r.base: r for r in rulesets if r.deviations and r.base}
    if not by_base:
        return list(cases)
    out = []
    for case in cases:
        base = case.ruleset.base or case.ruleset.name
        fingerprint = by_base.get(base)
        if fingerprint is None or case.trace is None or case.ruleset.deviations:
            out.append(case)
        else:
            out.append(rerecorded(case, fingerprint))
    return out
