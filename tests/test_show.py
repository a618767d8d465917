"""``flip7-spec show``: a trace rendered for people, numbered as replay numbers its steps."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cli import cli
from flip7_spec.cli.common import run_main
from flip7_spec.trace.canonical import dumps_line
from flip7_spec.trace.replay import DIVERGE, replay
from flip7_spec.trace.show import ShowError, render

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "flip7"


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
         ) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["flip7-spec", *args])
    code = run_main(cli)
    out, err = capsys.readouterr()
    return code, out, err


def _fixture(name: str) -> dict[str, Any]:
    trace: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return trace


@pytest.mark.clause("F7-FLIP3-SETASIDE-BUST", "F7-BUST")
def test_show_a_fixture(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["show", str(FIXTURES / "flip3-bust-setaside-discarded.json")], monkeypatch, capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1] == ("description: A Freeze set aside in a Flip Three whose target busts is discarded, "
                        "not passed on")
    assert "ruleset: flip7 (base flip7): Flip 7, official rules (Ruleset Edition 3.1)" in lines
    assert "players: 3 (seat 0, seat 1, seat 2); dealer: seat 2" in lines
    assert "== round 1, dealer seat 2 ==" in lines
    # the source's decisions: hit, 1, stay, stay; the cards: 5 6 7 dealt, FLIP3, then FREEZE and 6 to seat 1
    step1 = lines.index("step 1: seat 0 chooses the target: seat 1")
    assert lines.index("step 0: seat 0: hit") < step1 < lines.index("step 2: seat 2: stay")
    assert lines[step1 + 1:step1 + 9] == [
        "  seat 0 plays FLIP3 on seat 1",
        "  seat 1 must flip three cards",
        "  seat 1 flips (Flip Three) FREEZE",
        "  seat 1 sets FREEZE aside until the Flip Three is over",
        "  seat 1 flips (Flip Three) 6",
        "  seat 1 BUSTS on a second 6",
        "  FLIP3 is discarded (resolved)",
        "  seat 1's Flip Three is over",
    ]
    assert "  FREEZE is discarded (its Flip Three target busted)" in lines
    busted_row = next(line for line in lines[step1:] if line.strip().startswith("seat 1  busted"))
    assert busted_row.split() == ["seat", "1", "busted", "6", "6", "round", "0", "total", "0"]
    assert "  round ends: scores seat 0: 5, seat 1: 0, seat 2: 7; totals seat 0: 5, seat 1: 0, seat 2: 7" in lines
    assert lines[-1] == "the trace ends here: a partial game (no footer)"


@pytest.mark.clause("F7-TIE", "F7-WINNER")
def test_show_names_the_winner_and_the_tie(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["show", str(FIXTURES / "tie-another-round.json")], monkeypatch, capsys)
    assert code == 0
    assert "  tie for the highest total between seat 0, seat 1: another round" in out
    assert "  GAME OVER: winner seat 0" in out
    assert out.splitlines()[-1] == ("game over after 2 rounds: winner seat 0; totals seat 0: 30, seat 1: 22, "
                                    "seat 2: 4")


def test_step_numbers_match_replay_with_chance_steps() -> None:
    trace = _fixture("reshuffle-mid-round")
    # steps[6] is the chance step (the explicit reshuffle), steps[7] the hit during which it was needed
    assert "reshuffle" in trace["steps"][6]
    broken = copy.deepcopy(trace)
    broken["steps"][7]["observation"]["draw_pile"] = 3
    result = replay(broken)
    assert result.status == DIVERGE and result.divergence is not None
    assert result.divergence.step == 7
    lines = render(broken)
    assert "step 6: reshuffle order for the next decision (3 cards, top first): 3 1 2" in lines
    assert "step 7: seat 0: hit" in lines
    seven = lines.index("step 7: seat 0: hit")
    assert lines[seven + 1] == "  the deck is empty: the discard pile is reshuffled into a new deck of 3 cards"
    assert lines[seven + 2] == "  seat 0 hits and gets 3"


def test_step_numbers_option_prefixes_every_line_of_a_step() -> None:
    lines = render(_fixture("all-bust"), step_numbers=True)
    assert "step 2 |   seat 2 BUSTS on a second 10" in lines
    assert "start |   seat 0 is dealt 8" in lines
    assert "step 0: seat 0: hit" in lines


def test_decisions_only_trace_is_shown_through_the_reference() -> None:
    trace = _fixture("all-bust")
    del trace["start"]
    for step in trace["steps"]:
        for key in ("events", "observation", "scores"):
            step.pop(key, None)
    lines = render(trace)
    assert "(this trace records no events: what happened is computed by the reference)" in lines
    assert "  seat 1 BUSTS on a second 9" in lines
    assert "  round ends: scores seat 0: 0, seat 1: 0, seat 2: 0; totals seat 0: 0, seat 1: 0, seat 2: 0" in lines


def test_show_one_line_of_a_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "two.jsonl"
    corpus.write_text(dumps_line(_fixture("all-bust")) + "\n" + dumps_line(_fixture("freeze-self")),
                      encoding="utf-8")
    code, out, _ = _run(["show", str(corpus), "--line", "3"], monkeypatch, capsys)
    assert code == 0
    assert out.splitlines()[1].startswith("description: A player freezes themselves")
    code, out, _ = _run(["show", str(corpus)], monkeypatch, capsys)
    assert code == 0
    assert out.splitlines()[1] == "description: Everyone busts: the round ends and everyone scores 0"
    code, _, err = _run(["show", str(corpus), "--line", "2"], monkeypatch, capsys)
    assert code == 2
    assert err == f"flip7-spec: error: {corpus}: line 2 holds no trace\n"


def test_bad_files_are_one_line_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.json"
    code, _, err = _run(["show", str(missing)], monkeypatch, capsys)
    assert (code, err) == (2, f"flip7-spec: error: {missing}: no such file\n")

    malformed = tmp_path / "bad.json"
    malformed.write_text('{"format": "flip7-trace",\n  "version": 1,,\n}', encoding="utf-8")
    code, _, err = _run(["show", str(malformed)], monkeypatch, capsys)
    assert code == 2
    assert err == f"flip7-spec: error: {malformed}: line 2, column 16: malformed JSON: Expecting property name " \
                  "enclosed in double quotes\n"

    wrong = tmp_path / "wrong.json"
    trace = _fixture("all-bust")
    trace["steps"][1]["decision"]["choice"] = "jump"
    wrong.write_text(json.dumps(trace), encoding="utf-8")
    code, _, err = _run(["show", str(wrong)], monkeypatch, capsys)
    assert code == 2
    assert err.startswith("flip7-spec: error: $.steps[1].decision.choice: ")
    assert err.count("\n") == 1

    code, _, err = _run(["show", str(FIXTURES / "all-bust.json"), "--line", "2"], monkeypatch, capsys)
    assert code == 2
    assert "--line applies to a .jsonl corpus only" in err


def test_render_refuses_what_is_not_a_trace() -> None:
    with pytest.raises(ShowError, match=r"\$: expected a trace object, got list"):
        render([])
    trace = _fixture("all-bust")
    trace["version"] = 2
    with pytest.raises(ShowError, match="unsupported format version 2"):
        render(trace)
