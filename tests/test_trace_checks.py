"""Replay's verdict on chance steps no decision uses, and show's fast schema check agreeing with the schema."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.fixtures import compiled_paths
from flip7_spec.rulesets import preset
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.simulation.simulate import record_game
from flip7_spec.trace.quickcheck import plausible_step, valid_observation, valid_outcome
from flip7_spec.trace.replay import CONFORM, DIVERGE, replay
from flip7_spec.trace.schema import load_schema, schema_errors
from flip7_spec.trace.show import ShowError, check_trace

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def game(seed: int = 3) -> dict[str, Any]:
    record = record_game(preset("flip7"), 3, threshold_policy(20), random.Random(seed), observe=True, seed=str(seed),
                         generator="test")
    return record.trace()


def test_a_reshuffle_after_the_last_decision_diverges_at_that_step() -> None:
    """No decision follows the chance step, so the reshuffle it claims never happened (docs/trace-format.md)."""
    trace = game()
    trace.pop("footer")
    trace["steps"].append({"reshuffle": ["12"] * 13})  # thirteen 12s: no pile ever holds them
    result = replay(trace)
    assert result.status == DIVERGE
    assert result.divergence is not None
    assert result.divergence.step == len(trace["steps"]) - 1
    assert result.divergence.where == f"$.steps[{len(trace['steps']) - 1}].reshuffle"
    assert result.divergence.clause == "F7-RESHUFFLE"


def test_a_possible_reshuffle_that_no_decision_uses_diverges_too() -> None:
    """Even an order that is a permutation of the whole deck is a divergence when nothing draws from it."""
    trace = game()
    trace.pop("footer")
    trace["steps"].append({"reshuffle": list(trace["header"]["deck"])})
    trace["steps"].append({"reshuffle": list(trace["header"]["deck"])})
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert result.divergence.step == len(trace["steps"]) - 2  # the first of the two unused ones


def test_the_game_itself_still_conforms() -> None:
    assert replay(game()).status == CONFORM


def test_every_fixture_passes_the_quick_checks() -> None:
    """Valid traces take the fast path: the schema validator is not run step by step for them."""
    paths = [p for p in compiled_paths(FIXTURES) if p.suffix == ".json"]
    assert paths
    for path in paths:
        trace = json.loads(path.read_text(encoding="utf-8"))
        assert valid_outcome(trace.get("start", {})), path
        for index, step in enumerate(trace["steps"]):
            assert plausible_step(step) and ("reshuffle" in step or valid_outcome(step)), (path, index)


MUTATIONS: list[tuple[str, Any]] = [
    ("round", 0), ("round", True), ("dealer", -1), ("draw_pile", 1.5), ("in_play", ["JOKER"]), ("in_play", "3"),
    ("players", [{"cards": ["3"], "status": "asleep", "round_score": 3, "total": 0}]),
    ("players", [{"cards": ["3"], "status": "active", "round_score": 3, "total": 0, "extra": 1}]),
    ("players", [{"cards": [3], "status": "active", "round_score": 3, "total": 0}]),
    ("pending", {"player": 0, "kind": "hit_or_stay", "options": []}),
    ("pending", {"player": 0, "kind": "hit_or_stay", "options": ["jump"]}),
    ("pending", {"player": 0, "kind": "hit_or_stay", "card": "ZZ", "options": ["hit"]}),
    ("pending", {"player": 0, "kind": "steal", "options": [{"player": 0}]}),
    ("pending", {"player": 0, "kind": "steal", "options": [{"player": 0, "index": -1}]}),
    ("pending", {"player": 0, "kind": "swap", "options": [[{"player": 0, "index": 1}]]}),
    ("over", 0), ("winners", [-1]), ("surprise", 1),
]


@pytest.mark.parametrize("key, value", MUTATIONS, ids=[f"{k}={v!r}"[:40] for k, v in MUTATIONS])
def test_the_quick_check_never_passes_what_the_schema_refuses(key: str, value: Any) -> None:
    trace = game()
    observation = copy.deepcopy(trace["steps"][0]["observation"])
    observation[key] = value
    schema = load_schema()
    validator_errors = schema_errors({**trace, "steps": [{**trace["steps"][0], "observation": observation}]})
    assert validator_errors, "the mutation should break the schema"
    assert not valid_observation(observation)
    broken = copy.deepcopy(trace)
    broken["steps"][0]["observation"] = observation
    with pytest.raises(ShowError, match=r"^\$\.steps\[0\]\.observation"):
        check_trace(broken)
    assert schema["$defs"]["observation"]["additionalProperties"] is False
