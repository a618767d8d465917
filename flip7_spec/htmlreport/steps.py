"""A trace as steps to draw: the start, each chance step and each decision with what it caused and the
table after it, grouped round by round, and the window of steps around a divergence.

Step numbers are indices into the trace's ``steps`` (chance steps included), as replay and conform report
them. A trace that records no events or observations is played on the reference to recover them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from flip7_spec.htmlreport.cards import CardFace, face
from flip7_spec.htmlreport.differences import Path
from flip7_spec.htmlreport.tables import Seat, TableView, choice_text, table, value_text
from flip7_spec.trace.document import ChanceStep, TraceDocument
from flip7_spec.trace.show import derive_outcomes, describe_decision, describe_event


@dataclass(slots=True)
class Entry:
    """One point of the trace: the start (``index`` None), a chance step or a decision."""

    index: int | None
    round: int | None
    decision: dict[str, Any] | None
    events: list[dict[str, Any]]
    observation: dict[str, Any] | None
    reshuffle: list[str] | None = None
    before: dict[str, Any] | None = None
    """The observation before this point (what a Vengeance card reference points into)."""
    unknown: str = ""
    """Why what this point caused is not known (the trace does not record it and the reference cannot play
    it); empty when it is known."""


@dataclass(slots=True)
class StepView:
    """One step as drawn: its title, what happened, the table after it, and its neighbours' anchors.
    ``role`` is ``divergence`` (the failing step), ``after`` (the reference going on) or empty."""

    anchor: str
    index: int | None
    title: str
    events: list[str]
    table: TableView | None
    reshuffle: list[CardFace] | None = None
    role: str = ""
    previous: str | None = None
    next: str | None = None
    unknown: str = ""
    """Why what the step caused is not known (see :attr:`Entry.unknown`)."""


@dataclass(slots=True)
class RoundView:
    """One round of a trace: its steps, and the line that ends it (scores and totals) when it ended."""

    number: int | None
    anchor: str
    dealer: str
    steps: list[StepView]
    ended: str | None = None


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A finished round shown as one line: each seat's round score and total after it."""

    number: int | None
    seats: list[tuple[str, str]]


@dataclass(slots=True)
class Window:
    """The steps around a divergence, the rounds before them as one line each, and what is left out."""

    steps: list[StepView]
    earlier: list[RoundSummary] = field(default_factory=list)
    """The rounds finished before the divergence's round."""
    seats: list[str] = field(default_factory=list)
    hidden_before: int = 0
    hidden_after: int = 0
    divergence: Entry | None = None


def seat_namer(names: Sequence[str] = ()) -> Seat:
    """``seat 2`` or, when the players have ``names`` (a trace's header may give them), ``seat 2 (Cy)``."""
    names = list(names)

    def seat(value: Any) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            return f"seat {value} ({names[value]})"
        return f"seat {value_text(value)}"

    return seat


def _needs_reference(document: TraceDocument) -> bool:
    parts = [(document.start_events, document.start_observation)]
    parts += [(d.events, d.observation) for d in document.decisions]
    return any(events is None or observation is None for events, observation in parts)


def entries(document: TraceDocument) -> list[Entry]:
    """Every point of the trace in order, each with its round (the round it is played in) and what it caused
    (recorded, or recovered from the reference)."""
    derived = derive_outcomes(document.document) if _needs_reference(document) else None
    events = document.start_events
    observation = document.start_observation
    if derived is not None:
        events = events if events is not None else derived.start.events
        observation = observation or derived.start.observation
    current = _round_of_events(events or [], None) or 1
    # where the reference stops, what the trace does not record is not known: that step says why, the later
    # ones that the reference stopped before them (not that nothing happened)
    stopped = derived.stopped if derived is not None and derived.stopped else ""
    unknown = stopped if document.start_events is None and derived is not None and not derived.start.events \
        and derived.start.observation is None else ""
    out = [Entry(None, current, None, list(events or []), observation, unknown=unknown)]
    said = bool(unknown)  # a point before this one already says where the reference stopped
    last = observation
    for step in document.steps:
        index = step.index
        if isinstance(step, ChanceStep):
            out.append(Entry(index, current, None, [], None, reshuffle=list(step.order), before=last))
            continue
        events = step.events
        observation = step.observation
        if derived is not None and index in derived.steps:
            events = events if events is not None else derived.steps[index].events
            observation = observation or derived.steps[index].observation
        unknown = ""
        if events is None and stopped:
            unknown = "not recorded, and the reference stopped at an earlier step" if said else stopped
            said = True
        out.append(Entry(index, current, step.decision, list(events or []), observation, before=last,
                         unknown=unknown))
        last = observation if observation is not None else last
        current = _round_of_events(events or [], None) or (observation or {}).get("round") or current
    return out


def _round_of_events(events: Sequence[dict[str, Any]], default: int | None) -> int | None:
    rounds = [e.get("round") for e in events if e.get("event") == "round_start" and isinstance(e.get("round"), int)]
    return rounds[-1] if rounds else default


