"""What the runner records of a judged case and what conform says of a run, held to the promises of
docs/protocol.md (errored cases, the diagnosis, exit code 3), docs/html-report.md (what a report's result holds)
and the functions' docstrings: where a failure or an error came, what a fixture catches, which positions a round
case compares, the cause of a choice the rules do not allow, the option whose readings an engine fits none of,
the player and kind each decision is sent with, the skip reasons the summary opens with, and the lines that make
a run *unchecked*."""

from __future__ import annotations

import copy
import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.conformance import ERRORED, FAIL, PASS, SKIPPED
from flip7_spec.conformance.cases import generated_cases, generated_game
from flip7_spec.conformance.coverage import Coverage
from flip7_spec.conformance.fingerprint import causes_of
from flip7_spec.conformance.verdict import skip_reason_lines, unchecked_lines
from flip7_spec.judge.case import Case, trace_file_cases
from flip7_spec.judge.describe import describe
from flip7_spec.judge.runner import BY_ENGINE, HANDSHAKE, Played, compare, none_of_the_readings, run_case
from flip7_spec.protocol import Level
from flip7_spec.protocol.adapter import EngineFailure, Observation, ReferenceAdapter
from flip7_spec.results import CaseResult
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.trace.record import record_choices
from tests.mutants.reshuffle_at_turn_start import Engine as ReshuffleAtTurnStart
from tests.mutants.x2_adds_two import Engine as X2AddsTwo

REPO = Path(__file__).resolve().parents[1]
ASKED = ("scoring", "fixture", "generated")
Tamper = Callable[[list[Any]], None]


class Tampered(ReferenceAdapter):
    """The reference, whose observations of each game are changed by ``tamper`` (in place, positions counted as
    the runner counts them: 0 the start, k after the k-th decision) before the runner sees them."""

    def __init__(self, tamper: Tamper) -> None:
        super().__init__()
        self.tamper = tamper

    def play_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]], decisions: Sequence[dict[str, Any]]
                  ) -> tuple[list[Any], Exception | None]:
        found, stopped = super().play_game(ruleset, players, dealer, deck, reshuffles, decisions)
        found = copy.deepcopy(found)
        self.tamper(found)
        return found, stopped


def by_level(engine: ReferenceAdapter, case: Case) -> dict[str, CaseResult]:
    return {str(r.level): r for r in run_case(engine, case, engine.hello())}


# ---- what makes a run unchecked (docs/protocol.md, exit code 3) ------------------------------------------------


def skipped(case_id: str, level: Level, reason: str, by: str = HANDSHAKE) -> CaseResult:
    return CaseResult(case_id, level, SKIPPED, reason, skipped_by=by)


GAME = "game:flip7/seed=0/game=0/players=3"
ROUND = "round:flip7/seed=0/game=0/players=3"


def test_a_run_that_ran_no_case_is_unchecked_and_each_line_says_so_first() -> None:
    """No case at all, or every case skipped (here as the handshake declares, not by the engine's replies): the
    run checked nothing, so the verdict is unchecked, each line on stderr starting ``unchecked:``."""
    every_case_skipped = [skipped("scoring:flip7:official-x2", Level.SCORING, "no scoring level declared"),
                          skipped(ROUND, Level.ROUND, "no round level declared"),
                          skipped(GAME, Level.GAME, "no game level declared")]
    by_the_engine = [CaseResult("scoring:flip7:official-x2", Level.SCORING, PASS),
                     skipped(GAME, Level.GAME, "not today", BY_ENGINE)]
    for results in ([], every_case_skipped, by_the_engine):
        lines = unchecked_lines(results, ASKED)
        assert lines, results
        assert all(line.startswith("unchecked: ") for line in lines), lines


def test_a_run_in_which_a_case_ran_is_not_unchecked_by_what_its_handshake_leaves_out() -> None:
    """One case ran and passed; the others were skipped because the handshake does not declare what they need:
    the engine's own choice, counted but not the verdict (flip7_spec.conformance.verdict)."""
    results = [CaseResult("scoring:flip7:official-x2", Level.SCORING, PASS),
               skipped(ROUND, Level.ROUND, "no round level declared"),
               skipped(GAME, Level.GAME, "no game level declared"),
               CaseResult(GAME, Level.LEGAL, PASS)]
    assert unchecked_lines(results, ASKED) == []
    assert unchecked_lines([*results[:1], CaseResult(ROUND, Level.ROUND, FAIL)], ASKED) == []


