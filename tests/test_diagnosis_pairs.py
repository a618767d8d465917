"""Two deviations at one step: when no single known reading reproduces a divergence, the diagnosis tries pairs
of readings, and names both.

The engine combines two mutants of tests/mutants (each written independently of the catalogue): a Flip 7
earns no bonus, and when a player makes Flip 7 the others bank nothing. Both show at the very step of every
Flip 7, so neither reading alone reproduces it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from flip7_spec.cards import Card, cards
from flip7_spec.conformance import FAIL
from flip7_spec.conformance.cases import generated_cases
from flip7_spec.conformance.fingerprint import fingerprints
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.judge import diagnosis
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import run_case
from flip7_spec.machine import Game
from flip7_spec.play import new_game
from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.rulesets import Ruleset, preset, ruleset_from_json
from tests.mutants import no_flip7_bonus
from tests.mutants._support import MutantAdapter, ScoredGame
from tests.mutants.flip7_takes_all import WinnerTakesAllGame

PAIR = {"no_flip7_bonus", "flip7_others_bank_nothing"}


class NoBonusWinnerTakesAllGame(WinnerTakesAllGame, ScoredGame):
    """Both mutants' games in one."""


class Engine(MutantAdapter):
    """An engine whose Flip 7 both earns no bonus and leaves the others with nothing."""

    game_class = NoBonusWinnerTakesAllGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        return no_flip7_bonus.Engine().hand_score(ruleset, hand, status)


@pytest.fixture(scope="module")
def results() -> list:  # type: ignore[type-arg]
    corpus = Corpus(rulesets=[preset("flip7")], games=16, seed="0", scoring=False)
    return run(EngineSpec(python="tests.test_diagnosis_pairs:Engine"), corpus)[1]


@pytest.mark.clause("F7-FLIP7-BONUS", "F7-FLIP7-OTHERS-BANK")
def test_a_divergence_two_readings_explain_together_names_both(results: list) -> None:  # type: ignore[type-arg]
    failures = [r for r in results if r.outcome == FAIL]
    paired = [r for r in failures if any(c.together for c in r.causes or ())]
    assert paired, [r.message for r in failures]
    for result in paired:
        first_step = result.causes[0].step
        at_that_step = {c.reading for c in result.causes if c.step == first_step}
        assert at_that_step == PAIR, result.causes
        assert "together with" in result.message
    # nothing is left unexplained, and nothing else is named
    named = {c.reading for r in failures for c in r.causes or ()}
    assert named <= PAIR | {None} and None not in named, named


def test_the_summary_says_each_reading_is_needed_with_the_other() -> None:
    from click.testing import CliRunner

    from flip7_spec.cli import cli

    done = CliRunner().invoke(cli, ["conform", "--python", "tests.test_diagnosis_pairs:Engine", "-r", "flip7",
                                    "--games", "0", "--no-scoring", "-q"])
    assert done.exit_code == 1, done.output
    assert "(misreading no_flip7_bonus) [F7-FLIP7-BONUS, H] (only together with flip7_others_bank_nothing)" \
        in done.output, done.output[-3000:]


def test_the_fingerprint_holds_both_readings(results: list) -> None:  # type: ignore[type-arg]
    assert set(fingerprints(results)["flip7"].readings) == PAIR


# ---- a second reading that shows only once the first has changed the game ------------------------------------

LATER = ("flip3_setaside_not_counted", "bust_discards_cards")
"""A Flip Three that does not count the Action it sets aside draws one card more; when that card busts its
target, discarding a busted player's cards at once shows at that very step, which it does not alone."""


class LaterPairEngine(ReferenceAdapter):
    """The reference playing both readings of :data:`LATER` (each written from the rule it misreads)."""

    def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]]) -> Game:
        both = dataclasses.replace(ruleset_from_json(ruleset), deviations=LATER)
        game, _ = new_game(both, players, list(deck), dealer=dealer,
                           reshuffles=[cards(list(order)) for order in reshuffles], record=False)
        return game


def later_pair_case() -> Case:
    games = [c for c in generated_cases([preset("flip7")], [3, 4, 5], 4, "0") if c.level == "game"]
    return games[3]


@pytest.mark.clause("F7-FLIP3-COUNTS-ALL", "F7-BUST-CARDS-STAY")
def test_a_pair_whose_second_reading_shows_only_after_the_first_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = LaterPairEngine()
    case = later_pair_case()
    result = run_case(engine, case, engine.hello())[0]
    assert result.outcome == FAIL
    first_step = result.causes[0].step
    at_first = {c.reading for c in result.causes if c.step == first_step}
    assert at_first == set(LATER), result.causes
    # the second reading alone does not change that step: only the search past the moving readings finds it
    monkeypatch.setattr(diagnosis, "LATER_PAIRS", 0)
    without = run_case(engine, case, engine.hello())[0]
    assert {c.reading for c in without.causes or () if c.step == first_step} != set(LATER)
