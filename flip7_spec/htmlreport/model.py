"""The input of the HTML pages: a small model read from a conformance report's JSON (``conform --json``,
:func:`flip7_spec.conformance.report.report_document`) and from traces.

Everything a failure may carry is optional, so that older reports and reports of newer runs both render:

=========================  ============================================================================
result field               used for
=========================  ============================================================================
``case_id`` ``level``      the failure's title
``outcome``                ``fail`` or ``errored`` (``pass`` and ``skipped`` results are only counted)
``step``                   index into the trace's ``steps`` of the divergence, or of the decision an errored
                           case failed at (absent: the start, or for an error a place not known)
``where`` ``expected``     the first differing JSON path and both values (an errored case: ``where`` is the
``found`` ``clause``       step, ``$.steps[12]``, or ``$.start``)
``decision``               the decision that led to the divergence, or that the engine errored at
``differences``            every differing field, as the runner's comparison lists them:
                           ``[{where, expected, found}]`` (``where`` a JSON path or a list of parts; ``path``
                           is read too); when absent, that comparison is made on the two observations
``expected_observation``   the reference's and the engine's observations at the divergence: the two
``found_observation``      tables side by side (only the reference's table, marked, when absent)
``compared``               ``"totals"``: only the players' totals were compared at that step
``diagnosis``              ``{text (or reading), clause, confidence}`` or a string: why the engine differs
``cause``                  the group the failure belongs to (a string, or an object with ``name``)
``hand`` ``busted``        a scoring case's hand (failed or errored)
``shrunk``                 the saved shrunk trace (a saved failure or errored case)
``message`` ``label``      what failed, what the case catches
``raw`` ``stderr``         an errored case's reply and the engine's stderr up to that reply
``last_agreed``            an errored case's last observation the engine and the reference agreed on:
                           ``{step, where, observation}`` (``step`` null: the start)
=========================  ============================================================================

The report's own fields: ``engine``, ``hello``, ``seed``, ``games``, ``seconds``, ``decisions``,
``interrupted``, ``counts`` (per level and outcome) and, when present, ``coverage`` (the list of per-ruleset
clause coverage ``conform --json`` writes, or any mapping of names to counts, or of names to such mappings).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from flip7_spec.htmlreport.differences import Difference, field_shape, in_observation, parse_path
from flip7_spec.judge import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED, compared_differences
from flip7_spec.protocol import LEVELS, Level
from flip7_spec.trace.document import TraceDocument


@dataclass(frozen=True, slots=True)
class DiagnosisShown:
    """Why the engine differs, as a reading of the rules: its text, the clause and how sure it is."""

    text: str
    clause: str | None = None
    confidence: str | None = None
    given: str = ""
    """The line as the report gives it (a result's message repeats it)."""


@dataclass(frozen=True, slots=True)
class Agreed:
    """The last observation an engine and the reference agreed on before the engine errored, and its step
    (None: the start)."""

    step: int | None
    observation: dict[str, Any]


@dataclass(slots=True)
class FailureInput:
    """One failed or errored result (see the module's table for where each field comes from)."""

    case_id: str
    level: str
    outcome: str = FAIL
    message: str = ""
    step: int | None = None
    where: str | None = None
    expected: Any = None
    found: Any = None
    clause: str | None = None
    decision: dict[str, Any] | None = None
    label: str = ""
    shrunk: str | None = None
    raw: str | None = None
    stderr: str = ""
    hand: list[str] | None = None
    busted: bool = False
    given_differences: list[Difference] = field(default_factory=list)
    expected_observation: dict[str, Any] | None = None
    found_observation: dict[str, Any] | None = None
    compared: str | None = None
    diagnosis: DiagnosisShown | None = None
    cause: str | None = None
    last_agreed: Agreed | None = None
    trace: dict[str, Any] | None = None
    """The reference's trace of the case (or the saved shrunk trace), when known: the game up to the
    divergence is drawn from it."""

    @property
    def differences(self) -> list[Difference]:
        """Every differing field the comparison of a step reports (exact JSON: ``1``, ``1.0`` and ``true``
        differ): as the report lists them, else compared here on both observations as the case compares them
        (:func:`flip7_spec.judge.compared_differences`), else the first difference alone."""
        if self.given_differences:
            return self.given_differences
        if self.expected_observation is not None and self.found_observation is not None:
            listed = compared_differences(self.expected_observation, self.found_observation,
                                          legal=self.level == Level.LEGAL, totals=self.compared == "totals")
            if listed:
                return listed
        if self.where is None:
            return []
        return [Difference(in_observation(self.where), self.expected, self.found)]

    @property
    def cause_key(self) -> str:
        """The group of this failure: its cause, else its diagnosis, else the clause and the kind of field."""
        if self.cause:
            return self.cause
        if self.diagnosis is not None:
            return self.diagnosis.text
        if self.outcome == ERRORED:
            return f"errored: {self.message.split(':')[0][:80]}"
        shape = field_shape(in_observation(self.where)) if self.where else "(no path)"
        return f"{self.clause or 'no clause'} at {shape}"


@dataclass(frozen=True, slots=True)
class Skip:
    """One skipped result."""

    case_id: str
    level: str
    reason: str


@dataclass(slots=True)
class ReportInput:
    """A whole conformance run as the HTML report reads it."""

    engine: str
    counts: dict[str, dict[str, int]]
    failures: list[FailureInput]
    skips: list[Skip]
    cases: list[tuple[str, str, str]]
    """Every result as (case id, level, outcome), for the coverage table."""
    hello: dict[str, Any] = field(default_factory=dict)
    seed: str | None = None
    games: int | None = None
    seconds: float | None = None
    decisions: int | None = None
    interrupted: bool = False
    coverage: Any = None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        for key in ("name", "text", "reading", "id"):
            if isinstance(value.get(key), str):
                return str(value[key])
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


CONFIDENCE_WORDS: Final = {"H": "high", "M": "medium", "L": "low"}
"""A clause's confidence letter (:class:`flip7_spec.clauses.Clause`) as a word."""


def untagged(text: str, clause: str | None, confidence: str | None) -> str:
    """``text`` without the `` [CLAUSE, CONFIDENCE]`` tag a diagnosis line carries (the page shows both
    beside it); unchanged when it carries no such tag."""
    if clause is None or confidence is None:
        return text
    return text.replace(f" [{clause}, {confidence}]", "", 1)


def diagnosis_from(value: Any) -> DiagnosisShown | None:
    """A :class:`DiagnosisShown` from a string or an object ``{text|reading|description, clause, confidence}``: the
    text without its ``[clause, confidence]`` tag, a confidence letter (``H``) as its word (``high``)."""
    if value is None or value == "" or value == {}:
        return None
    if isinstance(value, str):
        return DiagnosisShown(value)
    if isinstance(value, Mapping):
        text = next((str(value[k]) for k in ("text", "reading", "description", "misreading") if value.get(k)), None)
        clause = None if value.get("clause") is None else str(value["clause"])
        confidence = None if value.get("confidence") is None else str(value["confidence"])
        given = text or _text(value) or ""
        return DiagnosisShown(untagged(given, clause, confidence), clause,
                         None if confidence is None else CONFIDENCE_WORDS.get(confidence, confidence), given)
    return DiagnosisShown(str(value))


def shown_message(failure: FailureInput) -> str:
    """What a failure's message adds to the rest of its page: without the diagnosis the runner appends (shown
    on its own), and empty when all that is left is that the observation differs."""
    message = failure.message
    if failure.diagnosis is not None and failure.diagnosis.given:
        message = message.removesuffix(f"; {failure.diagnosis.given}")
    return "" if message == "observation differs" else message


def _differences(value: Any) -> list[Difference]:
    """A result's ``differences`` (each ``{where, expected, found}``, or ``path`` for ``where``), each path
    taken inside the observation."""
    if not isinstance(value, list):
        return []
    out = []
    for item in value:
        if isinstance(item, Mapping) and ("where" in item or "path" in item):
            where = item["where"] if "where" in item else item["path"]
            out.append(Difference(in_observation(where), item.get("expected"), item.get("found")))
    return out


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _dict_or_none(value: Any) -> dict[str, Any] | None:
    return dict(value) if isinstance(value, Mapping) else None


def _agreed(value: Any) -> Agreed | None:
    """An errored result's ``last_agreed`` (``{step, where, observation}``), when it holds an observation."""
    if not isinstance(value, Mapping) or not isinstance(value.get("observation"), Mapping):
        return None
    return Agreed(_int_or_none(value.get("step")), dict(value["observation"]))


def failure_from(record: Mapping[str, Any], trace: dict[str, Any] | None = None) -> FailureInput:
    """A :class:`FailureInput` from one result of a report (or a saved failure's record)."""
    hand = record.get("hand")
    return FailureInput(
        case_id=str(record.get("case_id", "?")), level=str(record.get("level", "?")),
        outcome=str(record.get("outcome", FAIL)), message=str(record.get("message") or ""),
        step=_int_or_none(record.get("step")), where=record.get("where"), expected=record.get("expected"),
        found=record.get("found"), clause=_text(record.get("clause")), decision=_dict_or_none(record.get("decision")),
        label=str(record.get("label") or ""), shrunk=record.get("shrunk"), raw=record.get("raw"),
        stderr=str(record.get("stderr") or ""),
        hand=[str(c) for c in hand] if isinstance(hand, list) else None, busted=bool(record.get("busted")),
        given_differences=_differences(record.get("differences")),
        expected_observation=_dict_or_none(record.get("expected_observation")),
        found_observation=_dict_or_none(record.get("found_observation")),
        compared=_text(record.get("compared")), diagnosis=diagnosis_from(record.get("diagnosis")),
        cause=_text(record.get("cause")), last_agreed=_agreed(record.get("last_agreed")), trace=trace)


def saved_failure(trace: Mapping[str, Any]) -> FailureInput | None:
    """The failure a trace saved by ``conform --save-failures`` records in ``header.provenance.failure``."""
    document = TraceDocument.maybe(dict(trace))
    record = document.provenance.get("failure") if document is not None else None
    if not isinstance(record, Mapping):
        return None
    return failure_from(record, dict(trace))


def _counts(document: Mapping[str, Any], results: list[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    given = document.get("counts")
    if isinstance(given, Mapping):  # in the order of the levels, whatever order the JSON keeps its keys in
        order = [level for level in LEVELS if level in given] + [level for level in given if level not in LEVELS]
        return {str(level): {o: int(row.get(o, 0)) for o in OUTCOMES} for level in order
                if isinstance(row := given[level], Mapping)}
    table: dict[str, dict[str, int]] = {level: dict.fromkeys(OUTCOMES, 0) for level in LEVELS}
    for result in results:
        row = table.setdefault(str(result.get("level")), dict.fromkeys(OUTCOMES, 0))
        outcome = str(result.get("outcome"))
        if outcome in row:
            row[outcome] += 1
    return table


def _failure(record: Mapping[str, Any], traces: Mapping[str, dict[str, Any]],
             saved: Mapping[str, dict[str, Any]]) -> FailureInput:
    case_id = str(record.get("case_id"))
    shrunk = saved.get(str(record.get("shrunk")))
    if shrunk is not None and record.get("outcome", FAIL) == FAIL:  # an error is shown where the case met it
        again = saved_failure(shrunk)
        if again is not None and again.level == record.get("level"):
            again.case_id, again.shrunk = case_id, str(record.get("shrunk"))
            return again
    return failure_from(record, traces.get(case_id))


def report_from(document: Mapping[str, Any], traces: Mapping[str, dict[str, Any]] | None = None,
                saved: Mapping[str, dict[str, Any]] | None = None) -> ReportInput:
    """A :class:`ReportInput` from a report document.

    ``traces`` maps case ids to the reference's traces of the cases (default: the report's own ``traces``,
    which ``conform --json`` writes for the failures the page draws in full); ``saved`` maps a result's ``shrunk`` path
    to the saved failure there, which then gives the failure as it happens on that small trace. A failure
    with neither is drawn from its observations alone.
    """
    if traces is None:  # the report's own: the games of the failures its page draws in full
        carried = document.get("traces")
        traces = {str(k): v for k, v in carried.items() if isinstance(v, dict)} if isinstance(carried, Mapping) \
            else {}
    saved = saved or {}
    raw_results = document.get("results")
    results = [r for r in raw_results if isinstance(r, Mapping)] if isinstance(raw_results, list) else []
    failures = [_failure(r, traces, saved) for r in results if r.get("outcome") in (FAIL, ERRORED)]
    skips = [Skip(str(r.get("case_id")), str(r.get("level")), str(r.get("message") or "no reason given"))
             for r in results if r.get("outcome") == SKIPPED]
    cases = [(str(r.get("case_id")), str(r.get("level")), str(r.get("outcome"))) for r in results
             if r.get("outcome") in (PASS, FAIL, ERRORED, SKIPPED)]
    hello = document.get("hello")
    seconds = document.get("seconds")
    return ReportInput(
        engine=str(document.get("engine", "an engine")), counts=_counts(document, results), failures=failures,
        skips=skips, cases=cases, hello=dict(hello) if isinstance(hello, Mapping) else {},
        seed=None if document.get("seed") is None else str(document.get("seed")),
        games=_int_or_none(document.get("games")),
        seconds=float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else None,
        decisions=_int_or_none(document.get("decisions")), interrupted=bool(document.get("interrupted")),
        coverage=document.get("coverage"))


def is_report(document: Any) -> bool:
    """Whether ``document`` is a conformance report (``conform --json``) rather than a trace."""
    return isinstance(document, Mapping) and isinstance(document.get("results"), list) and "format" not in document


def saved_traces(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The saved failures a report's results point at (``shrunk``), read from their files; a missing or
    unreadable file is left out (its failure is then drawn from the report alone)."""
    from pathlib import Path

    from flip7_spec.trace.reader import read_traces

    out: dict[str, dict[str, Any]] = {}
    for result in document.get("results") or []:
        shrunk = result.get("shrunk") if isinstance(result, Mapping) else None
        if not isinstance(shrunk, str) or shrunk in out or not Path(shrunk).is_file():
            continue
        for source in read_traces(Path(shrunk)):
            if source.error is None and isinstance(source.trace, dict):
                out[shrunk] = source.trace
            break
    return out


__all__ = ["Agreed", "DiagnosisShown", "Difference", "FailureInput", "ReportInput", "Skip", "diagnosis_from",
           "failure_from", "is_report", "parse_path", "report_from", "saved_failure", "saved_traces", "shown_message",
           "untagged"]
