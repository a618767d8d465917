"""Comparison is exact JSON: ``1``, ``1.0`` and ``true`` differ, and an extra or missing key is a divergence,
in replay, in conform and in the differential machine, located by its JSON path with expected and found.

The broken engines ``tests/broken_engines/json_types.py`` and ``json_keys.py`` play the rules right and send
the right values, only with the wrong JSON type or one key too many or too few.
"""

from __future__ import annotations

import copy
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from flip7_spec.conformance import ERRORED, FAIL, PASS
from flip7_spec.conformance.cases import scoring_cases
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.judge.runner import run_scoring
from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.registry import Role, definition_of
from flip7_spec.rulesets import preset
from flip7_spec.testing import EngineDivergence, differential_machine
from flip7_spec.trace.compare import blame, differences, first_difference, step_difference
from flip7_spec.trace.replay import CONFORM, DIVERGE, replay

REPO = Path(__file__).resolve().parent.parent
ENGINES = REPO / "tests" / "broken_engines"
FIXTURE = REPO / "fixtures" / "flip7" / "chance-replacement.json"


# ---- the comparison itself ------------------------------------------------------------------------------


@pytest.mark.parametrize(("expected", "found"), [
    (1, 1.0), (1, True), (0, False), (1.0, True), (0, 0.0), (None, 0), ("1", 1), ([1], [1.0]),
    ({"a": 1}, {"a": True}),
])
def test_values_of_another_json_type_differ(expected: Any, found: Any) -> None:
    assert first_difference(expected, found) is not None
    assert step_difference(expected, found) is not None


def test_extra_and_missing_keys_are_located() -> None:
    expected = {"players": [{"total": 3, "status": "active"}], "pending": {"card": None}}
    extra = copy.deepcopy(expected)
    extra["players"][0]["name"] = "Ann"
    difference = first_difference(expected, extra)
    assert difference is not None
    assert (difference.where(), difference.expected, difference.found) == ("$.players[0].name", "<absent>", "Ann")
    missing = copy.deepcopy(expected)
    del missing["pending"]["card"]
    difference = step_difference(expected, missing)
    assert difference is not None
    assert (difference.where(), difference.expected, difference.found) == ("$.pending.card", None, "<absent>")


def test_extra_and_missing_elements_are_located() -> None:
    difference = first_difference({"cards": ["5"]}, {"cards": ["5", "9"]})
    assert difference is not None
    assert (difference.where(), difference.expected, difference.found) == ("$.cards[1]", "<absent>", "9")
    difference = first_difference([[1, 2], [3]], [[1, 2], []])
    assert difference is not None
    assert (difference.where(), difference.expected, difference.found) == ("$[1][0]", 3, "<absent>")


def test_a_step_whose_json_differs_never_passes() -> None:
    # 0.0 and -0.0 are equal numbers of one type, but not the same JSON text: the step still differs, at the
    # root when no part of the value can be named
    assert first_difference(0.0, -0.0) is None
    difference = step_difference(0.0, -0.0)
    assert difference is not None and (difference.where(), difference.expected, difference.found) == ("$", 0.0, -0.0)
    assert [(d.where(), d.expected, d.found) for d in differences(0.0, -0.0)] == [("$", 0.0, -0.0)]


def test_every_difference_is_listed_by_exact_type() -> None:
    expected = {"round": 1, "players": [{"total": 0}, {"total": 3}], "over": False}
    found = {"round": True, "players": [{"total": 0.0}, {"total": 3}], "over": 0}
    assert [(d.where(), d.expected, d.found) for d in differences(expected, found)] == [
        ("$.over", False, 0), ("$.round", 1, True), ("$.players[0].total", 0, 0.0)]
    assert differences(expected, json.loads(json.dumps(expected))) == []


def test_equal_values_have_no_difference() -> None:
    value = {"b": [1, "x", None, {"c": False}], "a": 2}
    assert first_difference(value, copy.deepcopy(value)) is None
    assert step_difference(value, json.loads(json.dumps(value))) is None


# ---- replay of a trace ----------------------------------------------------------------------------------


def _trace() -> dict[str, Any]:
    trace: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert replay(trace).status == CONFORM  # the fixture as shipped conforms: each change below is the cause
    return trace


def _first_observed_step(trace: dict[str, Any]) -> int:
    return next(i for i, s in enumerate(trace["steps"]) if "observation" in s)


