"""``flip7-spec simulate`` as a whole: memory while streaming traces, and scaling with ``--workers``.

- Memory: :mod:`bench.memory_probe` runs ``run_simulation`` with traces written to a ``.jsonl`` file
  (no observations) in a fresh process per size, and reports its peak RSS; a second pair of smaller runs
  under ``tracemalloc`` reports the peak of Python allocations. The peak must stay flat as the number of
  games grows (traces are streamed, never held): that is checked, not just reported. Sizes come from
  ``FLIP7_BENCH_MEMORY_SIZES`` (default ``5000,20000,50000``) and ``FLIP7_BENCH_TRACEMALLOC_SIZES``
  (default ``400,1600``; ``tracemalloc`` slows the run about tenfold).
- Workers: ``python -m flip7_spec simulate --games N --json`` with ``--workers 1`` and ``--workers 2``;
  the rate is the ``games_per_second`` the command reports (start-up excluded), and the CPU time of the
  command and its workers is measured too (start-up included), so that the cost of splitting the work
  shows even when other processes keep the cores busy. Both runs must give the same games.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.support import FIGURES, SEED, Durations, note, report, timed

ROOT = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024

DEFAULT_MEMORY_SIZES = "5000,20000,50000"
"""Games per memory run. 10,000 and 100,000 take about 110 s of CPU between them, too much for the
10-minute budget of the whole suite on a busy 2-core machine: the default shows the slope over three
sizes instead (``FLIP7_BENCH_MEMORY_SIZES=10000,100000`` for the long form)."""
RSS_GROWTH_LIMIT = 8 * MIB
"""Largest peak-RSS growth allowed over the sizes (the file grows by about 19 MiB per 1,000 games)."""
TRACEMALLOC_GROWTH_LIMIT = 1 * MIB
"""Largest growth of the ``tracemalloc`` peak allowed between the two smaller sizes."""

WORKER_GAMES = 12_000
WORKER_COUNTS = (1, 2)


def _sizes(variable: str, default: str) -> list[int]:
    sizes = sorted(int(part) for part in os.environ.get(variable, default).split(",") if part.strip())
    assert len(sizes) >= 2, f"{variable} needs at least two sizes"
    return sizes


def probe(games: int, out: Path, traced: bool = False) -> dict[str, Any]:
    """One run of :mod:`bench.memory_probe` in a fresh process; the file is deleted afterwards."""
    argv = [sys.executable, "-m", "bench.memory_probe", "--games", str(games), "--out", str(out)]
    if traced:
        argv.append("--tracemalloc")
    try:
        completed = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    finally:
        out.unlink(missing_ok=True)
    assert completed.returncode == 0, completed.stderr[-3000:]
    result: dict[str, Any] = json.loads(completed.stdout)
    assert result["games"] == result["lines"] == games
    return result


def _slope(xs: list[int], ys: list[float]) -> float:
    """The least-squares slope of ``ys`` against ``xs``."""
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread if spread else 0.0


def test_memory_streaming(benchmark: Any, tmp_path: Path) -> None:
    """Peak memory of simulating and streaming traces to a file stays flat as the games grow."""
    sizes = _sizes("FLIP7_BENCH_MEMORY_SIZES", DEFAULT_MEMORY_SIZES)
    traced_sizes = _sizes("FLIP7_BENCH_TRACEMALLOC_SIZES", "400,1600")

    def measure() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        plain = [probe(n, tmp_path / f"games-{n}.jsonl") for n in sizes]
        traced = [probe(n, tmp_path / f"traced-{n}.jsonl", traced=True) for n in traced_sizes]
        return plain, traced

    _, (plain, traced) = timed(benchmark, measure, 1, warmup_rounds=0)
    rss = [r["peak_rss_kib"] * 1024 for r in plain]
    rss_growth = max(rss) - rss[0]
    slope = _slope(sizes, rss) * 1000
    peaks = [r["tracemalloc_peak_bytes"] for r in traced]
    peak_growth = peaks[-1] - peaks[0]
    file_growth = plain[-1]["file_bytes"] - plain[0]["file_bytes"]
    seconds = Durations([sum(r["seconds"] for r in plain)], [sum(r["cpu_seconds"] for r in plain)])
    games = sum(sizes)
    report(benchmark, "simulate --out .jsonl (no observations)", "games", games, seconds,
           baseline="games 3p", sizes=sizes,
           peak_rss_mib=[round(v / MIB, 1) for v in rss],
           rss_before_run_mib=[round(r["peak_rss_before_kib"] / 1024, 1) for r in plain],
           rss_growth_mib=round(rss_growth / MIB, 2), rss_slope_kib_per_1000_games=round(slope / 1024, 2),
           file_mib=[round(r["file_bytes"] / MIB, 1) for r in plain],
           games_per_second_by_size=[r["games_per_second"] for r in plain],
           tracemalloc_sizes=traced_sizes, tracemalloc_peak_mib=[round(p / MIB, 2) for p in peaks],
           tracemalloc_growth_kib=round(peak_growth / 1024, 1))
    for size, result in zip(sizes, plain, strict=True):
        note(f"memory: {size:>7,} games -> peak RSS {result['peak_rss_kib'] / 1024:6.1f} MiB "
             f"(after imports {result['peak_rss_before_kib'] / 1024:.1f} MiB), "
             f"file {result['file_bytes'] / MIB:7.1f} MiB, {result['games_per_second']:,.0f} games/s")
    note(f"memory: peak RSS growth {rss_growth / MIB:.2f} MiB from {sizes[0]:,} to {sizes[-1]:,} games "
         f"(slope {slope / 1024:.2f} KiB per 1,000 games) while the file grew {file_growth / MIB:,.0f} MiB")
    note(f"memory: tracemalloc peak {peaks[0] / MIB:.2f} MiB at {traced_sizes[0]:,} games, "
         f"{peaks[-1] / MIB:.2f} MiB at {traced_sizes[-1]:,} games (growth {peak_growth / 1024:.0f} KiB)")
    assert rss_growth < RSS_GROWTH_LIMIT, f"peak RSS grew {rss_growth / MIB:.1f} MiB: traces are being held"
    assert peak_growth < TRACEMALLOC_GROWTH_LIMIT, f"tracemalloc peak grew {peak_growth / 1024:.0f} KiB"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate(workers: int) -> dict[str, Any]:
    """``flip7-spec simulate`` with ``workers`` processes: its JSON summary, plus ``cpu_seconds``, the CPU
    time of the command and its workers (interpreter start-up included)."""
    argv = [sys.executable, "-m", "flip7_spec", "simulate", "--games", str(WORKER_GAMES), "--seed", SEED,
            "--players", "3", "--strategy", "threshold", "--threshold", "20", "--workers", str(workers),
            "--json", "--no-progress"]
    before = _children_cpu()
    completed = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    cpu = _children_cpu() - before
    assert completed.returncode == 0, completed.stderr[-3000:]
    summary: dict[str, Any] = json.loads(completed.stdout)
    summary["cpu_seconds"] = round(cpu, 3)
    return summary


_SUMMARIES: dict[int, dict[str, Any]] = {}


@pytest.mark.parametrize("workers", WORKER_COUNTS)
def test_simulate_workers(benchmark: Any, workers: int) -> None:
    """``simulate --workers N``: games per second as the command reports it (best of two runs)."""
    summaries: list[dict[str, Any]] = []

    def once() -> dict[str, Any]:
        summaries.append(simulate(workers))
        return summaries[-1]

    timed(benchmark, once, 2, warmup_rounds=0)
    seconds = Durations([s["seconds"] for s in summaries], [s["cpu_seconds"] for s in summaries])
    timing = {"seconds", "games_per_second", "rounds_per_second", "workers", "cpu_seconds"}
    games = {k: v for k, v in summaries[0].items() if k not in timing}
    assert all({k: v for k, v in s.items() if k not in timing} == games for s in summaries)
    _SUMMARIES[workers] = games
    if 1 in _SUMMARIES:
        assert games == _SUMMARIES[1], "the games depend on the number of workers"
    figure = report(benchmark, f"simulate --workers {workers}", "games", WORKER_GAMES, seconds,
                    baseline=None if workers == 1 else "simulate --workers 1", ratio_on="wall",
                    workers=workers,
                    reported_games_per_second=[s["games_per_second"] for s in summaries],
                    cpu_seconds=[s["cpu_seconds"] for s in summaries], cpus=os.cpu_count())
    one = FIGURES.get("simulate --workers 1")
    if workers > 1 and one is not None:
        speedup = figure.per_second / one.per_second
        cpu_cost = (figure.cpu or 0) / (one.cpu or 1)
        benchmark.extra_info["cpu_time_ratio_to_one_worker"] = round(cpu_cost, 3)
        note(f"workers: {workers} workers run {speedup:.2f} x as fast as 1 on the wall clock "
             f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}), using {cpu_cost:.2f} x the "
             f"CPU time (start-up included)")
