"""The documented limits, strict parsing of outside text, escaped terminal output, and typed library errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import flip7_spec
from flip7_spec import cards, load_ruleset, new_game, preset, round_score, score
from flip7_spec.conformance.report import junit_report, xml_text
from flip7_spec.errors import ArgumentError, Flip7Error, InputError, LimitError
from flip7_spec.jsontext import parse_json, parse_toml
from flip7_spec.judge.runner import CaseResult
from flip7_spec.limits import LIMITS, NESTING, PLAYERS, check_game_size
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.simulation.simulate_run import SimulationRun, _results, chunk_count
from flip7_spec.terminal import printable, printable_json

REPO = Path(__file__).resolve().parent.parent
DECK = [c.text for c in preset("flip7").deck_cards(3)]


# ---- the limits are documented -------------------------------------------------------------------------


def test_the_readme_lists_every_limit() -> None:
    """Each limit's name and value appear on one line of the README's limits table."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for limit in LIMITS:
        rows = [line for line in readme.splitlines() if line.startswith(f"| {limit.name} |")]
        assert rows, f"README.md has no row for the {limit.name} limit"
        assert limit.text in rows[0], f"README.md gives another value for {limit.name}: {rows[0]}"


def test_a_limit_message_names_the_limit() -> None:
    with pytest.raises(LimitError, match=r"^players: 100,000,000 is over the limit of 100 players$"):
        PLAYERS.check(100_000_000, "players")
    with pytest.raises(LimitError, match="a number of about 5,000 digits is over the limit of 100 players"):
        PLAYERS.check(10**4999, "players")  # too long for Python to print: summarised


def test_a_deck_for_many_players_is_checked_before_it_is_built() -> None:
    ruleset = ruleset_from_json({"base": "flip7", "options": {"players_per_deck": 1}})  # a deck per player
    check_game_size(ruleset, 100)  # 100 decks of 94 cards: 9,400, within 10,000
    big = ruleset_from_json({"base": "flip7", "deck": {"5": 200}, "options": {"players_per_deck": 1}})
    with pytest.raises(LimitError, match="the deck of flip7 for 60 players: 12,000 is over the limit of 10,000"):
        check_game_size(big, 60)


@pytest.mark.parametrize("data, words", [
    ({"deck": {"5": 10**9}}, "ruleset.deck.5: 1,000,000,000 is over the limit of 1,000 copies of one card"),
    ({"deck": {str(v): 1000 for v in range(13)}}, "13,000 is over the limit of 10,000 cards"),
    ({"name": "n" * 101}, "ruleset.name length: 101 is over the limit of 100 characters"),
    ({"options": {"target_score": 10**12}}, "over the limit of 1,000,000 for a whole-number option"),
])
def test_rulesets_over_a_limit_are_refused(data: dict[str, Any], words: str) -> None:
    with pytest.raises(LimitError, match=re.escape(words)):
        ruleset_from_json(data)


def test_simulate_starts_no_more_workers_than_units_of_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """20 games are one unit of work: one process plays them, whatever --workers says."""
    started: list[int] = []

    def no_pool(function: Any, tasks: Any, workers: int, **_: Any) -> Any:
        started.append(workers)
        raise AssertionError("no pool for one unit of work")

    monkeypatch.setattr("flip7_spec.simulation.simulate_run.ordered_map", no_pool)
    run = SimulationRun(ruleset=preset("flip7"), players=3, games=20, seed="0", strategy="random", workers=64)
    assert chunk_count(run) == 1
    assert sum(count for count, _ in _results(run)) == 20
    assert started == []


# ---- strict parsing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000, "nested deeper than the limit of 64 levels"),
    ('{"a": ' + "[" * 65 + "]" * 65 + "}", "$.a[0][0][0][0][0][0][0] ...: arrays and objects nested deeper"),
    ('{"n": ' + "9" * 5_000 + "}", "a whole number is over the limit of 20 digits"),
    ('{"n": ' + "9" * 21 + "}", "$.n: a whole number of 21 digits is over the limit of 20 digits"),
    ('{"n": NaN}', "NaN is not JSON"),
    ('[-Infinity]', "-Infinity is not JSON"),
    ("[1e999]", "the number 1e999 is too large for a JSON number"),
    ('{"a": 1,,}', "line 1, column 9: malformed JSON"),
])
def test_json_that_python_would_take_or_choke_on_is_refused(text: str, words: str) -> None:
    with pytest.raises(InputError, match=re.escape(words)):
        parse_json(text)


