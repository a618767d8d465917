"""A trace read once, at the border, into a typed view: what every reader outside this package takes.

The trace format (docs/trace-format.md) is JSON; :class:`TraceDocument` is that JSON read for the readers that
play, compare, diagnose, shrink, count or show a trace: the table the game starts at (:class:`Table`), the
ruleset as written, the start, each decision step (:class:`DecisionStep`, with its place among the trace's
steps, the place reports name), the reshuffle orders in order, the footer. The JSON value itself stays in
``document``, unchanged, for whoever writes it back or shows it whole.

A document is read from a value that passed the trace schema (or was written by
:meth:`~flip7_spec.trace.record.GameRecord.trace`); :meth:`TraceDocument.of` raises :class:`TraceShapeError`
for a value that lacks what it needs, without locating it (the schema does that).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec.cards import cards
from flip7_spec.errors import InputError
from flip7_spec.events import Event
from flip7_spec.machine import Game
from flip7_spec.play import new_game
from flip7_spec.rulesets import Ruleset

JsonPath = list[str | int]


class TraceShapeError(InputError):
    """A value read as a trace lacks a part the reader needs (a header, its players, a decision's choice)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The table a game starts at, apart from its ruleset: the player count, the Dealer's seat and the draw
    pile (top card first)."""

    players: int
    dealer: int
    deck: tuple[str, ...]

    def new_game(self, ruleset: Ruleset, reshuffles: Sequence[Sequence[str]] = (), record: bool = False,
                 check_deck: bool = True) -> tuple[Game, list[Event]]:
        """A game at this table under ``ruleset`` (its deviations played), the ``reshuffles`` orders queued,
        started and run to its first decision, with the events so far (see :func:`~flip7_spec.play.new_game`,
        whose errors it raises)."""
        return new_game(ruleset, self.players, list(self.deck), dealer=self.dealer,
                        reshuffles=[cards(list(order)) for order in reshuffles], record=record,
                        check_deck=check_deck)


@dataclass(frozen=True, slots=True)
class ChanceStep:
    """A chance step: the order (top first) of the reshuffle the next decision needs, and its place among the
    trace's ``steps``."""

    index: int
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DecisionStep:
    """One decision step of a trace: its place among the trace's ``steps`` (``index``, the step number reports
    give), the decision as written (who, what kind, the choice), its events (None when the trace does not
    record them) and, when recorded, the observation after it."""

    index: int
    decision: dict[str, Any]
    events: Sequence[Any] | None
    observation: Any
    scores: Sequence[Any]

    @property
    def choice(self) -> Any:
        return self.decision.get("choice")

    @property
    def player(self) -> int | None:
        player = self.decision.get("player")
        return player if isinstance(player, int) else None

    @property
    def kind(self) -> str | None:
        kind = self.decision.get("kind")
        return kind if isinstance(kind, str) else None

    @property
    def ends_a_round(self) -> bool:
        """Whether a round ends during this step (it records round scores or a ``round_end`` event)."""
        return bool(self.scores) or any(isinstance(e, dict) and e.get("event") == "round_end"
                                        for e in self.events or ())

    @property
    def round(self) -> int | None:
        """The round its observation shows (None without one)."""
        observation = self.observation
        found = observation.get("round") if isinstance(observation, dict) else None
        return found if isinstance(found, int) else None


@dataclass(frozen=True, slots=True)
class TraceDocument:
    """A trace, typed (see the module's docstring). ``steps`` are its steps in order; ``decisions`` the
    decision steps among them, so that position ``k`` of a game (0: after the start, ``k``: after ``k``
    decisions) is ``decisions[k - 1]``; ``start_events`` is None when the trace does not record them."""

    document: dict[str, Any]
    rules_version: str | None
    table: Table
    ruleset_json: Any
    description: str | None
    clauses: tuple[str, ...]
    provenance: dict[str, Any]
    start_events: Sequence[Any] | None
    start_observation: Any
    steps: tuple[DecisionStep | ChanceStep, ...]
    decisions: tuple[DecisionStep, ...]
    reshuffles: tuple[tuple[str, ...], ...]
    footer: dict[str, Any] | None

    @classmethod
    def of(cls, document: Any) -> TraceDocument:
        """``document`` (a trace's JSON value) read. Raises :class:`TraceShapeError` when it is not shaped as
        a trace."""
        try:
            header = document["header"]
            steps = document["steps"]
            table = Table(int(header["players"]), int(header.get("dealer", 0)), tuple(header["deck"]))
            typed: list[DecisionStep | ChanceStep] = []
            for index, step in enumerate(steps):
                if "decision" in step:
                    decision = step["decision"]
                    if not isinstance(decision, dict) or "choice" not in decision:
                        raise TraceShapeError(f"step {index}: a decision without a choice")
                    typed.append(DecisionStep(index, decision, step.get("events"), step.get("observation"),
                                              step.get("scores", ())))
                elif "reshuffle" in step:
                    typed.append(ChanceStep(index, tuple(step["reshuffle"])))
                else:
                    raise TraceShapeError(f"step {index}: neither a decision nor a reshuffle")
            decisions = tuple(d for d in typed if isinstance(d, DecisionStep))
            reshuffles = tuple(c.order for c in typed if isinstance(c, ChanceStep))
            start = document.get("start") or {}
            description = header.get("description")
            version = document.get("rules_version")
            return cls(document=document, rules_version=version if isinstance(version, str) else None, table=table,
                       ruleset_json=header.get("ruleset"),
                       description=description if isinstance(description, str) else None,
                       clauses=tuple(header.get("clauses") or ()), provenance=dict(header.get("provenance") or {}),
                       start_events=start.get("events"), start_observation=start.get("observation"),
                       steps=tuple(typed), decisions=decisions, reshuffles=reshuffles, footer=document.get("footer"))
        except TraceShapeError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise TraceShapeError(f"not shaped as a trace ({type(error).__name__}: {error})") from None

    @classmethod
    def maybe(cls, document: Any) -> TraceDocument | None:
        """``document`` read, or None when it is not shaped as a trace (for readers that show what they can)."""
        if isinstance(document, TraceDocument):
            return document
        try:
            return cls.of(document)
        except TraceShapeError:
            return None

    @property
    def header(self) -> dict[str, Any]:
        """The header as written (for writers that copy it; readers take the typed fields)."""
        header: dict[str, Any] = self.document["header"]
        return header

    @property
    def choices(self) -> list[Any]:
        """The choices of the decision steps, in order."""
        return [d.choice for d in self.decisions]

    @property
    def rounds(self) -> int:
        """The rounds the decision steps' observations show (at least 1)."""
        return max({d.round or 1 for d in self.decisions} | {1})

    def game_at(self, ruleset: Ruleset, decisions: int | None = None, record: bool = False) -> Game:
        """The reference under ``ruleset`` after the trace's first ``decisions`` decisions (default: all of
        them), its reshuffle orders queued. Raises what the game raises for a decision or a reshuffle it
        refuses (:class:`~flip7_spec.errors.Flip7Error`)."""
        game, _ = self.table.new_game(ruleset, self.reshuffles, record=record)
        for choice in self.choices[:decisions]:
            game.apply(choice)
        return game

    def observations(self, decisions: int | None = None) -> list[Any]:
        """The recorded observations after the start and after each of the first ``decisions`` decisions
        (default: all of them); None where the trace holds none."""
        upto = len(self.decisions) if decisions is None else decisions
        return [self.start_observation] + [d.observation for d in self.decisions[:upto]]

    def first_round_end(self) -> int | None:
        """The decision (0-based, among ``decisions``) during which the first round ends; None if none does."""
        return next((k for k, d in enumerate(self.decisions) if d.ends_a_round), None)

    def step_at(self, position: int) -> DecisionStep | None:
        """The decision step that led to ``position`` (None for the start or past the last decision)."""
        return self.decisions[position - 1] if 0 < position <= len(self.decisions) else None

    def path(self, position: int) -> JsonPath:
        """The JSON path of the part of the trace that holds ``position``: ``["start"]`` or
        ``["steps", index]``."""
        step = self.step_at(position)
        return ["start"] if step is None else ["steps", step.index]

    def events_at(self, position: int) -> Sequence[Any]:
        """The events that led to ``position``: the first deal's at 0, else its decision step's (none when the
        trace does not record them)."""
        step = self.step_at(position)
        return (self.start_events if step is None else step.events) or ()

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, when the header gives them (else empty)."""
        names = self.header.get("names")
        return tuple(str(n) for n in names) if isinstance(names, list) else ()

    def cut(self, step: int | None) -> dict[str, Any]:
        """The trace's JSON up to and including its step ``step`` (None: up to the first decision, exclusive),
        without the footer: a partial trace."""
        cut = dict(self.document)
        steps = self.document["steps"]
        end = (self.decisions[0].index if self.decisions else len(steps)) if step is None else step + 1
        cut["steps"] = steps[:end]
        cut.pop("footer", None)
        return cut



def document_of(trace: Any) -> TraceDocument:
    """:meth:`TraceDocument.of`, for call sites that hold either form."""
    return trace if isinstance(trace, TraceDocument) else TraceDocument.of(trace)


def add_provenance(trace: dict[str, Any], **entries: Any) -> None:
    """Add ``entries`` to the provenance in the header of ``trace`` (a trace's JSON value, changed in place)."""
    trace["header"].setdefault("provenance", {}).update(entries)
