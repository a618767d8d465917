"""``conform --log-protocol FILE`` and the ``flip7_spec.protocol`` logger: every line sent to and received from an
engine, and what it writes to stderr, with the worker, the engine process, the case and the time.

The log is checked against what it claims to record: the ``send`` lines of a case, sent again by hand to a
fresh engine process, draw exactly its ``recv`` lines; and those lines are the case's trace (its deal, its
decisions and its observations, read from the trace file itself).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.conformance import ERRORED, PASS
from flip7_spec.judge.case import Case, trace_file_cases
from flip7_spec.judge.runner import run_case
from flip7_spec.protocol import Level, traffic
from flip7_spec.protocol.process import ProcessEngine
from tests.test_conform import QUICK, REPO, assert_clean, conform, engine, environment, read_json, serve_command

FIELDS = {"t", "worker", "engine", "case", "dir", "line"}
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
FIXTURES = REPO / "fixtures" / "flip7"


def reference_engine() -> str:
    """The bundled JavaScript engine when Node.js is here, else the reference served over the protocol."""
    node = shutil.which("node")
    script = REPO / "examples" / "js-engine" / "engine.js"
    return shlex.join([node, str(script)]) if node is not None and script.is_file() else serve_command()


def records(path: Path) -> list[dict[str, Any]]:
    """The log's records, each checked: one whole JSON object a line, with exactly the documented fields, in
    time order."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    out = []
    for line in text.splitlines():
        record = json.loads(line)
        assert set(record) == FIELDS, record
        assert TIME.fullmatch(record["t"]) and isinstance(record["worker"], int)
        assert isinstance(record["engine"], int) and record["dir"] in ("send", "recv", "stderr")
        assert isinstance(record["line"], str) and "\n" not in record["line"]
        out.append(record)
    assert [r["t"] for r in out] == sorted(r["t"] for r in out)
    return out


def of_case(log: list[dict[str, Any]], case_id: str, direction: str) -> list[str]:
    return [r["line"] for r in log if r["case"] == case_id and r["dir"] == direction]


def cases_in_order(log: list[dict[str, Any]]) -> Iterator[str]:
    seen: set[str] = set()
    for record in log:
        if record["case"] is not None and record["case"] not in seen:
            seen.add(record["case"])
            yield record["case"]


