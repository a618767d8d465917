"""One failure drawn in full: the divergence panel (both tables side by side, the differing fields, what
the reference does at that step) and the game up to it; which failures are drawn so; and the traces a run
keeps for them.

The page stays bounded however large the run: at most ``Limits.full_failures`` failures are drawn in full
(the first ``Limits.per_cause`` of each cause), each with at most ``steps_before`` steps before its divergence
and ``steps_after`` after; every other failure is one row of the list, and the rest only a count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.htmlreport.cards import CardFace, face
from flip7_spec.htmlreport.differences import Difference, Path, path_text
from flip7_spec.htmlreport.model import DiagnosisShown, Failure
from flip7_spec.htmlreport.steps import Window, decision_text, seat_namer, window
from flip7_spec.htmlreport.tables import Seat, TableView, table, value_text
from flip7_spec.judge import ERRORED, FAIL
from flip7_spec.protocol import Level
from flip7_spec.results import CaseResult
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
    diagnosis: DiagnosisShown | None
    shrunk: str | None
    panel: Panel
    window: Window | None


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


def _source(failure: Failure) -> str:
    if failure.result.differences:
        return "as the report lists them"
    if failure.result.expected_observation is not None and failure.result.found_observation is not None:
        return "the first difference only (the report does not list the others)"
    return "the first difference only (the report holds no observations)"


def observation_or_none(value: Any) -> dict[str, Any] | None:
    """An observation a result carries, when it is one (a JSON object) to draw as a table."""
    return value if isinstance(value, dict) else None


def _type_only(expected: Any, found: Any) -> bool:
    """Whether two values are equal as Python values but not as JSON (``0`` and ``0.0``, ``1`` and ``true``)."""
    return type(expected) is not type(found) and expected == found


def step_words(step: int | None) -> str:
    return "the start" if step is None else f"step {step}"


def _panel(failure: Failure, prefix: str, seat: Seat, win: Window | None) -> Panel:
    anchor = f"{prefix}divergence"
    result = failure.result
    differences = failure.differences
    if result.hand is not None:  # a scoring case: the hand, and both scores
        busted = " (busted)" if result.busted else ""
        return Panel(anchor, f"the round score of this hand{busted}", hand=[face(c) for c in result.hand],
                     differences=_rows(differences, seat), differences_source="the score")
    decision = result.decision or (win.divergence.decision if win and win.divergence else None)
    before = win.divergence.before if win and win.divergence else None
    title = step_words(result.step) + (f": {decision_text(decision, before, seat)}" if decision else "")
    differing = [d.path for d in differences]
    expected = observation_or_none(result.expected_observation)
    if expected is None and win is not None and win.divergence is not None:
        expected = win.divergence.observation
    panel = Panel(anchor, title, differences=_rows(differences, seat), differences_source=_source(failure))
    if expected is not None:
        panel.expected = table(expected, seat, differing, "reference")
    found = observation_or_none(result.found_observation)
    if found is not None:
        panel.found = table(found, seat, differing, "engine")
    else:
        panel.notes.append(f"This report does not hold the engine's observation: at {result.where or '?'} it gave "
                           f"{value_text(result.found)} where the reference has {value_text(result.expected)}.")
    typed = [d for d in differences if _type_only(d.expected, d.found)]
    if typed:
        left, right = value_text(typed[0].expected), value_text(typed[0].found)
        panel.notes.append(f"{len(typed)} of the differing fields differ only in JSON type ({left} against {right}): "
                           "observations are compared as exact JSON, where 1, 1.0 and true all differ.")
    if result.compared == "totals":
        panel.notes.append("Only the players' totals are compared at this step: the round case ends here, and the "
                           "observation already shows the next round dealt.")
    if result.level == Level.LEGAL:
        panel.notes.append("A legal-level failure: the legal choices offered (the pending decision's options) "
                           "differ; everything else matched.")
    if win is not None and win.divergence is not None:
        panel.events = [describe_event(e, seat) for e in win.divergence.events if e.get("event") != "round_start"]
        at = next((i for i, s in enumerate(win.steps) if s.role == "divergence"), None)
        if at is not None:
            panel.previous = win.steps[at - 1].anchor if at > 0 else None
            panel.next = win.steps[at + 1].anchor if at + 1 < len(win.steps) else None
    return panel


def failure_view(failure: Failure, number: int, limits: Limits = DEFAULT_LIMITS, with_window: bool = True
                 ) -> FailureView:
    """One failure drawn in full (with the game up to it when its trace is known and ``with_window``)."""
    prefix = f"f{number}-"
    result, document = failure.result, failure.trace
    seat = seat_namer(document.names if document is not None else ())
    win = None
    if document is not None and result.hand is None and with_window:
        win = window(document, result.step, seat, prefix, limits.steps_before, limits.steps_after,
                     [d.path for d in failure.differences])
        if not win.steps:
            win = None
    panel = _panel(failure, prefix, seat, win)
    if win is not None:
        for step in win.steps:
            if step.role == "divergence":
                step.table = None  # drawn in the panel, both sides
    summary = (f"{result.where or '?'}: expected {value_text(result.expected)}, found {value_text(result.found)}")
    level = str(result.level)
    title = f"{result.case_id} [{level}] at {step_words(result.step)}" if result.hand is None else \
        f"{result.case_id} [{level}]"
    return FailureView(number, f"f{number}", title, result.case_id, level, summary, result.clause, result.label,
                       failure.message, failure.cause_key, failure.diagnosis, result.shrunk, panel, win)


def select_full(failures: Sequence[Failure], limits: Limits) -> list[int]:
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
        self._errors = 0

    def offer(self, results: Sequence[CaseResult], trace: dict[str, Any] | None) -> None:
        """Keep ``trace`` if one of the failing ``results`` (a case's) will be drawn in full, or one of its
        errored ones with its last agreeing observation (the first ``full_failures`` errors)."""
        if trace is None:
            return
        for result in results:
            if result.outcome == ERRORED:  # the errors are counted in the order the page numbers them
                self._errors += 1
                if self._errors <= self.limits.full_failures and result.last_agreed is not None:
                    self.traces[result.case_id] = trace
                continue
            if result.outcome != FAIL or self._kept >= self.limits.full_failures:
                continue
            key = Failure(result).cause_key
            if self._per_cause[key] < self.limits.per_cause:
                self._per_cause[key] += 1
                self._kept += 1
                self.traces[result.case_id] = trace


__all__ = ["DEFAULT_LIMITS", "DifferenceRow", "FailureView", "Limits", "Panel", "TraceKeeper", "describe_path",
           "failure_view", "observation_or_none", "select_full", "step_words"]
