"""The distinguishing scoring hands: shipped for the presets, cached on disk for other rulesets."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from flip7_spec import cards, load_ruleset, preset, preset_names, round_score
from flip7_spec.conformance import scoring_hands
from flip7_spec.conformance.scoring_hands import CACHE_VARIABLE, ScoringHand, hands_for, ruleset_hash, shipped_path

REPO = Path(__file__).resolve().parents[1]


def test_the_shipped_file_covers_every_preset_with_its_current_hash() -> None:
    document = json.loads(shipped_path().read_text(encoding="utf-8"))
    assert set(document["rulesets"]) == set(preset_names())
    for name, entry in document["rulesets"].items():
        assert entry["hash"] == ruleset_hash(preset(name)), f"{name}: run `flip7-spec fixtures regenerate`"
        assert entry["hands"], name


def test_each_shipped_hand_is_scored_by_the_specification() -> None:
    # The expected score of every hand is what the reference scoring gives (the searches only choose hands).
    document = json.loads(shipped_path().read_text(encoding="utf-8"))
    for name, entry in document["rulesets"].items():
        for hand in entry["hands"]:
            assert round_score(preset(name), cards(hand["cards"]), hand["busted"]) == hand["expected"], hand["id"]


def test_presets_are_read_from_the_shipped_file_without_searching(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(scoring_hands, "_memory", {})
    monkeypatch.setattr(scoring_hands, "search", lambda ruleset: pytest.fail("searched a preset"))
    assert hands_for(preset("flip7"))
    assert not any(tmp_path.rglob("*.json"))  # nothing written for a preset


def test_a_custom_ruleset_is_searched_once_then_read_from_the_cache(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(scoring_hands, "_memory", {})
    custom = load_ruleset(str(Path(__file__).resolve().parents[1] / "fixtures" / "rulesets" /
                              "seed-003-modifiers.toml"))
    calls: list[str] = []
    made = ScoringHand("MR-TEST", "a test misreading", "F7-SCORE", ("3", "x2"), False, 6)
    monkeypatch.setattr(scoring_hands, "search", lambda ruleset: calls.append(ruleset.name) or [made])
    assert hands_for(custom) == (made,)
    files = list(tmp_path.rglob("*.json"))
    assert [f.stem for f in files] == [ruleset_hash(custom)]
    monkeypatch.setattr(scoring_hands, "_memory", {})  # a new process: only the disk remains
    assert hands_for(custom) == (made,)
    assert calls == [custom.name]  # searched once
    files[0].write_text("{not json", encoding="utf-8")  # a damaged cache file is searched again
    monkeypatch.setattr(scoring_hands, "_memory", {})
    assert hands_for(custom) == (made,) and len(calls) == 2
    assert hands_for(custom, fresh=True) == (made,) and len(calls) == 3


def test_the_hash_ignores_name_and_description_but_not_options() -> None:
    base = preset("flip7")
    assert ruleset_hash(base) == ruleset_hash(base.with_options(target_score=200))
    assert ruleset_hash(base) != ruleset_hash(base.with_options(flip7_bonus=25))
    from dataclasses import replace

    assert ruleset_hash(base) == ruleset_hash(replace(base, name="mine", description="my copy"))


def test_regenerate_check_reports_a_stale_file_and_writes_nothing(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    shipped = tmp_path / "data" / "scoring-hands.json"
    shipped.parent.mkdir()
    shipped.write_text('{"format": 1, "rulesets": {}}\n', encoding="utf-8")
    monkeypatch.setattr(scoring_hands, "shipped_path", lambda: shipped)
    monkeypatch.setattr(scoring_hands, "shipped_document", lambda: '{"format": 1, "rulesets": {"x": 1}}\n')
    assert scoring_hands.regenerate_shipped(check=True) == (shipped, True)
    assert shipped.read_text(encoding="utf-8") == '{"format": 1, "rulesets": {}}\n'
    assert scoring_hands.regenerate_shipped() == (shipped, True)
    assert shipped.read_text(encoding="utf-8") == '{"format": 1, "rulesets": {"x": 1}}\n'
    assert scoring_hands.regenerate_shipped(check=True) == (shipped, False)


# ---- the cache cannot lie ---------------------------------------------------------------------------------

CUSTOM = Path(__file__).resolve().parents[1] / "fixtures" / "rulesets" / "seed-003-modifiers.toml"
MADE = ScoringHand("MR-TEST", "a test misreading", "F7-SCORE", ("3", "x2"), False, 6)


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty cache folder, a fresh process memory, and a search that counts its calls."""
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    monkeypatch.setattr(scoring_hands, "_memory", {})
    calls: list[str] = []
    monkeypatch.setattr(scoring_hands, "search", lambda ruleset: calls.append(ruleset.name) or [MADE])
    monkeypatch.setattr(scoring_hands, "calls", calls, raising=False)
    return tmp_path / "cache"


