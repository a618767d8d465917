"""What the HTML templates draw, built from the input model: the report (summary by level and by cause,
coverage, skips by reason, the failures, errors) and a trace's page (its header and rounds)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.htmlreport.cards import CardFace, face
from flip7_spec.htmlreport.differences import Path
from flip7_spec.htmlreport.failures import (
    DEFAULT_LIMITS,
    FailureView,
    Limits,
    failure_view,
    observation_or_none,
    select_full,
    step_words,
)
from flip7_spec.htmlreport.model import DiagnosisShown, Failure, ReportInput, saved_failure
from flip7_spec.htmlreport.steps import RoundView, decision_text, entries, rounds, seat_namer
from flip7_spec.htmlreport.tables import TableView, table, value_text
from flip7_spec.judge import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED
from flip7_spec.protocol import Level
from flip7_spec.results import CaseResult, LastAgreed
from flip7_spec.trace.document import TraceDocument
from flip7_spec.trace.show import describe_event


@dataclass(frozen=True, slots=True)
class FailureRow:
    """One failure as a row of the list of all failures."""

    number: int
    anchor: str | None
    case_id: str
    level: str
    step: str
    where: str
    expected: str
    found: str
    clause: str


@dataclass(frozen=True, slots=True)
class CauseRow:
    """One cause: how many failures share it, at which levels, and the first one drawn in full."""

    cause: str
    clause: str
    diagnosis: DiagnosisShown | None
    count: int
    levels: str
    first: str | None
    example: str


@dataclass(frozen=True, slots=True)
class SkipRow:
    """One reason for skipping, with how many cases it skipped and a few of them."""

    reason: str
    count: int
    levels: str
    examples: list[str]


@dataclass(frozen=True, slots=True)
class CountRow:
    """A row of counts per outcome (a level, a source of cases, or the total)."""

    name: str
    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass(frozen=True, slots=True)
class ErrorView:
    """One errored case: what went wrong, where (the step and its decision, or the hand of a scoring case),
    the last observation the engine and the reference agreed on before it, the raw reply, the engine's stderr
    up to that reply (its last lines), and the saved trace."""

    number: int
    anchor: str
    case_id: str
    level: str
    message: str
    raw: str | None
    stderr: list[str]
    at: str = ""
    """``step 12: seat 2 stays``, ``the start``, or empty when the report does not say."""
    label: str = ""
    shrunk: str | None = None
    hand: list[CardFace] | None = None
    busted: bool = False
    agreed: TableView | None = None
    """The last observation both sides agreed on, drawn as a failure's tables are."""
    agreed_at: str = ""
    """Where that was: ``step 11: seat 1: hit`` or ``the start``."""
    agreed_events: list[str] = field(default_factory=list)
    """What the reference's trace says happened at that step, when the trace is known."""


STDERR_SHOWN = 12
"""The last lines of an errored case's stderr excerpt the page shows (the JSON report has the excerpt whole)."""


def error_view(failure: Failure, number: int, agreed: bool = True) -> ErrorView:
    """One errored case as the page draws it (with the last observation both sides agreed on, when the
    result holds one and ``agreed``)."""
    result, document = failure.result, failure.trace
    at = ""
    if result.step is not None:
        seat = seat_namer(document.names if document is not None else ())
        decision = f": {decision_text(result.decision, None, seat)}" if result.decision else ""
        at = f"{step_words(result.step)}{decision}"
    elif result.where == "$.start":
        at = "the start"
    drawn, agreed_at, events = None, "", list[str]()
    if result.last_agreed is not None and agreed:
        shown = _agreed(result.last_agreed, document)
        if shown is not None:
            drawn, agreed_at, events = shown
    return ErrorView(number, f"e{number}", result.case_id, str(result.level), result.message, result.raw,
                     result.stderr.strip().splitlines()[-STDERR_SHOWN:], at, result.label, result.shrunk,
                     [face(c) for c in result.hand] if result.hand is not None else None, bool(result.busted),
                     drawn, agreed_at, events)


