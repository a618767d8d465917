"""The hostile-input corpus (tests/hostile_corpus.py), each input run as a user would run it.

Every item must end within ``LIMIT_SECONDS`` with its expected exit code (2 for unusable input, 1 where
a divergence or a failing engine is the right verdict, 0 where the input is fine once handled), print no
traceback, give exactly one line on stderr when it exits 2 (unless the command reports per trace on
stdout), leave no process of its own behind, and use less than ``LIMIT_BYTES`` of memory at its peak
(the resident set of the command and everything it waited for, from ``os.wait4``'s resource usage).

The items run in parallel in a few threads (each a child process), once per session for every selected
item; each test then checks its own item's run.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.hostile_corpus import ENGINE_ITEM_SECONDS, REPO, Item, Ran, build, items
from tests.test_conform import TOKEN_VARIABLE, processes_with, stop

LIMIT_SECONDS = 10.0
LIMIT_BYTES = 500 * 1024 * 1024
PARALLEL = max(2, (os.cpu_count() or 2) + 1)  # children spend part of their time waiting on each other

CATALOGUE = items(Path("corpus"))


def _read_available(fd: int, into: bytearray) -> bool:
    """Read what ``fd`` holds now; False at end of file."""
    chunk = os.read(fd, 1 << 16)
    into.extend(chunk)
    return bool(chunk)


# The command runs as the child of this small launcher, which writes the peak memory os.wait4 gives for
# it (KiB) to the descriptor named by its first argument: a child forked from the test process itself
# would count the test's own memory, from before its exec, as part of its peak.
LAUNCHER = """
import os, sys
report, command = int(sys.argv[1]), sys.argv[2:]
pid = os.fork()
if pid == 0:
    os.close(report)
    os.execvp(command[0], command)
_, status, usage = os.wait4(pid, 0)
os.write(report, str(usage.ru_maxrss).encode())
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def run_item(item: Item, folder: Path) -> Ran:
    """Run ``item`` in ``folder`` with the time limit; its exit code (None if it had to be killed), output,
    seconds and peak memory. Output is read until the command exits (a helper it left may hold the pipes)."""
    token = uuid.uuid4().hex
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, TOKEN_VARIABLE: token, "PYTHONPATH": path}
    report, report_end = os.pipe()
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(report_end), *item.command], cwd=folder,
                               env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True, pass_fds=(report_end,))
    os.close(report_end)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None

    def feed() -> None:
        assert process.stdin is not None
        with contextlib.suppress(BrokenPipeError, OSError):
            process.stdin.write(item.stdin)
        with contextlib.suppress(BrokenPipeError, OSError):
            process.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    out, err = bytearray(), bytearray()
    streams = {process.stdout.fileno(): out, process.stderr.fileno(): err}
    code: int | None = None
    exited_at: float | None = None
    while True:
        ready, _, _ = select.select(list(streams), [], [], 0.05)
        for fd in ready:
            if not _read_available(fd, streams[fd]):
                del streams[fd]
        if exited_at is None:
            pid, status = os.waitpid(process.pid, os.WNOHANG)
            if pid:
                code, exited_at = os.waitstatus_to_exitcode(status), time.monotonic()
        if exited_at is not None and (not streams or not ready or time.monotonic() - exited_at > 1.0):
            break
        if exited_at is None and time.monotonic() - started > item.seconds:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            os.waitpid(process.pid, 0)
            break
    seconds = (exited_at or time.monotonic()) - started
    with os.fdopen(report, "rb") as measured:
        kib = measured.read()
    peak = int(kib) * 1024 if kib else 0
    process.returncode = code if code is not None else -9  # reaped here: Popen must not wait again
    for stream in (process.stdout, process.stderr):
        stream.close()
    if item.after is not None:
        item.after(folder)
    left = processes_with(token)
    deadline = time.monotonic() + 3.0
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = processes_with(token)
    stop(left)
    ran = Ran(code, bytes(out), bytes(err), seconds, peak, folder)
    if left:
        raise AssertionError(f"{item.id}: left processes behind: {left}")
    return ran


def _expected_cost(item: Item) -> int:
    """A rough order of the items' durations, so the longest start first and the threads finish together."""
    if item.seconds == ENGINE_ITEM_SECONDS:
        return 3
    return 2 if "conform" in item.command or "trace-long.json" in item.command else 1


