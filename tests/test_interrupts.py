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

import pytest

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
