"""Conformance cases on a Dask cluster: cases per second with 1 and 2 local workers, and the scheduler's
overhead per case (docs/performance.md, docs/campaigns.md).

The same corpus (60 generated games of the official rules, 120 cases, no scoring cases or fixtures) runs
against the reference served over the protocol (``flip7-spec serve``, one engine process per worker): in
this process (``-j 1``, the baseline), with two local worker processes (``-j 2``), and on a Dask
``LocalCluster`` of one and of two workers (``--cluster local:N``). The cluster's start-up, paid once per
command, is left out; the engine's check on every worker is in. The scheduler's overhead is the time a task
that does nothing takes through the same path (:func:`flip7_spec.cluster.in_order`: a window of tasks in
flight, results in order), per task. Every run must give the same verdicts: all pass, the same case ids in
the same order.
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest

from bench.support import note, report
from flip7_spec.conformance import PASS
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.rulesets import preset

pytest.importorskip("distributed")

GAMES = 60
CORPUS = Corpus(rulesets=[preset("flip7")], games=GAMES, seed="bench", scoring=False, min_coverage=0)
SPEC = EngineSpec(command=f"{shlex.quote(sys.executable)} -m flip7_spec serve", timeout=30.0)
NO_OPS = 2_000


def _nothing(value: int) -> int:
    return value


def _timed(go: Callable[[], list[Any]]) -> tuple[float, list[tuple[str, str, str]]]:
    started = time.perf_counter()
    results = go()
    return time.perf_counter() - started, [(r.case_id, r.level, r.outcome) for r in results]


def test_cases_per_second_on_one_and_two_local_workers(benchmark: Any) -> None:
    from flip7_spec.cluster import in_order, session, worker_count
    from flip7_spec.conformance.cluster import ClusterPool

    figures: dict[str, tuple[float, list[tuple[str, str, str]]]] = {}
    overhead: dict[str, float] = {}

    def everything() -> None:
        figures["-j 1"] = _timed(lambda: run(SPEC, CORPUS)[1])
        figures["-j 2"] = _timed(lambda: run(SPEC, CORPUS, workers=2)[1])
        for count in (1, 2):
            with session(f"local:{count}") as client:
                pool = ClusterPool(client, SPEC, None)  # the run checks the engine on each worker, then plays
                figures[f"local:{count}"] = _timed(lambda p=pool: run(SPEC, CORPUS, pool=p)[1])
                started = time.perf_counter()
                got = list(in_order(client, ((_nothing, (i,)) for i in range(NO_OPS)), 3 * worker_count(client)))
                overhead[f"local:{count}"] = (time.perf_counter() - started) / NO_OPS
                assert got == list(range(NO_OPS))

    benchmark.pedantic(everything, rounds=1, iterations=1)
    baseline_seconds, baseline = figures["-j 1"]
    assert baseline and all(outcome == PASS for _, _, outcome in baseline)
    cases = len({case_id for case_id, _, _ in baseline})
    for name, (seconds, verdicts) in figures.items():
        assert verdicts == baseline, f"{name} gave other verdicts than -j 1"
        report(benchmark, f"conform {name}", "cases", cases, [seconds], in_process=False)
        note(f"conform, {cases} cases against flip7-spec serve, {name}: {cases / seconds:.1f} cases/s "
             f"({seconds:.2f} s, {baseline_seconds / seconds:.2f}x -j 1)")
    for name, seconds in overhead.items():
        note(f"scheduler overhead, {name}: {seconds * 1000:.2f} ms per task that does nothing")
