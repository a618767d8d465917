"""``flip7-spec conform`` as a user runs it: against broken engines, with reports, workers, Ctrl-C and smoke.

Every run is a child process (``python -m flip7_spec conform ...`` from the repository root) with a wall-clock
guard. The engines of ``tests/broken_engines/`` each break the protocol in one way. After every run the
test checks that conform did not print a traceback and left no engine process behind: every process
started for a run carries a unique token in its environment, and ``/proc`` is scanned for it.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cli.common import EXIT_UNCHECKED
from flip7_spec.conformance import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.protocol import LEVELS
from flip7_spec.rulesets import preset

REPO = Path(__file__).resolve().parent.parent
ENGINES = REPO / "tests" / "broken_engines"
TOKEN_VARIABLE = "FLIP7_CONFORM_TEST_RUN"
GUARD = 60.0  # seconds: a wall-clock bound on any run, only so that a hang fails the test instead of the suite
QUICK = ("--no-fixtures", "--no-scoring", "-r", "flip7", "--min-coverage", "0")  # exactly the --games games


def engine(name: str, *args: str) -> str:
    """The command line of the broken engine ``tests/broken_engines/NAME.py``."""
    return shlex.join([sys.executable, str(ENGINES / f"{name}.py"), *args])


def installed_script() -> Path | None:
    """The ``flip7-spec`` console script of the environment running the tests (beside its interpreter or in
    its scripts folder), or None. Never one found on PATH: that may belong to another installation."""
    for folder in (Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))):
        if (folder / "flip7-spec").is_file():
            return folder / "flip7-spec"
    return None


def console_script(folder: Path) -> list[str]:
    """A command that runs ``flip7-spec`` as its console script does: the installed script, or else one
    written into ``folder`` from the package's entry point, the way an installer writes it (the script's own
    folder, not the current one, is on the import path)."""
    script = installed_script()
    if script is not None:
        return [str(script)]
    (entry,) = (e for e in importlib.metadata.entry_points(group="console_scripts") if e.name == "flip7-spec")
    module, _, function = entry.value.partition(":")
    written = folder / "flip7-spec"
    written.write_text(f"import sys\nfrom {module} import {function}\nsys.exit({function}())\n", encoding="utf-8")
    return [sys.executable, str(written)]


def serve_command() -> str:
    """The reference of this environment served over the protocol: ``flip7-spec serve``."""
    script = installed_script()
    return shlex.join([str(script), "serve"] if script else [sys.executable, "-m", "flip7_spec", "serve"])


def default_sigint() -> None:
    """In a child, before it runs: SIGINT back to its default, so that the child's Python turns it into
    KeyboardInterrupt even when the suite itself runs with SIGINT ignored (as a background job does)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def processes_with(token: str) -> list[int]:
    """The live processes whose environment carries ``token`` (conform and every engine it started)."""
    try:
        import psutil  # type: ignore[import-untyped]
    except ImportError:
        psutil = None
    if psutil is not None:
        found = []
        for process in psutil.process_iter(["environ", "status"]):
            environ = process.info.get("environ") or {}
            if environ.get(TOKEN_VARIABLE) == token and process.info.get("status") != "zombie":
                found.append(process.pid)
        return found
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


