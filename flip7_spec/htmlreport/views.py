"""What the HTML templates draw, built from the input model: the summary by level and by cause, coverage,
skips by reason, each failure (its divergence panel and the game up to it), errors, and a trace's rounds.

The page stays bounded however large the run: at most ``Limits.full_failures`` failures are drawn in full
(the first ``Limits.per_cause`` of each cause), each with at most ``steps_before`` steps before its divergence
and ``steps_after`` after; every other failure is one row of the list, and the rest only a count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.conformance import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED
from flip7_spec.htmlreport.cards import CardFace, face
from flip7_spec.htmlreport.differences import Difference, Path, path_text
from flip7_spec.htmlreport.model import Diagnosis, FailureInput, ReportInput, failure_from, saved_failure
from flip7_spec.htmlreport.steps import RoundView, Window, anchor_of, decision_text, rounds, seat_namer, window
from flip7_spec.htmlreport.tables import Seat, TableView, table, value_text
from flip7_spec.trace.show import describe_event


@dataclass(frozen=True, slots=True)
class Limits:
    """How much of a large run the page draws."""

    full_failures: int = 16
    per_cause: int = 3
    steps_before: int = 15
    steps_after: int = 3
    listed_failures: int = 2000


DEFAULT_LIMITS = Limits()

@dataclass(frozen=True, slots=True)
class DifferenceRow:
    """One differing field: its JSON path, what it is in words, and both values."""

    path: str
    about: str
    expected: str
    found: str


@dataclass(slots=True)
class Panel:
    """The divergence: the reference's and the engine's tables side by side (or a scoring hand), the
    differing fields, what the reference did at that step, and links to the steps around it."""

    anchor: str
    title: str
    expected: TableView | None = None
    found: TableView | None = None
    differences: list[DifferenceRow] = field(default_factory=list)
    differences_source: str = ""
    events: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hand: list[CardFace] | None = None
    previous: str | None = None
    next: str | None = None


@dataclass(slots=True)
class FailureView:
    """One failure drawn in full."""

    number: int
    anchor: str
    title: str
    case_id: str
    level: str
    summary: str
    clause: str | None
    label: str
    message: str
    cause: str
    diagnosis: Diagnosis | None
    shrunk: str | None
    panel: Panel
    window: Window | None


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
    diagnosis: Diagnosis | None
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
    """One errored case: what went wrong, the raw reply and the tail of the engine's stderr."""

    number: int
    anchor: str
    case_id: str
    level: str
    message: str
    raw: str | None
    stderr: list[str]


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


def describe_path(path: Path, seat: Seat) -> str:
    """What a path inside the observation names, in words (``seat 2, card 4``)."""
    if len(path) >= 2 and path[0] == "players" and isinstance(path[1], int):
        rest = path[2:]
        if len(rest) >= 2 and rest[0] == "cards" and isinstance(rest[1], int):
            return f"{seat(path[1])}, card {rest[1] + 1}"
        return f"{seat(path[1])}, " + (path_text(rest).replace("_", " ") if rest else "the whole row")
    if len(path) >= 2 and path[0] == "in_play" and isinstance(path[1], int):
        return f"in play, card {path[1] + 1}"
    names = {"draw_pile": "draw pile (cards)", "discard_pile": "discard pile (cards)", "pending": "pending decision",
             "in_play": "cards in play", "round": "round", "dealer": "Dealer", "over": "game over",
             "winners": "winners", "score": "round score of the hand"}
    if path and isinstance(path[0], str) and path[0] in names:
        return names[path[0]] + (f" ({path_text(path[1:])})" if len(path) > 1 else "")
    return path_text(path)


def _rows(differences: Sequence[Difference], seat: Seat) -> list[DifferenceRow]:
    return [DifferenceRow(path_text(d.path), describe_path(d.path, seat), value_text(d.expected),
                          value_text(d.found)) for d in differences]


def _source(failure: FailureInput) -> str:
    if failure.given_differences:
        return "as the report lists them"
    if failure.expected_observation is not None and failure.found_observation is not None:
        return "computed from the two observations"
    return "the first difference only (the report holds no observations)"


def _step_words(step: int | None) -> str:
    return "the start" if step is None else f"step {step}"


