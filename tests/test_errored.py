"""Errored cases as results in their own right: where the error came (the step and its decision, or the
start), the engine's stderr up to the failing reply and not about the requests pipelined after it, the
errored trace saved by ``--save-failures`` with a rerun command that errors again, the structured reshuffle
problem of an ``errored`` reply, and the errored case in the HTML pages.

Expected places are read from the traces themselves: the k-th decision of a game is the k-th step of its
trace that holds a decision (chance steps do not count), and the broken engines of ``tests/broken_engines/``
fail at a decision number given on their command line.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.conformance import ERRORED, FAIL
from flip7_spec.conformance.cases import generated_game
from flip7_spec.conformance.engines import finish
from flip7_spec.htmlreport import render_report, report_from
from flip7_spec.htmlreport.page import render_trace
from flip7_spec.judge.case import Case, trace_file_cases
from flip7_spec.judge.runner import CaseResult, run_case
from flip7_spec.protocol import Level
from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.protocol.schema import ReshuffleProblem, message_errors
from flip7_spec.protocol.server import handle
from flip7_spec.rulesets import preset
from tests.htmltree import card_text, having, ids, parse, text
from tests.test_conform import QUICK, REPO, conform, engine, read_json

FAILING = 4  # the decision (counted from 1) at which the engines below fail


def decision_steps(trace: dict[str, Any]) -> list[int]:
    """The indices in ``steps`` of the trace's decisions, in order (chance steps left out)."""
    return [i for i, step in enumerate(trace["steps"]) if "decision" in step]


@pytest.fixture(scope="module")
def game_case() -> Case:
    """A generated flip7 game of 3 players, played to its end (dozens of decisions)."""
    trace = generated_game(preset("flip7"), 3, "errored", 1)
    assert len(decision_steps(trace)) > 2 * FAILING
    return Case("game:flip7/seed=errored/game=1/players=3", Level.GAME, preset("flip7"), trace=trace, generated=True)


def only(results: Sequence[CaseResult]) -> CaseResult:
    (result,) = results
    return result


class RaisesAtDecision(ReferenceAdapter):
    """An in-process engine whose own code raises at decision ``FAILING`` of a game (or at its start)."""

    at_start = False

    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
              reshuffles: Sequence[Sequence[str]]) -> dict[str, Any]:
        if self.at_start:
            raise KeyError("no such deck")
        self.decisions = 0
        return super().start(ruleset, players, dealer, deck, reshuffles)

    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> dict[str, Any]:
        self.decisions += 1
        if self.decisions == FAILING:
            raise ZeroDivisionError("the engine divided by its patience")
        return super().decide(choice, player, kind)


# ---- where the error came ----------------------------------------------------------------------------


def test_an_in_process_error_carries_its_step_and_decision(game_case: Case) -> None:
    assert game_case.trace is not None
    step = decision_steps(game_case.trace)[FAILING - 1]
    result = only(run_case(RaisesAtDecision(), game_case, RaisesAtDecision().hello()))
    assert result.outcome == ERRORED
    assert result.message == "ZeroDivisionError: the engine divided by its patience"
    assert (result.step, result.where) == (step, f"$.steps[{step}]")
    assert result.decision == game_case.trace["steps"][step]["decision"]
    assert result.decisions == FAILING

    engine = RaisesAtDecision()
    engine.at_start = True
    at_start = only(run_case(engine, game_case, engine.hello()))
    assert at_start.outcome == ERRORED and at_start.message == "KeyError: 'no such deck'"
    assert (at_start.step, at_start.decision, at_start.where) == (None, None, "$.start")


