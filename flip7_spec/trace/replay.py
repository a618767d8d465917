"""Strict replay of a trace against the reference: conform, diverge (first divergence, located), or invalid.

Replay builds the game from the header (ruleset, players, Dealer, deck), feeds each chance step (a
reshuffle order) and each decision to the reference, and compares whatever the trace recorded after each
step with what the reference produced. It stops at the first divergence. Nothing is repaired: a trace
that cannot be read as a game at all is *invalid* (exit 2 at the CLI), one that can but disagrees with the
rules *diverges* (exit 1).

The level checked is the richest detail the trace holds: ``observations`` (the canonical observation
after steps), ``events``, ``scores`` (round scores, as a score counter logs them), or ``decisions`` only
(each decision must be legal, and the footer must match).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from flip7_spec.cards import Card, cards
from flip7_spec.errors import ChanceError, Flip7Error, IllegalDecision, SetupError
from flip7_spec.events import STAY, DecisionKind, Event
from flip7_spec.limits import DECK_CARDS, PLAYERS, check_game_size, check_name
from flip7_spec.machine import Game
from flip7_spec.play import _ruleset_deck_check, make_game
from flip7_spec.registry import Role, definition_of
from flip7_spec.rulesets import Ruleset, ruleset_from_json
from flip7_spec.trace import FORMAT_NAME, FORMAT_VERSION
from flip7_spec.trace.compare import blame, step_difference
from flip7_spec.trace.quickcheck import plausible_envelope, plausible_step
from flip7_spec.trace.record import footer as reference_footer
from flip7_spec.trace.schema import json_path, schema_errors, step_errors


class ReplayStatus(StrEnum):
    """How a trace replays against the reference (its value is what reports write)."""

    CONFORM = "conform"
    """Every step is what the reference does."""
    DIVERGE = "diverge"
    """A trace that reads as a game but disagrees with the rules somewhere (the first place is given)."""
    INVALID = "invalid"
    """Not a trace of a game at all (bad JSON shape, unknown format version, impossible setup)."""


class DetailLevel(StrEnum):
    """What a trace records beside its decisions, from the least to the most (see the module docstring)."""

    DECISIONS = "decisions"
    SCORES = "scores"
    EVENTS = "events"
    OBSERVATIONS = "observations"


CONFORM = ReplayStatus.CONFORM
DIVERGE = ReplayStatus.DIVERGE
INVALID = ReplayStatus.INVALID

LEVELS = tuple(DetailLevel)

_LEVEL_KEYS = ((DetailLevel.OBSERVATIONS, "observation"), (DetailLevel.EVENTS, "events"),
               (DetailLevel.SCORES, "scores"))
"""The richer levels, richest first, each with the key a step holds at that level."""


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first place where a trace disagrees with the reference.

    ``step`` is the index in ``steps`` (None for what happens before the first decision, ``"footer"`` for
    the footer); ``where`` the JSON path in the trace; ``expected`` what the reference says; ``found`` what
    the trace says; ``clause`` the rule clause behind it.
    """

    step: int | str | None
    where: str
    expected: Any
    found: Any
    clause: str
    message: str
    decision: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "where": self.where, "expected": self.expected, "found": self.found,
                "clause": self.clause, "message": self.message, "decision": self.decision}


@dataclass(slots=True)
class ReplayResult:
    """The outcome of replaying one trace."""

    status: ReplayStatus
    level: DetailLevel = DetailLevel.DECISIONS
    steps: int = 0
    complete: bool = False
    divergence: Divergence | None = None
    error: str | None = None
    clauses: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return self.status is ReplayStatus.CONFORM


class _Diverged(Exception):
    def __init__(self, divergence: Divergence) -> None:
        super().__init__(divergence.message)
        self.divergence = divergence


class _Invalid(Exception):
    pass


def detail_level(trace: dict[str, Any]) -> DetailLevel:
    """The richest level of detail present in ``trace`` (see module docstring)."""
    entries = [s for s in trace.get("steps", []) if "decision" in s] + [trace.get("start", {})]
    for level, key in _LEVEL_KEYS:
        if any(key in entry for entry in entries):
            return level
    return DetailLevel.DECISIONS


def game_from_header(header: dict[str, Any], reshuffles: Sequence[Sequence[Card]] = ()
                     ) -> tuple[Ruleset, Game, str | None]:
    """The ruleset and the unstarted game a trace header describes, and what is wrong with its deck (None
    when the deck is a permutation of the ruleset's deck). Raises a :class:`Flip7Error` if unusable."""
    ruleset = ruleset_from_json(header["ruleset"], where="$.header.ruleset")
    players = header["players"]
    dealer = header["dealer"]
    check_header_limits(header)
    check_game_size(ruleset, players, "$.header.players")
    ruleset.check_players(players)
    if dealer >= players:
        raise _Invalid(f"$.header.dealer: seat {dealer} does not exist with {players} players")
    deck = cards(header["deck"])
    deck_problem = None
    try:
        _ruleset_deck_check(ruleset, players, deck)
    except SetupError as error:
        deck_problem = str(error)
    return ruleset, make_game(ruleset, players, deck, dealer, reshuffles=reshuffles), deck_problem