def _entry(ruleset: object) -> Path:
    return scoring_hands.cache_dir() / f"{ruleset_hash(ruleset)}.json"  # type: ignore[arg-type]


def _within(seconds: float, call: Callable[[], object]) -> object:
    """``call()`` in a thread; fails (instead of hanging the test run) when it does not end in time."""
    done: list[object] = []
    worker = threading.Thread(target=lambda: done.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert done, f"did not end within {seconds} s"
    return done[0]


@pytest.mark.parametrize("plant", ["fifo", "deep", "empty-hands", "big", "foreign", "dev-zero", "old-format"])
def test_an_entry_that_cannot_be_trusted_is_set_aside_with_one_line_and_searched_again(
        cache: Path, plant: str, capsys: pytest.CaptureFixture[str]) -> None:
    custom = load_ruleset(str(CUSTOM))
    entry = _entry(custom)
    entry.parent.mkdir(parents=True)
    digest = ruleset_hash(custom)
    from flip7_spec import __version__

    if plant == "fifo":
        os.mkfifo(entry)  # read as it was, every run would wait for a writer for ever
    elif plant == "deep":
        entry.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    elif plant == "empty-hands":  # the right hash and format, but no hands: every scoring case lost
        entry.write_text(json.dumps({"format": 2, "version": __version__, "hash": digest, "complete": True,
                                     "checksum": "0" * 64, "hands": []}), encoding="utf-8")
    elif plant == "big":
        entry.write_text(json.dumps({"format": 1, "hash": digest, "hands": [MADE.to_json()]}) + " " * 300_000,
                         encoding="utf-8")
    elif plant == "foreign":  # another ruleset's entry under this name
        entry.write_text(json.dumps({"format": 2, "version": __version__, "hash": "f" * 64, "complete": True,
                                     "checksum": "0" * 64, "hands": []}), encoding="utf-8")
    elif plant == "dev-zero":
        entry.symlink_to("/dev/zero")
    else:  # an entry of the first format: no completeness marker, no checksum (a search cut short looked so)
        entry.write_text(json.dumps({"format": 1, "hash": digest, "hands": []}), encoding="utf-8")
    assert _within(10, lambda: hands_for(custom)) == (MADE,)
    assert scoring_hands.calls == [custom.name]  # type: ignore[attr-defined]
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("flip7-spec: warning: scoring-hands cache "), lines
    assert "searching again" in lines[0]
    # the entry was rebuilt: a new process reads it without searching and without a word
    scoring_hands._memory.clear()
    assert hands_for(custom) == (MADE,) and len(scoring_hands.calls) == 1  # type: ignore[attr-defined]
    assert capsys.readouterr().err == ""
    assert entry.is_file() and not entry.is_symlink()


def test_a_search_that_did_not_finish_is_used_once_and_never_cached(
        monkeypatch: pytest.MonkeyPatch, cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    custom = load_ruleset(str(CUSTOM))

    def cut_short(ruleset: object) -> list[ScoringHand]:
        raise scoring_hands.IncompleteSearch("the search did not finish (z3 timed out)")

    monkeypatch.setattr(scoring_hands, "search", cut_short)
    assert hands_for(custom) == ()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "not cached" in err[0], err
    assert not _entry(custom).exists()


def test_the_cache_never_writes_through_a_planted_name(cache: Path) -> None:
    custom = load_ruleset(str(CUSTOM))
    entry = _entry(custom)
    entry.parent.mkdir(parents=True)
    victim = cache.parent / "precious.txt"
    victim.write_text("keep\n", encoding="utf-8")
    for name in (f"{entry.name}.{os.getpid()}.partial", f"{entry.name}.partial", f".{entry.name}.partial"):
        (entry.parent / name).symlink_to(victim)
    assert hands_for(custom) == (MADE,)
    assert victim.read_text(encoding="utf-8") == "keep\n"
    assert json.loads(entry.read_text(encoding="utf-8"))["complete"] is True


def _z3_loaded(pid: int) -> bool:
    try:
        return "libz3" in Path(f"/proc/{pid}/maps").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


@pytest.mark.parametrize("signal_number", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)],
                         ids=["SIGINT", "SIGTERM"])
