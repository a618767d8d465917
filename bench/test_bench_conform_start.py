"""The default ``flip7-spec conform`` against ``flip7-spec serve``, with and without the scoring-hand cache.

Both runs are the command a user types (``flip7-spec conform --engine "flip7-spec serve"``, every default:
40 generated games, the shipped fixtures, the scoring cases of every preset the engine declares), each a
child process timed on the wall clock, one after the other in the same benchmark:

- *cached*: the presets' scoring hands read from the file that ships with flip7-spec;
- *uncached*: ``--no-cache``, every preset's hands searched again with z3, as every run did before.

From each run's JSON report: the wall time of the run and the seconds spent on the engine (its start-up
and handshake, and every case it played: sending, waiting, comparing). The targets: cached, at least 60 %
of the wall time on the engine, and at most a quarter of the uncached wall time.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.support import note, report

SCRIPT = Path(sys.executable).parent / "flip7-spec"


def conform_once(*extra: str) -> tuple[float, float, float]:
    """One default conform run against serve: (wall seconds of the command, seconds of the run in its
    report, seconds on the engine in its report)."""
    command = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "flip7_spec"]
    serve = shlex.join([*command, "serve"])
    with tempfile.TemporaryDirectory() as folder:
        report_path = Path(folder) / "report.json"
        started = time.perf_counter()
        completed = subprocess.run([*command, "conform", "--engine", serve, "-q", "--json", str(report_path),
                                    *extra], cwd=folder, capture_output=True, text=True, timeout=900)
        wall = time.perf_counter() - started
        assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-2000:]
        document = json.loads(report_path.read_text(encoding="utf-8"))
    return wall, float(document["seconds"]), float(document["engine_seconds"])


def test_default_conform_with_and_without_the_cache(benchmark: Any) -> None:
    runs: dict[str, tuple[float, float, float]] = {}

    def both() -> None:
        runs["uncached"] = conform_once("--no-cache")
        runs["cached"] = conform_once()

    benchmark.pedantic(both, rounds=1, iterations=1)
    cached_wall, cached_run, cached_engine = runs["cached"]
    uncached_wall, uncached_run, uncached_engine = runs["uncached"]
    share = cached_engine / cached_run
    ratio = cached_wall / uncached_wall
    report(benchmark, "conform default, cached", "runs", 1, [cached_wall], in_process=False,
           engine_share=round(share, 3), uncached_seconds=round(uncached_wall, 2), cached_over_uncached=round(ratio, 3))
    note(f"default conform against serve: cached {cached_wall:.2f} s wall ({share:.0%} of the run on the engine), "
         f"uncached {uncached_wall:.2f} s ({uncached_engine / uncached_run:.0%} on the engine); "
         f"cached / uncached = {ratio:.2f}")
    assert share >= 0.60, f"only {share:.0%} of the cached run on the engine"
    assert ratio <= 0.25, f"the cached run took {ratio:.2f} of the uncached one"