def _agreed(agreed: LastAgreed, document: TraceDocument | None) -> tuple[TableView, str, list[str]] | None:
    """The last observation both sides agreed on as a table, where it was (its step, and the decision that led
    to it when ``document``, the case's trace, is known), and what the trace says happened there; None when
    the result holds no observation there to draw."""
    observation = observation_or_none(agreed.observation)
    if observation is None:
        return None
    seat = seat_namer(document.names if document is not None else ())
    drawn, at = table(observation, seat), step_words(agreed.step)
    events: list[str] = []
    entry = None if document is None else next((e for e in entries(document) if e.index == agreed.step
                                                and e.reshuffle is None), None)
    if entry is not None:
        if entry.decision is not None:
            at += f": {decision_text(entry.decision, entry.before, seat)}"
        events = [describe_event(e, seat) for e in entry.events if e.get("event") != "round_start"]
    return drawn, at, events


@dataclass(slots=True)
class ReportPage:
    """The conformance report."""

    title: str
    engine: str
    facts: list[tuple[str, str]]
    verdict: str
    passed: bool
    levels: list[CountRow]
    total: CountRow
    causes: list[CauseRow]
    coverage: list[CountRow]
    coverage_given: list[tuple[str, list[tuple[str, str]]]]
    declared: list[tuple[str, str]]
    skips: list[SkipRow]
    failures: list[FailureView]
    listed: list[FailureRow]
    unlisted: int
    failure_count: int
    errors: list[ErrorView]
    per_cause: int
    full_failures: int
    outcomes: tuple[str, ...] = OUTCOMES


@dataclass(slots=True)
class TracePage:
    """A trace drawn round by round, with its saved failure's divergence panel when it records one."""

    title: str
    description: str | None
    facts: list[tuple[str, str]]
    deck: list[CardFace]
    deck_more: int
    rounds: list[RoundView]
    ending: str
    failure: FailureView | None = None
    error: ErrorView | None = None


def _count_rows(results: Sequence[CaseResult]) -> list[CountRow]:
    """Results per source of cases (scoring, fixture, generated round and game cases) and ruleset or folder."""
    table: dict[str, dict[str, int]] = {}
    for result in results:
        if result.level == Level.LEGAL:
            continue
        outcome = result.outcome
        source, _, rest = result.case_id.partition(":")
        group = rest.replace(":", "/").split("/")[0] if rest else ""
        name = f"{source} · {group}" if group else source
        row = table.setdefault(name, dict.fromkeys(OUTCOMES, 0))
        if outcome in row:
            row[outcome] += 1
    order = {"scoring": 0, "fixture": 1, "round": 2, "game": 3}
    return [CountRow(name, counts) for name, counts in
            sorted(table.items(), key=lambda item: (order.get(item[0].split(" · ")[0], 4), item[0]))]


