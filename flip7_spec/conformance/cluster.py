"""Conformance cases run on a Dask cluster's workers (``conform --cluster``).

The command's own process builds the corpus, as a local run does, and sends each case to the cluster; a
worker runs it on its own engine (one engine per worker thread, started on the first case and kept for the
run), shrinks and diagnoses a failure there, and sends back the outcome with the text of each trace to save,
which the command writes under ``--save-failures``. Outcomes are delivered in the order of the cases, so the
reports are those of a local run with the same arguments.

Before the first case the engine is checked on every worker: a handshake there, which must succeed and must
answer what the other workers' engines answer; a worker where it fails is named in the one line that stops
the run. A worker that joins later checks its engine on its first case the same way.

A worker that dies mid-case (killed, out of memory) has its cases run again elsewhere by the scheduler, and
each case is delivered once, whichever worker finished it. A case whose workers keep dying (the scheduler
gives up after its ``allowed-failures``) is errored, as a local worker's death errors its case.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flip7_spec.cluster import ClusterError, in_order, worker_count
from flip7_spec.conformance import ERRORED
from flip7_spec.conformance.engines import EngineSpec, EngineUnusable, FinishedCase, finish, handshake
from flip7_spec.judge.case import Case
from flip7_spec.outputs import write_file
from flip7_spec.protocol.adapter import EngineAdapter
from flip7_spec.results import CaseResult

AHEAD_PER_THREAD = 3
"""Cases in flight per worker thread: enough that no worker waits for the next case, few enough that a
stopped run wastes little."""

_ENGINES: dict[tuple[str, int], tuple[EngineAdapter, dict[str, Any]]] = {}
"""On a worker: the engine of each (run, thread) and its handshake."""
_ENGINES_LOCK = threading.Lock()


def _here() -> str:
    """This worker's address (for messages), or ``this worker`` outside one."""
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return "this worker"


def _engine(run: str, spec: EngineSpec) -> tuple[EngineAdapter, dict[str, Any]]:
    """This thread's engine for ``run``, started (handshake included) on first use."""
    key = (run, threading.get_ident())
    with _ENGINES_LOCK:
        found = _ENGINES.get(key)
    if found is None:
        try:
            found = handshake(spec)
        except EngineUnusable as error:
            raise EngineUnusable(f"on worker {_here()}: {error}") from None
        with _ENGINES_LOCK:
            _ENGINES[key] = found
    return found


def check_engine(run: str, spec: EngineSpec) -> tuple[str, dict[str, Any] | str]:
    """On a worker: start the engine for ``run`` and return ``("ok", hello)``, or ``("unusable", why)``."""
    try:
        _, hello = _engine(run, spec)
    except EngineUnusable as error:
        return "unusable", str(error)
    return "ok", hello


def run_case(run: str, spec: EngineSpec, hello: dict[str, Any], case: Case, save: Path | None
             ) -> tuple[FinishedCase, list[tuple[str, str]]]:
    """On a worker: run one case on this thread's engine (see :func:`~.engines.finish`), and return its
    outcome with the traces to save (path and text each), which the command writes."""
    engine, own = _engine(run, spec)
    if own != hello:
        raise EngineUnusable(f"the engine on worker {_here()} answers another handshake than the run's: "
                             f"{own.get('name')} {own.get('version', '')}")
    files: list[tuple[str, str]] = []
    outcome = finish(engine, hello, case, save, spec, writer=lambda path, text: files.append((str(path), text)))
    return outcome, files


def close_engines(run: str) -> int:
    """On a worker: close the engines of ``run``; returns how many."""
    with _ENGINES_LOCK:
        mine = [key for key in _ENGINES if key[0] == run]
        engines = [_ENGINES.pop(key)[0] for key in mine]
    for engine in engines:
        with contextlib.suppress(Exception):
            engine.close()
    return len(engines)


