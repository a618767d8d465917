"""Causes and fingerprints: what a run's diagnoses add up to.

Each failing case carries the readings that explain its divergences (``causes``, see
:mod:`flip7_spec.judge.runner`); here they are grouped by cause for the summary, and combined, per base
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
from itertools import combinations
from pathlib import Path
from typing import Any

from flip7_spec.conformance import FAIL
from flip7_spec.errors import ChanceError, Flip7Error
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import reproduces_case
from flip7_spec.misreadings import Deviation
from flip7_spec.outputs import write_file
from flip7_spec.results import CaseResult
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.trace.record import record_choices

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
    named = result.readings()
    if named:
        return [c.to_json() for c in named]
    return [{"reading": None, "text": f"{UNEXPLAINED}: clause {result.clause} (a guess) at {result.where}"}]


def confirmed(cause: dict[str, Any]) -> bool:
    """Whether a cause's reading is a claim (its evidence confirms it; a cause without evidence, such as a
    scoring case's, stands on the case alone)."""
    evidence = cause.get("evidence")
    return cause.get("reading") is not None and not (isinstance(evidence, dict) and evidence.get("confirmed") is False)


def _label(cause: dict[str, Any]) -> str:
    if cause.get("reading") is None:
        text = str(cause.get("text", UNEXPLAINED))
        return text.split(" at $", 1)[0]  # group unexplained causes by clause, not by place
    text = str(cause.get("text") or cause["reading"])
    text = text.split("; this case fits ", 1)[0]  # a reading is one cause, whatever else a case also fits
    return text.split(" (it matched ", 1)[0].split(" (the engine diverged from it again", 1)[0]


def in_order(results: Sequence[CaseResult]) -> list[CaseResult]:
    """The results by case id and level: whatever order the cases finished in (``-j N``), what is made of
    them is the same."""
    return sorted(results, key=lambda r: (r.case_id, str(r.level)))


def cause_table(results: Sequence[CaseResult]) -> list[Cause]:
    """Every cause among the failures, with its count and first example (by case id), the most frequent
    first."""
    counts: Counter[str] = Counter()
    first: dict[str, tuple[str | None, str]] = {}
    for result in in_order(results):
        if result.outcome != FAIL:
            continue
        for label in dict.fromkeys(_label(c) for c in causes_of(result)):
            counts[label] += 1
            if label not in first:
                reading = next((c.get("reading") for c in causes_of(result) if _label(c) == label), None)
                first[label] = (reading, result.case_id)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [Cause(label, first[label][0], count, first[label][1]) for label, count in ordered]


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
    return result.base


@dataclass(frozen=True, slots=True)
class FingerprintEntry:
    """One reading of a fingerprint with its evidence: the failing cases whose diagnosis confirms it
    (``explained``), those where it is only possible, and the passed cases the reference under it would
    fail (``contradicted``, of ``checked`` passed cases tried; the first of them in ``against``)."""

    reading: str
    explained: int
    possible: int = 0
    contradicted: int = 0
    checked: int = 0
    against: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"explained": self.explained, "possible": self.possible,
                               "contradicted": self.contradicted, "checked": self.checked}
        if self.against is not None:
            out["against"] = self.against
        return out


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """An engine's fingerprint on one base preset: the ruleset playing the kept readings, each entry's
    evidence, and the readings dropped because the reference under them fails cases the engine passed."""

    base: str
    ruleset: Ruleset
    entries: tuple[FingerprintEntry, ...]
    dropped: tuple[FingerprintEntry, ...] = ()

    @property
    def readings(self) -> tuple[str, ...]:
        return self.ruleset.deviations


CHECKED_CASES = 200
"""Passed cases of a base a fingerprint's readings are checked against at most (evenly spread by case id)."""