def test_json_within_the_limits_parses_as_usual() -> None:
    text = json.dumps({"a": [[[1, -(10**19)]]], "b": "[[[[ not a bracket", "c": 1.5})
    assert parse_json(text) == json.loads(text)
    assert parse_json("[" * NESTING.value + "]" * NESTING.value) is not None


@pytest.mark.parametrize("text, words", [
    ("a = " + "[" * 5_000 + "]" * 5_000, "nested deeper than the limit of 64 levels"),
    ("a = " + "9" * 5_000, "a whole number is over the limit of 20 digits"),
    ("a = inf", "inf is not a number JSON can carry"),
    ("a = 1\na = 2", "not valid TOML"),
])
def test_toml_over_the_limits_is_refused(text: str, words: str) -> None:
    with pytest.raises(InputError, match=re.escape(words)):
        parse_toml(text)


def test_ruleset_files_that_are_not_regular_files_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "rules.json"
    os.mkfifo(fifo)
    with pytest.raises(Flip7Error, match="is a named pipe"):
        load_ruleset(str(fifo))
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    with pytest.raises(Flip7Error, match="is a device"):
        load_ruleset(str(zero))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'base = "flip7"\nname = "caf\xe9"\n')
    # name = "caf\xe9": the bad byte is the 12th of line 2
    with pytest.raises(Flip7Error, match=re.escape("line 2, column 12: not UTF-8 text (byte 0xe9)")):
        load_ruleset(str(latin))


# ---- what reaches a terminal or a report ---------------------------------------------------------------


def test_printable_escapes_everything_that_acts_on_a_terminal() -> None:
    hostile = "a\x1b[2Jb\x07c\rd\ne\x9bf\u202eg\ud800h\x7f"
    shown = printable(hostile)
    assert shown == "a\\x1b[2Jb\\x07c\\x0dd\\x0ae\\x9bf\\u202eg\\ud800h\\x7f"
    assert printable("Flip 7: x2 +10 ÷2 −4 ×") == "Flip 7: x2 +10 ÷2 −4 ×"  # ordinary text is untouched


def test_printable_json_stays_the_same_json() -> None:
    value = {"name": "a\x1b[31m\x9b\u202e\ud800", "n": [1, 2]}
    text = printable_json(json.dumps(value, ensure_ascii=False, indent=2))
    assert json.loads(text) == value
    assert "\x9b" not in text and "\u202e" not in text


def test_junit_is_well_formed_for_every_control_character() -> None:
    every = "".join(chr(code) for code in range(32)) + "\x7f\x85\ud800\udfff\ufffe\uffff"
    results = [CaseResult(f"case{every}", "round", "errored", message=every, raw=every, stderr=every),
               CaseResult("fail", "game", "fail", where=f"$.x{every}", clause=every, expected=every, found=every),
               CaseResult("skip", "scoring", "skipped", message=every)]
    text = junit_report(results, f"engine {every}")
    root = ET.fromstring(text.encode("utf-8"))
    assert len(list(root.iter("testcase"))) == 3
    error = next(root.iter("error"))
    assert error.get("message", "").startswith("\\x00\\x01")  # shown, not dropped
    assert xml_text("tab\tnewline\nok") == "tab\tnewline\nok"


# ---- the library raises its own errors -----------------------------------------------------------------