def test_the_summary_opens_with_each_skip_reason_and_the_rules_only_its_cases_reach() -> None:
    """docs/protocol.md, running the corpus: the summary opens with the most frequent skip reasons, each with the
    rule clauses that only its skipped cases would have exercised; what ran is no skip reason."""
    flip7 = preset("flip7")
    ran = Case("game:a", Level.GAME, flip7, clauses=frozenset({"F7-DEAL", "F7-BUST"}), shortfalls={})
    left = Case("game:b", Level.GAME, flip7, clauses=frozenset({"F7-BUST", "F7-FREEZE"}), shortfalls={})
    coverage = Coverage()
    for case in (ran, left):
        coverage.add_case(case, "generated")
    reason = "the engine does not implement the Freeze"
    coverage.skipped("game:b", reason)
    results = [CaseResult("game:a", Level.GAME, PASS, "all good"), skipped("game:b", Level.GAME, reason),
               CaseResult("game:a", Level.LEGAL, PASS, "all good")]
    lines = skip_reason_lines(results, coverage)
    assert lines[0].startswith("skipped 1 of 2 cases; top reasons"), lines
    assert [line.split(None, 1) for line in lines[1:]] == [["1", reason], ["leaves", "unchecked: F7-FREEZE"]]
    assert skip_reason_lines(results[:1], coverage) == []


# ---- the option whose readings an engine fits none of (docs/protocol.md, the diagnosis) ------------------------


def test_every_option_clause_no_reading_fits_names_an_option_of_that_clause_and_its_values() -> None:
    """For every option of either game that has a finite set of readings, a failure blamed on its clause (or on
    one of its values' clauses) is told that none of that option's readings reproduces the engine, whichever
    place the option has among the game's options."""
    checked = 0
    for name in ("flip7", "vengeance"):
        ruleset = preset(name)
        finite = {option_name: option for option_name, option in ruleset.OPTIONS.items()
                  if option.values() is not None}
        for option_name, option in finite.items():
            for clause in (option.clause, *option.value_clauses.values()):
                line = none_of_the_readings(ruleset, clause)
                assert line is not None, (name, option_name, clause)
                named = line.removeprefix("none of the readings of ").split(" ", 1)[0]
                assert named in finite, line
                theirs = finite[named]
                assert clause == theirs.clause or clause in theirs.value_clauses.values(), line
                assert all(json.dumps(value) in line for value in theirs.values() or ()), line
                checked += 1
        assert none_of_the_readings(ruleset, "F7-BUST" if name == "flip7" else "V-BUST") is None
    assert checked > 20


# ---- where a failure or an error came ----------------------------------------------------------------------------


def test_an_error_says_whether_it_came_at_the_start_or_at_its_step() -> None:
    """docs/protocol.md, errored cases: ``where`` is the step's JSON path, or ``$.start`` when the start failed
    (no step then); the terminal says which."""
    at_start = CaseResult(ROUND, Level.ROUND, ERRORED, "engine error: no deck", where="$.start")
    assert "     at the start" in describe(at_start)
    decision = {"player": 2, "kind": "hit_or_stay", "choice": "stay"}
    later = CaseResult(GAME, Level.GAME, ERRORED, "engine error: refusing", step=12, where="$.steps[12]",
                       decision=decision)
    assert any(line.startswith("     at step 12 after ") for line in describe(later)), describe(later)
    assert not any("the start" in line for line in describe(later))


def reshuffle_fixture() -> tuple[Case, str]:
    path = REPO / "fixtures" / "flip7" / "reshuffle-when-needed.json"
    description = json.loads(path.read_text(encoding="utf-8"))["header"]["description"]
    (case,) = trace_file_cases(path, "flip7/reshuffle-when-needed")
    return case, description


