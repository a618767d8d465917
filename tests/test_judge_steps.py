"""The first step of judging a trace case, :func:`flip7_spec.judge.runner.compare`, on observations changed by
hand: it finds the first place where the engine's observation differs at the case's level (the legal choices
left out, only the totals at a round case's last step, exact JSON values), and the first place before that
where only the legal choices differ (docs/protocol.md, the conformance levels)."""

from __future__ import annotations

import copy
from typing import Any

from flip7_spec.conformance.cases import generated_cases
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import Played, compare
from flip7_spec.protocol import Level
from flip7_spec.rulesets import preset


def _cases() -> tuple[Case, Case]:
    round_case, game_case = generated_cases([preset("flip7")], [3], 1, 0)
    assert round_case.level is Level.ROUND and game_case.level is Level.GAME
    return round_case, game_case


def _played(case: Case, found: list[Any], round_end: int | None = None) -> Played:
    expected = case.document.observations()
    return Played(case, [], [], [], [], round_end, expected, found, None)


def test_an_engine_that_shows_what_the_reference_shows_has_no_divergence() -> None:
    _, game = _cases()
    found = copy.deepcopy(game.document.observations())
    comparison = compare(_played(game, found), legal=True)
    assert comparison.divergence is None and comparison.legal is None


def test_the_first_differing_field_is_the_divergence_and_an_earlier_options_change_is_the_legal_problem() -> None:
    _, game = _cases()
    expected = game.document.observations()
    found = copy.deepcopy(expected)
    found[5]["players"][1]["total"] += 1
    found[7]["players"][0]["total"] += 1
    options = found[2]["pending"]["options"]
    assert len(options) > 1
    found[2]["pending"]["options"] = list(reversed(options))  # the same choices, offered in another order
    comparison = compare(_played(game, found), legal=True)
    assert comparison.divergence is not None and comparison.legal is not None
    assert comparison.divergence.position == 5
    assert comparison.divergence.difference.path == ("players", 1, "total")
    assert (comparison.divergence.difference.expected, comparison.divergence.difference.found) == (
        expected[5]["players"][1]["total"], expected[5]["players"][1]["total"] + 1)
    assert not comparison.divergence.totals
    assert comparison.legal.position == 2
    assert comparison.legal.difference.path[:2] == ("pending", "options")
    # without the legal level the choices are not compared at all
    assert compare(_played(game, found), legal=False).legal is None


def test_values_equal_in_python_but_not_as_json_differ() -> None:
    _, game = _cases()
    found = copy.deepcopy(game.document.observations())
    found[3]["players"][0]["total"] = float(found[3]["players"][0]["total"])  # 0.0 is not 0
    comparison = compare(_played(game, found), legal=False)
    assert comparison.divergence is not None and comparison.divergence.position == 3


def test_an_options_change_at_or_after_the_divergence_is_not_the_legal_problem() -> None:
    _, game = _cases()
    found = copy.deepcopy(game.document.observations())
    found[4]["players"][0]["total"] += 1
    found[4]["pending"]["options"] = list(reversed(found[4]["pending"]["options"]))
    comparison = compare(_played(game, found), legal=True)
    assert comparison.divergence is not None and comparison.divergence.position == 4
    assert comparison.legal is None


def test_a_round_case_compares_only_the_totals_after_the_decision_that_ends_its_round() -> None:
    round_case, _ = _cases()
    round_end = round_case.document.first_round_end()
    assert round_end is not None
    last = round_end + 1  # the observation after the decision during which the round ends
    found = copy.deepcopy(round_case.document.observations())
    found[last]["players"][0]["cards"] = ["not", "compared"]
    found[last]["round"] += 1
    assert compare(_played(round_case, found, round_end), legal=True).divergence is None
    found[last]["players"][2]["total"] += 3
    divergence = compare(_played(round_case, found, round_end), legal=True).divergence
    assert divergence is not None and divergence.totals and divergence.position == last
    assert divergence.difference.path == ("players", 2, "total")


def test_a_place_the_trace_records_no_observation_for_is_not_compared() -> None:
    _, game = _cases()
    expected = game.document.observations()
    found = copy.deepcopy(expected)
    found[6]["players"][0]["total"] += 1
    played = _played(game, found)
    played.expected[6] = None
    assert compare(played, legal=True).divergence is None