def _spread(cases: Sequence[Case], limit: int) -> list[Case]:
    ordered = sorted(cases, key=lambda c: (c.id, str(c.level)))
    if len(ordered) <= limit:
        return ordered
    return [ordered[i * len(ordered) // limit] for i in range(limit)]


def _contradictions(readings: Sequence[str], cases: Sequence[Case]) -> tuple[int, int, str | None]:
    """How many of ``cases`` (passed by the engine) the reference fails with ``readings`` added to each
    case's own ruleset, of how many it could play so; and the first such case."""
    contradicted, checked, first = 0, 0, None
    for case in cases:
        try:
            ruleset = replace(case.ruleset, deviations=(*case.ruleset.deviations, *readings))
            ruleset.played()
        except Flip7Error:
            continue  # a reading this case's ruleset cannot take (its option value is the case's own)
        checked += 1
        if not reproduces_case(case, ruleset):
            contradicted += 1
            first = first or case.id
    return contradicted, checked, first


def _cover(sets: list[set[str]], banned: set[str]) -> list[str]:
    """The fewest readings (greedy: the one in most sets first, ties by name) that meet every set, one value
    per option, none of ``banned``; each of them needed (it alone meets some set)."""
    chosen: list[str] = []
    options: set[str] = set()
    uncovered = list(sets)
    while uncovered:
        counts = Counter(r for candidates in uncovered for r in candidates
                         if r not in banned and _option(r) not in options)
        if not counts:
            break
        reading = min(counts, key=lambda r: (-counts[r], r))
        chosen.append(reading)
        option = _option(reading)
        if option is not None:
            options.add(option)
        uncovered = [c for c in uncovered if reading not in c]
    # A reading taken early can end up needed by no set: those the later ones meet already (greedy alone
    # leaves {A, B}, {A, C}, {B}, {C} with A, B and C). Drop such readings, the last taken kept first.
    for reading in list(chosen):
        rest = [r for r in chosen if r != reading]
        if all(any(r in c for r in rest) for c in sets if reading in c):
            chosen = rest
    return chosen


def fingerprints(results: Sequence[CaseResult], passed: Sequence[Case] = ()) -> dict[str, Fingerprint]:
    """Per base preset, the preset with the fewest readings that explain every *confirmed* cause of the
    failures of its cases (an option read two ways keeps the more frequent reading), each reading checked
    against the ``passed`` cases of that base: a reading under which the reference fails a case the engine
    passed is dropped (and listed), and the cover is made again without it. The same results give the same
    fingerprint whatever their order."""
    explained: dict[str, list[set[str]]] = {}
    support: dict[str, Counter[str]] = {}
    possible: dict[str, Counter[str]] = {}
    unsure: dict[str, list[set[str]]] = {}
    for result in in_order(results):
        base = _base_of(result)
        if result.outcome != FAIL or base is None:
            continue
        for cause in causes_of(result):
            reading = cause.get("reading")
            if reading is None:
                continue
            candidates = {str(reading), *(str(r) for r in cause.get("also", ()))}
            if confirmed(cause):
                explained.setdefault(base, []).append(candidates)
                support.setdefault(base, Counter()).update(candidates)
            else:
                possible.setdefault(base, Counter()).update(candidates)
                unsure.setdefault(base, []).append(candidates)
    # A reading the engine is shown to play on one preset of a game, it plays on the game's other presets too:
    # there, a cause only possible under it counts as confirmed (the check against that preset's passed cases
    # still applies).
    shown: dict[str, dict[str, set[str]]] = {}
    for base, counts in support.items():
        shown.setdefault(_game_of(base), {})[base] = set(counts)
    for base, sets in unsure.items():
        known = {r for other, readings in shown.get(_game_of(base), {}).items() if other != base for r in readings}
        for candidates in sets:
            backed = candidates & known
            if backed:
                explained.setdefault(base, []).append(backed)
                support.setdefault(base, Counter()).update(backed)
    out: dict[str, Fingerprint] = {}
    for base, sets in sorted(explained.items()):
        mine = _spread([c for c in passed if (c.ruleset.base or c.ruleset.name) == base], CHECKED_CASES)
        banned: dict[str, FingerprintEntry] = {}
        checked: dict[str, FingerprintEntry] = {}
        while True:
            chosen = _cover(sets, set(banned))
            fresh = [r for r in chosen if r not in checked]
            for reading in fresh:
                against, tried, first = _contradictions([reading], mine)
                entry = FingerprintEntry(reading, support[base][reading], possible.get(base, Counter())[reading],
                                         against, tried, first)
                checked[reading] = entry
                if against:
                    banned[reading] = entry
            if not any(r in banned for r in chosen):
                break
        if len(chosen) > 1:  # readings fine alone may still fail a passed case together
            while chosen and _contradictions(chosen, mine)[0]:
                conflict = _conflict(chosen, mine)
                weakest = min(conflict, key=lambda r: (checked[r].explained, r))
                against, tried, first = _contradictions(conflict, mine)
                banned[weakest] = replace(checked[weakest], contradicted=against, against=first)
                chosen = [r for r in chosen if r != weakest]
        if not chosen and not banned:
            continue
        ruleset = preset(base)
        description = f"{base} as the engine plays it: " + (", ".join(chosen) or "no reading that holds")
        out[base] = Fingerprint(base, replace(ruleset, name=f"{base}-fingerprint", base=base,
                                              deviations=tuple(chosen), description=description),
                                tuple(checked[r] for r in chosen), tuple(banned[r] for r in sorted(banned)))
    return out


def _conflict(chosen: list[str], mine: Sequence[Case]) -> list[str]:
    """The readings of ``chosen`` (which together fail a passed case of ``mine``) to blame: the first pair
    that fails one together, so that a reading fine with each of the others is not the one dropped; all of
    them when no pair does (three or more fail it only together)."""
    for pair in combinations(chosen, 2):
        if _contradictions(list(pair), mine)[0]:
            return list(pair)
    return list(chosen)


def _game_of(base: str) -> str:
    """The game a base preset (or a ruleset named so) belongs to."""
    try:
        return preset(base).game
    except Flip7Error:
        return base


def _option(reading: str) -> str | None:
    return Deviation.parse(reading).option


def fingerprint_paths(path: Path, bases: Sequence[str]) -> dict[str, Path]:
    """Where each base's fingerprint is written: ``path`` itself for one, ``STEM-BASE.SUFFIX`` for several."""
    if len(bases) == 1:
        return {bases[0]: path}
    return {base: path.with_name(f"{path.stem}-{base}{path.suffix}") for base in bases}


def fingerprint_text(fingerprint: Fingerprint, suffix: str) -> str:
    """The ruleset file of a fingerprint, as TOML (``.toml``) or JSON (otherwise), with each reading's
    evidence (a ruleset file's ``evidence`` table, which the reference does not play)."""
    ruleset = fingerprint.ruleset
    evidence = {e.reading: e.to_json() for e in fingerprint.entries}
    data: dict[str, Any] = {"name": ruleset.name, "base": ruleset.base, "description": ruleset.description,
                            "deviations": list(ruleset.deviations), "evidence": evidence}
    if suffix.lower() != ".toml":
        return json.dumps(data, indent=2, sort_keys=False) + "\n"
    # JSON string syntax is a valid TOML basic string; the evidence holds whole numbers and strings only
    lines = [f"{key} = {json.dumps(data[key])}" for key in ("name", "base", "description")]
    lines.append("deviations = [" + ", ".join(json.dumps(d) for d in ruleset.deviations) + "]")
    for reading, facts in evidence.items():
        lines.append("")
        lines.append(f"[evidence.{json.dumps(reading)}]")
        lines.extend(f"{key} = {json.dumps(value)}" for key, value in facts.items())
    return "\n".join(lines) + "\n"


# ---- a fingerprint run: the fixtures replayed by a reference that deviates as the engine does --------------


def rerecorded(case: Case, fingerprint: Ruleset) -> Case:
    """``case`` (a fixture or saved trace of the fingerprint's base) with its observations recorded again by the
    reference under the fingerprint's deviations, as far as its decisions and reshuffle orders still fit."""
    assert case.trace is not None
    ruleset = replace(case.ruleset, deviations=fingerprint.deviations)
    document = case.document
    table, choices = document.table, document.choices
    for count in range(len(choices), -1, -1):
        try:
            trace = record_choices(ruleset, table.players, table.dealer, table.deck, choices[:count],
                                   document.reshuffles, description=document.description, strict=False)
            break
        except (ChanceError, Flip7Error):
            continue  # the decisions after this point need a reshuffle this reading plays differently
    else:
        return case
    return replace(case, ruleset=ruleset, trace=trace)


def fingerprint_lines(prints: dict[str, Fingerprint], results: Sequence[CaseResult]) -> list[str]:
    """The summary's last lines: per base preset, the readings that explain the diagnosed failures, with
    their evidence, and the readings dropped by the check against the passed cases."""
    lines = []
    for base, fingerprint in prints.items():
        shown = ", ".join(f"{e.reading} ({e.explained} explained, {e.contradicted} of {e.checked} passed cases "
                          f"contradict)" for e in fingerprint.entries) or "none"
        lines.append(f"fingerprint of the engine on {base}: {shown}")
        for entry in fingerprint.dropped:
            lines.append(f"  dropped {entry.reading}: the reference under it fails {entry.contradicted} of "
                         f"{entry.checked} cases the engine passed (e.g. {entry.against}); it is not what the "
                         f"engine plays")
    if lines and any(r.outcome == FAIL and c.get("reading") is None for r in results for c in causes_of(r)):
        lines.append("  (some failures have no known reading: the fingerprint does not explain those)")
    if lines and any(r.outcome == FAIL and c.get("reading") is not None and not confirmed(c)
                     for r in results for c in causes_of(r)):
        lines.append("  (readings shown as possibly ... are not in the fingerprint unless other failures "
                     "confirm them)")
    return lines


def write_fingerprints(path: Path, prints: dict[str, Fingerprint]) -> list[Path]:
    """Write each base's fingerprint as a ruleset file (see :func:`fingerprint_paths`); the paths written."""
    found = {base: f for base, f in prints.items() if f.readings}
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