def stop(pids: list[int]) -> None:
    """Kill processes this test started (found by their token), one by one."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@dataclass
class Ran:
    """One finished conform run."""

    code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


def assert_clean(token: str, code: int | None, stderr: str) -> None:
    """No traceback, and no process of the run still alive a few seconds after conform ended."""
    assert "Traceback" not in stderr, stderr[-3000:]
    deadline = time.monotonic() + 5.0
    left = processes_with(token)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = processes_with(token)
    stop(left)
    assert not left, f"conform (exit {code}) left processes behind: {left}"


def environment(token: str) -> dict[str, str]:
    """The environment of a run: the token, and this checkout first on the path of conform and engines."""
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, TOKEN_VARIABLE: token, "PYTHONPATH": path}


def conform(*args: str, guard: float = GUARD) -> Ran:
    """Run ``flip7-spec conform ARGS`` from the repository root; fail if it outlives ``guard``."""
    token = uuid.uuid4().hex
    env = environment(token)
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "flip7_spec", "conform", *args], cwd=REPO, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        stdout, stderr = process.communicate(timeout=guard)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        stop(processes_with(token))
        pytest.fail(f"conform did not finish within {guard:g} s: {shlex.join(args)}\n{stdout[-2000:]}")
    ran = Ran(process.returncode, stdout, stderr, time.monotonic() - started)
    assert_clean(token, ran.code, stderr)
    return ran


def read_json(path: Path) -> dict[str, Any]:
    """A JSON report, checked for its per-level counts matching its results."""
    report: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    recount = {level: dict.fromkeys(OUTCOMES, 0) for level in report["counts"]}
    for result in report["results"]:
        recount[result["level"]][result["outcome"]] += 1
    assert report["counts"] == recount
    assert set(LEVELS) <= set(report["counts"])
    return report


def totals(report: dict[str, Any]) -> dict[str, int]:
    return {outcome: sum(row[outcome] for row in report["counts"].values()) for outcome in OUTCOMES}


# ---- engines that cannot be used at all: exit 2 -------------------------------------------------------


@pytest.mark.parametrize("name, reason", [
    pytest.param("hang", "no reply within 1 s"),
    pytest.param("exit_at_once", "the engine exited (exit status 3)"),
    pytest.param("garbage", "reply is not JSON"),
])
def test_unusable_engine_exits_2(name: str, reason: str) -> None:
    ran = conform("--engine", engine(name), "--timeout", "1", "--games", "2", *QUICK, guard=15.0)
    assert ran.code == 2, ran.output
    assert "failed the handshake" in ran.stderr and reason in ran.stderr
    assert ran.stderr.startswith("flip7-spec: error:")
    if name == "exit_at_once":
        assert "missing configuration, giving up" in ran.stderr  # the engine's last stderr line
    if name == "garbage":
        assert "Welcome to Flip 7!" in ran.stderr  # the raw line


# ---- engines that break mid-way: exit 1, the cases errored, with the raw line or stderr -----------------


@pytest.mark.parametrize("command, message, evidence", [
    (engine("wrong_seq"), "reply has seq 1002, expected 2", 'raw reply: {"seq": 1002, "result"'),
    (engine("bad_observation"), "observation breaks the protocol", 'raw reply: {"dealer": '),
    (engine("long_line"), "reply line longer than 1024 KiB", 'raw reply: {"seq":2,"result":{"observation"'),
    (engine("crash_midgame", "5"), "the engine exited (exit status 70)",
     "stderr: crash_midgame: segmentation fault after 5 decisions"),
], ids=["wrong_seq", "bad_observation", "long_line", "crash_midgame"])
def test_broken_replies_error_the_cases(command: str, message: str, evidence: str, tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    ran = conform("--engine", command, "--timeout", "5", "--games", "2", "--json", str(report_path), *QUICK)
    assert ran.code == 1, ran.output
    errors = [line for line in ran.stdout.splitlines() if line.startswith("ERROR ")]
    assert errors and all(message in line for line in errors), ran.stdout[-3000:]
    assert ran.stdout.count(evidence) == len(errors)
    report = read_json(report_path)
    assert totals(report)[ERRORED] == len(errors)
    assert totals(report)[FAIL] == 0
    for result in report["results"]:
        if result["outcome"] == ERRORED:
            assert result["raw"] or result["stderr"]


def test_crash_after_a_few_decisions_still_passes_the_short_cases(tmp_path: Path) -> None:
    """The engine is restarted after each crash: cases that end before its limit still pass."""
    report_path = tmp_path / "report.json"
    ran = conform("--engine", engine("crash_midgame", "12"), "--timeout", "5", "--games", "4", *QUICK,
                  "--json", str(report_path))
    assert ran.code == 1
    counts = read_json(report_path)["counts"]
    assert counts["round"][PASS] > 0 and counts["game"][ERRORED] > 0


def test_engine_flooding_stderr_passes() -> None:
    ran = conform("--engine", engine("flood_stderr"), "--timeout", "10", "--games", "4", *QUICK)
    assert ran.code == 0, ran.output
    assert re.search(r"^total\s+16\s+0\s+0\s+0$", ran.stdout, re.MULTILINE), ran.stdout


def test_engine_skipping_everything_is_unchecked_not_a_pass(tmp_path: Path) -> None:
    """A run in which no case ran checked nothing: exit 3 with one line saying why, never 0."""
    report_path = tmp_path / "report.json"
    ran = conform("--engine", engine("skip_all"), "--timeout", "5", "--games", "2", "--no-fixtures", "-r", "flip7",
                  "--json", str(report_path))
    assert ran.code == EXIT_UNCHECKED, ran.output
    report = read_json(report_path)
    counts = totals(report)
    assert counts[SKIPPED] > 0
    assert counts[PASS] == counts[FAIL] == counts[ERRORED] == 0
    assert "skip_all: this engine supports nothing yet" in ran.stdout
    assert any(line.startswith("unchecked: every one of the") for line in ran.stderr.splitlines()), ran.stderr
    assert report["unchecked"]
    # the coverage counts only the cases that ran
    assert re.search(r"^coverage flip7: 0 of \d+ clauses reached", ran.stdout, re.MULTILINE), ran.stdout


# ---- reports, smoke, workers, Ctrl-C ----------------------------------------------------------------


def test_json_and_junit_reports(tmp_path: Path) -> None:
    """Both reports are written, parse, and agree with each other and with the printed table."""
    report_path, junit_path = tmp_path / "report.json", tmp_path / "report.xml"
    ran = conform("--python", "tests.mutants.dealer_fixed:Engine", "--games", "2", "-r", "flip7",
                  "--json", str(report_path), "--junit-xml", str(junit_path))
    assert ran.code == 1, ran.output
    report = read_json(report_path)
    assert report["engine"] == "python:tests.mutants.dealer_fixed:Engine"
    assert report["interrupted"] is False and report["games"] == 2
    counts = report["counts"]
    assert counts["game"][FAIL] > 0 and counts["scoring"][PASS] > 0
    for level, row in counts.items():
        printed = re.search(rf"^{level}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", ran.stdout, re.MULTILINE)
        assert printed, level
        assert [int(g) for g in printed.groups()] == [row[PASS], row[FAIL], row[SKIPPED], row[ERRORED]]
    root = ET.parse(junit_path).getroot()
    assert root.tag == "testsuites"
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert set(suites) == set(counts)
    for level, suite in suites.items():
        row = counts[level]
        cases = suite.findall("testcase")
        assert int(suite.get("tests", -1)) == sum(row.values()) == len(cases)
        assert int(suite.get("failures", -1)) == row[FAIL] == sum(1 for c in cases if c.find("failure") is not None)
        assert int(suite.get("errors", -1)) == row[ERRORED] == sum(1 for c in cases if c.find("error") is not None)
        assert int(suite.get("skipped", -1)) == row[SKIPPED] == sum(1 for c in cases
                                                                    if c.find("skipped") is not None)
    failure = next(c.find("failure") for c in suites["game"].findall("testcase") if c.find("failure") is not None)
    assert failure is not None and "F7-DEALER-ROTATION" in failure.get("message", "")
    assert "misreading dealer_fixed" in failure.get("message", "")  # the cause, as the JSON report has it
    first = next(r for r in report["results"] if r["level"] == "game" and r["outcome"] == FAIL)
    assert first["causes"][0]["misreading"] == "dealer_fixed" and first["differences"][0]["where"] == first["where"]


def test_row_of_another_length_is_reported_without_a_traceback(tmp_path: Path) -> None:
    """An engine that deals one card too many: the extra card is reported as a failure, not a crash."""
    report_path = tmp_path / "report.json"
    ran = conform("--python", "tests.mutants.chance_replacement:Engine", "--games", "4", *QUICK,
                  "--json", str(report_path))
    assert ran.code == 1
    assert '"<absent>"' in ran.stdout
    assert totals(read_json(report_path))[FAIL] > 0


def test_smoke_against_the_reference_passes() -> None:
    ran = conform("--smoke", "--engine", serve_command())
    assert ran.code == 0, ran.output
    assert "smoke: handshake ok" in ran.stdout and ": ok" in ran.stdout.splitlines()[-1]


def test_smoke_whose_game_is_skipped_is_unchecked() -> None:
    """--smoke checked nothing when the engine skipped its game: exit 3, not 0."""
    ran = conform("--smoke", "--engine", engine("skip_all"), "--timeout", "5")
    assert ran.code == EXIT_UNCHECKED, ran.output
    assert "nothing was checked" in ran.stdout


def test_smoke_against_garbage_exits_2() -> None:
    ran = conform("--smoke", "--engine", engine("garbage"), "--timeout", "5")
    assert ran.code == 2, ran.output
    assert "smoke: handshake FAILED" in ran.stdout


def test_two_workers_give_the_same_results_as_one(tmp_path: Path) -> None:
    reports = []
    for workers in ("1", "2"):
        path = tmp_path / f"workers-{workers}.json"
        ran = conform("--python", "tests.mutants.frozen_scores_zero:Engine", "--games", "6", "-r", "flip7",
                      "--no-scoring", "--workers", workers, "--json", str(path))
        assert ran.code == 1, ran.output
        reports.append(read_json(path))
    one, two = reports
    assert one["counts"] == two["counts"]
    assert totals(one)[FAIL] > 0 and totals(one)[PASS] > 0
    verdicts = [sorted((r["case_id"], r["level"], r["outcome"], r["clause"]) for r in report["results"])
                for report in reports]
    assert verdicts[0] == verdicts[1]


def test_ctrl_c_exits_130_with_a_partial_report(tmp_path: Path) -> None:
    """SIGINT once cases are running: exit 130, a valid JSON report of the finished cases, no engine left."""
    report_path = tmp_path / "report.json"
    token = uuid.uuid4().hex
    env = environment(token)
    args = ["--engine", engine("slow", "0.005"), "--games", "200", *QUICK, "--progress", "--json",
            str(report_path)]
    process = subprocess.Popen([sys.executable, "-m", "flip7_spec", "conform", *args], cwd=REPO, env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=default_sigint)
    assert process.stderr is not None
    try:
        seen = b""
        deadline = time.monotonic() + GUARD
        while b"cases 3/" not in seen and time.monotonic() < deadline:  # the progress bar: 3 cases done
            chunk = os.read(process.stderr.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
        assert b"cases 3/" in seen, seen[-2000:]
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, stdout[-2000:]
    assert_clean(token, process.returncode, stderr.decode("utf-8", "replace"))
    assert b"interrupted" in stderr
    report = read_json(report_path)
    assert report["interrupted"] is True
    finished = sum(totals(report).values())
    assert 3 <= finished < 400 + 200  # some, not all, of the 400 round/game cases and their legal checks


# ---- engines that pass ----------------------------------------------------------------------------


def test_reference_served_passes_everything(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    ran = conform("--engine", serve_command(), "--games", "20", "-q", "--json", str(report_path))
    assert ran.code == 0, ran.output
    counts = totals(read_json(report_path))
    assert counts[FAIL] == counts[ERRORED] == 0
    assert counts[PASS] > 100


def test_javascript_example_engine_passes() -> None:
    script = REPO / "examples" / "js-engine" / "engine.js"
    node = shutil.which("node")
    if node is None or not script.is_file():
        pytest.skip("needs node and examples/js-engine/engine.js")
    ran = conform("--engine", shlex.join([node, "examples/js-engine/engine.js"]), "-r", "flip7", "--games", "20")
    assert ran.code == 0, ran.output[-3000:]


def test_reference_skips_none_of_its_own_fixtures() -> None:
    fixtures = REPO / "fixtures"
    if not fixtures.is_dir():
        pytest.skip("no fixtures folder")
    corpus = Corpus(rulesets=[preset("flip7")], games=0, fixtures=fixtures, scoring=False)
    _, results, _ = run(EngineSpec(python="flip7_spec.protocol.adapter:ReferenceAdapter"), corpus)
    assert results
    skipped = [f"{r.case_id}: {r.message}" for r in results if r.outcome == SKIPPED]
    assert not skipped, "\n".join(skipped)


def test_console_script_loads_a_python_engine_from_the_current_folder(tmp_path: Path) -> None:
    script = console_script(tmp_path)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    completed = subprocess.run([*script, "conform", "--python", "tests.mutants.dealer_fixed:Engine", "--games", "1",
                                *QUICK], cwd=REPO, env=env, capture_output=True, text=True, timeout=GUARD)
    assert "No module named 'tests'" not in completed.stderr
    assert completed.returncode == 1, completed.stderr