def _panel(failure: FailureInput, prefix: str, seat: Seat, win: Window | None) -> Panel:
    anchor = f"{prefix}divergence"
    if failure.hand is not None:  # a scoring case: the hand, and both scores
        busted = " (busted)" if failure.busted else ""
        return Panel(anchor, f"the round score of this hand{busted}", hand=[face(c) for c in failure.hand],
                     differences=_rows(failure.differences, seat), differences_source="the score")
    decision = failure.decision or (win.divergence.decision if win and win.divergence else None)
    before = win.divergence.before if win and win.divergence else None
    title = _step_words(failure.step) + (f": {decision_text(decision, before, seat)}" if decision else "")
    differing = [d.path for d in failure.differences]
    expected = failure.expected_observation
    if expected is None and win is not None and win.divergence is not None:
        expected = win.divergence.observation
    panel = Panel(anchor, title, differences=_rows(failure.differences, seat), differences_source=_source(failure))
    if expected is not None:
        panel.expected = table(expected, seat, differing, "reference")
    if failure.found_observation is not None:
        panel.found = table(failure.found_observation, seat, differing, "engine")
    else:
        panel.notes.append(f"This report does not hold the engine's observation: at {failure.where or '?'} it gave "
                           f"{value_text(failure.found)} where the reference has {value_text(failure.expected)}.")
    if failure.compared == "totals":
        panel.notes.append("Only the players' totals are compared at this step: the round case ends here, and the "
                           "observation already shows the next round dealt.")
    if failure.level == "legal":
        panel.notes.append("A legal-level failure: the legal choices offered (the pending decision's options) "
                           "differ; everything else matched.")
    if win is not None and win.divergence is not None:
        panel.events = [describe_event(e, seat) for e in win.divergence.events if e.get("event") != "round_start"]
        at = next((i for i, s in enumerate(win.steps) if s.role == "divergence"), None)
        if at is not None:
            panel.previous = win.steps[at - 1].anchor if at > 0 else None
            panel.next = win.steps[at + 1].anchor if at + 1 < len(win.steps) else None
    return panel


def failure_view(failure: FailureInput, number: int, limits: Limits = DEFAULT_LIMITS, with_window: bool = True
                 ) -> FailureView:
    """One failure drawn in full (with the game up to it when its trace is known and ``with_window``)."""
    prefix = f"f{number}-"
    header = failure.trace.get("header") if failure.trace else None
    seat = seat_namer(header)
    win = None
    if failure.trace is not None and failure.hand is None and with_window:
        win = window(failure.trace, failure.step, seat, prefix, limits.steps_before, limits.steps_after,
                     [d.path for d in failure.differences])
        if not win.steps:
            win = None
    panel = _panel(failure, prefix, seat, win)
    if win is not None:
        for step in win.steps:
            if step.role == "divergence":
                step.table = None  # drawn in the panel, both sides
    summary = (f"{failure.where or '?'}: expected {value_text(failure.expected)}, found {value_text(failure.found)}")
    title = f"{failure.case_id} [{failure.level}] at {_step_words(failure.step)}" if failure.hand is None else \
        f"{failure.case_id} [{failure.level}]"
    return FailureView(number, f"f{number}", title, failure.case_id, failure.level, summary, failure.clause,
                       failure.label, failure.message, failure.cause_key, failure.diagnosis, failure.shrunk, panel, win)


def _select(failures: Sequence[FailureInput], limits: Limits) -> list[int]:
    """The positions of the failures drawn in full: the first few of each cause, up to the cap."""
    chosen: list[int] = []
    per_cause: Counter[str] = Counter()
    for position, failure in enumerate(failures):
        if len(chosen) >= limits.full_failures:
            break
        key = failure.cause_key
        if per_cause[key] < limits.per_cause:
            per_cause[key] += 1
            chosen.append(position)
    return chosen


