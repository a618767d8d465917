"""The trace format: canonical export, lax import, the schema, and named errors for every kind of bad input."""

from __future__ import annotations

import copy
import json
import random
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flip7_spec.cli import cli
from flip7_spec.cli.common import run_main
from flip7_spec.fixtures import compiled_paths
from flip7_spec.rulesets import Ruleset, load_ruleset, preset
from flip7_spec.simulation.policies import random_policy, threshold_policy
from flip7_spec.simulation.simulate import record_game
from flip7_spec.trace import reader
from flip7_spec.trace.canonical import dumps_document, dumps_line
from flip7_spec.trace.reader import read_traces
from flip7_spec.trace.replay import CONFORM, DIVERGE, INVALID, replay
from flip7_spec.trace.schema import schema_errors

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"

Trace = dict[str, Any]


def _rulesets() -> dict[str, Ruleset]:
    flip7 = preset("flip7")
    return {
        "flip7": flip7,
        "flip7-no-deal": preset("flip7-no-deal"),
        "seed-003-modifiers": load_ruleset(str(FIXTURES / "rulesets" / "seed-003-modifiers.toml")),
        "replacement-card": flip7.with_options(second_chance_ends_turn=False, deal_start="dealer"),
        "pass-set-aside": flip7.with_options(set_aside_on_bust="pass_to_other_active", target_score=100),
        "short": flip7.with_options(target_score=40),
    }


@cache
def simulated(name: str, seed: int, players: int = 4, observe: bool = True) -> Trace:
    """One whole game of ``name`` played by the threshold strategy (random for odd seeds), as a trace."""
    policy = random_policy if seed % 2 else threshold_policy(20)
    record = record_game(_rulesets()[name], players, policy, random.Random(seed), observe=observe, seed=str(seed),
                         generator="test")
    return record.trace()


def _fresh(name: str, seed: int, players: int = 4, observe: bool = True) -> Trace:
    return copy.deepcopy(simulated(name, seed, players, observe))


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
         ) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["flip7-spec", *args])
    code = run_main(cli)
    out, err = capsys.readouterr()
    return code, out, err


def _fixture_paths() -> list[Path]:
    return compiled_paths(FIXTURES)


# ---- canonical export and lax import ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(_rulesets()))
def test_export_import_export_is_byte_identical(name: str) -> None:
    trace = simulated(name, 1)
    document = dumps_document(trace)
    assert dumps_document(json.loads(document)) == document
    line = dumps_line(trace)
    assert line.endswith("\n") and line.count("\n") == 1
    assert dumps_line(json.loads(line)) == line
    assert json.loads(line) == json.loads(document)
    # one line per top-level key and per step (so that two traces diff step by step), plus the braces
    # of the document and the lines that open and close the steps array
    assert document.count("\n") == len(trace) + len(trace["steps"]) + 3


@pytest.mark.parametrize("path", _fixture_paths(), ids=lambda p: p.stem)
def test_every_fixture_is_canonical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert dumps_document(json.loads(text)) == text


def test_json_and_jsonl_forms_hold_the_same_traces(tmp_path: Path) -> None:
    traces = [simulated("flip7", seed) for seed in (2, 3, 4)]
    corpus = tmp_path / "games.jsonl"
    corpus.write_text("".join(dumps_line(t) for t in traces), encoding="utf-8")
    from_corpus = list(read_traces(corpus))
    assert [s.location for s in from_corpus] == [f"{corpus}:1", f"{corpus}:2", f"{corpus}:3"]
    for index, trace in enumerate(traces):
        single = tmp_path / f"game{index}.json"
        single.write_text(dumps_document(trace), encoding="utf-8")
        (from_document,) = read_traces(single)
        assert from_document.location == str(single)
        assert from_document.trace == from_corpus[index].trace == json.loads(dumps_line(trace))
        assert replay(from_document.trace).status == replay(from_corpus[index].trace).status == CONFORM


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {k: _shuffled(value[k], rng) for k in keys}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