@pytest.mark.parametrize("how", ["errored", "observation"])
def test_a_process_error_carries_its_step_and_only_the_stderr_written_before_it(game_case: Case, how: str) -> None:
    """The engine logs every request it reads; the runner sends a game's decisions ahead (pipelined), so the
    engine reads and logs decisions past the failing one. None of those lines is in the excerpt."""
    assert game_case.trace is not None
    step = decision_steps(game_case.trace)[FAILING - 1]
    process = ProcessEngine(engine("error_at_decision", str(FAILING), how))
    try:
        result = only(run_case(process, game_case, process.hello()))
    finally:
        process.close()
    assert result.outcome == ERRORED
    if how == "errored":
        assert result.message == f"engine error: refusing decision {FAILING}"
    else:
        assert result.message.startswith(f"observation breaks the protocol at step {step}: $.dealer")
    assert (result.step, result.where) == (step, f"$.steps[{step}]")
    assert result.decision == game_case.trace["steps"][step]["decision"]
    logged = result.stderr.splitlines()
    assert logged == ["log: start of a game", *(f"log: decision {n} of this game" for n in range(1, FAILING + 1))]


def test_an_error_at_the_start_is_placed_there(game_case: Case) -> None:
    process = ProcessEngine(engine("hostile_text"))
    try:
        result = only(run_case(process, game_case, process.hello()))
    finally:
        process.close()
    assert result.outcome == ERRORED and result.message.startswith("engine error: boom")
    assert (result.step, result.decision, result.where, result.decisions) == (None, None, "$.start", 0)
    # it wrote one line for the start, and one for each decision sent after it: only the start's is kept
    assert result.stderr.count("boom") == 1


def test_an_errored_scoring_case_carries_its_hand_and_ruleset() -> None:
    class NoScores(ReferenceAdapter):
        def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
            raise RuntimeError("scores are not implemented")

    case = Case("scoring:flip7:official-x2", Level.SCORING, preset("flip7"), hand=["3", "11", "x2"], busted=False)
    result = only(run_case(NoScores(), case, NoScores().hello()))
    assert result.outcome == ERRORED and result.message == "RuntimeError: scores are not implemented"
    assert result.hand == ("3", "11", "x2") and result.busted is False
    assert result.ruleset == preset("flip7").for_engine().to_json()
    assert result.step is None and result.where is None


# ---- saved, and run again ----------------------------------------------------------------------------


def test_an_errored_game_is_saved_shrunk_with_a_rerun_that_errors_again(tmp_path: Path) -> None:
    saved, report_path = tmp_path / "failures", tmp_path / "report.json"
    command = engine("error_at_decision", str(FAILING))
    first = conform("--engine", command, "--games", "1", "-p", "3", *QUICK, "--save-failures", str(saved),
                    "--json", str(report_path))
    assert first.code == 1, first.output
    errored = [r for r in read_json(report_path)["results"] if r["outcome"] == ERRORED]
    assert errored and all(Path(r["shrunk"]).is_file() for r in errored), errored
    for result in errored:
        path = Path(result["shrunk"])
        trace = json.loads(path.read_text(encoding="utf-8"))
        steps = decision_steps(trace)
        # shrunk: cut just after the failing decision, the FAILING-th of the saved game
        assert len(steps) == FAILING and "footer" not in trace
        failure = trace["header"]["provenance"]["failure"]
        assert failure["outcome"] == ERRORED and failure["message"] == f"engine error: refusing decision {FAILING}"
        assert failure["step"] == steps[-1] and failure["decision"] == trace["steps"][steps[-1]]["decision"]
        assert failure["stderr"].splitlines()[-1] == f"log: decision {FAILING} of this game"
        rerun = trace["header"]["provenance"]["rerun"]
        assert rerun == f"flip7-spec conform --engine {shlex.quote(command)} --trace {shlex.quote(str(path))}"
        again = conform(*shlex.split(rerun)[2:])
        assert again.code == 1, again.output
        assert f"ERROR trace:{path} [" in again.stdout and f"refusing decision {FAILING}" in again.stdout
        assert f"at step {steps[-1]} after" in again.stdout


def test_an_errored_fixture_is_saved_whole(tmp_path: Path) -> None:
    fixture = REPO / "fixtures" / "flip7" / "reshuffle-when-needed.json"
    (case,) = trace_file_cases(fixture, "flip7/reshuffle-when-needed")
    outcome = finish(RaisesAtDecision(), RaisesAtDecision().hello(), case, tmp_path)
    result = only(outcome.results)
    assert result.outcome == ERRORED and result.shrunk is not None
    saved = json.loads(Path(result.shrunk).read_text(encoding="utf-8"))
    assert saved["steps"] == json.loads(fixture.read_text(encoding="utf-8"))["steps"]
    assert saved["header"]["provenance"]["failure"]["step"] == decision_steps(saved)[FAILING - 1]


