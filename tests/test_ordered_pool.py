"""The ordered worker pool's promises (flip7_spec/ordered_pool.py) beyond order and a worker's death, which
tests/test_simulate_run.py checks: what comes back when a result cannot travel, how much work is taken ahead, and
how the workers end."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from flip7_spec import ordered_pool
from flip7_spec.interrupts import stop_on_signals
from flip7_spec.ordered_pool import WorkerDied, ordered_map


class Unpicklable(Exception):
    """An exception that cannot be sent back to the parent: it holds a function defined in a function."""

    def __init__(self) -> None:
        super().__init__("holds a local function")
        self.hook = lambda: None


def test_a_result_that_cannot_be_sent_back_is_an_error_at_its_place_not_a_dead_worker() -> None:
    """A task's result is pickled to reach the parent; one that does not pickle (a local function) comes back as
    a RuntimeError saying why, raised at its task's place after the results before it, where the worker would
    otherwise die on it and leave only its exit code."""
    def task(n: int) -> object:
        if n == 2:
            return lambda: n
        return n

    results = ordered_map(task, range(5), 1)
    assert [next(results), next(results)] == [0, 1]
    with pytest.raises(RuntimeError, match=r"^\w+(Error|Exception): .*pickle"):
        next(results)


def test_an_exception_that_cannot_be_sent_back_is_still_an_error_at_its_place() -> None:
    def task(n: int) -> int:
        if n == 1:
            raise Unpicklable()
        return n

    results = ordered_map(task, range(4), 1)
    assert next(results) == 0
    with pytest.raises(RuntimeError, match="pickle"):
        next(results)


def logged(log: Path, count: int) -> Iterator[int]:
    """0 to ``count - 1``, a line written to ``log`` as each is taken from this iterator (by whichever process)."""
    for n in range(count):
        with log.open("a", encoding="utf-8") as taken:
            taken.write(f"{n}\n")
        yield n


def lines_once_still(log: Path, still: float = 1.0) -> int:
    """The number of lines in ``log`` once it has not changed for ``still`` seconds (another process writes a
    line each time it takes or makes one more item)."""
    count, since = -1, time.monotonic()
    while time.monotonic() - since < still:
        now = len(log.read_text(encoding="utf-8").splitlines())
        if now != count:
            count, since = now, time.monotonic()
        time.sleep(0.02)
    return count


def _taken_while_the_first_task_waits(tmp_path: Path, workers: int, ahead: int, window: int | None) -> int:
    """How many tasks the pool has taken from the caller's iterator while the first task's result is still out:
    task 0 waits until that count has held still for a second, then returns it (the parent writes a line to a
    file each time it hands the pool a task; the worker reads it)."""
    log = tmp_path / "taken"
    log.write_text("", encoding="utf-8")

    def task(n: int) -> int:
        return lines_once_still(log) if n == 0 else -1

    results = ordered_map(task, logged(log, 40), workers, ahead=ahead, window=window)
    try:
        return next(results)
    finally:
        results.close()


@pytest.mark.parametrize(("workers", "ahead", "window", "expected"), [
    (2, 3, None, 6),  # the window defaults to ahead * workers: 6 tasks, 3 stuck behind task 0
    (2, 3, 4, 4),  # a window given is the bound, below what the workers could hold
    (1, 3, 100, 3),  # one worker holds at most ``ahead`` tasks, whatever the window
    (3, 1, None, 3),  # one task per worker, three workers
])
def test_no_more_tasks_are_taken_than_the_window_and_each_worker_may_hold(
        tmp_path: Path, workers: int, ahead: int, window: int | None, expected: int) -> None:
    """While the oldest result is out, the pool takes no task more than ``window`` places past it, and gives no
    worker more than ``ahead`` tasks at a time (ordered_map's docstring): the bound on what it holds in memory."""
    assert _taken_while_the_first_task_waits(tmp_path, workers, ahead, window) == expected


def _record_sigterm(log: Path) -> None:
    """In a worker: write this process's id to ``log`` when it is sent SIGTERM, then end as SIGTERM would."""
    def note(signum: int, frame: FrameType | None) -> None:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, note)