def test_a_search_interrupted_at_any_moment_is_reported_and_rebuilt_complete(tmp_path: Path,
                                                                              signal_number: int) -> None:
    """Ctrl-C or SIGTERM during the z3 search of a custom ruleset's hands: the run says it was interrupted
    (130 or 143) and leaves no entry but a complete one; the next run rebuilds it and runs every case. A signal
    that comes while the reports are written does not cut them short."""
    if not Path("/proc/self/maps").exists():
        pytest.skip("needs /proc to see when the search starts")
    custom = load_ruleset(str(CUSTOM))
    complete = tuple(scoring_hands.search(custom))
    assert complete, "the custom ruleset has distinguishing hands"
    env = {**os.environ, CACHE_VARIABLE: str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    command = [sys.executable, "-m", "flip7_spec", "conform", "--python", "tests.mutants.dealer_fixed:Engine",
               "-r", str(CUSTOM), "--no-fixtures", "-g", "0", "--min-coverage", "0", "--no-progress", "--json",
               str(tmp_path / "report.json")]
    entry = tmp_path / "cache" / scoring_hands.cache_dir().relative_to(scoring_hands.cache_dir().parents[1]) \
        / f"{ruleset_hash(custom)}.json"
    interrupted = 0
    written_whole: list[dict[str, Any]] = []
    for delay in (0.0, 0.2, 0.4):
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
        (tmp_path / "report.json").unlink(missing_ok=True)
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while not _z3_loaded(process.pid) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(delay)
        signalled = process.poll() is None
        if signalled:
            process.send_signal(signal_number)
        _, err = process.communicate(timeout=60)
        if signalled and process.returncode == -signal_number:
            # The signal came as the interpreter shut down (its handlers are gone by then): the run had ended,
            # so its report is complete and says so.
            assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["interrupted"] is False
        elif signalled and process.returncode != 0:
            assert process.returncode == 128 + signal_number, err
            report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
            if report["interrupted"]:
                interrupted += 1
            else:  # the signal came once the cases were done: the reports were written whole before it stopped
                written_whole.append(report["counts"])
        else:  # the run ended before the signal could stop it: then it ran everything
            assert process.returncode in (0, 1), err
        if entry.exists():  # written only by a search that ran to its end
            kept = json.loads(entry.read_text(encoding="utf-8"))
            assert kept["complete"] is True and [ScoringHand.from_json(h) for h in kept["hands"]] == list(complete)
    assert interrupted >= 2, "the signals came too late to interrupt the search"
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    kept = json.loads(entry.read_text(encoding="utf-8"))
    assert [ScoringHand.from_json(h) for h in kept["hands"]] == list(complete)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert all(counts == report["counts"] for counts in written_whole)
    ran = {r["case_id"].rpartition(":")[2] for r in report["results"] if r["case_id"].startswith("scoring:")}
    assert {h.id for h in complete} <= ran, ran  # the corpus is complete: every distinguishing hand ran
