"""Cases run by several worker processes, each with its own engine, that an interrupt stops cleanly.

The parent hands one case at a time to each idle worker over its own pipe and keeps the results in the
order of the cases (so a run's report is the same for any worker count). Workers ignore SIGINT: a Ctrl-C
at the terminal reaches the whole process group, and only the parent decides what it means. To stop,
the parent sends each worker SIGTERM, on which the worker ends its engine's process group and exits; a
worker that does not exit in time is killed, and so is the last engine process group it reported. A
worker that dies on its own (an in-process engine that crashed it) errors the case it was running, and a
new worker takes its place when there is work for it. Workers start only as the cases need them.

Workers are numbered from 1 in the order they start (a replacement takes the next number): the protocol
traffic (:mod:`flip7_spec.protocol.traffic`) names each line's worker, and a recording gets one part per
worker, written by that worker alone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import Any

from flip7_spec.conformance import ERRORED
from flip7_spec.conformance.engines import EngineSpec, EngineUnusable, FinishedCase, finish, handshake
from flip7_spec.interrupts import forking, let_interrupts_through
from flip7_spec.judge.case import Case
from flip7_spec.protocol import traffic
from flip7_spec.results import CaseResult

STOP_WAIT = 8.0
"""Seconds workers get to end their engines after SIGTERM before they are killed."""

MAX_REPLACEMENTS = 20
"""Workers that may die on their own in one run before the run stops as unusable."""


class _Stop(BaseException):
    """Raised in a worker by SIGTERM: leave the case, end the engine, exit."""


def _on_term(number: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise _Stop


def _worker_main(spec: EngineSpec, save: Path | None, conn: Connection, number: int = 0) -> None:
    """A worker's life: handshake, then run each case it is sent until it is sent None or told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_term)
    let_interrupts_through()  # held back since the fork (forking())
    traffic.become_worker(number)
    engine = None
    finished = False
    try:
        try:
            engine, hello = handshake(spec, on_spawn=lambda pid: conn.send(("engine", pid)))
        except EngineUnusable as error:
            conn.send(("unusable", str(error)))
            return
        conn.send(("ready", None))
        while True:
            task = conn.recv()
            if task is None:
                finished = True
                break
            index, case = task
            conn.send(("done", (index, finish(engine, hello, case, save, spec))))
    except (_Stop, EOFError, BrokenPipeError, ConnectionResetError):
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if engine is not None:
            if finished:
                engine.close()  # the run is over: say quit
            else:
                engine.abort()  # stopped mid-case: end the engine at once
        traffic.stop()  # its part of a recording written whole


@dataclass
class _Worker:
    process: Any
    conn: Connection
    busy: int | None = None  # the index of the case it runs
    engine_pid: int | None = None
    ready: bool = False
    case: Case | None = field(default=None, repr=False)