class ClusterPool:
    """Runs a conformance run's cases on the cluster ``client`` is connected to (see the module docstring)."""

    def __init__(self, client: Any, spec: EngineSpec, save: Path | None) -> None:
        self.client = client
        self.spec = spec
        self.save = save
        self.run_id = uuid.uuid4().hex
        self._hello: dict[str, Any] | None = None

    def hello(self) -> dict[str, Any]:
        """Check the engine on every worker (see the module docstring) and return its handshake; raises
        :class:`EngineUnusable` naming the first worker where it fails or answers differently."""
        workers = sorted(self.client.scheduler_info(n_workers=-1).get("workers", {}))
        if not workers:
            raise ClusterError("the cluster has no worker")
        futures = {address: self.client.submit(check_engine, self.run_id, self.spec, pure=False,
                                               workers=[address], allow_other_workers=False)
                   for address in workers}
        answers: dict[str, tuple[str, Any]] = {}
        try:
            for address, future in futures.items():
                answers[address] = future.result()
        except EngineUnusable:
            raise
        except Exception as error:
            raise ClusterError(f"cannot check the engine on the cluster's workers: {type(error).__name__}: "
                               f"{error}") from None
        hello: dict[str, Any] | None = None
        first = ""
        for address, (status, answer) in answers.items():
            if status != "ok":
                raise EngineUnusable(f"{answer} (the engine command must work on every worker)")
            if hello is None:
                hello, first = answer, address
            elif answer != hello:
                raise EngineUnusable(f"engine {self.spec.name!r} on worker {address} answers another handshake "
                                     f"than on worker {first}: {answer.get('name')} {answer.get('version', '')} "
                                     f"against {hello.get('name')} {hello.get('version', '')} (every worker must "
                                     "run the same engine)")
        assert hello is not None
        self._hello = hello
        return hello

    def run(self, cases: Iterator[Case], deliver: Callable[[FinishedCase], None],
            finished: Callable[[Case, FinishedCase], None] | None = None) -> None:
        """Run every case of ``cases`` on the cluster and pass each outcome to ``deliver`` in the order of the
        cases (``finished`` is told of each case as it finishes). The engines are closed at the end."""
        hello = self._hello if self._hello is not None else self.hello()
        by_index: dict[int, Case] = {}  # the cases in flight, not yet handed to ``finished``
        waiting: dict[int, FinishedCase] = {}  # finished, not yet delivered
        delivered = 0

        def tasks() -> Iterator[tuple[Callable[..., Any], tuple[Any, ...]]]:
            for index, case in enumerate(cases):
                by_index[index] = case
                yield run_case, (self.run_id, self.spec, hello, case, self.save)

        def done(index: int, answer: tuple[FinishedCase, list[tuple[str, str]]]) -> None:
            outcome, files = answer
            self._write(outcome, files)
            case = by_index.pop(index)
            waiting[index] = outcome
            if finished is not None:
                finished(case, outcome)

        def failed(index: int, error: BaseException) -> tuple[FinishedCase, list[tuple[str, str]]]:
            if isinstance(error, EngineUnusable):
                raise EngineUnusable(str(error)) from None
            name = type(error).__name__
            if name != "KilledWorker":  # the run's own code failed on the worker: stop as a local run would
                raise ClusterError(f"a case failed on the cluster: {name}: {error}") from None
            case = by_index.pop(index)
            result = CaseResult(case.id, case.level, ERRORED, "the cluster's workers running this case died each "
                                                              f"time ({error})", label=case.label)
            outcome = FinishedCase([result], 0)
            waiting[index] = outcome
            if finished is not None:
                finished(case, outcome)
            return outcome, []

        try:
            for _ in in_order(self.client, tasks(), AHEAD_PER_THREAD * worker_count(self.client), done, failed):
                deliver(waiting.pop(delivered))
                delivered += 1
        finally:
            for index in sorted(waiting):  # an interrupted run still reports what finished, in order
                deliver(waiting.pop(index))
            self.close()

    def _write(self, outcome: FinishedCase, files: list[tuple[str, str]]) -> None:
        """Write the traces a worker saved; a result whose trace cannot be written says so."""
        for path, text in files:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                write_file(Path(path), text, "failing trace")
            except OSError as error:  # OutputError included
                for result in outcome.results:
                    if result.shrunk == path:
                        result.shrunk = f"(not saved: {error})"

    def close(self) -> None:
        """Close this run's engines on every worker (a worker that is gone has none left to close)."""
        if self.client.status == "running":
            with contextlib.suppress(Exception):
                self.client.run(close_engines, self.run_id, wait=True)