def test_a_fixture_case_says_what_it_catches_and_its_failure_too() -> None:
    """A trace's ``description`` says what it shows (docs/trace-format.md); a fixture's case carries it, and so
    does the case's failure: a report says what the failing case catches (docs/html-report.md)."""
    case, description = reshuffle_fixture()
    assert description and case.label == description
    result = by_level(ReshuffleAtTurnStart(), case)[str(case.level)]
    assert result.outcome == FAIL and result.label == description
    assert f"     catches: {description}" in describe(result)


def test_every_failure_names_the_place_that_differs_as_a_json_path() -> None:
    """A failure says where it differs as a JSON path (docs/protocol.md's failures: ``$.steps[17].observation.
    dealer``): a divergent observation, a score, or the reshuffle orders an engine could not use (a failure of
    the reshuffle clause, not an error: docs/protocol.md, a reshuffle the engine cannot make)."""
    case, _ = reshuffle_fixture()
    reshuffle = by_level(ReshuffleAtTurnStart(), case)[str(case.level)]
    assert reshuffle.outcome == FAIL and reshuffle.clause in ("F7-RESHUFFLE", "F7-RESHUFFLE-EMPTIED")
    assert "cannot use the reshuffle orders" in reshuffle.message, reshuffle.message
    assert reshuffle.where is not None and reshuffle.where.startswith("$.") and "reshuffles" in reshuffle.where
    hand = Case("scoring:flip7:x2", Level.SCORING, preset("flip7"), hand=["5", "x2"], expected=10,
                clause="F7-MOD-X2")
    scoring = by_level(X2AddsTwo(), hand)["scoring"]
    assert (scoring.outcome, scoring.expected, scoring.found) == (FAIL, 10, 7)
    assert scoring.where is not None and scoring.where.startswith("$.") and "score" in scoring.where
    for failure in (reshuffle, scoring):
        assert describe(failure)[1].startswith(f"     {failure.where}: expected "), describe(failure)


class CheckingPlayerAndKind(ReferenceAdapter):
    """The reference, checking that each decision it is sent names the player and kind of its pending decision,
    as an engine may (docs/protocol.md, ``decide``: it replies errored when they do not match)."""

    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> Observation:
        assert self.game is not None
        pending = self.game.observation()["pending"]
        if (player, kind) != (pending["player"], pending["kind"]):
            raise EngineFailure(f"decide for {player} ({kind}), pending {pending['player']} ({pending['kind']})")
        return super().decide(choice, player, kind)


def test_each_decision_is_sent_with_the_player_and_kind_it_answers() -> None:
    """``player`` and ``kind`` repeat the pending decision's (docs/protocol.md, ``decide``): an engine that checks
    them passes every step of a game the reference plays."""
    engine = CheckingPlayerAndKind()
    game_case = next(c for c in generated_cases([preset("flip7")], [4], 1, 0) if c.level is Level.GAME)
    assert len(game_case.document.decisions) > 10
    results = by_level(engine, game_case)
    assert {level: r.outcome for level, r in results.items()} == {"game": PASS, "legal": PASS}, \
        [r.message for r in results.values()]


# ---- a round case compares only the totals after the decision that ends its round --------------------------------


def one_player_round(ruleset: Ruleset) -> Case:
    """A round case of the challenge for one player whose round ends during its very first decision: dealt a 5,
    the player stays (F7-CHALLENGE allows one player)."""
    deck = list(generated_game(ruleset, 1, "0", 0)["header"]["deck"])
    deck.remove("5")
    trace = record_choices(ruleset, 1, 0, ["5", *deck], ["stay"])
    case = Case("round:flip7-challenge/one-stay", Level.ROUND, ruleset, trace=trace)
    assert case.document.first_round_end() == 0
    return case


def test_a_round_ended_by_its_first_decision_compares_only_the_totals_after_it() -> None:
    """After the decision that ends a round case's round only the totals are compared (:func:`compare`;
    docs/protocol.md, ``decide``: that observation shows the next round, already dealt), when that decision is
    the case's first too."""
    case = one_player_round(preset("flip7-challenge"))
    expected = case.document.observations()
    found = copy.deepcopy(expected)
    found[1]["players"][0]["cards"] = ["12"]  # the next round's deal: not compared
    found[1]["round"] += 1
    played = Played(case, [], [], [], [], 0, expected, found, None)
    assert compare(played, legal=True).divergence is None
    found[1]["players"][0]["total"] += 1
    divergence = compare(played, legal=True).divergence
    assert divergence is not None and divergence.position == 1 and divergence.totals