def test_workers_that_finish_their_work_are_told_to_leave_and_a_busy_one_is_ended(tmp_path: Path) -> None:
    """When every result has been handed back, idle workers leave when told (no signal); when the caller stops
    early, a worker still busy is ended with SIGTERM at once."""
    log = tmp_path / "terminated"
    log.write_text("", encoding="utf-8")

    def task(n: int) -> int:
        _record_sigterm(log)
        if n >= 100:
            time.sleep(30)
        return os.getpid()

    pids = set(ordered_map(task, range(6), 2))
    assert pids and all(not Path(f"/proc/{pid}").exists() for pid in pids), "every worker ended and was collected"
    assert log.read_text(encoding="utf-8") == "", "no worker needed SIGTERM after the work was done"

    results = ordered_map(task, [0, 100], 1)
    busy = next(results)
    time.sleep(0.2)  # task 100 has started in the same worker
    began = time.monotonic()
    results.close()
    assert time.monotonic() - began < 10
    assert log.read_text(encoding="utf-8").split() == [str(busy)]


def test_a_worker_that_does_not_end_on_sigterm_is_killed_after_the_stop_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Busy workers get SIGTERM when the caller stops, then SIGKILL after STOP_WAIT seconds: a task that ignores
    SIGTERM cannot keep the caller waiting."""
    monkeypatch.setattr(ordered_pool, "STOP_WAIT", 0.3)

    def stubborn(n: int) -> int:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if n > 0:
            time.sleep(30)
        return os.getpid()

    results = ordered_map(stubborn, [0, 1], 1)
    pid = next(results)
    time.sleep(0.2)  # task 1 has started, SIGTERM ignored
    began = time.monotonic()
    results.close()
    assert time.monotonic() - began < 5
    assert not Path(f"/proc/{pid}").exists(), "the worker was killed and collected"


def test_a_dead_worker_is_named_with_its_exit_code() -> None:
    assert "exit code 7" in str(WorkerDied("task", 7))


def test_a_dead_worker_is_named_at_once_while_a_process_it_started_still_holds_its_pipe(tmp_path: Path) -> None:
    """A task that starts a process of its own and then dies: its pipe stays open (the process it started holds
    it), yet the death is named as soon as the worker has ended, not when that process ends."""
    holder = tmp_path / "holder"

    def start_then_die(n: int) -> int:
        if n == 2:
            child = os.fork()
            if child == 0:  # pragma: no cover (the held process only sleeps)
                time.sleep(60)
                os._exit(0)
            holder.write_text(str(child), encoding="utf-8")
            os._exit(7)
        return n

    began = time.monotonic()
    try:
        with pytest.raises(WorkerDied) as died:
            list(ordered_map(start_then_die, range(4), 1))
        assert (died.value.task, died.value.exitcode) == (2, 7)
        assert time.monotonic() - began < 30, "the death was named only when the held process ended"
    finally:
        if holder.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(holder.read_text(encoding="utf-8")), signal.SIGKILL)


def test_an_idle_worker_that_died_before_the_end_does_not_stop_the_caller_at_the_end() -> None:
    """Once every result has been handed back, idle workers are told to leave; one that has died meanwhile (a
    worker killed from outside while idle) cannot be told, and that is no error: the iteration ends normally."""
    results = ordered_map(_own_pid, range(3), 1)
    pids = [next(results) for _ in range(3)]
    worker = pids[-1]
    os.kill(worker, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert list(results) == []


def _own_pid(n: int) -> int:
    return os.getpid()


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a process that has ended but is not yet collected counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


_SLOW_FORK_CHILD = {"on": False}


def _slow_start_in_child() -> None:
    if _SLOW_FORK_CHILD["on"]:
        time.sleep(0.5)  # a forked child busy in the interpreter's fork hooks, as a loaded machine makes it


os.register_at_fork(after_in_child=_slow_start_in_child)


def test_a_worker_stopped_as_it_starts_ends_by_its_own_handlers_not_the_parents(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """The caller fails right after the first worker is forked, while that worker is still starting: the
    SIGTERM that stops it must end it quietly before it runs anything, not reach the handler it was forked with
    (the parent's Ctrl-C handler, which raised into the fork hooks, was lost there, and left the worker running
    its task until it was killed)."""
    ran = tmp_path / "ran"

    def task(n: int) -> int:
        ran.write_text(str(n), encoding="utf-8")
        return n

    def tasks() -> Iterator[int]:
        yield 0
        raise ValueError("the caller's tasks fail")

    _SLOW_FORK_CHILD["on"] = True
    try:
        with pytest.raises(ValueError, match="tasks fail"), stop_on_signals():
            next(ordered_map(task, tasks(), 1, ahead=2))
    finally:
        _SLOW_FORK_CHILD["on"] = False
    assert not ran.exists(), "the worker ran its task after it was told to stop"
    err = capfd.readouterr().err
    assert "Exception ignored" not in err and "Interrupted" not in err, err