@pytest.mark.parametrize(("change", "where", "expected", "found"), [
    ("float", "players[0].total", 0, 0.0),
    ("bool", "round", 1, True),
    ("extra", "players[1].name", "<absent>", "Bob"),
    ("drop", "discard_pile", "<kept>", "<absent>"),
])
def test_replay_diverges_on_a_type_or_key_difference(change: str, where: str, expected: Any, found: Any) -> None:
    trace = _trace()
    index = _first_observed_step(trace)
    observation = trace["steps"][index]["observation"]
    if change == "float":
        observation["players"][0]["total"] = float(observation["players"][0]["total"])
    elif change == "bool":
        observation["round"] = True
    elif change == "extra":
        observation["players"][1]["name"] = "Bob"
    else:
        expected = observation.pop("discard_pile")
    result = replay(trace)
    assert result.status == DIVERGE
    assert result.divergence is not None
    d = result.divergence
    assert (d.step, d.where, d.expected, d.found) == (index, f"$.steps[{index}].observation.{where}", expected, found)


def test_replay_diverges_on_an_extra_event_or_card() -> None:
    trace = _trace()
    index = next(i for i, s in enumerate(trace["steps"]) if s.get("events"))
    events = trace["steps"][index]["events"]
    events.append(dict(events[-1]))
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert (result.divergence.where, result.divergence.expected) == (f"$.steps[{index}].events[{len(events) - 1}]",
                                                                     "<absent>")
    trace = _trace()
    index = _first_observed_step(trace)
    row = trace["steps"][index]["observation"]["players"][0]["cards"]
    row.append("12")
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert (result.divergence.where, result.divergence.found) == (
        f"$.steps[{index}].observation.players[0].cards[{len(row) - 1}]", "12")


def test_replay_diverges_on_an_event_key_or_a_float_score() -> None:
    trace = _trace()
    index = next(i for i, s in enumerate(trace["steps"]) if s.get("events"))
    trace["steps"][index]["events"][0]["extra"] = 1
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert result.divergence.where == f"$.steps[{index}].events[0].extra"
    trace = _trace()
    index = next(i for i, s in enumerate(trace["steps"]) if s.get("scores"))
    scores = trace["steps"][index]["scores"]
    trace["steps"][index]["scores"] = [[float(v) for v in row] for row in scores]
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert result.divergence.where == f"$.steps[{index}].scores[0][0]"


# ---- conform against the broken engines -----------------------------------------------------------------


def _results(name: str, mode: str) -> list[Any]:
    command = shlex.join([sys.executable, str(ENGINES / f"{name}.py"), mode])
    corpus = Corpus(rulesets=[preset("flip7")], games=1, fixtures=None, scoring=False, min_coverage=0)
    _, results, _ = run(EngineSpec(command=command, timeout=20.0), corpus)
    assert results
    return results


def test_conform_fails_an_engine_sending_floats_for_integers() -> None:
    # the start observation: every total is 0 before the first round is scored; the engine sends 0.0
    for result in _results("json_types", "float"):
        assert result.outcome == FAIL, result.message
        assert (result.where, result.expected, result.found) == ("$.start.observation.players[0].total", 0, 0.0)


def test_conform_fails_an_engine_leaving_out_a_key() -> None:
    # the first decision of a game is a Hit or Stay: its pending decision has "card": null, left out here
    for result in _results("json_keys", "drop"):
        assert result.outcome == FAIL, result.message
        assert (result.where, result.expected, result.found) == ("$.start.observation.pending.card", None,
                                                                  "<absent>")


@pytest.mark.parametrize(("name", "mode", "problem"), [
    ("json_types", "bool", "$.round: True is not of type 'integer'"),
    ("json_keys", "extra", "$.players[0]: Additional properties are not allowed ('name' was unexpected)"),
])
def test_conform_errors_an_engine_whose_observation_the_protocol_refuses(name: str, mode: str, problem: str) -> None:
    # ``true`` for a number and a key the protocol does not know differ from the reference, and the protocol's
    # schema refuses them: the case errors, naming the JSON path, instead of passing
    for result in _results(name, mode):
        assert result.outcome == ERRORED
        assert f"observation breaks the protocol at the start: {problem}" in result.message
        assert result.raw


class _FloatScores(ReferenceAdapter):
    """The reference, with its scores sent as floats (``72.0`` for ``72``)."""

    def score(self, ruleset: dict[str, Any], hand: Any, busted: bool) -> Any:
        return float(super().score(ruleset, hand, busted))