class TraceKeeper:
    """Keeps, while a run goes on, only the traces of the failures the page will draw in full."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.traces: dict[str, dict[str, Any]] = {}
        self._per_cause: Counter[str] = Counter()
        self._kept = 0

    def offer(self, records: Sequence[dict[str, Any]], trace: dict[str, Any] | None) -> None:
        """Keep ``trace`` if one of the failing ``records`` (a case's results as JSON) will be drawn in full."""
        if trace is None:
            return
        for record in records:
            if record.get("outcome") != FAIL or self._kept >= self.limits.full_failures:
                continue
            key = failure_from(record).cause_key
            if self._per_cause[key] < self.limits.per_cause:
                self._per_cause[key] += 1
                self._kept += 1
                self.traces[str(record.get("case_id"))] = trace


def _count_rows(cases: Sequence[tuple[str, str, str]]) -> list[CountRow]:
    """Results per source of cases (scoring, fixture, generated round and game cases) and ruleset or folder."""
    table: dict[str, dict[str, int]] = {}
    for case_id, level, outcome in cases:
        if level == "legal":
            continue
        source, _, rest = case_id.partition(":")
        group = rest.replace(":", "/").split("/")[0] if rest else ""
        name = f"{source} · {group}" if group else source
        row = table.setdefault(name, dict.fromkeys(OUTCOMES, 0))
        if outcome in row:
            row[outcome] += 1
    return [CountRow(name, counts) for name, counts in sorted(table.items())]


def _given_coverage(coverage: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """A coverage mapping as titled lists of (name, value); nested mappings become their own lists."""
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


def _causes(failures: Sequence[FailureInput], anchors: dict[int, str]) -> list[CauseRow]:
    groups: dict[str, list[int]] = {}
    for position, failure in enumerate(failures):
        groups.setdefault(failure.cause_key, []).append(position)
    rows = []
    for cause, positions in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        first = failures[positions[0]]
        clauses = sorted({f.clause for f in (failures[p] for p in positions) if f.clause})
        levels = sorted({failures[p].level for p in positions})
        anchor = next((anchors[p] for p in positions if p in anchors), None)
        rows.append(CauseRow(cause, ", ".join(clauses), first.diagnosis, len(positions), ", ".join(levels), anchor,
                             first.case_id))
    return rows


def _skips(report: ReportInput) -> list[SkipRow]:
    groups: dict[str, list[tuple[str, str]]] = {}
    for skip in report.skips:
        groups.setdefault(skip.reason, []).append((skip.case_id, skip.level))
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
    failed = [f for f in report.failures if f.outcome == FAIL]
    errored = [f for f in report.failures if f.outcome == ERRORED]
    chosen = _select(failed, limits)
    views = [failure_view(failed[p], number, limits) for number, p in enumerate(chosen, start=1)]
    anchors = {p: view.anchor for p, view in zip(chosen, views, strict=True)}
    listed = [FailureRow(n, anchors.get(p), f.case_id, f.level, _step_words(f.step) if f.hand is None else "",
                         f.where or "", value_text(f.expected), value_text(f.found), f.clause or "")
              for n, (p, f) in enumerate(list(enumerate(failed))[:limits.listed_failures], start=1)]
    levels = [CountRow(level, dict(row)) for level, row in report.counts.items()]
    total = CountRow("total", {o: sum(r.counts.get(o, 0) for r in levels) for o in OUTCOMES})
    passed = total.counts[FAIL] == 0 and total.counts[ERRORED] == 0
    if passed:
        verdict = (f"Every case ran passed: {total.counts[PASS]} passed, {total.counts[SKIPPED]} skipped.")
    else:
        verdict = (f"{total.counts[FAIL]} failed and {total.counts[ERRORED]} errored of {total.total} results "
                   f"({total.counts[PASS]} passed, {total.counts[SKIPPED]} skipped).")
    errors = [ErrorView(n, f"e{n}", f.case_id, f.level, f.message, f.raw, f.stderr.strip().splitlines()[-8:])
              for n, f in enumerate(errored, start=1)]
    return ReportPage(
        title=f"Conformance of {report.engine}", engine=report.engine, facts=_facts(report), verdict=verdict,
        passed=passed, levels=levels, total=total, causes=_causes(failed, anchors), coverage=_count_rows(report.cases),
        coverage_given=_given_coverage(report.coverage), declared=_declared(report.hello), skips=_skips(report),
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
    header = trace["header"]
    seat = seat_namer(header)
    failure = saved_failure(trace)
    view = None
    marks = None
    if failure is not None:
        view = failure_view(failure, 1, limits, with_window=False)  # the whole trace follows
        differing = [d.path for d in failure.differences]

        def marks(entry: Any) -> tuple[Sequence[Path], str]:
            return (differing, "divergence") if entry.index == failure.step else ((), "")

    drawn = rounds(trace, seat, "", marks)
    if view is not None:
        at = next((s for r in drawn for s in r.steps if s.role == "divergence"), None)
        if at is not None:
            view.panel.previous, view.panel.next = at.previous, at.next
            view.panel.events = list(at.events)
            at.table = None  # drawn in the panel, both sides
    players = header.get("players")
    facts = [("ruleset", _ruleset_text(header.get("ruleset"))),
             ("players", ", ".join(seat(i) for i in range(players)) if isinstance(players, int) else "?"),
             ("Dealer of round 1", seat(header.get("dealer"))), ("source", source)]
    if trace.get("rules_version"):
        facts.append(("rules version", str(trace["rules_version"])))
    if header.get("clauses"):
        facts.append(("clauses", " ".join(str(c) for c in header["clauses"])))
    provenance = {k: v for k, v in (header.get("provenance") or {}).items() if k != "failure"}
    if provenance:
        facts.append(("provenance", value_text(provenance)))
    deck = header.get("deck") or []
    footer = trace.get("footer")
    if footer is not None:
        winners = footer.get("winners", [])
        after = f" after {footer['rounds']} rounds" if "rounds" in footer else ""
        totals = ", ".join(f"{seat(i)}: {t}" for i, t in enumerate(footer.get("totals", [])))
        ending = f"Game over{after}: {'winner' if len(winners) == 1 else 'winners'} " \
                 f"{', '.join(seat(w) for w in winners)}; totals {totals}."
    else:
        ending = "The trace ends here: a partial game (no footer)."
    title = "Saved failure" if failure is not None else "Trace"
    return TracePage(f"{title}: {source}", header.get("description"), facts, [face(c) for c in deck[:24]],
                     max(0, len(deck) - 24), drawn, ending, view)


__all__ = ["DEFAULT_LIMITS", "Limits", "ReportPage", "TraceKeeper", "TracePage", "anchor_of", "failure_view",
           "report_page", "trace_page"]
