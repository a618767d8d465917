"""The differential machine catches the mutant engines of ``tests/mutants``, and the run it saves replays on
the conformance runner to the same divergence.

The sweep over every mutant is marked ``slow`` (run it with ``-m slow``); the default run checks a few
mutants whose bugs show in ordinary play, and one whose bug shows only in a rare state the machine steers
into (a Vengeance Flip 7 with the /2 in the row), with a bounded number of examples.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from flip7_spec.conformance import FAIL
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import run_case
from flip7_spec.protocol.adapter import EngineAdapter
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.testing import EngineDivergence, differential_machine
from tests.mutants import MUTANTS

QUICK = ("x2_doubles_add", "dealer_fixed", "deal_from_dealer", "flip3_actions_at_once", "v_onemore_no_stay",
         "v_halve_bonus")

OUT_OF_REACH = ("empty_piles_end_game", "v_empty_piles_end_game")
"""Mutants whose bug shows only once the deck and the discard pile are both empty: the machine deals the presets'
whole decks, which no game of its player counts runs out of (tests/test_mutants.py catches them on a small
deck)."""


def engine(name: str) -> EngineAdapter:
    adapter = importlib.import_module(f"tests.mutants.{name}").Engine()
    assert isinstance(adapter, EngineAdapter)
    return adapter


def catch(name: str, examples: int, out: Path) -> EngineDivergence:
    """Run the machine against mutant ``name`` until it diverges; fail the test if it never does."""
    find = settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    stateful_step_count=60, suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    with pytest.raises(EngineDivergence) as caught:
        run_state_machine_as_test(differential_machine(engine(name), failures_dir=out), settings=find)
    return caught.value


def check_saved_run(name: str, error: EngineDivergence) -> None:
    """The saved trace, run on the conformance runner against the mutant, fails at the same place."""
    assert error.trace_path is not None and error.trace_path.is_file()
    trace = json.loads(error.trace_path.read_text(encoding="utf-8"))
    case = Case("saved-run", "game", ruleset_from_json(trace["header"]["ruleset"]), trace=trace)
    mutant = engine(name)
    results = run_case(mutant, case, mutant.hello())  # the case's level, then the legal level
    failures = [r for r in results if r.outcome == FAIL]
    assert failures, results
    if error.expected is None and error.found is None and "ChanceError" in str(error):
        # the mutant could not use the reshuffle orders: the runner fails it with the reshuffle clause
        assert failures[0].where == "$.reshuffles", failures[0]
        return
    assert (failures[0].expected, failures[0].found) == (error.expected, error.found)


@pytest.mark.clause("F7-MOD-X2", "F7-DEALER-ROTATION", "F7-DEAL-ORDER", "F7-FLIP3-SETASIDE", "V-ONEMORE-STAY",
                    "V-SCORE")
@pytest.mark.parametrize("name", QUICK)
def test_machine_catches_a_mutant(name: str, tmp_path: Path) -> None:
    error = catch(name, 150, tmp_path)
    check_saved_run(name, error)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in MUTANTS if n not in OUT_OF_REACH])
def test_machine_catches_every_mutant(name: str, tmp_path: Path) -> None:
    error = catch(name, 2000, tmp_path)
    check_saved_run(name, error)