@pytest.fixture(scope="session")
def corpus_runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran | str]:
    """Every selected item's run (or why running it failed), run in parallel once per session."""
    wanted = {item.callspec.params["item"].id for item in request.session.items
              if getattr(item, "callspec", None) is not None and "item" in item.callspec.params
              and isinstance(item.callspec.params["item"], Item)}
    folder = tmp_path_factory.mktemp("hostile")
    selected = sorted((item for item in build(folder) if item.id in wanted), key=_expected_cost, reverse=True)

    def attempt(item: Item) -> Ran | str:
        try:
            return run_item(item, folder)
        except AssertionError as error:
            return str(error)

    with ThreadPoolExecutor(PARALLEL) as pool:
        runs = dict(zip((i.id for i in selected), pool.map(attempt, selected), strict=True))
    if os.environ.get("FLIP7_HOSTILE_TIMES"):
        for name, ran in sorted(runs.items(), key=lambda r: -r[1].seconds if isinstance(r[1], Ran) else 0):
            if isinstance(ran, Ran):
                print(f"{name}: {ran.seconds:.2f} s, {ran.peak_bytes / 2**20:.0f} MiB, exit {ran.code}")
    return runs


def _params() -> list[object]:
    params = []
    for item in CATALOGUE:
        marks = []
        if item.slow:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(item, id=item.id, marks=marks))
    return params


@pytest.mark.parametrize("item", _params())
def test_hostile_input(item: Item, corpus_runs: dict[str, Ran | str]) -> None:
    ran = corpus_runs[item.id]
    if isinstance(ran, str):
        pytest.fail(ran)
    assert ran.code is not None, f"{item.id} ({item.covers}) did not end within {item.seconds:g} s"
    assert item.seconds <= LIMIT_SECONDS
    assert "Traceback" not in ran.err, ran.err[-3000:]
    assert ran.code in item.expect, f"exit {ran.code}, expected {item.expect}:\n{ran.out[-2000:]}\n{ran.err[-2000:]}"
    lines = ran.err.splitlines()
    if ran.code == 2 and item.one_line:
        assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{ran.err[-2000:]}"
        assert lines[0].startswith("flip7-spec: error:") or not lines[0].startswith("flip7-spec"), lines[0]
    else:  # unchecked (exit 3) says why per part of the corpus
        assert len(lines) <= (4 if ran.code == 3 else 2), f"stderr has {len(lines)} lines:\n{ran.err[-2000:]}"
    assert ran.peak_bytes < LIMIT_BYTES, f"peak memory {ran.peak_bytes / 2**20:.0f} MiB"
    if item.check is not None:
        item.check(ran)


def test_every_issue_item_has_an_input() -> None:
    """The corpus covers each problem the issue lists (a problem with no input is caught here)."""
    covered = " | ".join(item.covers for item in CATALOGUE)
    for problem in ("detached helper", "FIFO", "/dev/zero", "oversized", "deeply nested", "4,300 digits",
                    "non-UTF-8", "194-byte trace", "1 MB player name", "score --players", "simulate -g", "-j 300",
                    "10^9 copies", "one bad line aborts", "kills serve", "unbalanced quotes", "--timeout nan",
                    "missing folder", "overwrites the input", "write over an input", "bare NaN",
                    "escape sequences", "JUnit", "unused reshuffle", "skipped in the middle", "single 0",
                    "unreachable target", "neither pending nor over", "reshuffler callback", "linear"):
        assert problem in covered, f"no hostile input covers {problem!r}"


def test_every_item_of_the_second_audit_has_an_input() -> None:
    """The corpus covers each problem issue 30 lists (the interrupted scoring search is
    tests/test_scoring_hands.py's, the planted names of every command tests/test_output_links.py's)."""
    covered = " | ".join(item.covers for item in CATALOGUE)
    for problem in ("symlink planted at NAME.partial", "user's own file named NAME.partial", "(a FIFO)",
                    "(deep nesting", "(an empty hands list)", "(a big cache file)", "cut-short search",
                    "--json eng.py", "--python module", "--fingerprint is not checked", "-j 2 hangs",
                    "one worker the same policy", "os._exit", "crashes its worker", "hangs in a worker",
                    "truncated trace", "unreadable trace", "100 distinct Numbers", "10,000-card decks",
                    "declares no level", "skips everything after the handshake", "target_score = 1000000",
                    "replay refuses", "--sweep 0:100000000", "--min-coverage has no upper bound",
                    "5,000-digit deviation", "deviation listed twice", "written as a float",
                    "command that is an object", "repr fails", "ignoring the player limit", "file-name length",
                    "untyped errors", "show exits 0", "shadow the package's own dependencies",
                    "supply_reshuffle with texts", "failing reshuffler", "in-process engine that ends its process",
                    "in-process engine that hangs"):
        assert problem in covered, f"no hostile input covers {problem!r}"
