"""conform against flop7, a Flip 7 engine from PyPI that nobody here wrote (examples/flop7/).

The expected deviations were found by reading flop7 1.0.2's source and checked against the rules
(RULES.md); examples/flop7/README.md explains each. The test pins the ones the shipped fixtures catch, so
a change in the adapter that hid one of them (an adapter that corrects flop7) fails here.
"""

from __future__ import annotations

import importlib.util
import shlex
import sys
from pathlib import Path

import pytest

from tests.test_conform import REPO, conform, read_json

pytestmark = pytest.mark.skipif(importlib.util.find_spec("flop7") is None, reason="flop7 is not installed")

FLOP7 = shlex.join([sys.executable, str(REPO / "examples" / "flop7" / "engine.py")])


def test_smoke_passes_the_adapter() -> None:
    ran = conform("--smoke", "--engine", FLOP7)
    assert ran.code == 0, ran.output
    assert "smoke: handshake ok: flop7 1.0.2" in ran.stdout


def test_conform_reports_flop7s_deviations(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    ran = conform("--engine", FLOP7, "--games", "4", "--json", str(report_path), guard=120)
    assert ran.code == 1, ran.output
    results = {(r["case_id"], r["level"]): r for r in read_json(report_path)["results"]}

    def outcome(case: str, level: str = "game") -> str:
        return str(results[(case, level)]["outcome"])

    # flop7 scores hands right: every official example and every misreading hand passes.
    scoring = [r for (case, _), r in results.items() if case.startswith("scoring:")]
    assert scoring and all(r["outcome"] == "pass" for r in scoring)
    # F7-DEAL-STAY-INSTEAD: flop7 still deals a card to a player who took cards in a Flip Three before their turn.
    assert outcome("fixture:flip7/deal-flip3-undealt-hits") == "fail"
    assert outcome("fixture:flip7/deal-flip3-undealt-stays") == "fail"
    # F7-FLIP3-DISCARDED: flop7 keeps the Flip Three in play until the cards it set aside are resolved.
    flip3 = results[("fixture:flip7/flip3-assign-freeze-then-flip3", "game")]
    assert flip3["outcome"] == "fail" and flip3["where"].endswith(".in_play[0]") and flip3["found"] == "FLIP3"
    # F7-TIE: at a tie for the top total flop7 ends the game instead of playing another round.
    tie = results[("fixture:flip7/tie-another-round", "game")]
    assert tie["outcome"] == "fail" and tie["clause"] == "F7-TIE" and tie["where"].endswith(".over")
    # What flop7 gets right passes: a plain bust, a Freeze on oneself, the official scoring of a round.
    for case in ("fixture:flip7/bust-basic", "fixture:flip7/freeze-self", "fixture:flip7/score-official-examples"):
        assert outcome(case) == "pass", results[(case, "game")]
    # Only Flip 7 is declared: Vengeance is skipped, never failed.
    vengeance = [r for (case, _), r in results.items() if case.startswith("fixture:vengeance/")]
    assert vengeance and all(r["outcome"] == "skipped" for r in vengeance)
