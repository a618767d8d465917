"""Regression traces: every failing run the differential machine saved into fixtures/regressions/ replays,
and conforms, on the reference; and the machinery that saves them works (a deliberately wrong engine is
caught, and its saved run reproduces the same divergence through the conformance runner)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from flip7_spec.conformance import FAIL
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import run_case
from flip7_spec.protocol.adapter import Observation, ReferenceAdapter, reference_hello
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.testing import EngineDivergence, differential_machine
from flip7_spec.trace.reader import read_traces
from flip7_spec.trace.replay import CONFORM, replay

REGRESSIONS = Path(__file__).resolve().parent.parent / "fixtures" / "regressions"
TRACE_FILES = sorted(p for p in REGRESSIONS.glob("*") if p.suffix in (".json", ".jsonl")) if REGRESSIONS.is_dir() \
    else []


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2")
@pytest.mark.parametrize("path", TRACE_FILES, ids=[p.name for p in TRACE_FILES])
def test_every_saved_regression_conforms_on_the_reference(path: Path) -> None:
    sources = list(read_traces(path))
    assert sources, f"{path.name} holds no trace"
    for source in sources:
        assert source.error is None, f"{source.location}: {source.error}"
        result = replay(source.trace)
        assert result.status == CONFORM, f"{source.location}: {result.divergence or result.error}"


def _plus_cards(cards: list[str]) -> int:
    return sum(int(text[1:]) for text in cards if text.startswith("+"))


class DoublesPlusUnderX2(ReferenceAdapter):
    """A deliberately wrong engine: under x2 it doubles the +N cards too (a known misreading of F7-MOD-X2)."""

    def _misread(self, observation: Observation) -> Observation:
        for player in observation["players"]:
            if "x2" in player["cards"] and player["status"] != "busted":
                player["round_score"] += _plus_cards(player["cards"])
        return observation

    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Any, reshuffles: Any) -> Observation:
        return self._misread(super().start(ruleset, players, dealer, deck, reshuffles))

    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> Observation:
        return self._misread(super().decide(choice, player, kind))

    def score(self, ruleset: dict[str, Any], hand: Any, busted: bool) -> int:
        value = super().score(ruleset, hand, busted)
        return value + _plus_cards(list(hand)) if "x2" in hand and not busted else value


# Generation alone finds it within a few runs; shrinking (minutes of replays) is not what this test checks.
FIND_IT = settings(max_examples=300, derandomize=True, database=None, deadline=None, stateful_step_count=40,
                   suppress_health_check=list(HealthCheck), phases=[Phase.generate])


@pytest.mark.clause("F7-MOD-X2", "F7-MOD-ADD")
def test_a_wrong_engine_is_caught_and_its_run_saved_as_a_trace_that_reproduces(tmp_path: Path) -> None:
    machine = differential_machine(DoublesPlusUnderX2(), failures_dir=tmp_path)
    with pytest.raises(EngineDivergence) as caught:
        run_state_machine_as_test(machine, settings=FIND_IT)
    error = caught.value
    assert error.clause == "F7-MOD-X2" and error.where is not None and error.where.endswith(".round_score")
    assert error.trace_path is not None and error.trace_path.parent == tmp_path
    assert str(error.trace_path) in str(error), "the failure message names the saved trace"
    assert [p.name for p in tmp_path.iterdir()] == [error.trace_path.name], "one trace: the minimal run"

    trace = json.loads(error.trace_path.read_text(encoding="utf-8"))
    assert replay(trace).status == CONFORM, "the saved run is the reference's own trace"
    case = Case("saved-run", "game", ruleset_from_json(trace["header"]["ruleset"]), trace=trace)
    results = run_case(DoublesPlusUnderX2(), case, reference_hello())
    assert results[0].outcome == FAIL, results[0]
    found = results[0]
    assert found.where is not None and found.where.endswith(error.where.removeprefix("$"))
    assert (found.expected, found.found, found.clause) == (error.expected, error.found, error.clause)
    assert run_case(ReferenceAdapter(), case, reference_hello())[0].outcome != FAIL