def test_lax_import_replays_the_same(tmp_path: Path) -> None:
    trace = simulated("pass-set-aside", 5)
    canonical = dumps_document(trace)
    lax = json.dumps(_shuffled(trace, random.Random(7)), indent=3).replace("\n", "\r\n  \t")
    path = tmp_path / "lax.json"
    path.write_text("\n\n  " + lax + "\n\t\n", encoding="utf-8")
    (source,) = read_traces(path)
    assert source.error is None
    assert dumps_document(source.trace) == canonical
    expected, found = replay(trace), replay(source.trace)
    assert (found.status, found.steps, found.level, found.complete) == \
           (expected.status, expected.steps, expected.level, expected.complete) == \
           (CONFORM, expected.steps, "observations", True)


@pytest.mark.parametrize("name", sorted(_rulesets()))
def test_schema_validates_simulated_traces(name: str) -> None:
    assert schema_errors(simulated(name, 2)) == []
    assert schema_errors(simulated(name, 3, observe=False)) == []


# ---- bad input: every problem is named ---------------------------------------------------------------------


def _read_one(path: Path) -> reader.TraceSource:
    (source,) = read_traces(path)
    return source


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n "format": "flip7-trace",\n "version": 1\n "header": {}\n}\n', encoding="utf-8")
    source = _read_one(path)
    assert source.trace is None
    # line 4 starts with a space: the unexpected string is at column 2 (a comma is missing on line 3)
    assert source.error == "line 4, column 2: malformed JSON: Expecting ',' delimiter"


def test_malformed_line_of_a_corpus_names_its_line_and_the_rest_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    good = dumps_line(simulated("flip7", 2))
    path.write_text(good + '{"format": tru}\n' + good, encoding="utf-8")
    sources = list(read_traces(path))
    assert [s.error for s in sources] == [None, "line 2, column 12: malformed JSON: Expecting value", None]
    assert sources[1].location == f"{path}:2"


def test_truncated_and_oversized_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    document = dumps_document(simulated("flip7", 2))
    lines = document.splitlines(keepends=True)
    path = tmp_path / "cut.json"
    path.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")     # cut after a whole step line
    error = _read_one(path).error
    assert error is not None and error.endswith("truncated JSON (the text ends inside a value)")
    path.write_text(document[: document.index('"deck"') + 12], encoding="utf-8")   # cut inside a card text
    error = _read_one(path).error
    assert error is not None and error.startswith("line 4, column ")
    whole = tmp_path / "whole.json"
    whole.write_text(document, encoding="utf-8")
    monkeypatch.setattr(reader, "MAX_DOCUMENT_BYTES", len(document.encode()) - 1)
    error = _read_one(whole).error
    assert error is not None and error.startswith("file is larger than")
    monkeypatch.setattr(reader, "MAX_DOCUMENT_BYTES", len(document.encode()))
    assert _read_one(whole).error is None


def _invalid(trace: Trace) -> str:
    result = replay(trace)
    assert result.status == INVALID
    assert result.error is not None
    return result.error


def test_schema_violation_names_the_json_path() -> None:
    trace = _fresh("flip7", 2)
    trace["steps"][3]["decision"]["choice"] = "jump"
    assert _invalid(trace).startswith("$.steps[3].decision.choice: ")
    trace = _fresh("flip7", 2)
    del trace["header"]["dealer"]
    assert _invalid(trace) == "$.header: 'dealer' is a required property"


def test_unknown_card_text_is_named() -> None:
    trace = _fresh("flip7", 2)
    trace["header"]["deck"][5] = "BANANA"
    assert _invalid(trace).startswith("$.header.deck[5]: 'BANANA' does not match")
    trace = _fresh("flip7", 2)
    trace["header"]["deck"][5] = "/3"     # shaped like a card, but no such card: the schema names it too
    assert _invalid(trace).startswith("$.header.deck[5]: '/3' does not match")


def test_unsupported_version_is_named() -> None:
    trace = _fresh("flip7", 2)
    trace["version"] = 2
    assert _invalid(trace) == "$.version: unsupported format version 2; this flip7-spec reads version 1"


@pytest.mark.clause("F7-DECK")
def test_deck_that_is_not_a_permutation() -> None:
    trace = _fresh("short", 2)
    assert trace["header"]["deck"][-1] != "12" and len(_draw_steps(trace)) < 94
    trace["header"]["deck"][-1] = "12"      # the bottom card, never drawn in this short game
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert (result.divergence.step, result.divergence.where, result.divergence.clause) == \
           (None, "$.header.deck", "F7-DECK")
    assert "is not a permutation of the flip7 deck for 4 players (94 cards, expected 94)" in \
           result.divergence.message
    # one card fewer: the start observation's draw pile already shows it, and the message names the deck
    trace = _fresh("short", 2)
    trace["header"]["deck"].pop()
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert (result.divergence.step, result.divergence.where) == (None, "$.start.observation.draw_pile")
    assert "(93 cards, expected 94): missing" in result.divergence.message


