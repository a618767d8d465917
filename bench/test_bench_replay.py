"""Strict replay of traces against the reference: decision steps per second over a pre-generated corpus.

Figures, each over the shared corpus (whole 3-player games with events and observations):

- ``replay``: :func:`flip7_spec.trace.replay.replay`, everything it does (schema validation, the game
  re-played, events and observations compared after every step).
- ``replay (events only)``: the same traces without observations, so only events are compared.
- ``trace schema validation``: :func:`flip7_spec.trace.schema.schema_errors` alone, the part of replay that
  checks the JSON Schema (its share of ``replay`` is reported).
- baseline ``raw replay``: the game re-played from the header with the recorded choices and nothing checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.support import FIGURES, TraceCorpus, report, timed
from flip7_spec.cards import cards
from flip7_spec.trace.record import trace_choices, trace_reshuffles
from flip7_spec.trace.replay import CONFORM, game_from_header, replay
from flip7_spec.trace.schema import schema_errors

ROUNDS = 3


def raw_replay(trace: dict[str, Any]) -> int:
    """Re-play a trace's choices on the reference without checking anything; returns the decisions made."""
    reshuffles = [cards(order) for order in trace_reshuffles(trace)]
    _, game, _ = game_from_header(trace["header"], reshuffles)
    game.start()
    choices = trace_choices(trace)
    for choice in choices:
        game.apply(choice)
    assert game.over
    return len(choices)


def _without_observations(trace: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in trace.items() if k != "start"}
    out["start"] = {k: v for k, v in trace.get("start", {}).items() if k != "observation"}
    out["steps"] = [{k: v for k, v in step.items() if k != "observation"} for step in trace["steps"]]
    return out


@pytest.fixture(scope="module")
def events_only(trace_corpus: TraceCorpus) -> list[dict[str, Any]]:
    """The corpus without observations."""
    return [_without_observations(t) for t in trace_corpus.traces]


def test_raw_replay(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """Baseline: the recorded choices applied to the reference, nothing compared."""
    traces = trace_corpus.traces
    durations, steps = timed(benchmark, lambda: sum(raw_replay(t) for t in traces), ROUNDS)
    assert steps == trace_corpus.decisions
    report(benchmark, "raw replay", "steps", steps, durations, traces=len(traces))


def test_schema_validation(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """The JSON Schema check that replay starts with."""
    traces = trace_corpus.traces
    durations, problems = timed(benchmark, lambda: [schema_errors(t) for t in traces], ROUNDS)
    assert not any(problems)
    report(benchmark, "trace schema validation", "steps", trace_corpus.decisions, durations,
           traces=len(traces))


def test_replay(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """``replay`` of traces with observations: every step's events and observation compared."""
    traces = trace_corpus.traces
    durations, results = timed(benchmark, lambda: [replay(t) for t in traces], ROUNDS)
    assert all(r.status == CONFORM and r.complete and r.level == "observations" for r in results)
    steps = sum(r.steps for r in results)
    assert steps == trace_corpus.decisions
    figure = report(benchmark, "replay", "steps", steps, durations, baseline="raw replay", traces=len(traces),
                    traces_per_second=round(len(traces) / min(durations), 1))
    schema = FIGURES.get("trace schema validation")
    if schema is not None:  # on CPU time, which other processes disturb less than the wall clock
        mine, theirs = figure.cpu or figure.seconds, schema.cpu or schema.seconds
        benchmark.extra_info["schema_share"] = round(theirs / mine, 3)


def test_replay_events_only(benchmark: Any, trace_corpus: TraceCorpus,
                            events_only: list[dict[str, Any]]) -> None:
    """``replay`` of the same traces without observations (events compared)."""
    durations, results = timed(benchmark, lambda: [replay(t) for t in events_only], ROUNDS)
    assert all(r.status == CONFORM and r.complete and r.level == "events" for r in results)
    steps = sum(r.steps for r in results)
    assert steps == trace_corpus.decisions
    report(benchmark, "replay (events only)", "steps", steps, durations, baseline="raw replay",
           traces=len(events_only))