BAD_CALLS: list[tuple[str, Callable[[], Any]]] = [
    ("cards(None)", lambda: cards(None)),  # type: ignore[arg-type]
    ("cards(5)", lambda: cards(5)),  # type: ignore[arg-type]
    ("load_ruleset(5)", lambda: load_ruleset(5)),  # type: ignore[arg-type]
    ("load_ruleset(None)", lambda: load_ruleset(None)),  # type: ignore[arg-type]
    ("new_game players '3'", lambda: new_game(preset("flip7"), "3", DECK)),  # type: ignore[arg-type]
    ("new_game players 3.0", lambda: new_game(preset("flip7"), 3.0, DECK)),  # type: ignore[arg-type]
    ("new_game players None", lambda: new_game(preset("flip7"), None, DECK)),  # type: ignore[arg-type]
    ("new_game players 10**9", lambda: new_game(preset("flip7"), 10**9, DECK)),
    ("new_game ruleset 'flip7'", lambda: new_game("flip7", 3, DECK)),  # type: ignore[arg-type]
    ("new_game deck None", lambda: new_game(preset("flip7"), 3, None)),  # type: ignore[arg-type]
    ("new_game deck 5", lambda: new_game(preset("flip7"), 3, 5)),  # type: ignore[arg-type]
    ("new_game deck one string", lambda: new_game(preset("flip7"), 3, " ".join(DECK))),
    ("new_game dealer '0'", lambda: new_game(preset("flip7"), 3, DECK, dealer="0")),  # type: ignore[arg-type]
    ("new_game dealer 0.5", lambda: new_game(preset("flip7"), 3, DECK, dealer=0.5)),  # type: ignore[arg-type]
    ("new_game reshuffles None", lambda: new_game(preset("flip7"), 3, DECK, reshuffles=None)),  # type: ignore[arg-type]
    ("new_game reshuffles of texts", lambda: new_game(preset("flip7"), 3, DECK, reshuffles=[["3"]])),  # type: ignore[list-item]
    ("new_game reshuffler 5", lambda: new_game(preset("flip7"), 3, DECK, reshuffler=5)),  # type: ignore[arg-type]
    ("new_game with_options target 10**12",
     lambda: new_game(preset("flip7").with_options(target_score=10**12), 3, DECK)),
    ("round_score hand of texts", lambda: round_score(preset("flip7"), ["3"])),  # type: ignore[list-item]
    ("round_score hand None", lambda: round_score(preset("flip7"), None)),  # type: ignore[arg-type]
    ("round_score ruleset 'flip7'", lambda: round_score("flip7", cards("3"))),  # type: ignore[arg-type]
    ("score busted 'yes'", lambda: score(preset("flip7"), cards("3"), "yes")),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("call", [c for _, c in BAD_CALLS], ids=[name for name, _ in BAD_CALLS])
def test_a_bad_library_call_raises_a_flip7_error(call: Callable[[], Any]) -> None:
    with pytest.raises(Flip7Error) as raised:
        call()
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 300


def test_a_wrong_type_is_an_argument_error_and_a_type_error() -> None:
    with pytest.raises(ArgumentError, match="players must be a whole number"):
        new_game(preset("flip7"), "3", DECK)  # type: ignore[arg-type]
    assert issubclass(ArgumentError, TypeError)
    assert flip7_spec.round_score(preset("flip7"), cards("3 11 5 7 10 x2")) == 72  # the checked one still scores


def test_an_unknown_card_message_is_short_for_a_long_text() -> None:
    with pytest.raises(Flip7Error) as raised:
        cards(["x" * 1_000_000])
    assert len(str(raised.value)) < 300


def test_conform_starts_no_more_engines_than_the_cases_need(tmp_path: Path) -> None:
    """One game gives two cases: with --workers 8, at most two workers start, each with one engine (plus the
    engine conform says hello to first)."""
    starts = tmp_path / "starts"
    script = tmp_path / "counting_engine.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(REPO / 'tests' / 'broken_engines')!r})\n"
        f"with open({str(starts)!r}, 'a') as log:\n    log.write(f'{{os.getpid()}}\\n')\n"
        "from _loop import dumps, serve_with\nserve_with(lambda request, reply: dumps(reply))\n", encoding="utf-8")
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    done = subprocess.run([sys.executable, "-m", "flip7_spec", "conform", "--engine", f"{sys.executable} {script}",
                           "-j", "8", "-g", "1", "--min-coverage", "0", "--no-fixtures", "--no-scoring", "-r", "flip7",
                           "--no-progress"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert 2 <= len(starts.read_text().split()) <= 3