# ---- the reshuffle problem ---------------------------------------------------------------------------


@pytest.mark.clause("F7-RESHUFFLE-EMPTIED")
@pytest.mark.parametrize("mode", ["structured", "prefix", "plain"])
def test_a_reshuffle_the_engine_cannot_make_fails_with_the_reshuffle_reading(mode: str) -> None:
    """An engine that reshuffles as soon as the draw pile is emptied cannot use the orders of a game that
    reshuffles when a card is needed. The fixture's readings part at its 7th decision (tests/test_readings.py).
    Said with the structured field or with the ``reshuffle:`` prefix, that is a reshuffle failure; said
    otherwise, only an error."""
    fixture = REPO / "fixtures" / "flip7" / "reshuffle-when-needed.json"
    (case,) = trace_file_cases(fixture, "flip7/reshuffle-when-needed")
    assert case.trace is not None
    step = decision_steps(case.trace)[7 - 1]
    process = ProcessEngine(engine("reshuffle_problem", mode))
    try:
        result = only(run_case(process, case, process.hello()))
    finally:
        process.close()
    assert result.step == step
    if mode == "plain":
        assert result.outcome == ERRORED and result.where == f"$.steps[{step}]"
        return
    assert result.outcome == FAIL, result.message
    assert result.clause == "F7-RESHUFFLE-EMPTIED"
    assert result.diagnosis is not None and result.diagnosis.reading == 'reshuffle_moment="when_emptied"'
    if mode == "structured":
        # the fixture's first reshuffle order is the one that does not fit the engine's earlier discard pile
        assert result.found["problem"] == "not_a_permutation" and result.found["index"] == 0
        order = next(s["reshuffle"] for s in case.trace["steps"] if "reshuffle" in s)
        assert sorted(result.found["discard_pile"]) != sorted(order)
    else:
        assert isinstance(result.found, str) and result.found.startswith("engine error: reshuffle:")


TINY = {"name": "tiny", "base": "flip7", "deck": {"1": 1, "2": 1, "3": 1, "5": 1}}


@pytest.mark.clause("F7-RESHUFFLE")
@pytest.mark.parametrize("reshuffles, problem", [([], "no_order"), ([["1"]], "not_a_permutation")])
def test_the_reference_served_reports_its_reshuffle_problem(reshuffles: list[list[str]], problem: str) -> None:
    """Four cards, three players who all stay: round 1 banks one card each, which go to the discard pile;
    round 2's deal takes the last card of the draw pile and then needs a reshuffle of those three cards
    (F7-RESHUFFLE). The bundled JavaScript engine answers the same (its protocol tests)."""
    adapter = ReferenceAdapter()
    start = {"seq": 1, "cmd": "start", "ruleset": TINY, "players": 3, "dealer": 0, "deck": ["1", "2", "3", "5"],
             "reshuffles": reshuffles}
    replies = [handle(adapter, start)[0]]
    replies += [handle(adapter, {"seq": seq, "cmd": "decide", "choice": "stay"})[0] for seq in (2, 3, 4)]
    assert all("result" in reply for reply in replies[:3])
    errored = replies[3]["errored"]
    assert errored["reshuffle"] == {"problem": problem, "discard_pile": ["1", "2", "3"], "index": 0}
    assert errored["message"].startswith("reshuffle: ")  # older runners read the prefix
    assert message_errors(replies[3], "reply") == []


def test_the_reshuffle_field_is_optional_and_checked() -> None:
    assert message_errors({"seq": 3, "errored": {"message": "no"}}, "reply") == []
    bad = {"seq": 3, "errored": {"message": "no", "reshuffle": {"problem": "lost", "discard_pile": []}}}
    assert message_errors(bad, "reply")
    with pytest.raises(ValueError, match=re.escape("$.problem")):
        ReshuffleProblem.from_json(bad["errored"]["reshuffle"])
    with pytest.raises(ValueError, match=re.escape("$.discard_pile[0]")):
        ReshuffleProblem.from_json({"problem": "no_order", "discard_pile": ["seven"]})
    read = ReshuffleProblem.from_json({"problem": "no_order", "discard_pile": ["7", "x2"]})
    assert read == ReshuffleProblem("no_order", ("7", "x2")) and read.to_json() == {"problem": "no_order",
                                                                                    "discard_pile": ["7", "x2"]}


