"""The differential properties: the engine under test (``--flip7-engine CMD``, default the in-process
reference) against the reference, decision by decision, and on the score of any final hand.

Without ``--flip7-engine`` the same properties also run against an independent engine, the bundled
JavaScript one (``examples/js-engine/engine.js``), when ``node`` is installed, with a bounded number of
examples so that the default run stays fast; the reference compared with itself could never fail.

A failing run is written as a trace file (``--flip7-failures-dir``; default ``flip7-failures/`` for an
engine, ``fixtures/regressions/`` for the reference) named in the failure message.
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from flip7_spec.play import round_score
from flip7_spec.protocol.adapter import EngineAdapter
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.rulesets import Ruleset
from flip7_spec.strategies import FinalHand, hands
from flip7_spec.testing import differential_machine, supported_rulesets


@pytest.mark.clause("F7-DEAL", "F7-HIT-STAY", "F7-FLIP3", "F7-CHANCE-GIVE", "F7-RESHUFFLE", "F7-SCORE",
                    "F7-DEALER-ROTATION", "F7-GAME-END", "F7-FORCED-CHOICE")
def test_the_engine_plays_like_the_reference(flip7_engine_command: str | None, flip7_failures_dir: Path) -> None:
    machine = differential_machine(flip7_engine_command, failures_dir=flip7_failures_dir)
    try:
        if not {"round", "game"} & set(machine.hello().get("levels", [])):
            pytest.skip("the engine declares neither the round nor the game level")
        machine.run_as_test()
    finally:
        machine.close()


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-MOD-ADD", "F7-FLIP7-BONUS", "F7-SCORE-BUST")
def test_the_engine_scores_hands_like_the_reference(flip7_engine: EngineAdapter) -> None:
    hello = flip7_engine.hello()
    if "scoring" not in hello.get("levels", []):
        pytest.skip("the engine does not declare the scoring level")
    cases = supported_rulesets(hello).flatmap(lambda r: st.tuples(st.just(r), hands(r)))

    @given(cases)
    def scores_agree(case: tuple[Ruleset, FinalHand]) -> None:
        ruleset, hand = case
        expected = round_score(ruleset, hand.as_cards(), hand.busted)
        found = flip7_engine.score(ruleset.to_json(), list(hand.cards), hand.busted)
        busted = " (busted)" if hand.busted else ""
        assert type(found) is int and found == expected, f"score of {' '.join(hand.cards)}{busted} under " \
                                                         f"{ruleset.name}: expected {expected}, found {found}"

    scores_agree()


JS_ENGINE = Path(__file__).resolve().parent.parent / "examples" / "js-engine" / "engine.js"
JS_EXAMPLES = 15  # games per run of the machine against the JavaScript engine: a few seconds in all


def _javascript_command(given: str | None) -> str:
    """The bundled JavaScript engine's command line; skips (with the reason shown) when ``--flip7-engine``
    chose another engine or when Node or the engine is missing."""
    if given is not None:
        pytest.skip("--flip7-engine chose the engine under test")
    node = shutil.which("node")
    if node is None or not JS_ENGINE.is_file():
        pytest.skip(f"needs node and {JS_ENGINE}")
    return shlex.join([node, str(JS_ENGINE)])


@pytest.fixture
def javascript_engine(flip7_engine_command: str | None) -> Iterator[EngineAdapter]:
    # a generous reply timeout: the machine may share a loaded computer, and a slow reply is no divergence
    engine = ProcessEngine(_javascript_command(flip7_engine_command), timeout=60.0)
    try:
        yield engine
    finally:
        engine.close()


@pytest.mark.clause("F7-DEAL", "F7-HIT-STAY", "F7-FLIP3", "F7-CHANCE-GIVE", "F7-RESHUFFLE", "F7-SCORE",
                    "F7-DEALER-ROTATION", "F7-GAME-END", "F7-FORCED-CHOICE")
def test_the_javascript_engine_plays_like_the_reference(javascript_engine: EngineAdapter, tmp_path: Path) -> None:
    machine = differential_machine(javascript_engine, failures_dir=tmp_path, name="JavaScript")
    try:
        run_state_machine_as_test(machine, settings=settings(max_examples=JS_EXAMPLES))
    finally:
        machine.close()


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-MOD-ADD", "F7-FLIP7-BONUS", "F7-SCORE-BUST")
def test_the_javascript_engine_scores_hands_like_the_reference(javascript_engine: EngineAdapter) -> None:
    cases = supported_rulesets(javascript_engine.hello()).flatmap(lambda r: st.tuples(st.just(r), hands(r)))

    @settings(max_examples=60)
    @given(cases)
    def scores_agree(case: tuple[Ruleset, FinalHand]) -> None:
        ruleset, hand = case
        expected = round_score(ruleset, hand.as_cards(), hand.busted)
        found = javascript_engine.score(ruleset.to_json(), list(hand.cards), hand.busted)
        assert type(found) is int and found == expected, f"score of {' '.join(hand.cards)} under {ruleset.name}"

    scores_agree()
