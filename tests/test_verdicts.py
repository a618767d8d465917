"""Verdicts carry their evidence: a reading is named as a cause only when the reference under it keeps
reproducing the engine, a fingerprint is checked against the cases the engine passed and is the same on every
run, and a divergence no known reading explains hides no other deviation.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from flip7_spec.clauses import CLAUSES
from flip7_spec.cli import cli
from flip7_spec.conformance import FAIL
from flip7_spec.conformance.cases import generated_cases
from flip7_spec.conformance.fingerprint import causes_of, confirmed, fingerprint_text, fingerprints
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.judge.case import Case
from flip7_spec.judge.follow import Support
from flip7_spec.judge.runner import CaseResult, none_of_the_readings, reproduces_case
from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.results import Explanation, ReadingEvidence
from flip7_spec.rulesets import load_ruleset, preset
from tests.mutants._support import MutantAdapter
from tests.mutants.dealer_fixed import FixedDealerGame

# ---- an adapter's slip is not a misreading ------------------------------------------------------------------


class FinalStatusSlip(ReferenceAdapter):
    """A correct engine behind an adapter that, in the final observation only, reports the first player still
    active as stayed (a one-field slip of the adapter, not of the rules)."""

    def _slipped(self, observation: Any) -> Any:
        if isinstance(observation, dict) and observation.get("over") is True:
            players = [dict(p) for p in observation["players"]]
            for player in players:
                if player["status"] == "active":
                    player["status"] = "stayed"
                    break
            observation = {**observation, "players": players}
        return observation

    def start(self, *args: Any, **kwargs: Any) -> Any:
        return self._slipped(super().start(*args, **kwargs))

    def decide(self, *args: Any, **kwargs: Any) -> Any:
        return self._slipped(super().decide(*args, **kwargs))


@pytest.fixture(scope="module")
def slip_run() -> tuple[list[CaseResult], list[Case]]:
    passed: list[Case] = []
    corpus = Corpus(rulesets=[preset("flip7")], games=20, seed="0", scoring=False, fixtures=None)
    _, results, _ = run(EngineSpec(python="tests.test_verdicts:FinalStatusSlip"), corpus, passed=passed)
    return results, passed


def test_a_slip_in_the_final_observation_names_no_reading_of_confidence_h(
        slip_run: tuple[list[CaseResult], list[Case]]) -> None:
    results, passed = slip_run
    failures = [r for r in results if r.outcome == FAIL]
    assert failures, "the slip shows in the games whose last round ends with a player still active"
    causes = [c for r in failures for c in causes_of(r)]
    high = [c for c in causes if c.get("reading") is not None and CLAUSES[c["clause"]].confidence == "H"]
    assert high, "a misreading fits the slipped field at that one step (the case this test is about)"
    assert not [c for c in high if confirmed(c)], [c["text"] for c in high if confirmed(c)]
    assert all(c["text"].startswith("possibly: ") for c in high)
    assert all(r.blame != "diagnosed" for r in failures)
    assert not fingerprints(results, passed), "a reading nothing confirms is not a fingerprint"


# ---- evidence -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("support", "claim"), [
    (Support(5, fields=1, held=1, broke_at=None, broke_explained=False), False),  # one field at one step
    (Support(5, fields=2, held=1, broke_at=None, broke_explained=False), True),  # two fields, to the end
    (Support(5, fields=1, held=2, broke_at=None, broke_explained=False), True),  # it held one step more
    (Support(5, fields=3, held=1, broke_at=6, broke_explained=False), False),  # contradicted at once
    (Support(5, fields=3, held=1, broke_at=6, broke_explained=True), True),  # next one is another reading's
    (Support(5, fields=3, held=4, broke_at=9, broke_explained=False), True),  # held, then something else
])
def test_a_reading_is_confirmed_only_by_more_than_one_field_and_no_contradiction(support: Support,
                                                                                 claim: bool) -> None:
    assert support.confirmed is claim
    assert support.to_json()["confirmed"] is claim


# ---- the fingerprint is checked against the passed cases ------------------------------------------------------


def _claimed(reading: str, base: str = "flip7") -> CaseResult:
    """A failure whose one cause, confirmed, is ``reading``."""
    cause = {"reading": reading, "clause": "F7-DEALER-ROTATION", "confidence": "H", "text": reading,
             "step": 3, "evidence": {"confirmed": True}}
    return CaseResult("game:flip7/seed=x/game=0/players=3", "game", FAIL, causes=(Explanation.from_json(cause),),
                      base=base)


def test_a_fingerprint_reading_that_fails_passed_cases_is_dropped() -> None:
    """The reference under dealer_fixed fails every passed game of two rounds or more: the reading is dropped
    and reported with its evidence; with no passed case to check against, it stays."""
    games = [c for c in generated_cases([preset("flip7")], [3, 4], 4, "0") if c.level == "game"]
    several_rounds = [c for c in games if c.trace and c.trace["footer"]["rounds"] >= 2]
    assert several_rounds
    assert all(reproduces_case(c, c.ruleset) for c in games), "the reference reproduces its own games"
    found = fingerprints([_claimed("dealer_fixed")], games)["flip7"]
    assert found.readings == ()
    assert [e.reading for e in found.dropped] == ["dealer_fixed"]
    assert found.dropped[0].contradicted == len(several_rounds) and found.dropped[0].checked == len(games)
    kept = fingerprints([_claimed("dealer_fixed")])["flip7"]
    assert kept.readings == ("dealer_fixed",) and kept.entries[0].explained == 1


def test_possible_readings_do_not_enter_the_fingerprint() -> None:
    result = _claimed("dealer_fixed")
    assert result.causes is not None
    result.causes = (replace(result.causes[0], evidence=ReadingEvidence(False, 0, 0, None, False)),)
    assert fingerprints([result]) == {}


class DealerForLife(MutantAdapter):
    """The reference with a Dealer for life (tests/mutants/dealer_fixed)."""

    game_class = FixedDealerGame


@pytest.mark.parametrize("engine", ["tests.test_fingerprint:Engine", "tests.test_verdicts:DealerForLife"])
def test_the_same_engine_gives_byte_identical_fingerprints_with_one_worker_or_two(engine: str,
                                                                                  tmp_path: Path) -> None:
    runner = CliRunner()
    texts = []
    for workers in ("1", "2"):
        path = tmp_path / f"j{workers}.toml"
        ran = runner.invoke(cli, ["conform", "--python", engine, "-r", "flip7", "--games", "6", "-j", workers,
                                  "--fingerprint", str(path), "--no-progress", "-q"])
        assert ran.exit_code == 1, ran.output
        texts.append(path.read_bytes())
    assert texts[0] == texts[1]
    assert b"[evidence." in texts[0] and b"contradicted = 0" in texts[0]


# ---- past an unexplained divergence ----------------------------------------------------------------------------


class MiscountsAndDealerForLife(DealerForLife):
    """A Dealer for life, behind an adapter that counts one card too many in the discard pile whenever a card
    is in play (a deviation no known reading gives): the discard pile differs at the first Action, long
    before the Dealer does."""

    def _miscounted(self, observation: Any) -> Any:
        if isinstance(observation, dict) and observation.get("in_play"):
            observation = {**observation, "discard_pile": observation["discard_pile"] + 1}
        return observation

    def start(self, *args: Any, **kwargs: Any) -> Any:
        return self._miscounted(super().start(*args, **kwargs))

    def decide(self, *args: Any, **kwargs: Any) -> Any:
        return self._miscounted(super().decide(*args, **kwargs))


def test_an_unexplained_divergence_hides_no_later_deviation() -> None:
    corpus = Corpus(rulesets=[preset("flip7")], games=6, seed="0", scoring=False, fixtures=None, min_coverage=0)
    _, results, _ = run(EngineSpec(python="tests.test_verdicts:MiscountsAndDealerForLife"), corpus)
    failures = [r for r in results if r.outcome == FAIL and r.level == "game"]
    first_unexplained = [r for r in failures if causes_of(r)[0].get("reading") is None]
    assert first_unexplained, "the miscount comes first in some game"
    later = [r for r in first_unexplained if any(c.get("reading") == "dealer_fixed" for c in causes_of(r))]
    assert later, [causes_of(r) for r in first_unexplained]
    for result in later:
        causes = causes_of(result)
        dealer = next(c for c in causes if c.get("reading") == "dealer_fixed")
        assert dealer["set_aside"] == ["discard_pile"] and confirmed(dealer)
        assert dealer["step"] >= (causes[0]["step"] or 0)


def test_an_option_clause_no_reading_fits_says_so() -> None:
    ruleset = preset("flip7")
    option = ruleset.OPTIONS["reshuffle_moment"]
    for clause in (option.clause, *option.value_clauses.values()):
        line = none_of_the_readings(ruleset, clause)
        assert line is not None and "reshuffle_moment" in line and '"when_emptied"' in line
    assert none_of_the_readings(ruleset, "F7-BUST") is None


def test_a_fingerprint_with_evidence_loads_back_as_the_same_ruleset(tmp_path: Path) -> None:
    found = fingerprints([_claimed("dealer_fixed"), _claimed('deal_start="dealer"')])["flip7"]
    for suffix in (".toml", ".json"):
        path = tmp_path / f"fp{suffix}"
        path.write_text(fingerprint_text(found, suffix), encoding="utf-8")
        loaded = load_ruleset(str(path))
        assert loaded.deviations == found.readings
        assert dataclasses.replace(loaded, description="") == dataclasses.replace(found.ruleset, description="")
