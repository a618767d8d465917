"""Work done by forked worker processes and handed back in the order it was given, with no thread anywhere.

The parent sends each task to a worker over that worker's own pipe and waits on the pipes and on the
workers' process sentinels together, so a worker that ends without a result (a policy that calls
``os._exit``, a crash in native code, the kernel's OOM killer) is seen at once and named with its task (within
:data:`LIVENESS_CHECK` seconds when a process the task started outlives it and keeps both open). The
standard pools do not fit: ``concurrent.futures.ProcessPoolExecutor`` keeps a manager thread that the
interpreter joins at exit, and that thread can be left waiting for ever once a worker is ended mid-task
(the process then never exits); ``multiprocessing.Pool`` waits for ever for the result of a worker that died.

Stopping is the caller closing the iterator (or an exception in it): busy workers are ended at once
(SIGTERM, then SIGKILL), idle ones are told to leave. At most ``ahead`` tasks per worker are out at a time,
and only so many past the oldest result not yet handed back, so memory stays bounded however long one task
takes.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from flip7_spec.interrupts import forking, let_interrupts_through

T = TypeVar("T")
R = TypeVar("R")

STOP_WAIT = 5.0
"""Seconds a worker gets to end after SIGTERM before it is killed."""

LIVENESS_CHECK = 1.0
"""Seconds between checks that the busy workers still run, when none has sent anything: a worker's death is
seen on its pipe and its sentinel, unless a process the task started outlives it and holds both open."""


class WorkerDied(Exception):
    """A worker process ended without handing back the result of ``task``."""

    def __init__(self, task: Any, exitcode: int | None) -> None:
        super().__init__(f"the worker process ended without a result (exit code {exitcode})")
        self.task = task
        self.exitcode = exitcode


def leave_interrupts_to_parent() -> None:
    """What a worker process does first: ignore Ctrl-C, which reaches the whole process group (the parent, not
    the worker, decides what it means and stops its workers), and end on SIGTERM, the parent's way of stopping
    it (the default action, not a handler the worker was forked with)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    let_interrupts_through()  # held back since the fork (forking()): one sent meanwhile arrives now


def _serve(function: Callable[[Any], Any], conn: Connection) -> None:
    """A worker's life: run each task it is sent until it is sent None or its pipe closes."""
    leave_interrupts_to_parent()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, task = message
        try:
            reply: tuple[int, bool, Any] = (index, True, function(task))
        except Exception as error:  # handed to the parent, which raises it in the caller
            reply = (index, False, error)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # a result or an exception that does not pickle
            conn.send((index, False, RuntimeError(f"{type(error).__name__}: {error}")))


@dataclass
class _Worker(Generic[T]):
    process: Any
    conn: Connection
    out: deque[tuple[int, T]] = field(default_factory=deque)  # the tasks sent, oldest first


def ordered_map(function: Callable[[T], R], tasks: Iterable[T], workers: int, *, ahead: int = 2,
                window: int | None = None) -> Generator[R, None, None]:
    """``function(task)`` for each of ``tasks``, computed by ``workers`` forked processes and yielded in the
    order of ``tasks``. An exception raised by ``function`` is raised here, at its task's place; a worker that
    ends without a result raises :class:`WorkerDied`. Workers leave interrupts to this process
    (:func:`leave_interrupts_to_parent`), start as tasks need them and are all ended when the iterator finishes,
    is closed or raises.

    Each worker has at most ``ahead`` tasks out at a time, and no task is taken more than ``window`` places
    (``ahead * workers`` by default) past the oldest result not yet handed back: the bound on the results
    held in memory while one slow task holds up those behind it."""
    window = ahead * workers if window is None else window
    context = multiprocessing.get_context("fork")  # as the conformance workers: tasks need not pickle
    pending = iter(tasks)
    pool: list[_Worker[T]] = []
    done: dict[int, Any] = {}
    sent = 0  # tasks taken from ``tasks``
    handed = 0  # results yielded
    exhausted = False
    finished = False

    def start() -> _Worker[T]:
        parent, child = context.Pipe()
        process = context.Process(target=_serve, args=(function, child), daemon=True)
        with forking():
            process.start()
        child.close()
        worker: _Worker[T] = _Worker(process, parent)
        pool.append(worker)
        return worker

    def dispatch() -> None:
        nonlocal sent, exhausted
        while not exhausted and sent < handed + window:
            idle = min(pool, key=lambda w: len(w.out), default=None)
            if idle is None or (idle.out and len(pool) < workers):
                idle = start()
            if len(idle.out) >= ahead:
                return
            try:
                task = next(pending)
            except StopIteration:
                exhausted = True
                return
            idle.out.append((sent, task))
            sent += 1
            try:
                idle.conn.send((sent - 1, task))
            except OSError:  # the worker died since its last result: the wait sees it and names its task
                return

    try:
        while True:
            dispatch()
            while handed in done:
                ok, value = done.pop(handed)
                handed += 1
                if not ok:
                    raise value
                yield value
                dispatch()
            if exhausted and handed == sent:
                finished = True
                return
            by_handle: dict[Any, _Worker[T]] = {}
            for worker in pool:
                if worker.out:
                    by_handle[worker.conn] = worker
                    by_handle[worker.process.sentinel] = worker
            ready = wait(list(by_handle), timeout=LIVENESS_CHECK)
            busy = {id(by_handle[h]): by_handle[h] for h in ready} if ready else {id(w): w for w in pool if w.out}
            for worker in busy.values():
                _collect(worker, done)
    finally:
        _stop(pool, graceful=finished)


def _collect(worker: _Worker[Any], done: dict[int, Any]) -> None:
    """Every result ``worker`` has sent, into ``done``; :class:`WorkerDied` when it ended with tasks out."""
    while worker.out:
        try:
            if not worker.conn.poll():
                break
            index, ok, value = worker.conn.recv()
        except (EOFError, OSError):
            break
        worker.out.popleft()
        done[index] = (ok, value)
    if worker.out and not worker.process.is_alive():
        worker.process.join()
        raise WorkerDied(worker.out[0][1], worker.process.exitcode)


def _stop(pool: list[_Worker[Any]], graceful: bool) -> None:
    """End every worker: idle ones are told to leave (when ``graceful``), busy ones are ended at once."""
    for worker in pool:
        if graceful and not worker.out:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        elif worker.process.is_alive():
            worker.process.terminate()
    for worker in pool:
        worker.process.join(timeout=STOP_WAIT)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(timeout=STOP_WAIT)
        worker.conn.close()