def test_a_round_case_that_fails_on_its_totals_says_only_the_totals_were_compared() -> None:
    """A round case failing at its last step carries ``compared: "totals"`` (docs/html-report.md: at a round
    case's last step only the totals are compared), the divergence at that step."""
    round_case = next(iter(generated_cases([preset("flip7")], [3], 1, 0)))
    assert round_case.level is Level.ROUND
    round_end = round_case.document.first_round_end()
    assert round_end is not None
    last = round_end + 1

    def total_off(found: list[Any]) -> None:
        if len(found) > last:
            found[last]["players"][1]["total"] += 5

    result = by_level(Tampered(total_off), round_case)["round"]
    assert result.outcome == FAIL and result.decisions == last, result.to_json()
    assert result.where is not None and result.where.endswith("players[1].total"), result.where
    assert result.compared == "totals"
    assert by_level(Tampered(lambda found: None), round_case)["round"].outcome == PASS


# ---- a choice the rules do not allow, past a divergence no reading explains ----------------------------------


def test_an_illegal_offer_no_reading_explains_is_the_rules_clause_not_a_guess() -> None:
    """The legal level's judge finds choices the rules do not allow (here Stay offered before Hit) after a
    divergence no known reading explains (a draw pile 40 cards too large). No reading reproduces the engine, yet
    the clause is the rules' own: the failure's cause says the engine offers choices the rules do not allow,
    naming the clause, and the summary does not call it a guess."""
    game_case = next(c for c in generated_cases([preset("flip7")], [3], 1, 0) if c.level is Level.GAME)
    offers = [(position, o) for position, o in enumerate(game_case.document.observations())
              if o["pending"] and o["pending"]["options"] == ["hit", "stay"] and position > 1]
    assert offers
    reversed_at = offers[0][0]

    def tamper(found: list[Any]) -> None:
        for observation in found[1:]:
            observation["draw_pile"] += 40
        if len(found) > reversed_at:
            found[reversed_at]["pending"]["options"] = ["stay", "hit"]

    results = by_level(Tampered(tamper), game_case)
    assert results["game"].outcome == FAIL and results["game"].decisions == 1
    legal = results["legal"]
    assert legal.outcome == FAIL and legal.decisions == reversed_at and legal.clause == "F7-HIT-STAY"
    assert legal.diagnosis is None and legal.blame == "rules"
    (cause,) = legal.readings()
    assert cause.reading is None and "F7-HIT-STAY" in cause.text and "rules do not allow" in cause.text
    (summary,) = causes_of(legal)
    assert "guess" not in summary["text"] and "F7-HIT-STAY" in summary["text"]


def test_a_cases_seconds_in_the_json_report_are_its_time_in_the_junit_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON report's schema: a case's ``seconds`` are its wall-clock time rounded to 4 decimals, the JUnit
    report's ``time`` for the case, so the two reports of one run agree."""
    from flip7_spec.cli import cli
    from flip7_spec.cli.common import run_main

    report, junit = tmp_path / "report.json", tmp_path / "junit.xml"
    monkeypatch.setattr(sys, "argv", ["flip7-spec", "conform", "--python", "tests.mutants.dealer_fixed:Engine",
                                      "--no-fixtures", "--no-scoring", "-r", "flip7", "--min-coverage", "0", "-g",
                                      "2", "--no-progress", "--json", str(report), "--junit-xml", str(junit)])
    assert run_main(cli) == 1  # this engine fails a case
    capsys.readouterr()
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    times = sorted(str(case.get("time")) for case in ET.parse(junit).getroot().iter("testcase"))
    assert results and times == sorted(f"{result['seconds']:.4f}" for result in results)
    assert all(round(result["seconds"], 4) == result["seconds"] for result in results)