def check_header_limits(header: dict[str, Any]) -> None:
    """Refuse a (schema-valid) header over a limit: more players than :data:`~flip7_spec.limits.PLAYERS`,
    a longer deck than :data:`~flip7_spec.limits.DECK_CARDS`, a name longer than
    :data:`~flip7_spec.limits.NAME_LENGTH`. Raises :class:`~flip7_spec.errors.LimitError` (and
    :class:`~flip7_spec.errors.SetupError` for a count or a seat written as a float: JSON Schema counts 0.0
    as an integer, but it is no seat)."""
    for key in ("players", "dealer"):
        if type(header[key]) is not int:
            raise SetupError(f"$.header.{key}: {header[key]!r} is not a whole number")
    PLAYERS.check(header["players"], "$.header.players")
    DECK_CARDS.check(len(header["deck"]), "$.header.deck")
    for seat, name in enumerate(header.get("names") or []):
        check_name(name, f"$.header.names[{seat}]")


def replay(trace: Any) -> ReplayResult:
    """Replay one parsed trace against the reference. Never raises for bad input: see :class:`ReplayResult`."""
    if not isinstance(trace, dict):
        return ReplayResult(INVALID, error=f"$: expected a trace object, got {type(trace).__name__}")
    if trace.get("format") != FORMAT_NAME:
        return ReplayResult(INVALID, error=f"$.format: expected {FORMAT_NAME!r}, got {trace.get('format')!r}")
    if trace.get("version") != FORMAT_VERSION:
        return ReplayResult(INVALID, error=f"$.version: unsupported format version {trace.get('version')!r}; "
                                           f"this flip7-spec reads version {FORMAT_VERSION}")
    # the schema is asked only when the quick checks cannot vouch for the trace: it names what is wrong
    envelope = [] if plausible_envelope(trace) else schema_errors(trace, envelope_only=True)
    problems = envelope or _step_problems(trace["steps"])
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return ReplayResult(INVALID, error=problems[0] + more)
    result = ReplayResult(CONFORM, level=detail_level(trace))
    deck_problem: list[str] = []
    try:
        _replay(trace, result, deck_problem)
        if deck_problem:
            # [F7-DECK] the deck is wrong, but no step showed it: report it at the header
            raise _Diverged(Divergence(None, "$.header.deck", "a permutation of the ruleset's deck",
                                       "another deck", Role.DECK, deck_problem[0]))
    except _Diverged as diverged:
        result.status = DIVERGE
        result.divergence = _in_game_terms(diverged.divergence, trace)
        if deck_problem and diverged.divergence.clause != Role.DECK:
            d = diverged.divergence
            result.divergence = Divergence(d.step, d.where, d.expected, d.found, d.clause,
                                           f"{d.message}; {deck_problem[0]}", d.decision)
    except _Invalid as invalid:
        result.status = INVALID
        result.error = str(invalid)
    except Flip7Error as error:
        result.status = INVALID
        result.error = str(error)
    return result


def _step_problems(steps: list[Any]) -> list[str]:
    for index, step in enumerate(steps):
        if not plausible_step(step):
            problems = step_errors(step, index)
            if problems:
                return problems
    return []


def _in_game_terms(divergence: Divergence, trace: dict[str, Any]) -> Divergence:
    """The divergence with its clause named as the trace's game names it (a role becomes the game's clause)."""
    if not isinstance(divergence.clause, Role):
        return divergence
    try:
        clause = definition_of(ruleset_from_json(trace["header"]["ruleset"])).clause_of(divergence.clause)
    except Flip7Error:
        return divergence
    return Divergence(divergence.step, divergence.where, divergence.expected, divergence.found, clause,
                      divergence.message, divergence.decision)


def _check_outcome(recorded: dict[str, Any], events: list[Event], game: Game, step: int | None,
                   prefix: list[str | int], decision: dict[str, Any] | None) -> None:
    """Compare what a step (or the start) recorded with what the reference did."""
    if "events" in recorded:
        events_json = [e.to_json() for e in events]
        found_events = recorded["events"]
        comparable = events_json
        if not all(type(f) is dict and "clause" in f for f in found_events):
            # A recorded event without a clause is compared without one: producers need not know clause ids.
            comparable = [
                {k: v for k, v in e.items() if k != "clause" or "clause" in f}
                for e, f in zip(events_json, found_events, strict=False)
            ] + events_json[len(found_events):]
        difference = step_difference(comparable, found_events)
        if difference is not None:
            index = difference.path[0] if difference.path else 0
            clause = events_json[index]["clause"] if isinstance(index, int) and index < len(events_json) else (
                events_json[-1]["clause"] if events_json else Role.ROUND_END)
            raise _Diverged(Divergence(step, difference.where([*prefix, "events"]), difference.expected,
                                       difference.found, clause, "events differ", decision))
    if "scores" in recorded:
        expected_scores = [list(e.get("scores")) for e in events if e.kind == "round_end"]
        difference = step_difference(expected_scores, recorded["scores"])
        if difference is not None:
            raise _Diverged(Divergence(step, difference.where([*prefix, "scores"]), difference.expected,
                                       difference.found, Role.SCORE, "round scores differ", decision))
    if "observation" in recorded:
        expected = game.observation()
        difference = step_difference(expected, recorded["observation"])
        if difference is not None:
            clause = blame(difference.path, [e.to_json() for e in events], Role.HIT_STAY,
                           definition_of(game.ruleset), expected)
            raise _Diverged(Divergence(step, difference.where([*prefix, "observation"]), difference.expected,
                                       difference.found, clause, "observation differs", decision))