class WorkerPool:
    """``count`` workers running cases for one conformance run (see the module docstring)."""

    def __init__(self, spec: EngineSpec, count: int, save: Path | None) -> None:
        self.spec = spec
        self.count = count
        self.save = save
        self.context = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []
        self.replaced = 0
        self.started = 0

    def _start_worker(self) -> _Worker:
        parent, child = self.context.Pipe()
        self.started += 1
        process = self.context.Process(target=_worker_main, args=(self.spec, self.save, child, self.started),
                                       daemon=True)
        with forking():
            process.start()
        child.close()
        worker = _Worker(process, parent)
        self.workers.append(worker)
        return worker

    def run(self, cases: Iterator[Case], deliver: Callable[[FinishedCase], None],
            finished: Callable[[Case, FinishedCase], None] | None = None) -> None:
        """Run every case of ``cases`` and pass each outcome to ``deliver`` in the order of the cases;
        ``finished``, when given, is told of each case as soon as it finishes, in any order.

        Workers are started as the cases need them, up to ``count``: a run of two cases starts at most
        two engines, whatever ``--workers`` says.
        """
        waiting: dict[int, FinishedCase] = {}
        next_index = 0  # the next outcome to deliver
        queued: deque[tuple[int, Case]] = deque()  # cases taken from ``cases``, not yet sent to a worker
        taken = 0
        exhausted = False
        try:
            while True:
                while True:  # give a case to every idle worker, keeping one case in hand
                    if not queued and not exhausted:
                        case = next(cases, None)
                        if case is None:
                            exhausted = True
                        else:
                            queued.append((taken, case))
                            taken += 1
                    idle = next((w for w in self.workers if w.ready and w.busy is None), None)
                    if idle is None or not queued:
                        break
                    idle.busy, idle.case = queued[0]
                    with contextlib.suppress(OSError):  # a dead worker: its death errors the case
                        idle.conn.send(queued.popleft())
                if exhausted and not queued and all(w.busy is None for w in self.workers):
                    break
                free = any(w.busy is None for w in self.workers)  # idle, or still starting
                if queued and not free and len(self.workers) < self.count:
                    self._start_worker()
                for worker in self._ready_workers():
                    message = self._receive(worker)
                    if message is None:
                        continue
                    kind, payload = message
                    if kind == "unusable":
                        raise EngineUnusable(payload)
                    if kind == "engine":
                        worker.engine_pid = payload
                    elif kind == "ready":
                        worker.ready = True
                    else:
                        index, outcome = payload
                        if finished is not None and worker.case is not None:
                            finished(worker.case, outcome)
                        worker.busy, worker.case = None, None
                        waiting[index] = outcome
                while next_index in waiting:
                    deliver(waiting.pop(next_index))
                    next_index += 1
        except BaseException:
            self.stop(graceful=False)
            raise
        finally:
            for index in sorted(waiting):  # an interrupted run still reports what finished, in order
                deliver(waiting.pop(index))
        self.stop(graceful=True)

    def _ready_workers(self) -> list[_Worker]:
        """The workers with a message waiting or that died, after waiting for one (or a worker death)."""
        by_handle: dict[Any, _Worker] = {}
        for worker in self.workers:
            by_handle[worker.conn] = worker
            by_handle[worker.process.sentinel] = worker
        ready = wait(list(by_handle))
        return list({id(by_handle[h]): by_handle[h] for h in ready}.values())

    def _receive(self, worker: _Worker) -> tuple[str, Any] | None:
        """The worker's next message; None (and a replacement started) when the worker died."""
        if worker.conn.poll():
            try:
                message: tuple[str, Any] = worker.conn.recv()
                return message
            except (EOFError, OSError):
                pass
        if worker.process.is_alive():
            return None
        return self._replace(worker)

    def _replace(self, worker: _Worker) -> tuple[str, Any] | None:
        worker.process.join()
        self.workers.remove(worker)
        self._end_engine(worker)
        self.replaced += 1
        if self.replaced > MAX_REPLACEMENTS:
            raise EngineUnusable(f"worker processes keep dying ({self.replaced} so far; the last exit code "
                                 f"{worker.process.exitcode})")
        if worker.busy is None or worker.case is None:
            return None
        case = worker.case
        result = CaseResult(case.id, case.level, ERRORED,
                            f"the worker process running this case died (exit code {worker.process.exitcode})",
                            label=case.label)
        return "done", (worker.busy, FinishedCase([result], 0))

    def stop(self, graceful: bool) -> None:
        """End every worker and its engine, ``graceful``-ly (each is told the run is over and says quit to
        its engine) or not (SIGTERM: each ends its engine at once); SIGKILL after :data:`STOP_WAIT` seconds
        for a worker still alive, and then for its engine's process group."""
        for worker in self.workers:
            with contextlib.suppress(OSError, ValueError):
                if graceful:
                    worker.conn.send(None)
                elif worker.process.is_alive():
                    os.kill(worker.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if graceful and worker.process.is_alive():
                with contextlib.suppress(OSError):
                    os.kill(worker.process.pid, signal.SIGTERM)
                worker.process.join(2.0)
        for worker in self.workers:
            if worker.process.is_alive():
                with contextlib.suppress(OSError):
                    worker.process.kill()
                worker.process.join(2.0)
                self._end_engine(worker)
            with contextlib.suppress(OSError):
                worker.conn.close()
        self.workers.clear()

    @staticmethod
    def _end_engine(worker: _Worker) -> None:
        """Kill the process group of the engine a worker that did not end it reported last."""
        if worker.engine_pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(worker.engine_pid, signal.SIGKILL)
