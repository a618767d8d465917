"""Turning a game played on the reference into a trace (the recording half of the format)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flip7_spec.events import Event
from flip7_spec.machine import Game
from flip7_spec.simulate import PlayedGame
from flip7_spec.trace import FORMAT_NAME, FORMAT_VERSION


def rules_version() -> str:
    from flip7_spec import RULES_VERSION

    return RULES_VERSION


def reshuffles_in(events: Sequence[Event]) -> list[list[str]]:
    """The reshuffle orders that ``events`` record, in order."""
    return [list(e.get("order")) for e in events if e.kind == "reshuffle"]


def round_scores_in(events: Sequence[Event]) -> list[list[int]]:
    """The round scores of every round that ended in ``events``, in order."""
    return [list(e.get("scores")) for e in events if e.kind == "round_end"]


def _events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]


def footer(game: Game) -> dict[str, Any]:
    """The footer of a finished game: final totals, winners and the number of rounds played."""
    return {"totals": list(game.totals), "winners": list(game.winners), "rounds": game.round}


def played_to_trace(played: PlayedGame, generator: str = "flip7-spec", description: str | None = None,
                    clauses: Sequence[str] | None = None, with_events: bool = True) -> dict[str, Any]:
    """The trace of a game recorded with ``record=True`` (and ``observe=True`` for observations).

    Each reshuffle order is written as a chance step just before the decision during which it was needed
    (before every decision, for a reshuffle in the first deal).
    """
    header: dict[str, Any] = {
        "ruleset": played.ruleset.to_json(),
        "players": played.players,
        "dealer": played.dealer,
        "deck": list(played.deck),
        "provenance": {"generator": generator, "seed": played.seed},
    }
    if description is not None:
        header["description"] = description
    if clauses is not None:
        header["clauses"] = sorted(set(clauses))
    steps: list[dict[str, Any]] = [{"reshuffle": order} for order in reshuffles_in(played.start_events)]
    for step in played.steps:
        steps.extend({"reshuffle": order} for order in reshuffles_in(step.events))
        entry: dict[str, Any] = {
            "decision": {"player": step.decision.player, "kind": step.decision.kind, "choice": step.choice},
        }
        if with_events:
            entry["events"] = _events_json(step.events)
        scores = round_scores_in(step.events)
        if scores:
            entry["scores"] = scores
        if step.observation is not None:
            entry["observation"] = step.observation
        steps.append(entry)
    trace: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "rules_version": rules_version(),
        "header": header,
        "steps": steps,
    }
    start: dict[str, Any] = {}
    if with_events:
        start["events"] = _events_json(played.start_events)
    start_scores = round_scores_in(played.start_events)
    if start_scores:
        start["scores"] = start_scores
    if played.start_observation is not None:
        start["observation"] = played.start_observation
    if start:
        trace["start"] = start
    if played.game is not None and played.game.over:
        trace["footer"] = footer(played.game)
    return trace


def record_choices(ruleset: Any, players: int, dealer: int, deck: Sequence[str], choices: Sequence[Any],
                   reshuffles: Sequence[Sequence[str]] = (), seed: str = "", generator: str = "flip7-spec",
                   description: str | None = None, clauses: Sequence[str] | None = None,
                   strict: bool = True) -> dict[str, Any]:
    """The trace of the game ``deck`` (top first) and ``choices`` give on the reference, with observations.

    Reshuffles take ``reshuffles`` in order. The trace stops when ``choices`` run out (a partial trace)
    or the game ends. With ``strict``, an illegal choice raises :class:`IllegalDecision`; otherwise
    recording stops before it.
    """
    from flip7_spec.cards import cards as parse_cards
    from flip7_spec.errors import IllegalDecision
    from flip7_spec.play import new_game
    from flip7_spec.simulate import PlayedGame, Step

    game, start_events = new_game(ruleset, players, list(deck), dealer=dealer,
                                  reshuffles=[parse_cards(list(o)) for o in reshuffles])
    played = PlayedGame(ruleset, players, dealer, list(deck), seed, start_events, game.observation(), game=game)
    for choice in choices:
        if game.pending is None:
            break
        decision = game.pending
        try:
            events = game.apply(choice)
        except IllegalDecision:
            if strict:
                raise
            break
        played.steps.append(Step(decision, choice, events, game.observation()))
    return played_to_trace(played, generator=generator, description=description, clauses=clauses)


def trace_choices(trace: dict[str, Any]) -> list[Any]:
    """The choices of a trace's decision steps, in order."""
    return [s["decision"]["choice"] for s in trace["steps"] if "decision" in s]


def trace_reshuffles(trace: dict[str, Any]) -> list[list[str]]:
    """The reshuffle orders of a trace's chance steps, in order."""
    return [list(s["reshuffle"]) for s in trace["steps"] if "reshuffle" in s]
