"""What a failing engine costs a run beyond its diagnosis: the engine process is kept across cases.

The same corpus is run against two engine processes, one after the other in the same benchmark: the reference
served over the protocol (``flip7-spec serve``), and an engine that fails every case and then refuses the
decisions that follow (``tests/broken_engines/error_at_decision.py``: it errors at the third decision of every
game, so every game case fails there, with the decisions sent ahead of it still to be answered). Before, the
engine was stopped and started again after every such case; now its pending replies are read and it plays on.
The target: the failing run takes at most 1.5 times the passing one.
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path
from typing import Any

from bench.support import note, report
from flip7_spec.conformance import ERRORED
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.rulesets import preset

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Corpus(rulesets=[preset("flip7")], games=40, seed="0", scoring=False, min_coverage=0)


def timed(command: str) -> tuple[float, int, int]:
    """(seconds, errored game cases, game cases) of one run of :data:`CORPUS` against ``command``."""
    started = time.perf_counter()
    _, results, _ = run(EngineSpec(command=command, timeout=20.0), CORPUS)
    games = [r for r in results if r.level == "game"]
    return time.perf_counter() - started, sum(r.outcome == ERRORED for r in games), len(games)


def test_an_engine_failing_every_case_costs_at_most_one_and_a_half_passing_runs(benchmark: Any) -> None:
    python = shlex.quote(sys.executable)
    runs: dict[str, tuple[float, int, int]] = {}

    def both() -> None:
        runs["passing"] = timed(f"{python} -m flip7_spec serve")
        runs["failing"] = timed(f"{python} {shlex.quote(str(ROOT / 'tests/broken_engines/error_at_decision.py'))} 3")

    benchmark.pedantic(both, rounds=1, iterations=1)
    passing_seconds, passing_errors, _ = runs["passing"]
    failing_seconds, errors, games = runs["failing"]
    ratio = failing_seconds / passing_seconds
    report(benchmark, "conform against an engine failing every case", "runs", 1, [failing_seconds],
           passing_seconds=round(passing_seconds, 2), failing_over_passing=round(ratio, 3), errored=errors)
    note(f"40 flip7 games, as processes: the reference served {passing_seconds:.2f} s; an engine erroring in "
         f"{errors} of {games} game cases {failing_seconds:.2f} s ({ratio:.2f}x)")
    assert passing_errors == 0
    assert errors >= games * 0.9, "the failing engine should fail (nearly) every game case"
    assert ratio <= 1.5, f"a failing engine made the run {ratio:.2f}x slower than a passing one"
