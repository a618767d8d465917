"""``replay`` and ``show`` are linear in the length of a trace: the time per step is flat from 1x to 16x.

One game of the official rules is played to a target of 400, 800, 1,600, 3,200 and 6,400 points (1x to
16x the length of the first: the same kind of game, only longer) and written to a ``.json`` file. Each
file is then read, parsed and replayed (``flip7-spec replay``'s path) and read, parsed and rendered to
lines (``flip7-spec show``'s path). The figure is the CPU time per step of the fastest round; the test
fails if the longest trace costs more per step than ``FLAT`` times the shortest (a quadratic cost would
make it 16 times as much).
"""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

import pytest

from bench.support import SEED, Durations, note, report, timed
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.simulation.simulate import game_rng, record_game
from flip7_spec.trace.canonical import dumps_document
from flip7_spec.trace.reader import read_traces
from flip7_spec.trace.replay import CONFORM, replay
from flip7_spec.trace.show import lines_of

SCALES = (1, 2, 4, 8, 16)
BASE_TARGET = 400
ROUNDS = 3
FLAT = 1.6
"""How much more per step the 16x trace may cost than the 1x one (timing noise, a larger heap)."""


def _long_trace(scale: int, folder: Path) -> tuple[Path, int]:
    """A game played to ``BASE_TARGET * scale`` points, written as a ``.json`` trace; and its step count."""
    ruleset = ruleset_from_json({"base": "flip7", "name": f"to-{BASE_TARGET * scale}",
                                 "options": {"target_score": BASE_TARGET * scale}})
    record = record_game(ruleset, 3, threshold_policy(20), game_rng(SEED, 0), observe=True, seed=f"{SEED}:0",
                         generator="flip7-spec bench")
    trace = record.trace()
    path = folder / f"long-{scale}x.json"
    path.write_text(dumps_document(trace), encoding="utf-8")
    return path, len(trace["steps"])


@pytest.fixture(scope="module")
def long_traces(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, int]]:
    """The trace files by scale, with their step counts."""
    folder = tmp_path_factory.mktemp("long-traces")
    return {scale: _long_trace(scale, folder) for scale in SCALES}


def _replay_file(path: Path) -> int:
    source = next(iter(read_traces(path)))
    result = replay(source.trace)
    assert result.status == CONFORM, result.error or result.divergence
    return result.steps


def _show_file(path: Path) -> int:
    source = next(iter(read_traces(path)))
    return sum(1 for _ in lines_of(source.trace))


@pytest.mark.parametrize("command", ["replay", "show"])
def test_time_per_step_is_flat(benchmark: Any, long_traces: dict[int, tuple[Path, int]], command: str) -> None:
    """The CPU time per step of reading and replaying (or showing) a trace, 1x to 16x as long."""
    run = _replay_file if command == "replay" else _show_file
    per_step: dict[int, float] = {}

    def measure() -> dict[int, float]:
        # The command runs in a process of its own: the objects this benchmark session holds (the other
        # suites' corpora and results) are set aside from the garbage collector, whose full passes over them,
        # set off by a long trace's allocations, would otherwise count as a cost of the trace's length.
        gc.freeze()
        try:
            for scale, (path, steps) in long_traces.items():
                best = float("inf")
                for _ in range(ROUNDS):
                    started = time.process_time()
                    run(path)
                    best = min(best, time.process_time() - started)
                per_step[scale] = best / steps
        finally:
            gc.unfreeze()
        return per_step

    durations, _ = timed(benchmark, measure, 1, warmup_rounds=0)
    steps = sum(count for _, count in long_traces.values())
    report(benchmark, f"{command} of long traces (1x-16x)", "steps", steps * ROUNDS,
           Durations(list(durations), list(durations.cpu)),
           microseconds_per_step={f"{s}x": round(t * 1e6, 1) for s, t in per_step.items()},
           steps_by_scale={f"{s}x": count for s, (_, count) in long_traces.items()})
    for scale, seconds in per_step.items():
        note(f"{command} {scale:>2}x ({long_traces[scale][1]:,} steps): {seconds * 1e6:7.1f} us of CPU per step")
    growth = per_step[SCALES[-1]] / per_step[SCALES[0]]
    assert growth < FLAT, f"{command}: a step of the {SCALES[-1]}x trace costs {growth:.2f} times one of the 1x"
