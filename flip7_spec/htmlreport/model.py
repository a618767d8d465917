"""The input of the HTML pages: a conformance run's results as the run recorded them, and the traces of the
failing cases.

A result is a :class:`~flip7_spec.results.CaseResult`: the record the runner made, read back from a ``conform
--json`` report (:func:`flip7_spec.conformance.report.report_document`) by ``CaseResult.from_json``, or from a
saved failure's ``header.provenance.failure``. The page shows what the run recorded and nothing more: the fields
that differ are the result's ``differences`` as the comparison listed them (a result without that list, a
scoring case's or a reshuffle failure's, shows its first difference, ``where``, alone); no game is played again
and no observation compared again here. The only types of this module are what a page needs beside the record:
a :class:`Failure` (a failing result with the trace it is drawn on), a diagnosis as a page shows it
(:class:`DiagnosisShown`), and the run's own facts (:class:`ReportInput`).

The report's own fields the page reads: ``engine``, ``hello``, ``seed``, ``games``, ``seconds``, ``decisions``,
``interrupted``, ``counts`` (per level and outcome; rebuilt from the results when absent), ``traces`` (the
reference's traces of the failures the page draws in full, by case id) and ``coverage`` (the list of per-ruleset
clause coverage ``conform --json`` writes, or any mapping of names to counts, or of names to such mappings).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from flip7_spec.errors import InputError
from flip7_spec.htmlreport.differences import Difference, field_shape, in_observation, parse_path
from flip7_spec.judge import ERRORED, FAIL, OUTCOMES
from flip7_spec.protocol import LEVELS
from flip7_spec.results import CaseResult, Explanation
from flip7_spec.trace.document import TraceDocument


class ReportError(InputError):
    """A document read as a ``conform --json`` report whose results are not results of one."""


@dataclass(frozen=True, slots=True)
class DiagnosisShown:
    """Why the engine differs, as a page shows it: the reading's text without its ``[clause, confidence]``
    tag, the clause, and how sure it is as a word."""

    text: str
    clause: str | None = None
    confidence: str | None = None
    given: str = ""
    """The line as the result gives it (the result's message repeats it)."""


CONFIDENCE_WORDS: Final = {"H": "high", "M": "medium", "L": "low"}
"""A clause's confidence letter (:class:`flip7_spec.clauses.Clause`) as a word."""


def untagged(text: str, clause: str | None, confidence: str | None) -> str:
    """``text`` without the `` [CLAUSE, CONFIDENCE]`` tag a diagnosis line carries (the page shows both
    beside it); unchanged when it carries no such tag."""
    if clause is None or confidence is None:
        return text
    return text.replace(f" [{clause}, {confidence}]", "", 1)


def diagnosis_shown(explanation: Explanation | None) -> DiagnosisShown | None:
    """A result's diagnosis as the page shows it: its text (else the reading, the description, the
    misreading's name, else the explanation as JSON) without its tag, a confidence letter (``H``) as its word
    (``high``)."""
    if explanation is None:
        return None
    parts = (explanation.text, explanation.reading, explanation.description, explanation.misreading)
    given = next((str(p) for p in parts if p), None) or json.dumps(explanation.to_json(), sort_keys=True,
                                                                   ensure_ascii=False)
    confidence = explanation.confidence
    return DiagnosisShown(untagged(given, explanation.clause, confidence), explanation.clause,
                          None if confidence is None else CONFIDENCE_WORDS.get(confidence, confidence), given)


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed or errored result, with the trace it is drawn on when known: the reference's trace of the
    case, or the saved shrunk trace the result was recorded on."""

    result: CaseResult
    trace: TraceDocument | None = None

    @property
    def differences(self) -> list[Difference]:
        """Every differing field as the result lists them (exact JSON: ``1``, ``1.0`` and ``true`` differ),
        each at its path inside the observation; the first difference alone when the result lists none."""
        result = self.result
        if result.differences:
            return [Difference(in_observation(d.where), d.expected, d.found) for d in result.differences]
        if result.where is None:
            return []
        return [Difference(in_observation(result.where), result.expected, result.found)]

    @property
    def diagnosis(self) -> DiagnosisShown | None:
        return diagnosis_shown(self.result.diagnosis)

    @property
    def cause_key(self) -> str:
        """The group of this failure: its diagnosis, else (an error) what went wrong, else the clause and the
        kind of field."""
        diagnosis = self.diagnosis
        if diagnosis is not None:
            return diagnosis.text
        result = self.result
        if result.outcome == ERRORED:
            return f"errored: {result.message.split(':')[0][:80]}"
        shape = field_shape(in_observation(result.where)) if result.where else "(no path)"
        return f"{result.clause or 'no clause'} at {shape}"

    @property
    def message(self) -> str:
        """What the result's message adds to the rest of its page: without the diagnosis the runner appends
        (shown on its own), and empty when all that is left is that the observation differs."""
        message = self.result.message
        diagnosis = self.diagnosis
        if diagnosis is not None and diagnosis.given:
            message = message.removesuffix(f"; {diagnosis.given}")
        return "" if message == "observation differs" else message


@dataclass(slots=True)
class ReportInput:
    """A whole conformance run as the HTML report reads it: every result, the failing ones with their traces,
    and the run's facts."""

    engine: str
    counts: dict[str, dict[str, int]]
    results: list[CaseResult]
    failures: list[Failure]
    """The failed and errored results, in the report's order."""
    hello: dict[str, Any] = field(default_factory=dict)
    seed: str | None = None
    games: int | None = None
    seconds: float | None = None
    decisions: int | None = None
    interrupted: bool = False
    coverage: Any = None


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def report_results(document: Mapping[str, Any]) -> list[CaseResult]:
    """The results of a report, each read back into the record the run made (``CaseResult.from_json``);
    :class:`ReportError` naming the first that cannot be."""
    results = document.get("results")
    if not isinstance(results, list):
        raise ReportError("a conform --json report holds a list of results")
    out = []
    for index, value in enumerate(results):
        try:
            if not isinstance(value, dict):
                raise TypeError(f"an object, not {type(value).__name__}")
            out.append(CaseResult.from_json(value))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            problem = f"no {error}" if isinstance(error, KeyError) else str(error)
            raise ReportError(f"results[{index}] is not a result of conform --json: {problem}") from None
    return out


def saved_failure(trace: Any) -> Failure | None:
    """The failure a trace saved by ``conform --save-failures`` records in ``header.provenance.failure``, on
    that trace; None when the trace records none (or none that reads as a result: the trace is then shown
    alone)."""
    document = TraceDocument.maybe(trace)
    record = document.provenance.get("failure") if document is not None else None
    if not isinstance(record, dict):
        return None
    try:
        return Failure(CaseResult.from_json(record), document)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _counts(document: Mapping[str, Any], results: list[CaseResult]) -> dict[str, dict[str, int]]:
    given = document.get("counts")
    if isinstance(given, Mapping):  # in the order of the levels, whatever order the JSON keeps its keys in
        order = [level for level in LEVELS if level in given] + [level for level in given if level not in LEVELS]
        return {str(level): {o: int(row.get(o, 0)) for o in OUTCOMES} for level in order
                if isinstance(row := given[level], Mapping)}
    table: dict[str, dict[str, int]] = {level: dict.fromkeys(OUTCOMES, 0) for level in LEVELS}
    for result in results:
        table.setdefault(str(result.level), dict.fromkeys(OUTCOMES, 0))[result.outcome] += 1
    return table


def _failure(result: CaseResult, traces: Mapping[str, TraceDocument], saved: Mapping[str, Any]) -> Failure:
    """A failing result with its trace: a failure saved shrunk is shown as it happens on its small trace (an
    error is shown where the case met it)."""
    shrunk = saved.get(result.shrunk) if result.shrunk is not None else None
    if shrunk is not None and result.outcome == FAIL:
        again = saved_failure(shrunk)
        if again is not None and again.result.level == result.level:
            return Failure(replace(again.result, case_id=result.case_id, shrunk=result.shrunk), again.trace)
    return Failure(result, traces.get(result.case_id))


def _documents(traces: Mapping[str, Any]) -> dict[str, TraceDocument]:
    """The traces by case id that read as traces (any other is left out: its failure is drawn without it)."""
    out = {}
    for case_id, trace in traces.items():
        document = TraceDocument.maybe(trace)
        if document is not None:
            out[str(case_id)] = document
    return out


def report_from(document: Mapping[str, Any], traces: Mapping[str, Any] | None = None,
                saved: Mapping[str, Any] | None = None, results: list[CaseResult] | None = None) -> ReportInput:
    """A :class:`ReportInput` from a report document (:class:`ReportError` when its results do not read).

    ``traces`` maps case ids to the reference's traces of the cases (default: the report's own ``traces``,
    which ``conform --json`` writes for the failures the page draws in full); ``saved`` maps a result's
    ``shrunk`` path to the saved failure there, which then gives the failure as it happens on that small trace.
    A failure with neither is drawn from its result alone. ``results``: the document's results already read
    (:func:`report_results`).
    """
    if traces is None:  # the report's own: the games of the failures its page draws in full
        carried = document.get("traces")
        traces = carried if isinstance(carried, Mapping) else {}
    documents = _documents(traces)
    read = report_results(document) if results is None else results
    failures = [_failure(r, documents, saved or {}) for r in read if r.outcome in (FAIL, ERRORED)]
    hello = document.get("hello")
    seconds = document.get("seconds")
    return ReportInput(
        engine=str(document.get("engine", "an engine")), counts=_counts(document, read), results=read,
        failures=failures, hello=dict(hello) if isinstance(hello, Mapping) else {},
        seed=None if document.get("seed") is None else str(document.get("seed")),
        games=_int_or_none(document.get("games")),
        seconds=float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else None,
        decisions=_int_or_none(document.get("decisions")), interrupted=bool(document.get("interrupted")),
        coverage=document.get("coverage"))


def report_with_saved(document: Mapping[str, Any]) -> ReportInput:
    """The page's input for a saved report, as ``show --html`` draws it. A report that carries the games of
    its failures (``traces``, written since the JSON report carries them) is drawn as the run drew it, each
    failure as the run found it: :func:`report_from`. An older report, which carries none, gets the saved
    failures its results point at (``shrunk``) read from their files, each such failure then drawn as it
    happens on its small trace."""
    if isinstance(document.get("traces"), Mapping):
        return report_from(document)
    results = report_results(document)
    return report_from(document, saved=saved_traces(results), results=results)


def is_report(document: Any) -> bool:
    """Whether ``document`` is a conformance report (``conform --json``) rather than a trace."""
    return isinstance(document, Mapping) and isinstance(document.get("results"), list) and "format" not in document


def saved_traces(results: Iterable[CaseResult]) -> dict[str, dict[str, Any]]:
    """The saved failures the results point at (``shrunk``), read from their files; a missing or unreadable
    file is left out (its failure is then drawn from the report alone)."""
    from flip7_spec.trace.reader import read_traces

    out: dict[str, dict[str, Any]] = {}
    for result in results:
        shrunk = result.shrunk
        if shrunk is None or shrunk in out or not Path(shrunk).is_file():
            continue
        for source in read_traces(Path(shrunk)):
            if source.error is None and isinstance(source.trace, dict):
                out[shrunk] = source.trace
            break
    return out


__all__ = ["CONFIDENCE_WORDS", "DiagnosisShown", "Difference", "Failure", "ReportError", "ReportInput",
           "diagnosis_shown", "is_report", "parse_path", "report_from", "report_results", "report_with_saved",
           "saved_failure", "saved_traces", "untagged"]