# ---- the HTML pages ----------------------------------------------------------------------------------

HOSTILE = "<script>alert(1)</script> \x1b[2J & done"


def test_the_report_shows_an_errored_case_where_it_came_escaped() -> None:
    decision = {"player": 2, "kind": "hit_or_stay", "choice": "stay"}
    document = {"engine": "x", "results": [
        {"case_id": "game:flip7/seed=0/game=3/players=3", "level": "game", "outcome": "errored", "step": 12,
         "where": "$.steps[12]", "decision": decision, "message": f"engine error: {HOSTILE}",
         "raw": json.dumps({"seq": 9, "errored": {"message": HOSTILE}}),
         "stderr": "log: decision 1\n" + HOSTILE, "shrunk": "failures/game.json"},
        {"case_id": "round:flip7/seed=0/game=4/players=3", "level": "round", "outcome": "errored",
         "where": "$.start", "message": "engine error: no deck"},
        {"case_id": "scoring:flip7:official-x2", "level": "scoring", "outcome": "errored", "message": "timeout",
         "hand": ["3", "11", "x2"], "busted": False}]}
    html = render_report(report_from(document))
    assert "\x1b" not in html and "<script>alert" not in html
    root = parse(html)
    assert not [s for s in root.iter("script") if "alert" in (s.text or "")]
    errors = having(ids(root)["errors"], "article", "error")
    assert len(errors) == 3
    first = text(errors[0])
    assert "at step 12: seat 2: stay" in first and "failures/game.json" in first
    assert "engine error: <script>alert(1)</script> \\x1b[2J & done" in first
    stderr = next(p for p in errors[0].iter("pre") if "stderr" in (p.get("class") or ""))
    assert (stderr.text or "").splitlines() == ["log: decision 1", "<script>alert(1)</script> \\x1b[2J & done"]
    assert "at the start" in text(errors[1])
    assert [card_text(c) for c in having(errors[2], "span", "card")] == ["3", "11", "x2"]


def test_a_saved_errored_trace_page_marks_the_step(game_case: Case, tmp_path: Path) -> None:
    outcome = finish(RaisesAtDecision(), RaisesAtDecision().hello(), game_case, tmp_path)
    result = only(outcome.results)
    assert result.shrunk is not None and Path(result.shrunk).is_file()
    trace = json.loads(Path(result.shrunk).read_text(encoding="utf-8"))
    step = decision_steps(trace)[-1]
    root = parse(render_trace(trace, "saved.json"))
    assert text(root.find(".//h1")).startswith("Saved error: saved.json")
    (error,) = having(root, "article", "error")
    assert f"at step {step}:" in text(error) and "ZeroDivisionError: the engine divided by its patience" in text(error)
    marked = [s for s in having(root, "section", "step") if "errored" in (s.get("class") or "").split()]
    assert [s.get("id") for s in marked] == [f"s{step}"]
    assert "the engine errored" in text(marked[0])


def test_show_prints_a_saved_error(game_case: Case, tmp_path: Path) -> None:
    import subprocess

    outcome = finish(RaisesAtDecision(), RaisesAtDecision().hello(), game_case, tmp_path)
    path = only(outcome.results).shrunk
    assert path is not None
    shown = subprocess.run([sys.executable, "-m", "flip7_spec", "show", path], capture_output=True, text=True,
                           cwd=REPO, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert "saved error of game:flip7/seed=errored/game=1/players=3 [game] at step" in shown.stdout
    diff = subprocess.run([sys.executable, "-m", "flip7_spec", "show", "--diff", path], capture_output=True,
                          text=True, cwd=REPO, timeout=60)
    assert diff.returncode != 0 and "records an error of the engine" in diff.stderr