def replay_by_hand(command: str, sends: list[str]) -> list[str]:
    """Send ``sends`` to a fresh process of ``command``, then end its input; its reply lines."""
    token = uuid.uuid4().hex
    process = subprocess.Popen(shlex.split(command), cwd=REPO, env=environment(token), text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        stdout, _ = process.communicate("".join(f"{line}\n" for line in sends), timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert_clean(token, process.returncode, "")
    return stdout.splitlines()


def assert_the_trace(trace: dict[str, Any], sends: list[str], replies: list[str]) -> None:
    """The lines of a game case are its trace: the start sends its deck, players, Dealer and reshuffle
    orders, each decision is the trace's next one, and each reply holds the trace's observation."""
    header = trace["header"]
    start, *decides = (json.loads(line) for line in sends)
    assert start["cmd"] == "start"
    assert (start["deck"], start["players"], start["dealer"]) == (header["deck"], header["players"], header["dealer"])
    assert start["ruleset"]["name"] == header["ruleset"]["name"]
    assert start["reshuffles"] == [s["reshuffle"] for s in trace["steps"] if "reshuffle" in s]
    decisions = [s for s in trace["steps"] if "decision" in s]
    assert [(d["cmd"], d.get("player"), d.get("kind"), d["choice"]) for d in decides] == \
        [("decide", s["decision"].get("player"), s["decision"].get("kind"), s["decision"]["choice"])
         for s in decisions]
    seqs = [json.loads(line)["seq"] for line in sends]
    answers = [json.loads(line) for line in replies]
    assert [a["seq"] for a in answers] == seqs
    assert [a["result"]["observation"] for a in answers] == \
        [trace["start"]["observation"], *(s["observation"] for s in decisions)]


# ---- conform --log-protocol ---------------------------------------------------------------------------


def test_a_logged_run_replays_by_hand_and_is_the_cases_trace(tmp_path: Path) -> None:
    """The acceptance test of the log: the first case of a run, replayed from its logged lines alone."""
    command = reference_engine()
    traces = [FIXTURES / "reshuffle-when-needed.json", FIXTURES / "tie-another-round.json"]
    log_path, report_path = tmp_path / "protocol.jsonl", tmp_path / "report.json"
    ran = conform("--engine", command, *(a for t in traces for a in ("--trace", str(t))), "--json", str(report_path),
                  "--log-protocol", str(log_path))
    assert ran.code == 0, ran.output
    log = records(log_path)
    report = read_json(report_path)
    ids = list(dict.fromkeys(r["case_id"] for r in report["results"]))
    assert list(cases_in_order(log)) == ids == [f"trace:{t}" for t in traces]
    assert all(r["outcome"] == PASS for r in report["results"])

    # the handshake first, outside any case; one engine process for the whole run, its seq going on
    assert json.loads(log[0]["line"]) == {"seq": 1, "cmd": "hello", "protocol": 1} and log[0]["case"] is None
    assert {r["engine"] for r in log} == {log[0]["engine"]} and {r["worker"] for r in log} == {0}
    assert json.loads(log[-2]["line"])["cmd"] == "quit" and log[-2]["case"] is None
    sent = [json.loads(r["line"])["seq"] for r in log if r["dir"] == "send"]
    assert sent == list(range(1, len(sent) + 1))

    first = ids[0]
    sends, replies = of_case(log, first, "send"), of_case(log, first, "recv")
    assert replay_by_hand(command, sends) == replies
    (case,) = trace_file_cases(traces[0], str(traces[0]), prefix="trace")
    assert case.id == first and case.level is Level.GAME and case.trace is not None
    assert_the_trace(case.trace, sends, replies)


def test_with_two_workers_each_record_is_whole_and_each_case_replays(tmp_path: Path) -> None:
    command = reference_engine()
    traces = [FIXTURES / f"{name}.json" for name in ("bust-basic", "two-players", "empty-deck", "tie-shared-win")]
    log_path = tmp_path / "protocol.jsonl"
    ran = conform("--engine", command, "-j", "2", *(a for t in traces for a in ("--trace", str(t))),
                  "--log-protocol", str(log_path))
    assert ran.code == 0, ran.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["protocol.jsonl"]  # the parts are gone
    log = records(log_path)
    assert sorted(cases_in_order(log)) == sorted(f"trace:{t}" for t in traces)
    workers = {r["worker"] for r in log}
    assert 0 in workers and workers - {0} and workers <= {0, 1, 2}
    assert all(r["case"] is None for r in log if r["worker"] == 0)  # the command's own handshake only
    for worker in workers:  # each worker: one engine process, which says hello first and then plays its cases
        mine = [r for r in log if r["worker"] == worker]
        assert len({r["engine"] for r in mine}) == 1
        assert json.loads(mine[0]["line"])["cmd"] == "hello"
        sent = [json.loads(r["line"])["seq"] for r in mine if r["dir"] == "send"]
        assert sent == list(range(1, len(sent) + 1))
    for path in traces:
        case_id = f"trace:{path}"
        assert len({(r["worker"], r["engine"]) for r in log if r["case"] == case_id}) == 1
        sends, replies = of_case(log, case_id, "send"), of_case(log, case_id, "recv")
        assert replay_by_hand(command, sends) == replies
        assert_the_trace(json.loads(path.read_text(encoding="utf-8")), sends, replies)


def test_the_log_holds_the_engines_stderr_and_its_error(tmp_path: Path) -> None:
    """An engine that writes a line to stderr for each request and refuses the 4th decision of a game."""
    log_path, report_path = tmp_path / "log.jsonl", tmp_path / "report.json"
    ran = conform("--engine", engine("error_at_decision", "4"), "--games", "1", "-p", "3", *QUICK,
                  "--log-protocol", str(log_path), "--json", str(report_path))
    assert ran.code == 1, ran.output
    log = records(log_path)
    (errored, *_) = [r for r in read_json(report_path)["results"] if r["outcome"] == ERRORED]
    case_id = errored["case_id"]
    assert "log: start of a game" in of_case(log, case_id, "stderr")
    assert "log: decision 4 of this game" in of_case(log, case_id, "stderr")
    refusals = [json.loads(line) for line in of_case(log, case_id, "recv") if "errored" in json.loads(line)]
    assert refusals and refusals[0]["errored"] == {"message": "refusing decision 4"}


def test_the_log_refuses_to_overwrite_an_input_or_another_output(tmp_path: Path) -> None:
    script = tmp_path / "engine.py"
    shutil.copy(REPO / "tests" / "broken_engines" / "skip_all.py", script)
    shutil.copy(REPO / "tests" / "broken_engines" / "_loop.py", tmp_path / "_loop.py")
    before = script.read_bytes()
    command = shlex.join(["python", str(script)])
    ran = conform("--engine", command, "--log-protocol", str(script), "--games", "1", *QUICK)
    assert ran.code == 2 and "--log-protocol" in ran.stderr and "is also an input" in ran.stderr, ran.output
    assert script.read_bytes() == before
    ran = conform("--engine", command, "--smoke", "--log-protocol", str(script))
    assert ran.code == 2 and "is also an input" in ran.stderr and script.read_bytes() == before, ran.output

    trace = tmp_path / "saved.json"
    shutil.copy(FIXTURES / "bust-basic.json", trace)
    ran = conform("--engine", command, "--trace", str(trace), "--log-protocol", str(trace))
    assert ran.code == 2 and "is also an input" in ran.stderr, ran.output
    assert trace.read_bytes() == (FIXTURES / "bust-basic.json").read_bytes()

    report = tmp_path / "out.json"
    ran = conform("--engine", command, "--games", "1", *QUICK, "--json", str(report), "--log-protocol", str(report))
    assert ran.code == 2 and "is also the --json output" in ran.stderr and not report.exists(), ran.output

    ran = conform("--python", "flip7_spec.protocol.adapter:ReferenceAdapter", "--log-protocol",
                  str(tmp_path / "x.jsonl"))
    assert ran.code == 2 and "--python runs the engine in this process" in ran.stderr, ran.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_loop.py", "engine.py", "saved.json"]


def test_an_engine_that_cannot_be_used_leaves_its_handshake_in_the_log(tmp_path: Path) -> None:
    log_path = tmp_path / "log.jsonl"
    ran = conform("--engine", engine("garbage"), "--timeout", "2", "--games", "1", *QUICK,
                  "--log-protocol", str(log_path))
    assert ran.code == 2, ran.output
    log = records(log_path)
    assert json.loads(log[0]["line"])["cmd"] == "hello" and log[0]["dir"] == "send"
    assert any(r["dir"] == "recv" and "Welcome to Flip 7!" in r["line"] for r in log)


def test_smoke_writes_the_log(tmp_path: Path) -> None:
    log_path = tmp_path / "log.jsonl"
    ran = conform("--engine", serve_command(), "--smoke", "--log-protocol", str(log_path))
    assert ran.code == 0, ran.output
    commands = [json.loads(r["line"]).get("cmd") for r in records(log_path) if r["dir"] == "send"]
    assert commands[0] == "hello" and "start" in commands and "decide" in commands


# ---- Python logging, and nothing when nobody listens --------------------------------------------------


@pytest.fixture
def fixture_case() -> Case:
    (case,) = trace_file_cases(FIXTURES / "bust-basic.json", "flip7/bust-basic")
    return case


@pytest.fixture
def quiet_logger() -> Iterator[logging.Logger]:
    """The protocol logger, below DEBUG whatever the test run's logging says; restored after."""
    logger = logging.getLogger("flip7_spec.protocol")
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield logger
    finally:
        logger.setLevel(level)


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_the_logger_gets_each_line_at_debug_with_its_fields(fixture_case: Case,
                                                             quiet_logger: logging.Logger) -> None:
    kept = Kept()
    quiet_logger.addHandler(kept)
    quiet_logger.setLevel(logging.DEBUG)
    process = ProcessEngine(serve_command())
    try:
        hello = process.hello()
        results = run_case(process, fixture_case, hello)
    finally:
        process.close()
        quiet_logger.removeHandler(kept)
    assert [r.outcome for r in results] == [PASS, PASS]
    assert all(r.levelno == logging.DEBUG and r.name == "flip7_spec.protocol" for r in kept.records)
    fields = [{k: getattr(r, k) for k in FIELDS} for r in kept.records]
    assert all(f["worker"] == 0 and TIME.fullmatch(f["t"]) for f in fields)
    assert [(f["case"], f["dir"]) for f in fields[:2]] == [(None, "send"), (None, "recv")]  # the handshake
    sends = [f["line"] for f in fields if f["case"] == fixture_case.id and f["dir"] == "send"]
    replies = [f["line"] for f in fields if f["case"] == fixture_case.id and f["dir"] == "recv"]
    assert fixture_case.trace is not None
    assert_the_trace(fixture_case.trace, sends, replies)
    assert kept.records[2].getMessage() == f"{fixture_case.id} send {sends[0]}"
    assert json.loads(fields[-2]["line"])["cmd"] == "quit" and fields[-2]["case"] is None


def test_nothing_is_noted_when_nobody_listens(fixture_case: Case, quiet_logger: logging.Logger,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def noted(*args: Any) -> None:
        raise AssertionError(f"a line was noted with nobody listening: {args}")

    monkeypatch.setattr(traffic, "note", noted)
    assert not traffic.listening()
    process = ProcessEngine(serve_command())
    try:
        results = run_case(process, fixture_case, process.hello())
    finally:
        process.close()
    assert [r.outcome for r in results] == [PASS, PASS]


def test_a_forked_worker_records_in_its_own_part_and_never_its_parents_lines(tmp_path: Path) -> None:
    """A ``-j`` worker is forked while its parent holds records not yet written: they are the parent's to
    write, once; the worker writes only its own, in its own part."""
    traffic.record_in(tmp_path)
    try:
        traffic.note(traffic.SEND, "the parent's", None, 1)  # kept in memory: written at the next case, or later
        pid = os.fork()
        if pid == 0:  # the worker
            try:
                traffic.become_worker(3)
                traffic.note(traffic.SEND, "the worker's", "y", 2)
                traffic.stop()
            finally:
                os._exit(0)
        assert os.waitpid(pid, 0)[1] == 0
    finally:
        traffic.stop()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["worker-0.jsonl", "worker-3.jsonl"]
    merged = [json.loads(line) for line in traffic.merged(tmp_path)]
    assert [(r["worker"], r["case"], r["line"]) for r in merged] == [(0, None, "the parent's"),
                                                                     (3, "y", "the worker's")]
