"""A rules diff for people and for programs: the readings that differ, the game found as ``show`` shows a
trace, the fields that differ with both values, the clauses involved, the bound searched; the traces of both
sides; the same as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flip7_spec.errors import Flip7Error
from flip7_spec.registry import Role, definition_of
from flip7_spec.rulesdiff.exhaustive import Found
from flip7_spec.rulesdiff.lockstep import EVENTS, DiffGame, Split, setup_ruleset
from flip7_spec.rulesdiff.run import DiffResult
from flip7_spec.rulesdiff.sides import SideReading, Sides, clause_text
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.compare import blame
from flip7_spec.trace.document import TraceDocument
from flip7_spec.trace.record import record_choices
from flip7_spec.trace.show import lines_of

FIELDS_SHOWN = 12
"""Differing fields listed in the text report (the JSON lists them all)."""

GENERATOR = "flip7-spec diff"


def side_trace(ruleset: Ruleset, game: DiffGame, description: str) -> dict[str, Any] | None:
    """The trace of ``game`` on one side (its decisions as far as that side can make them), or None when
    the side cannot start it."""
    try:
        return record_choices(setup_ruleset(ruleset, game), game.players, game.dealer, game.deck, game.choices,
                              game.orders, generator=GENERATOR, description=description, strict=False)
    except Flip7Error:
        return None


def traces(result: DiffResult) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The traces of the game found on the left and on the right side (None, None when none was found)."""
    found = result.game
    if found is None:
        return None, None
    sides = result.sides
    what = f"the smallest game found that tells {sides.left_name} and {sides.right_name} apart"
    return (side_trace(sides.left, found.game, f"{what}: the left side"),
            side_trace(sides.right, found.game, f"{what}: the right side"))


def clauses_involved(sides: Sides, found: Found, left_trace: dict[str, Any] | None) -> list[str]:
    """The clauses of the readings that differ, then the clause the first differing field falls under on the
    left side (its events at that step, as a replay's divergence names it)."""
    out = list(dict.fromkeys(r.clause for r in sides.readings()))
    split = found.split
    if split.fields and left_trace is not None and split.left is not None:
        document = TraceDocument.of(left_trace)
        events = (document.decisions[split.decisions - 1].events if split.decisions
                  else document.start_events) or []
        field = blame(split.fields[0].path, events, Role.HIT_STAY, definition_of(sides.left), split.left)
        if field not in out:
            out.append(field)
    return out


def _value(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) or "-"
    if value is None:
        return "-"
    return value if isinstance(value, str) else json.dumps(value)


def difference_lines(split: Split, trace: dict[str, Any] | None = None) -> list[str]:
    """The fields that differ, with both values, as a table (``trace``: the game's trace, whose step the
    difference follows is named)."""
    where = "at the start" if split.decisions == 0 else f"after decision {split.decisions}"
    if trace is not None and split.decisions:
        decisions = TraceDocument.of(trace).decisions
        if split.decisions <= len(decisions):
            where += f" (step {decisions[split.decisions - 1].index} of the trace)"
    kind = {"observation": "in the observations", "events": "in the events", "chance": "in the reshuffles",
            "error": "(one side cannot play on)"}.get(split.kind, split.kind)
    lines = [f"first difference {kind} {where}" + (f": {split.message}" if split.message else "")]
    rows = [(d.where(), _value(d.expected), _value(d.found)) for d in split.fields]
    if not rows:
        return lines
    width = max(len("field"), *(len(r[0]) for r in rows[:FIELDS_SHOWN]))
    column = max(len("left"), *(min(len(r[1]), 40) for r in rows[:FIELDS_SHOWN]))
    lines.append(f"  {'field':<{width}}  {'left':<{column}}  right")
    lines.extend(f"  {name:<{width}}  {a:<{column}}  {b}" for name, a, b in rows[:FIELDS_SHOWN])
    if len(rows) > FIELDS_SHOWN:
        lines.append(f"  ... and {len(rows) - FIELDS_SHOWN} more fields (--json lists them all)")
    return lines


def reading_lines(readings: list[SideReading]) -> list[str]:
    if not readings:
        return ["readings that differ: none (the two rulesets play the same rules)"]
    lines = ["readings that differ:"]
    for r in readings:
        lines.append(f"  {r.side:<5}  {r.text}  [{clause_text(r.clause)}]")
    return lines