def test_a_float_score_fails_the_scoring_case() -> None:
    case = next(c for c in scoring_cases(preset("flip7")) if c.id.endswith("official-x2"))
    assert run_scoring(ReferenceAdapter(), case).outcome == PASS
    result = run_scoring(_FloatScores(), case)
    # the rule book's example: (3+11+5+7+10) x2 = 72 (RULES.md A.1#17); the engine says 72.0
    assert (result.outcome, result.expected, result.found) == (FAIL, 72, 72.0)


# ---- what a round case compares, and the clause blamed for a total ------------------------------------


def test_a_round_case_compares_its_round_and_the_totals_it_banks_nothing_after() -> None:
    # The mutant keeps the first Dealer for the whole game: its first round is the reference's, and the totals
    # it banks are right, so every round case passes; each game case reaching a second round fails, where
    # the Dealer should have passed left (F7-DEALER-ROTATION).
    corpus = Corpus(rulesets=[preset("flip7")], games=3, fixtures=None, scoring=False, min_coverage=0)
    _, results, _ = run(EngineSpec(python="tests.mutants.dealer_fixed:Engine"), corpus)
    rounds = [r for r in results if r.level == "round"]
    games = [r for r in results if r.level == "game"]
    assert len(rounds) == len(games) == 3
    assert all(r.outcome == PASS for r in rounds), [r.message for r in rounds]
    assert all(r.outcome == FAIL and r.clause == "F7-DEALER-ROTATION" for r in games)
    assert all(r.where is not None and r.where.endswith(".observation.dealer") for r in games)


def test_a_total_differing_at_a_round_end_blames_scoring_and_otherwise_banking() -> None:
    # Totals change only when a round ends (F7-SCORE adds the round scores); a total differing at any other
    # step is about what a player banks (F7-BANK).
    game = definition_of(preset("flip7"))
    path = ["players", 1, "total"]
    at_end = [{"event": "stay", "clause": "F7-HIT-STAY", "player": 1}, {"event": "round_end", "clause": "F7-SCORE"}]
    assert blame(path, at_end, Role.HIT_STAY, game) == "F7-SCORE"
    assert blame(path, at_end[:1], Role.HIT_STAY, game) == "F7-BANK"


def test_a_dealer_differing_blames_the_rotation_and_a_round_number_the_round_end() -> None:
    # Without a diagnosis the clause is the blame's guess: the Dealer is the rotation's (F7-DEALER-ROTATION,
    # even at the step where a round ends), the round number the round end's (or the Flip 7's that ended it).
    game = definition_of(preset("flip7"))
    at_end = [{"event": "stay", "clause": "F7-HIT-STAY", "player": 1}, {"event": "round_end", "clause": "F7-SCORE"}]
    assert blame(["dealer"], at_end, Role.HIT_STAY, game) == "F7-DEALER-ROTATION"
    assert blame(["round"], at_end, Role.HIT_STAY, game) == "F7-ROUND-END"
    assert blame(["round"], [*at_end, {"event": "flip7", "clause": "F7-FLIP7", "player": 0}], Role.HIT_STAY,
                 game) == "F7-FLIP7"


def test_replay_diverges_on_an_event_value_of_another_type() -> None:
    trace = _trace()
    index, position = next((i, k) for i, s in enumerate(trace["steps"]) for k, e in enumerate(s.get("events", []))
                           if type(e.get("player")) is int)
    event = trace["steps"][index]["events"][position]
    event["player"] = float(event["player"])
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert result.divergence.where == f"$.steps[{index}].events[{position}].player"


# ---- the differential machine ---------------------------------------------------------------------------


class _FloatTotals(ReferenceAdapter):
    """The reference, with each player's total sent as a float (``0.0`` for ``0``)."""

    def start(self, *args: Any, **kwargs: Any) -> Any:
        return _floats(super().start(*args, **kwargs))

    def decide(self, *args: Any, **kwargs: Any) -> Any:
        return _floats(super().decide(*args, **kwargs))


def _floats(observation: Any) -> Any:
    return {**observation, "players": [{**p, "total": float(p["total"])} for p in observation["players"]]}


def test_the_differential_machine_fails_an_engine_sending_floats(tmp_path: Path) -> None:
    quick = settings(max_examples=3, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
                     suppress_health_check=list(HealthCheck))
    with pytest.raises(EngineDivergence) as caught:
        run_state_machine_as_test(differential_machine(_FloatTotals(), failures_dir=tmp_path), settings=quick)
    # every total is 0 at the start, and the engine says 0.0
    assert (caught.value.step, caught.value.where, caught.value.expected, caught.value.found) == (
        None, "$.observation.players[0].total", 0, 0.0)
