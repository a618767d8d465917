"""Every reading of a ruleset's game against the ruleset itself: each other value of each option with a
list of values, and each catalogue misreading (the readings the diagnosis tries), each diffed on its own.

For a reading with no difference found, the options are tried once more: the reading against the ruleset
with one other option value set on both sides, option by option, until one makes a difference show (where a
reading changes nothing at the defaults, that says when it matters). The readings can be diffed in several
processes at once; each diff is the same whichever process plays it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flip7_spec.errors import Flip7Error
from flip7_spec.judge.diagnosis import alternatives
from flip7_spec.misreadings import option_deviation
from flip7_spec.ordered_pool import WorkerDied, ordered_map
from flip7_spec.rulesdiff.run import DiffResult, Settings, diff
from flip7_spec.rulesdiff.sides import Sides, label
from flip7_spec.rulesets import Ruleset

MATTERS_SHARE = 0.25
"""The budget of each try of another option value, as a part of the diff's budget."""


@dataclass(frozen=True, slots=True)
class AlternativeReading:
    """A reading of ``base``'s game: its text (a misreading's name or ``option=value``), clause, one line for
    people, and the ruleset that plays it."""

    text: str
    clause: str
    description: str
    ruleset: Ruleset
    option: str | None = None


def readings_of(base: Ruleset) -> list[AlternativeReading]:
    """Every reading ``base`` can be diffed against: each other value of each option with a list of values,
    then each misreading of the game's catalogue it does not play already (as the diagnosis tries them)."""
    out = []
    for alt in alternatives(base):
        assert alt.ruleset is not None
        description = alt.description if alt.is_misreading else base.OPTIONS[str(alt.option)].help
        out.append(AlternativeReading(alt.reading, alt.clause, description, alt.ruleset, alt.option))
    return out


@dataclass
class ReadingDiff:
    """One reading diffed: its result, and when it showed no difference, the option value set on both sides
    under which it does (``matters``, with that diff's result), if one was found."""

    reading: AlternativeReading
    result: DiffResult
    matters: tuple[str, DiffResult] | None = None

    @property
    def differs(self) -> bool:
        return self.result.game is not None


def _both(ruleset: Ruleset, name: str, value: Any) -> Ruleset | None:
    try:
        changed = replace(ruleset, deviations=(*ruleset.deviations, option_deviation(name, value)))
        changed.played()
        return changed
    except Flip7Error:
        return None


def when_it_matters(base: Ruleset, reading: AlternativeReading, settings: Settings) -> tuple[str, DiffResult] | None:
    """The first other option value (in the game's order of options and values) that, set on both sides,
    makes ``reading`` differ from ``base``, with that diff."""
    budget = max(1, int(settings.budget * MATTERS_SHARE))
    for name, option in base.OPTIONS.items():
        values = option.values()
        if values is None or name == reading.option:
            continue
        own = getattr(base.played(), name)
        for value in values:
            if type(value) is type(own) and value == own:
                continue
            left, right = _both(base, name, value), _both(reading.ruleset, name, value)
            if left is None or right is None:
                continue
            sides = Sides.of(left, right, f"{base.name} with {option_deviation(name, value)}",
                             f"{label(reading.ruleset, base)} with {option_deviation(name, value)}")
            result = diff(sides, replace(settings, budget=budget))
            if result.game is not None:
                return option_deviation(name, value), result
    return None


def diff_reading(base: Ruleset, reading: AlternativeReading, settings: Settings, matters: bool = True) -> ReadingDiff:
    """``reading`` diffed against ``base`` (see the module's description)."""
    result = diff(Sides.of(base, reading.ruleset, base.name, label(reading.ruleset, base)), settings)
    row = ReadingDiff(reading, result)
    if matters and result.game is None:
        row.matters = when_it_matters(base, reading, settings)
    return row


def _task(job: tuple[Ruleset, AlternativeReading, Settings, bool]) -> ReadingDiff:
    return diff_reading(*job)


def every_reading(base: Ruleset, settings: Settings, workers: int = 1, matters: bool = True,
                  done: Callable[[ReadingDiff], None] | None = None, only: Sequence[str] = ()) -> list[ReadingDiff]:
    """Every reading of ``base`` (or those named in ``only``) diffed against it, in the game's order, by
    ``workers`` processes; ``done`` is called as each finishes."""
    readings = [r for r in readings_of(base) if not only or r.text in only]
    jobs = [(base, r, settings, matters) for r in readings]
    rows: list[ReadingDiff] = []
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            rows.append(_task(job))
            if done is not None:
                done(rows[-1])
        return rows
    made = ordered_map(_task, jobs, min(workers, len(jobs)), ahead=1, window=len(jobs))
    try:
        with contextlib.closing(made):
            for row in made:  # the workers end at once when the caller is interrupted
                rows.append(row)
                if done is not None:
                    done(row)
    except WorkerDied as died:
        reading = died.task[1]
        raise Flip7Error(f"the worker process diffing {reading.text} ended without a result "
                         f"(exit code {died.exitcode})") from None
    return rows


def outcome(row: ReadingDiff) -> str:
    """One line: the smallest game's size, or no difference within the bound (and when it matters)."""
    result = row.result
    found = result.game
    if found is not None:
        return found.game.size()
    covered = result.covered
    if covered is not None and covered.levels >= 0:
        upto = covered.levels if not covered.complete else (result.bound.decisions if result.bound else 0)
        text = f"no difference within the bound (up to {upto} decision{'s' * (upto != 1)})"
    else:
        text = "no difference found"
    if result.events_only is not None:
        text += f"; the events differ ({result.events_only.game.size()})"
    if row.matters is not None:
        setting, other = row.matters
        assert other.game is not None
        text += f"; with {setting} on both: {other.game.game.size()}"
    return text


def table_lines(base: Ruleset, rows: Sequence[ReadingDiff]) -> Iterator[str]:
    """The table of ``rows``: one line per reading."""
    yield f"every reading of {base.game} against {base.name} ({len(rows)} readings)"
    width = max([len("reading"), *(len(r.reading.text) for r in rows)])
    clause = max([len("clause"), *(len(r.reading.clause) for r in rows)])
    yield f"  {'reading':<{width}}  {'clause':<{clause}}  smallest game that tells it apart"
    for row in rows:
        yield f"  {row.reading.text:<{width}}  {row.reading.clause:<{clause}}  {outcome(row)}"


def row_json(row: ReadingDiff) -> dict[str, Any]:
    """One row as JSON: the reading, and the diff's result (see :func:`~flip7_spec.rulesdiff.report.result_json`)."""
    from flip7_spec.rulesdiff.report import result_json

    out: dict[str, Any] = {"reading": row.reading.text, "clause": row.reading.clause,
                           "description": row.reading.description, "summary": outcome(row),
                           "result": result_json(row.result)}
    if row.matters is not None:
        out["matters_with"] = {"setting": row.matters[0], "result": result_json(row.matters[1])}
    return out


def rows_text(base: Ruleset, rows: Sequence[ReadingDiff]) -> str:
    """The JSON document of ``rows``."""
    return json.dumps({"ruleset": base.to_json(), "readings": [row_json(r) for r in rows]}, indent=2,
                      sort_keys=True)
