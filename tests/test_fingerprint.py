"""Past the first divergence: an engine with several independent deviations gets each as a cause, a fingerprint
that names them, and a run against that fingerprint passes.

The engine combines three mutants of tests/mutants (each written independently of the catalogue): a Dealer
for life, a Freeze that cannot target its revealer, and x2 doubling the +N cards.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from flip7_spec.cards import Card
from flip7_spec.cli import cli
from flip7_spec.conformance import FAIL, PASS
from flip7_spec.conformance.fingerprint import cause_table, fingerprints
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.errors import RulesetError
from flip7_spec.rulesets import Ruleset, load_ruleset, preset, ruleset_from_json
from tests.mutants import x2_doubles_add
from tests.mutants._support import MutantAdapter, ScoredGame
from tests.mutants.dealer_fixed import FixedDealerGame
from tests.mutants.freeze_not_self import NoSelfFreezeGame

EXPECTED = {"dealer_fixed", "freeze_not_self", "x2_doubles_adds"}


class ThreeBugsGame(FixedDealerGame, NoSelfFreezeGame, ScoredGame):
    """Three mutants' games in one."""


class Engine(MutantAdapter):
    """An engine with three independent deviations."""

    game_class = ThreeBugsGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        return x2_doubles_add.Engine().hand_score(ruleset, hand, status)


ENGINE = "tests.test_fingerprint:Engine"


@pytest.fixture(scope="module")
def first_run() -> list:  # type: ignore[type-arg]
    _, results, _ = run(EngineSpec(python=ENGINE), Corpus(rulesets=[preset("flip7")], games=12, seed="0"))
    return results


@pytest.mark.clause("F7-DEALER-ROTATION", "F7-FREEZE-SELF", "F7-MOD-X2")
def test_every_deviation_is_a_cause(first_run: list) -> None:  # type: ignore[type-arg]
    readings = {c.reading for c in cause_table(first_run) if c.reading is not None}
    assert readings >= EXPECTED, readings
    # one case can hold several causes: a game goes on past its first explained divergence
    assert any(len(r.causes or ()) >= 2 for r in first_run if r.outcome == FAIL)


def test_the_fingerprint_names_the_three_deviations(first_run: list) -> None:  # type: ignore[type-arg]
    found = fingerprints(first_run)
    assert set(found) == {"flip7"}
    assert set(found["flip7"].readings) == EXPECTED


def test_conform_with_the_fingerprint_passes(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "engine.toml"
    first = runner.invoke(cli, ["conform", "--python", ENGINE, "--ruleset", "flip7", "--games", "12",
                                 "--fingerprint", str(path), "--no-progress"])
    assert first.exit_code == 1, first.output
    assert "failures by cause" in first.output and f"fingerprint written to {path}" in first.output
    fingerprint = load_ruleset(str(path))
    assert set(fingerprint.deviations) == EXPECTED
    report = tmp_path / "again.json"
    again = runner.invoke(cli, ["conform", "--python", ENGINE, "--ruleset", str(path), "--games", "12",
                                 "--json", str(report), "--no-progress"])
    assert again.exit_code == 0, again.output
    results = json.loads(report.read_text())["results"]
    ran = [r for r in results if r["outcome"] == PASS]
    assert any(r["case_id"].startswith("fixture:") for r in ran) and any(r["case_id"].startswith("game:")
                                                                           for r in ran)


def test_deviations_are_checked_when_a_ruleset_is_read() -> None:
    assert ruleset_from_json({"base": "flip7", "deviations": ["dealer_fixed", 'deal_start="dealer"']}).deviations
    with pytest.raises(RulesetError, match="unknown misreading"):
        ruleset_from_json({"base": "flip7", "deviations": ["no_such_reading"]})
    with pytest.raises(RulesetError, match="deal_start"):
        ruleset_from_json({"base": "flip7", "deviations": ['deal_start="nowhere"']})
    with pytest.raises(RulesetError, match="expected a list"):
        ruleset_from_json({"base": "flip7", "deviations": "dealer_fixed"})


def test_an_engine_is_sent_the_ruleset_without_its_deviations() -> None:
    fingerprint = ruleset_from_json({"base": "flip7", "deviations": ["dealer_fixed"]})
    assert "deviations" in fingerprint.to_json()
    assert "deviations" not in fingerprint.for_engine().to_json()
    assert ruleset_from_json(fingerprint.to_json()) == fingerprint
