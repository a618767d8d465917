"""The differential properties: the engine under test (``--flip7-engine CMD``, default the in-process
reference) against the reference, decision by decision, and on the score of any final hand.

A failing run is written as a trace file (``--flip7-failures-dir``; default ``flip7-failures/`` for an
engine, ``fixtures/regressions/`` for the reference) named in the failure message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from flip7_spec.play import round_score
from flip7_spec.protocol.adapter import EngineAdapter
from flip7_spec.rulesets import Ruleset
from flip7_spec.strategies import Hand, hands
from flip7_spec.testing import differential_machine, supported_rulesets


@pytest.mark.clause("F7-DEAL", "F7-HIT-STAY", "F7-FLIP3", "F7-CHANCE-GIVE", "F7-RESHUFFLE", "F7-SCORE",
                    "F7-DEALER-ROTATION", "F7-GAME-END", "F7-FORCED-CHOICE")
def test_the_engine_plays_like_the_reference(flip7_engine_command: str | None, flip7_failures_dir: Path) -> None:
    machine = differential_machine(flip7_engine_command, failures_dir=flip7_failures_dir)
    try:
        if not {"round", "game"} & set(machine.hello().get("levels", [])):
            pytest.skip("the engine declares neither the round nor the game level")
        run_state_machine_as_test(machine)
    finally:
        machine.close()


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-MOD-ADD", "F7-FLIP7-BONUS", "F7-SCORE-BUST")
def test_the_engine_scores_hands_like_the_reference(flip7_engine: EngineAdapter) -> None:
    hello = flip7_engine.hello()
    if "scoring" not in hello.get("levels", []):
        pytest.skip("the engine does not declare the scoring level")
    cases = supported_rulesets(hello).flatmap(lambda r: st.tuples(st.just(r), hands(r)))

    @given(cases)
    def scores_agree(case: tuple[Ruleset, Hand]) -> None:
        ruleset, hand = case
        expected = round_score(ruleset, hand.as_cards(), hand.busted)
        found = flip7_engine.score(ruleset.to_json(), list(hand.cards), hand.busted)
        assert found == expected, f"score of {' '.join(hand.cards)}{' (busted)' if hand.busted else ''} under " \
                                  f"{ruleset.name}: expected {expected}, found {found}"

    scores_agree()
