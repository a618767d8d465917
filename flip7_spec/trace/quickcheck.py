"""Fast checks that a step, an observation or a list of events has the shape the trace schema requires.

Validating every step of a long trace with the JSON Schema validator costs milliseconds a step (an
observation is dozens of nested values, each step a ``oneOf``). These checks answer in microseconds for
the common case and are conservative: ``True`` only when the value is certainly valid; for anything
unusual they answer ``False`` and the caller asks the schema, which says exactly what is wrong (or that
it is valid after all). So a trace is still checked against the schema, only not value by value.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flip7_spec.registry import revision
from flip7_spec.trace.schema import load_schema

_STEP_KEYS = frozenset({"decision", "events", "observation", "scores"})
_DECISION_KEYS = frozenset({"player", "kind", "choice"})
_OBSERVATION_KEYS = frozenset({"round", "dealer", "draw_pile", "discard_pile", "in_play", "players", "pending",
                               "over", "winners"})
_PLAYER_KEYS = frozenset({"cards", "status", "round_score", "total"})
_PENDING_KEYS = frozenset({"player", "kind", "card", "options"})
_STATUSES = frozenset({"active", "stayed", "frozen", "busted"})


def _card_pattern() -> re.Pattern[str]:
    return _card_pattern_at(revision())


@cache
def _card_pattern_at(at: int) -> re.Pattern[str]:
    pattern: str = load_schema()["$defs"]["card"]["pattern"]
    return re.compile(pattern)


def _count(value: Any, low: int = 0) -> bool:
    return type(value) is int and value >= low


def _simple_choice(choice: Any) -> bool:
    return choice in ("hit", "stay") or _count(choice)


_CARD_REF_KEYS = frozenset({"player", "index"})


def _card_ref(value: Any) -> bool:
    return type(value) is dict and value.keys() == _CARD_REF_KEYS and _count(value["player"]) and _count(value["index"])


def _choice(choice: Any) -> bool:
    """Any choice the schema allows: hit, stay, a seat, a card reference, or a pair of card references."""
    if _simple_choice(choice) or _card_ref(choice):
        return True
    return type(choice) is list and len(choice) == 2 and all(_card_ref(c) for c in choice)


def _cards(values: Any) -> bool:
    if type(values) is not list:
        return False
    match = _card_pattern().fullmatch
    return all(type(c) is str and match(c) is not None for c in values)


def plausible_step(step: Any) -> bool:
    """A cheap check that ``step`` has the schema's shape, its observation and events checked only to be an
    object and objects naming an event (replay compares those with the reference's own)."""
    if not isinstance(step, dict):
        return False
    if "reshuffle" in step:
        order = step["reshuffle"]
        return len(step) == 1 and isinstance(order, list) and bool(order) and all(isinstance(c, str) for c in order)
    decision = step.get("decision")
    if not isinstance(decision, dict) or "choice" not in decision or not step.keys() <= _STEP_KEYS:
        return False
    if not decision.keys() <= _DECISION_KEYS or not isinstance(decision.get("kind", ""), str):
        return False
    if not _count(decision.get("player", 0)) or not _choice(decision["choice"]):
        return False  # odd values go through the schema
    events = step.get("events", [])
    scores = step.get("scores", [])
    return (isinstance(events, list) and all(isinstance(e, dict) and isinstance(e.get("event"), str) for e in events)
            and isinstance(step.get("observation", {}), dict) and isinstance(scores, list)
            and all(isinstance(r, list) and all(type(v) is int for v in r) for r in scores))


def valid_events(events: Any) -> bool:
    """Whether ``events`` is certainly a valid list of events (objects with a string ``event``, and a
    string ``clause`` when they have one)."""
    return type(events) is list and all(
        type(e) is dict and type(e.get("event")) is str and type(e.get("clause", "")) is str for e in events)


def _valid_player(player: Any) -> bool:
    return (type(player) is dict and player.keys() == _PLAYER_KEYS and _cards(player["cards"])
            and player["status"] in _STATUSES and type(player["round_score"]) is int
            and type(player["total"]) is int)


def _valid_pending(pending: Any) -> bool:
    if pending is None:
        return True
    if type(pending) is not dict or not pending.keys() <= _PENDING_KEYS:
        return False
    card = pending.get("card")
    options = pending.get("options")
    return (_count(pending.get("player")) and type(pending.get("kind")) is str
            and (card is None or (type(card) is str and _card_pattern().fullmatch(card) is not None))
            and type(options) is list and bool(options) and all(_choice(o) for o in options))


def valid_observation(observation: Any) -> bool:
    """Whether ``observation`` is certainly a valid canonical observation."""
    return (type(observation) is dict and observation.keys() == _OBSERVATION_KEYS
            and _count(observation["round"], 1) and _count(observation["dealer"])
            and _count(observation["draw_pile"]) and _count(observation["discard_pile"])
            and _cards(observation["in_play"])
            and type(observation["players"]) is list and all(_valid_player(p) for p in observation["players"])
            and _valid_pending(observation["pending"]) and type(observation["over"]) is bool
            and type(observation["winners"]) is list and all(_count(w) for w in observation["winners"]))


def valid_outcome(outcome: Any) -> bool:
    """Whether a step's (or the start's) recorded events and observation are certainly valid."""
    return (valid_events(outcome.get("events", []))
            and ("observation" not in outcome or valid_observation(outcome["observation"])))


_TRACE_KEYS = frozenset({"format", "version", "rules_version", "header", "start", "steps", "footer"})
_HEADER_KEYS = frozenset({"ruleset", "players", "names", "dealer", "deck", "provenance", "description", "clauses"})
_RULESET_KEYS = frozenset({"name", "base", "game", "description", "options", "deviations", "deck"})
_OUTCOME_KEYS = frozenset({"events", "observation", "scores"})
_FOOTER_KEYS = frozenset({"totals", "winners", "rounds"})
_GAMES = frozenset({"flip7", "vengeance"})


@cache
def _clause_pattern() -> re.Pattern[str]:
    pattern: str = load_schema()["$defs"]["header"]["properties"]["clauses"]["items"]["pattern"]
    return re.compile(pattern)


def _text(value: Any) -> bool:
    return type(value) is str and bool(value)


def _strings(values: Any) -> bool:
    return type(values) is list and all(type(v) is str for v in values)


def _ruleset(ruleset: Any) -> bool:
    if type(ruleset) is str:
        return bool(ruleset)
    if type(ruleset) is not dict or not ruleset.keys() <= _RULESET_KEYS:
        return False
    deck = ruleset.get("deck", {})
    game = ruleset.get("game", "flip7")
    match = _card_pattern().fullmatch
    return (all(_text(ruleset[k]) for k in ("name", "base") if k in ruleset)
            and type(game) is str and game in _GAMES and type(ruleset.get("description", "")) is str
            and type(ruleset.get("options", {})) is dict
            and _strings(ruleset.get("deviations", [])) and all(ruleset.get("deviations", []))
            and type(deck) is dict and all(match(k) is not None and type(v) is int and 0 <= v <= 10_000
                                           for k, v in deck.items()))


def _header(header: Any) -> bool:
    if type(header) is not dict or not header.keys() <= _HEADER_KEYS:
        return False
    players = header.get("players")
    clauses = header.get("clauses", [])
    deck = header.get("deck")
    return ("ruleset" in header and _ruleset(header["ruleset"]) and type(players) is int and 1 <= players <= 10_000
            and _count(header.get("dealer")) and _cards(deck) and bool(deck)
            and _strings(header.get("names", [])) and type(header.get("provenance", {})) is dict
            and type(header.get("description", "")) is str
            and _strings(clauses) and all(_clause_pattern().fullmatch(c) is not None for c in clauses))


def _outcome(outcome: Any) -> bool:
    return (type(outcome) is dict and outcome.keys() <= _OUTCOME_KEYS
            and type(outcome.get("events", [])) is list and all(type(e) is dict for e in outcome.get("events", []))
            and type(outcome.get("observation", {})) is dict
            and type(outcome.get("scores", [])) is list
            and all(type(r) is list and all(type(v) is int for v in r) for r in outcome.get("scores", [])))


def _footer(footer: Any) -> bool:
    return (type(footer) is dict and footer.keys() <= _FOOTER_KEYS and "totals" in footer and "winners" in footer
            and type(footer["totals"]) is list and all(type(v) is int for v in footer["totals"])
            and type(footer["winners"]) is list and all(_count(v) for v in footer["winners"])
            and ("rounds" not in footer or _count(footer["rounds"], 1)))


def plausible_envelope(trace: Any) -> bool:
    """A cheap check that ``trace`` passes the schema's envelope (:func:`~flip7_spec.trace.schema.schema_errors`
    with ``envelope_only``): the header, the start and the footer in full, each step only as an object and
    each of the start's events and observation only as objects. ``True`` only when that is certain; the
    caller asks the schema otherwise."""
    return (type(trace) is dict and trace.keys() <= _TRACE_KEYS and trace.get("format") == "flip7-trace"
            and type(trace.get("version")) is int and trace["version"] == 1
            and type(trace.get("rules_version", "")) is str
            and _header(trace.get("header")) and ("start" not in trace or _outcome(trace["start"]))
            and type(trace.get("steps")) is list and all(type(s) is dict for s in trace["steps"])
            and ("footer" not in trace or _footer(trace["footer"])))