def _clause_coverage(entry: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """One ruleset's clause coverage as ``conform --json`` writes it (``ruleset``, ``expected`` and ``reached``
    counts, ``least``, per-clause ``counts``, ``unreached``, ``unreachable`` with reasons) as a titled list."""
    rows = [("reached", f"{entry.get('reached', '?')} of {entry.get('expected', '?')} clauses"
             + (f", each by at least {entry['least']} case{'s' if entry['least'] != 1 else ''}"
                if isinstance(entry.get("least"), int) and entry["least"] > 0 else ""))]
    unreached = entry.get("unreached")
    if isinstance(unreached, list):
        rows.append(("unreached", ", ".join(str(c) for c in unreached) or "none"))
    unreachable = entry.get("unreachable")
    if isinstance(unreachable, list) and unreachable:
        rows.append(("not expected", "; ".join(f"{u.get('clause')}: {u.get('reason')}" if isinstance(u, dict)
                                               else value_text(u) for u in unreachable)))
    counts = entry.get("counts")
    if isinstance(counts, dict):
        rows.append(("cases per clause", ", ".join(f"{k} {value_text(v)}" for k, v in counts.items())))
    return f"clauses of {entry.get('ruleset')}", rows


def _given_coverage(coverage: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """A coverage mapping as titled lists of (name, value); nested mappings become their own lists. The clause
    coverage ``conform --json`` writes (a list with one object per ruleset) is one list per ruleset."""
    if isinstance(coverage, list) and coverage and all(isinstance(c, dict) and "ruleset" in c for c in coverage):
        return [_clause_coverage(c) for c in coverage]
    if not isinstance(coverage, dict):
        return [] if coverage is None else [("coverage", [("", value_text(coverage))])]
    flat = [(str(k), value_text(v)) for k, v in coverage.items() if not isinstance(v, dict)]
    out = [("coverage", flat)] if flat else []
    for key, value in coverage.items():
        if isinstance(value, dict):
            out.append((str(key), [(str(k), value_text(v)) for k, v in value.items()]))
    return out


def _declared(hello: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    if hello.get("name"):
        out.append(("engine", f"{hello.get('name')} {hello.get('version', '')}".strip()))
    for key in ("rulesets", "levels"):
        if isinstance(hello.get(key), list):
            out.append((key, ", ".join(str(v) for v in hello[key])))
    options = hello.get("options")
    if isinstance(options, dict) and options:
        out.append(("options", "; ".join(f"{k}: {value_text(v)}" for k, v in sorted(options.items()))))
    return out


def _causes(failures: Sequence[Failure], anchors: dict[int, str]) -> list[CauseRow]:
    groups: dict[str, list[int]] = {}
    for position, failure in enumerate(failures):
        groups.setdefault(failure.cause_key, []).append(position)
    rows = []
    for cause, positions in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        first = failures[positions[0]]
        clauses = sorted({f.result.clause for f in (failures[p] for p in positions) if f.result.clause})
        levels = sorted({str(failures[p].result.level) for p in positions})
        anchor = next((anchors[p] for p in positions if p in anchors), None)
        rows.append(CauseRow(cause, ", ".join(clauses), first.diagnosis, len(positions), ", ".join(levels), anchor,
                             first.result.case_id))
    return rows


def _skips(report: ReportInput) -> list[SkipRow]:
    groups: dict[str, list[tuple[str, str]]] = {}
    for result in report.results:
        if result.outcome == SKIPPED:
            groups.setdefault(result.message or "no reason given", []).append((result.case_id, str(result.level)))
    return [SkipRow(reason, len(items), ", ".join(sorted({lv for _, lv in items})), [c for c, _ in items[:3]])
            for reason, items in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))]


def _facts(report: ReportInput) -> list[tuple[str, str]]:
    out = [("engine", report.engine)]
    if report.seed is not None:
        out.append(("seed", report.seed))
    if report.games is not None:
        out.append(("generated games", str(report.games)))
    if report.decisions is not None:
        out.append(("decisions played", f"{report.decisions:,}"))
    if report.seconds is not None:
        out.append(("time", f"{report.seconds:.2f} s"))
    if report.interrupted:
        out.append(("interrupted", "yes: the report holds the cases that finished"))
    return out


def report_page(report: ReportInput, limits: Limits = DEFAULT_LIMITS) -> ReportPage:
    """The conformance report's page."""
    failed = [f for f in report.failures if f.result.outcome == FAIL]
    errored = [f for f in report.failures if f.result.outcome == ERRORED]
    chosen = select_full(failed, limits)
    views = [failure_view(failed[p], number, limits) for number, p in enumerate(chosen, start=1)]
    anchors = {p: view.anchor for p, view in zip(chosen, views, strict=True)}
    listed = [FailureRow(n, anchors.get(p), r.case_id, str(r.level), step_words(r.step) if r.hand is None else "",
                         r.where or "", value_text(r.expected), value_text(r.found), r.clause or "")
              for n, (p, r) in enumerate([(p, f.result) for p, f in enumerate(failed)][:limits.listed_failures],
                                         start=1)]
    levels = [CountRow(level, dict(row)) for level, row in report.counts.items()]
    total = CountRow("total", {o: sum(r.counts.get(o, 0) for r in levels) for o in OUTCOMES})
    passed = total.counts[FAIL] == 0 and total.counts[ERRORED] == 0
    if passed:
        verdict = f"Every case that ran passed: {total.counts[PASS]} passed, {total.counts[SKIPPED]} skipped."
    else:
        verdict = (f"{total.counts[FAIL]} failed and {total.counts[ERRORED]} errored of {total.total} results "
                   f"({total.counts[PASS]} passed, {total.counts[SKIPPED]} skipped).")
    # Like the failures drawn in full, only so many errors are drawn with a table: the page stays bounded.
    errors = [error_view(f, n, agreed=n <= limits.full_failures) for n, f in enumerate(errored, start=1)]
    return ReportPage(
        title=f"Conformance of {report.engine}", engine=report.engine, facts=_facts(report), verdict=verdict,
        passed=passed, levels=levels, total=total, causes=_causes(failed, anchors),
        coverage=_count_rows(report.results), coverage_given=_given_coverage(report.coverage),
        declared=_declared(report.hello), skips=_skips(report),
        failures=views, listed=listed, unlisted=max(0, len(failed) - limits.listed_failures),
        failure_count=len(failed), errors=errors, per_cause=limits.per_cause, full_failures=limits.full_failures)


def _ruleset_text(value: Any) -> str:
    if isinstance(value, dict):
        name = value.get("name", "?")
        base = value.get("base")
        description = value.get("description")
        return f"{name}" + (f" (base {base})" if base and base != name else "") + (
            f": {description}" if description else "")
    return value_text(value)


def trace_page(trace: dict[str, Any], source: str, limits: Limits = DEFAULT_LIMITS) -> TracePage:
    """A trace's page, round by round (``trace`` already checked against the schema)."""
    document = TraceDocument.of(trace)
    seat = seat_namer(document.names)
    failure = saved_failure(trace)
    view = None
    error = None
    marks = None
    if failure is not None and failure.result.outcome == ERRORED:
        error = error_view(failure, 1)
        result = failure.result
        errored_at = result.step if result.step is not None or result.where == "$.start" else -1

        def marks(entry: Any) -> tuple[Sequence[Path], str]:
            return ((), "errored") if entry.index == errored_at and entry.reshuffle is None else ((), "")
    elif failure is not None:
        view = failure_view(failure, 1, limits, with_window=False)  # the whole trace follows
        differing = [d.path for d in failure.differences]
        failed_at = failure.result.step

        def marks(entry: Any) -> tuple[Sequence[Path], str]:
            return (differing, "divergence") if entry.index == failed_at else ((), "")

    drawn = rounds(document, seat, "", marks)
    if view is not None:
        at = next((s for r in drawn for s in r.steps if s.role == "divergence"), None)
        if at is not None:
            view.panel.previous, view.panel.next = at.previous, at.next
            view.panel.events = list(at.events)
            at.table = None  # drawn in the panel, both sides
    table = document.table
    facts = [("ruleset", _ruleset_text(document.ruleset_json)),
             ("players", ", ".join(seat(i) for i in range(table.players))),
             ("Dealer of round 1", seat(table.dealer)), ("source", source)]
    if document.rules_version:
        facts.append(("rules version", document.rules_version))
    if document.clauses:
        facts.append(("clauses", " ".join(str(c) for c in document.clauses)))
    provenance = {k: v for k, v in document.provenance.items() if k != "failure"}
    if provenance:
        facts.append(("provenance", value_text(provenance)))
    deck = list(table.deck)
    footer = document.footer
    if footer is not None:
        winners = footer.get("winners", [])
        after = f" after {footer['rounds']} rounds" if "rounds" in footer else ""
        totals = ", ".join(f"{seat(i)}: {t}" for i, t in enumerate(footer.get("totals", [])))
        ending = f"Game over{after}: {'winner' if len(winners) == 1 else 'winners'} " \
                 f"{', '.join(seat(w) for w in winners)}; totals {totals}."
    else:
        ending = "The trace ends here: a partial game (no footer)."
    title = "Saved error" if error is not None else "Saved failure" if failure is not None else "Trace"
    return TracePage(f"{title}: {source}", document.description, facts, [face(c) for c in deck[:24]],
                     max(0, len(deck) - 24), drawn, ending, view, error)


__all__ = ["ReportPage", "TracePage", "report_page", "trace_page"]