@pytest.mark.clause("F7-HIT-STAY")
def test_illegal_decision_is_located_at_its_step() -> None:
    trace = _fresh("flip7", 2)
    k = next(i for i, s in enumerate(trace["steps"])
             if s.get("decision", {}).get("kind") == "hit_or_stay" and i > 3)
    trace["steps"][k]["decision"]["choice"] = 0
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert result.divergence.step == k
    assert result.divergence.where == f"$.steps[{k}].decision.choice"
    assert result.divergence.expected == ["hit", "stay"]


@pytest.mark.clause("F7-RESHUFFLE")
def test_reshuffle_order_that_is_not_a_permutation() -> None:
    trace = json.loads((FIXTURES / "flip7" / "reshuffle-mid-round.json").read_text(encoding="utf-8"))
    assert trace["steps"][6] == {"reshuffle": ["3", "1", "2"]}
    trace["steps"][6]["reshuffle"] = ["3", "1", "1"]
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert (result.divergence.step, result.divergence.clause) == (7, "F7-RESHUFFLE")
    assert "reshuffle order is not a permutation of the discard pile (3 cards: 1 2 3)" in result.divergence.message


# ---- mutated traces never crash the reader or replay ---------------------------------------------------------


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (object keys and array indices)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, (*prefix, index)))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


_CARD_TEXTS = ["0", "5", "12", "13", "+4", "x2", "/2", "FREEZE", "FLIP3", "CHANCE", "BANANA", "", "-2"]
_CHOICES = ["hit", "stay", 0, 1, 2, 3, 7, -1, "x", None, True, {"player": 0, "index": 0}]
_ODD_VALUES: list[Any] = [None, "text", 1.5, [], {}, True, False, -1, 0]
_BASES = [("flip7", 2), ("seed-003-modifiers", 4), ("replacement-card", 6)]