def _replay(trace: dict[str, Any], result: ReplayResult, deck_problem: list[str]) -> None:
    steps = trace["steps"]
    leading = 0
    while leading < len(steps) and "reshuffle" in steps[leading]:
        leading += 1
    reshuffles = [cards(s["reshuffle"]) for s in steps[:leading]]
    _, game, problem = game_from_header(trace["header"], reshuffles)
    if problem is not None:
        deck_problem.append(problem)
    supplied = list(range(leading))  # the indices of the chance steps, in the order the game uses them
    try:
        events = game.start()
    except ChanceError as error:
        raise _Diverged(Divergence(None, "$.start", "a reshuffle order", "none" if not reshuffles else
                                   "an order that does not fit", Role.RESHUFFLE, str(error))) from None
    result.clauses.update(e.clause for e in events)
    # Orders the first deal did not use stay queued: the first decision may need them (it is checked then).
    _check_outcome(trace.get("start", {}), events, game, None, ["start"], None)
    for index in range(leading, len(steps)):
        step = steps[index]
        if "reshuffle" in step:
            game.supply_reshuffle(cards(step["reshuffle"]))
            supplied.append(index)
            continue
        decision = step["decision"]
        where = ["steps", index, "decision"]
        pending = game.pending
        if pending is None:
            raise _Diverged(Divergence(index, json_path(where), "no decision: the game is over", decision,
                                       Role.GAME_END, "the trace goes on after the game is over", decision))
        for key in ("player", "kind"):
            if key in decision and decision[key] != getattr(pending, key):
                raise _Diverged(Divergence(
                    index, json_path([*where, key]), getattr(pending, key), decision[key],
                    _decision_clause(game, str(pending.kind), pending.card),
                    f"the pending decision is {pending.kind} of player {pending.player}", decision))
        queued = game.orders_waiting
        try:
            events = game.apply(decision["choice"])
        except IllegalDecision as error:
            raise _Diverged(Divergence(index, json_path([*where, "choice"]), list(pending.options),
                                       decision["choice"],
                                       _illegal_clause(game, str(pending.kind), pending.card, decision),
                                       str(error), decision)) from None
        except ChanceError as error:
            raise _Diverged(Divergence(index, json_path(["steps", index]), "a reshuffle order of the discard pile",
                                       "none" if not queued else "another order", Role.RESHUFFLE, str(error),
                                       decision)) from None
        if game.orders_waiting:
            raise _Diverged(Divergence(index, json_path(["steps", index]), "no reshuffle during this decision",
                                       "a reshuffle", Role.RESHUFFLE,
                                       "the trace supplies a reshuffle that this decision did not need", decision))
        result.steps += 1
        result.clauses.update(e.clause for e in events)
        _check_outcome(step, events, game, index, ["steps", index], decision)
    if game.orders_waiting:
        # an order no decision used: the trace claims a reshuffle that never happened
        unused = supplied[len(supplied) - game.orders_waiting]
        raise _Diverged(Divergence(unused, json_path(["steps", unused, "reshuffle"]), "no reshuffle: no later "
                                   "decision needs one", steps[unused]["reshuffle"], Role.RESHUFFLE,
                                   "the trace supplies a reshuffle that no decision uses"))
    result.complete = game.over
    if "footer" in trace:
        if not game.over:
            raise _Diverged(Divergence("footer", "$.footer", "the game goes on", trace["footer"], Role.GAME_END,
                                       "the trace ends with a footer but the game is not over"))
        expected = reference_footer(game)
        found = trace["footer"]
        comparable = {k: v for k, v in expected.items() if k in found}
        difference = step_difference(comparable, found)
        if difference is not None:
            clause = Role.WINNER if difference.path[:1] == ("winners",) else Role.SCORE
            raise _Diverged(Divergence("footer", difference.where(["footer"]), difference.expected,
                                       difference.found, clause, "the footer differs"))


def _decision_clause(game: Game, kind: str, card: str | None) -> str:
    """The clause of ``game``'s rules that sets the options of a pending decision of ``kind``."""
    definition = definition_of(game.ruleset)
    return definition.decision_clause(kind, card or "") or definition.clause_of(Role.HIT_STAY)


def _illegal_clause(game: Game, kind: str, card: str | None, decision: dict[str, Any]) -> str:
    if kind == DecisionKind.HIT_OR_STAY and decision.get("choice") == STAY:
        return definition_of(game.ruleset).clause_of(Role.STAY_MINIMUM)
    return _decision_clause(game, kind, card)
