"""Peak memory of a simulation that streams its traces to a file, measured in a fresh process.

Run as ``python -m bench.memory_probe --games N --out FILE.jsonl [--tracemalloc]`` from the repository root.
It plays ``N`` games of the official rules (3 players, stay at 20, seed ``bench``) through
:func:`flip7_spec.simulation.simulate_run.run_simulation`, writing every trace without observations (the
``--no-observations`` form of ``flip7-spec simulate --out``), and prints one JSON object: the peak resident
set size before and after the run, the ``tracemalloc`` peak of Python allocations during
the run (with ``--tracemalloc``, which slows the run down), the wall-clock and CPU time taken and the size
of the file.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import tracemalloc
from pathlib import Path

from flip7_spec.rulesets import preset
from flip7_spec.simulation.simulate_run import SimulationRun, run_simulation

SEED = "bench"


def _peak_rss_kib() -> int:
    """The peak resident set size of this process so far, in KiB.

    On Linux this is ``VmHWM`` of ``/proc/self/status``: ``ru_maxrss`` would not do, as it keeps the peak
    of the parent's memory from before ``exec`` (a probe started from a large pytest process would report
    the size of pytest). Elsewhere, ``ru_maxrss`` (KiB on Linux, bytes on macOS).
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    value = int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return value // 1024 if sys.platform == "darwin" else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--tracemalloc", action="store_true")
    args = parser.parse_args()
    run = SimulationRun(ruleset=preset("flip7"), players=3, games=args.games, seed=SEED, strategy="threshold",
                        threshold=20, out=args.out, observations=False, workers=1)
    before = _peak_rss_kib()
    if args.tracemalloc:
        tracemalloc.start()
    started, started_cpu = time.perf_counter(), time.process_time()
    stats = run_simulation(run, progress=False)
    seconds, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    peak = tracemalloc.get_traced_memory()[1] if args.tracemalloc else None
    if args.tracemalloc:
        tracemalloc.stop()
    with args.out.open("rb") as handle:
        lines = sum(1 for _ in handle)
    print(json.dumps({
        "games": stats.games, "rounds": stats.rounds, "lines": lines, "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "games_per_second": round(stats.games / seconds, 1), "peak_rss_before_kib": before,
        "peak_rss_kib": _peak_rss_kib(), "tracemalloc_peak_bytes": peak,
        "file_bytes": args.out.stat().st_size,
    }))


if __name__ == "__main__":
    main()