def _bound_lines(result: DiffResult) -> list[str]:
    covered, bound = result.covered, result.bound
    own = result.sides.own_target
    if bound is None or covered is None:
        return ["the sides play different decks: no custom deck can be given to both, so there was no "
                "exhaustive search"]
    if covered.complete:
        what = bound.describe(own)
    elif covered.levels >= 0:
        what = bound.describe(own, covered.levels) + f" (the budget ran out in the games with {covered.levels + 1})"
    else:
        return [f"the budget ran out before the exhaustive search covered the games without a decision "
                f"({covered.plays:,} games played)"]
    return [f"searched: {what}: {covered.games:,} games, in {covered.plays:,} plays"]


def result_lines(result: DiffResult, left_trace: dict[str, Any] | None, step_numbers: bool = False) -> Iterator[str]:
    """The text report of ``result`` (``left_trace``: the game found, as the left side plays it)."""
    sides = result.sides
    yield f"left:  {sides.left_name}"
    yield f"right: {sides.right_name}"
    yield from reading_lines(sides.readings())
    level = "observations" if result.settings.level != EVENTS else "observations and events"
    found = result.game
    tried = result.tried
    beyond = f"{tried.aimed:,} aimed games and {tried.drawn:,} games drawn by Hypothesis on whole and small decks"
    if found is None:
        yield f"no difference found in the {level}, within the bound:"
        yield from ("  " + line for line in _bound_lines(result))
        yield f"  and none in {beyond}"
        yield ("this is a bound, not a proof for all games: a larger game, or one with other cards, may still "
               "tell the two sides apart")
        events = result.events_only
        if events is not None:
            yield (f"the difference lives in the events only: the observations agreed on every game searched, "
                   f"but the events differ on {events.game.size()} (--level events shows it)")
            yield from ("  " + line for line in difference_lines(events.split)[1:4])
        return
    game = found.game
    by = {"exhaustive": "the exhaustive search", "aimed": "an aimed game", "hypothesis": "a game Hypothesis drew"}
    shrunk = " (then shrunk)" if result.shrunk is not None else ""
    yield f"the smallest game found that tells them apart in the {level}: {game.size()}"
    yield f"  found by {by.get(result.found_by, result.found_by)}{shrunk}: {result.minimal_within()}"
    if result.found_by != "exhaustive":
        yield from ("  " + line for line in _bound_lines(result))
    yield (f"  setup: {game.players} players, Dealer seat {game.dealer}, target score "
           f"{sides.own_target if game.target is None else game.target}, "
           + (f"a custom deck of {len(game.deck)} cards" if game.composition is not None else "the sides' own deck"))
    if left_trace is not None:
        yield "the game, as the left side plays it:"
        yield from ("  " + line for line in lines_of(left_trace, step_numbers))
    yield from difference_lines(found.split, left_trace)
    yield "clauses involved:"
    for clause_id in clauses_involved(sides, found, left_trace):
        yield f"  {clause_text(clause_id)}"


def result_json(result: DiffResult, left_trace: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON report of ``result``."""
    sides = result.sides
    out: dict[str, Any] = {
        "left": {"name": sides.left_name, "ruleset": sides.left.to_json()},
        "right": {"name": sides.right_name, "ruleset": sides.right.to_json()},
        "readings": [r.to_json() for r in sides.readings()],
        "level": result.settings.level,
        "budget": result.settings.budget,
        "seed": result.settings.seed,
        "used": result.used,
        "tried": result.tried.to_json(),
    }
    if result.bound is not None and result.covered is not None:
        covered = result.covered
        out["bound"] = {**result.bound.to_json(), "levels_searched": covered.levels, "complete": covered.complete,
                        "games": covered.games, "plays": covered.plays,
                        "text": _bound_lines(result)[0]}
    found = result.game
    out["differ"] = found is not None
    if found is None:
        if result.events_only is not None:
            out["events_only"] = _found_json(result.events_only)
        return out
    out["game"] = _found_json(found)
    out["found_by"] = result.found_by
    out["minimal"] = result.minimal_within()
    out["clauses"] = clauses_involved(sides, found, left_trace)
    return out


def _found_json(found: Found) -> dict[str, Any]:
    game, split = found.game, found.split
    decisions, players, cards = game.key
    return {**game.to_json(), "size": {"decisions": decisions, "players": players, "cards": cards},
            "difference": {"after_decisions": split.decisions, "kind": split.kind, "message": split.message,
                           "fields": [{"path": d.where(), "left": d.expected, "right": d.found}
                                      for d in split.fields]}}
