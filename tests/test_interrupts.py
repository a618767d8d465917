"""conform stopped by a signal: Ctrl-C (SIGINT, to the whole process group as a terminal sends it, or to
conform alone) and SIGTERM, during the handshake and mid-run, with one worker and with two.

Each must end promptly with 130 (SIGINT) or 143 (SIGTERM), leave no engine or worker process behind
(the engines used here ignore SIGTERM, so they must be killed), and write JSON and JUnit XML reports that
parse and hold the cases that finished.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cli import cli, cmd_conform
from flip7_spec.cli.common import run_main
from flip7_spec.interrupts import Interrupted, signals_held, stop_on_signals
from tests.test_conform import GUARD, QUICK, REPO, assert_clean, engine, environment, read_json, totals

STOP_WITHIN = 15.0
"""Seconds from the signal to conform's exit (engines that ignore SIGTERM take a few to be killed)."""


def start(args: list[str], token: str) -> subprocess.Popen[bytes]:
    """conform in a session of its own (as a shell runs a foreground job), reading its progress on stderr."""
    return subprocess.Popen([sys.executable, "-m", "flip7_spec", "conform", *args], cwd=REPO,
                            env=environment(token), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def wait_for_progress(process: subprocess.Popen[bytes], cases: int) -> bytes:
    """Read conform's progress bar until ``cases`` cases have finished."""
    assert process.stderr is not None
    seen = b""
    deadline = time.monotonic() + GUARD
    while f"cases {cases}/".encode() not in seen and time.monotonic() < deadline:
        chunk = os.read(process.stderr.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
    assert f"cases {cases}/".encode() in seen, seen[-2000:]
    return seen


def finish(process: subprocess.Popen[bytes]) -> tuple[int, str, float]:
    """conform's exit code, stderr and the seconds it took to exit after the signal."""
    signalled = time.monotonic()
    try:
        _, stderr = process.communicate(timeout=GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return process.returncode, stderr.decode("utf-8", "replace"), time.monotonic() - signalled


def check_reports(json_path: Path, junit_path: Path, at_least: int) -> int:
    """Both reports parse, say the run was interrupted, and hold ``at_least`` results; returns how many."""
    report = read_json(json_path)
    assert report["interrupted"] is True
    finished = sum(totals(report).values())
    assert finished >= at_least
    root = ET.parse(junit_path).getroot()
    assert sum(int(suite.get("tests", -1)) for suite in root.findall("testsuite")) == finished
    return finished


@pytest.mark.parametrize("sig, to_group, workers", [
    pytest.param(signal.SIGINT, True, "2", id="ctrl-c-to-the-group-two-workers"),
    pytest.param(signal.SIGINT, False, "2", id="sigint-to-conform-two-workers", marks=pytest.mark.slow),
    pytest.param(signal.SIGTERM, False, "1", id="sigterm-one-worker", marks=pytest.mark.slow),
    pytest.param(signal.SIGTERM, False, "2", id="sigterm-two-workers"),
])
def test_a_signal_mid_run_stops_everything_and_writes_the_reports(tmp_path: Path, sig: int, to_group: bool,
                                                                    workers: str) -> None:
    json_path, junit_path = tmp_path / "report.json", tmp_path / "report.xml"
    token = uuid.uuid4().hex
    args = ["--engine", engine("slow", "0.005"), "--games", "200", *QUICK, "--workers", workers, "--progress",
            "--json", str(json_path), "--junit-xml", str(junit_path)]
    process = start(args, token)
    wait_for_progress(process, 4)
    if to_group:
        os.killpg(process.pid, sig)  # what Ctrl-C at a terminal does: conform and its workers get it
    else:
        process.send_signal(sig)
    code, stderr, seconds = finish(process)
    assert code == 128 + sig, stderr[-2000:]
    assert seconds < STOP_WITHIN, f"conform took {seconds:.1f} s to stop"
    assert_clean(token, code, stderr)
    assert "interrupted: the reports hold the cases that finished" in stderr
    finished = check_reports(json_path, junit_path, at_least=4)
    assert finished < 600  # not the whole run: 200 games give 400 cases and their legal checks


def test_ctrl_c_in_the_handshake_ends_the_engine_and_writes_empty_reports(tmp_path: Path) -> None:
    """The engine reads the hello and never answers (and ignores SIGTERM): Ctrl-C then must still end it."""
    json_path, junit_path = tmp_path / "report.json", tmp_path / "report.xml"
    pid_file = tmp_path / "engine.pid"
    token = uuid.uuid4().hex
    args = ["--engine", engine("slow_hello", str(pid_file)), "--timeout", "120", *QUICK, "--json", str(json_path),
            "--junit-xml", str(junit_path)]
    process = start(args, token)
    deadline = time.monotonic() + GUARD
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pid_file.exists(), "the engine never received the hello"
    os.killpg(process.pid, signal.SIGINT)
    code, stderr, seconds = finish(process)
    assert code == 130, stderr[-2000:]
    assert seconds < STOP_WITHIN
    assert_clean(token, code, stderr)
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)
    assert check_reports(json_path, junit_path, at_least=0) == 0


@pytest.mark.slow
def test_ctrl_c_in_a_smoke_run_ends_the_engine(tmp_path: Path) -> None:
    pid_file = tmp_path / "engine.pid"
    token = uuid.uuid4().hex
    process = start(["--smoke", "--engine", engine("slow_hello", str(pid_file)), "--timeout", "120"], token)
    deadline = time.monotonic() + GUARD
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    code, stderr, _ = finish(process)
    assert code == 130, stderr[-2000:]
    assert_clean(token, code, stderr)


def test_sigterm_stops_simulate_and_leaves_no_partial_file(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "flip7_spec", "simulate", "-g", "1000000", "--out", str(out)],
                               cwd=REPO, env=environment(uuid.uuid4().hex), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    deadline = time.monotonic() + GUARD
    while not any(tmp_path.glob(".games.jsonl.*.partial")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    code, stderr, seconds = finish(process)
    assert code == 143, stderr
    assert seconds < STOP_WITHIN
    assert "Traceback" not in stderr and "flip7-spec: interrupted" in stderr
    assert list(tmp_path.iterdir()) == []


def test_a_signal_while_signals_are_held_is_raised_once_the_block_ends() -> None:
    """signals_held notes a signal instead of raising it, finishes the block, then raises it as Interrupted;
    a second signal in the cleanup after it is ignored, and stop_on_signals' end restores the handlers."""
    before = signal.getsignal(signal.SIGTERM)
    finished_block = False
    with pytest.raises(Interrupted) as stopped, stop_on_signals():
        with signals_held():
            signal.raise_signal(signal.SIGTERM)
            finished_block = True
        raise AssertionError("the held signal was not raised at the block's end")  # pragma: no cover
    assert finished_block and stopped.value.exit_code == 143
    assert signal.getsignal(signal.SIGTERM) == before


def test_signals_held_after_an_interruption_stay_ignored() -> None:
    """Inside the cleanup of a first signal (handlers ignored), holding signals does not rearm them."""
    with pytest.raises(Interrupted), stop_on_signals():
        try:
            signal.raise_signal(signal.SIGINT)
        except Interrupted:
            with signals_held():
                signal.raise_signal(signal.SIGINT)  # ignored: the cleanup is under way
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
            raise


def test_a_signal_while_conform_writes_its_reports_leaves_them_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C once every case is done, as the reports are being written: conform still writes them whole
    (every case, not marked interrupted, since none was cut short) and then exits 130."""
    original = cmd_conform.json_report

    def interrupted_while_writing(*args: Any, **kwargs: Any) -> str:
        signal.raise_signal(signal.SIGINT)
        return original(*args, **kwargs)

    def conform(report: Path, junit: Path) -> int:
        monkeypatch.setattr(sys, "argv", ["flip7-spec", "conform", "--python", "tests.mutants.dealer_fixed:Engine",
                                          *QUICK, "-g", "2", "--no-progress", "--json", str(report),
                                          "--junit-xml", str(junit)])
        return run_main(cli)

    assert conform(tmp_path / "full.json", tmp_path / "full.xml") == 1  # this engine fails a case: exit 1
    capsys.readouterr()
    monkeypatch.setattr(cmd_conform, "json_report", interrupted_while_writing)
    assert conform(tmp_path / "report.json", tmp_path / "junit.xml") == 130
    written = read_json(tmp_path / "report.json")
    assert written["interrupted"] is False
    assert written["counts"] == read_json(tmp_path / "full.json")["counts"]
    cases = [len(list(ET.parse(tmp_path / name).getroot().iter("testcase"))) for name in ("junit.xml", "full.xml")]
    assert cases[0] == cases[1] > 0
    assert "flip7-spec: interrupted" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full.json", "full.xml", "junit.xml", "report.json"]