def decision_text(decision: dict[str, Any], before: dict[str, Any] | None, seat: Seat) -> str:
    """A decision as a person reads it; a Vengeance card reference names the card (``seat 2 chooses seat 0's
    card 1 (12)``), read in the observation ``before`` the decision, also when the decision does not give its
    kind (optional in a trace, docs/trace-format.md: only a card or swap decision chooses card references)."""
    kind, choice = decision.get("kind"), decision.get("choice")
    if (kind in ("card", "swap") or kind is None) and isinstance(choice, (dict, list)):
        who = seat(decision["player"]) if "player" in decision else "the player to decide"
        return f"{who} chooses {choice_text(choice, kind, before or {}, seat)}"
    return describe_decision(decision, seat)


def _title(entry: Entry, seat: Seat) -> str:
    if entry.index is None:
        return "start: the deal, before the first decision"
    if entry.reshuffle is not None:
        return f"step {entry.index}: reshuffle order for the next decision ({len(entry.reshuffle)} cards)"
    return f"step {entry.index}: {decision_text(entry.decision or {'choice': None}, entry.before, seat)}"


def anchor_of(prefix: str, index: int | None) -> str:
    """The HTML id of a step (``f3-s41``, ``f3-start``)."""
    return f"{prefix}start" if index is None else f"{prefix}s{index}"


def step_view(entry: Entry, seat: Seat, prefix: str, differing: Sequence[Path] = (), role: str = "") -> StepView:
    """One entry drawn (its table marked where ``differing`` paths touch it)."""
    events = [describe_event(e, seat) for e in entry.events if e.get("event") != "round_start"]
    drawn = None if entry.observation is None else table(entry.observation, seat, differing)
    reshuffle = None if entry.reshuffle is None else [face(c) for c in entry.reshuffle]
    return StepView(anchor_of(prefix, entry.index), entry.index, _title(entry, seat), events, drawn, reshuffle, role,
                    unknown=entry.unknown)


def link(steps: Sequence[StepView]) -> None:
    """Point each step at its neighbours."""
    for before, after in pairwise(steps):
        before.next, after.previous = after.anchor, before.anchor


def round_line(events: Sequence[dict[str, Any]], seat: Seat) -> str | None:
    """The round-end line of ``events`` (``round 1 ends: scores ...; totals ...``), if a round ends there."""
    for event in events:
        if event.get("event") == "round_end":
            return describe_event(event, seat)
    return None


def rounds(document: TraceDocument, seat: Seat, prefix: str = "",
           marks: Callable[[Entry], tuple[Sequence[Path], str]] | None = None) -> list[RoundView]:
    """The whole trace round by round; ``marks`` gives an entry's differing paths and role."""
    out: list[RoundView] = []
    views: list[StepView] = []
    points = entries(document)
    dealers = {e.get("round"): seat(e.get("dealer")) for point in points for e in point.events
               if e.get("event") == "round_start"}
    for entry in points:
        differing, role = marks(entry) if marks is not None else ((), "")
        view = step_view(entry, seat, prefix, differing, role)
        views.append(view)
        if not out or out[-1].number != entry.round:
            out.append(RoundView(entry.round, f"{prefix}r{entry.round}-{len(out)}", dealers.get(entry.round, ""), []))
        out[-1].steps.append(view)
        ended = round_line(entry.events, seat)
        if ended:
            out[-1].ended = ended
    link(views)
    return out


def _summaries(before: Sequence[Entry], seat: Seat) -> list[RoundSummary]:
    out = []
    for entry in before:
        for event in entry.events:
            if event.get("event") == "round_end":
                scores = list(event.get("scores") or [])
                totals = list(event.get("totals") or [])
                count = max(len(scores), len(totals))
                scores += [""] * (count - len(scores))
                totals += [""] * (count - len(totals))
                out.append(RoundSummary(entry.round, [(value_text(a), value_text(b)) for a, b in zip(scores, totals,
                                                                                                     strict=True)]))
    return out


def window(document: TraceDocument, step: int | None, seat: Seat, prefix: str, before: int, after: int,
           differing: Sequence[Path] = ()) -> Window:
    """The steps from the start of the divergence's round (at most ``before`` of them) to ``after`` steps past
    the divergence at ``step`` (None: the start); the divergence's own table is marked with ``differing``."""
    points = entries(document)
    position = next((i for i, e in enumerate(points) if e.index == step), None)
    if position is None:
        return Window([], hidden_before=len(points))
    failing_round = points[position].round
    first = next(i for i, e in enumerate(points) if e.round == failing_round)
    low = max(first - 1 if first > 0 else 0, position - before)  # the step before the round: its deal
    high = min(len(points), position + after + 1)
    views = []
    for offset, entry in enumerate(points[low:high], start=low):
        role = "divergence" if offset == position else ("after" if offset > position else "")
        views.append(step_view(entry, seat, prefix, differing if role == "divergence" else (), role))
    link(views)
    seats = [seat(i) for i in range(document.table.players)]
    return Window(views, _summaries(points[:first], seat), seats=seats, hidden_before=low,
                  hidden_after=len(points) - high, divergence=points[position])