@st.composite
def mutated_traces(draw: st.DrawFn) -> tuple[Trace, str]:
    """A simulated trace with one to three mutations, and a description of them."""
    name, seed = draw(st.sampled_from(_BASES))
    trace = _fresh(name, seed, players=3)
    done = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["drop", "duplicate", "swap", "card", "choice", "number", "delete", "type"]))
        steps = trace.get("steps")
        if kind in ("drop", "duplicate", "swap") and isinstance(steps, list) and steps:
            i = draw(st.integers(0, len(steps) - 1))
            j = draw(st.integers(0, len(steps) - 1))
            if kind == "drop":
                del steps[i]
            elif kind == "duplicate":
                steps.insert(i, copy.deepcopy(steps[i]))
            else:
                steps[i], steps[j] = steps[j], steps[i]
            done.append(f"{kind} {i} {j}")
            continue
        paths = _paths(trace)
        if kind == "card":
            paths = [p for p in paths if isinstance(_get(trace, p), str) and not isinstance(p[-1], str)]
        elif kind == "choice":
            paths = [p for p in paths if p[-1] == "choice"]
        elif kind == "number":
            paths = [p for p in paths if isinstance(_get(trace, p), int)]
        if not paths:
            continue
        path = draw(st.sampled_from(paths))
        parent = _get(trace, path[:-1])
        if kind == "delete":
            if isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent.pop(path[-1])
        elif kind == "card":
            parent[path[-1]] = draw(st.sampled_from(_CARD_TEXTS))
        elif kind == "choice":
            parent[path[-1]] = draw(st.sampled_from(_CHOICES))
        elif kind == "number":
            parent[path[-1]] = draw(st.integers(-3, 120))
        else:
            parent[path[-1]] = draw(st.sampled_from(_ODD_VALUES))
        done.append(f"{kind} {path}")
    return trace, "; ".join(done)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory for the mutated trace files (one module-wide directory, reused by every example)."""
    return tmp_path_factory.mktemp("mutants")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mutated_traces(), form=st.sampled_from(["document", "line", "cut"]))
def test_mutated_traces_end_in_a_named_outcome(scratch: Path, case: tuple[Trace, str], form: str) -> None:
    trace, mutations = case
    text = dumps_line(trace) if form == "line" else dumps_document(trace)
    if form == "cut":
        text = text[: len(text) * 2 // 3]
    path = scratch / ("mutant.jsonl" if form == "line" else "mutant.json")
    path.write_text(text, encoding="utf-8")
    (source,) = read_traces(path)
    if source.error is not None:
        assert form == "cut" and source.error.startswith("line "), mutations
        return
    result = replay(source.trace)
    assert result.status in (CONFORM, DIVERGE, INVALID), mutations
    if result.status == INVALID:
        assert result.error, mutations
    elif result.status == DIVERGE:
        assert result.divergence is not None and result.divergence.message, mutations


# ---- the command line ----------------------------------------------------------------------------------------


def test_simulate_then_replay_a_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "X.jsonl"
    code, _, err = _run(["simulate", "--players", "5", "--games", "30", "--seed", "3", "--out", str(out_file),
                         "--no-progress"], monkeypatch, capsys)
    assert code == 0, err
    assert len(out_file.read_text(encoding="utf-8").splitlines()) == 30
    code, out, err = _run(["replay", str(out_file), "--no-progress"], monkeypatch, capsys)
    assert code == 0, out + err
    assert out.splitlines()[-1] == "replayed 30 traces: 30 conform, 0 diverge, 0 invalid (30 at level observations)"


def _draw_steps(trace: Trace) -> list[int | None]:
    """For each card drawn from the starting deck (top first), the step during which it was drawn (None:
    before the first decision). Draws stop counting at the first reshuffle, which needs an empty deck."""
    located: list[int | None] = []
    outcomes: list[tuple[int | None, dict[str, Any]]] = [(None, trace.get("start", {}))]
    outcomes += [(i, s) for i, s in enumerate(trace["steps"]) if "decision" in s]
    for step, outcome in outcomes:
        for event in outcome.get("events", []):
            if event["event"] == "reshuffle":
                return located
            if event["event"] == "draw":
                located.append(step)
    return located


@pytest.mark.clause("F7-DECK")
def test_changing_any_single_deck_card_is_reported_at_its_step() -> None:
    base = simulated("short", 8, players=3)
    drawn = _draw_steps(base)
    assert 0 < len(drawn) < len(base["header"]["deck"])     # some cards are drawn, some are not
    for position, original in enumerate(base["header"]["deck"]):
        trace = copy.deepcopy(base)
        trace["header"]["deck"][position] = "12" if original != "12" else "11"
        result = replay(trace)
        assert result.status == DIVERGE and result.divergence is not None, position
        if position < len(drawn):
            assert result.divergence.step == drawn[position], position
        else:
            assert (result.divergence.step, result.divergence.where) == (None, "$.header.deck"), position
        assert "not a permutation" in result.divergence.message


def test_replay_command_reports_a_changed_card_with_its_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    trace = _fresh("flip7", 2)
    drawn = _draw_steps(trace)
    position = next(i for i, step in enumerate(drawn) if step is not None)
    trace["header"]["deck"][position] = "12" if trace["header"]["deck"][position] != "12" else "11"
    path = tmp_path / "changed.json"
    path.write_text(dumps_document(trace), encoding="utf-8")
    code, out, _ = _run(["replay", str(path), "--no-progress"], monkeypatch, capsys)
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(f"{path}: DIVERGES at step {drawn[position]} (")
    assert "not a permutation" in first


def _documented_example() -> Trace:
    text = (ROOT / "docs" / "trace-format.md").read_text(encoding="utf-8")
    section = text[text.index("## A minimal hand-written trace"):]
    block = section[section.index("```json") + len("```json"):]
    example: Trace = json.loads(block[: block.index("```")])
    return example


def test_the_documented_example_replays() -> None:
    example = _documented_example()
    assert schema_errors(example) == []
    result = replay(example)
    assert (result.status, result.level, result.steps, result.complete) == (CONFORM, "events", 5, True)
    example["steps"][0]["events"][0]["card"] = "5"
    result = replay(example)
    assert result.status == DIVERGE and result.divergence is not None
    assert (result.divergence.step, result.divergence.where, result.divergence.expected, result.divergence.found) \
        == (0, "$.steps[0].events[0].card", "4", "5")
