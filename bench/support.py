"""Shared helpers of the benchmark suites: timed runs, rates with their baselines, and the summary table.

Every suite times a fixed amount of work (fixed seeds, fixed sizes) with ``benchmark.pedantic`` and turns
the fastest round into a rate (games/s, hands/s, ...): the work is deterministic, so the spread between
rounds is interference (other processes, the garbage collector), and the fastest round is the best
estimate of what one core does; the rate of the median round is reported beside it.

A rate may name a *baseline*: another figure measured in the same run (a floor, or the same loop doing
more or less work), so that results can be stated as ratios that carry over between machines better than
absolute figures. Every figure goes into ``benchmark.extra_info`` and into the table printed at the end of
the run.

On a shared machine other processes take turns on the cores, which stretches wall-clock times. For work
done in this process, the CPU time of the fastest round (``time.process_time``) is reported too: it counts
only the time this process ran, so it moves much less with the load (``*_per_cpu_second``).
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flip7_spec.rulesets import Ruleset
from flip7_spec.simulation.policies import Policy
from flip7_spec.simulation.simulate import game_rng, record_game
from flip7_spec.trace.canonical import dumps_line
from flip7_spec.trace.record import GameRecord

T = TypeVar("T")

SEED = "bench"
"""The seed of every generated game: game ``i`` of a batch is ``game_rng(SEED, i)``."""

# The public figures the reference is compared with (docs/performance.md): one core, three players,
# whole games to 200, stay at 20.
PUBLIC_PYTHON_ROUNDS_PER_SECOND = 27_000
PUBLIC_PYTHON_GAMES_PER_SECOND = 2_800
PUBLIC_JS_ROUNDS_PER_SECOND = 145_000
HEADLINE_GOAL_GAMES_PER_SECOND = 4_200


@dataclass
class Figure:
    """One measured rate: ``count`` units of work per round, done in ``seconds`` (the fastest round)."""

    name: str
    unit: str
    count: float
    seconds: float
    median: float
    rounds: int
    baseline: str | None = None
    cpu: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    ratio_on: str | None = None

    @property
    def per_second(self) -> float:
        """Units of work per second, from the fastest round."""
        return self.count / self.seconds if self.seconds > 0 else float("inf")

    @property
    def per_cpu_second(self) -> float | None:
        """Units of work per second of this process's CPU time, from the round that used the least."""
        if self.cpu is None:
            return None
        return self.count / self.cpu if self.cpu > 0 else float("inf")

    @property
    def median_per_second(self) -> float:
        """Units of work per second, from the median round."""
        return self.count / self.median if self.median > 0 else float("inf")

    def ratio(self) -> tuple[float, str] | None:
        """This rate divided by its baseline's, and the basis of both: ``"CPU"`` when both have a CPU-time
        rate (it moves much less with the load than the wall clock) and ``ratio_on`` does not say
        ``"wall"``, else ``"wall"``. None when the baseline was not measured in this run."""
        base = FIGURES.get(self.baseline) if self.baseline else None
        if base is None:
            return None
        mine, theirs = self.per_cpu_second, base.per_cpu_second
        if (self.ratio_on != "wall" and mine is not None and theirs is not None
                and theirs not in (0, float("inf"))):
            return mine / theirs, "CPU"
        if base.per_second in (0, float("inf")):
            return None
        return self.per_second / base.per_second, "wall"


FIGURES: dict[str, Figure] = {}
"""Every figure measured in this run, by name, in the order measured."""

NOTES: list[str] = []
"""Lines printed after the table (memory figures, skipped comparisons, ...)."""


@dataclass(frozen=True)
class Target:
    """A speed target: the figure named ``figure`` must reach ``value``, as its rate per CPU second
    (``measure="rate"``) or as its ratio to its baseline (``measure="ratio"``)."""

    what: str
    figure: str
    measure: str
    value: float

    def line(self) -> str | None:
        """The target beside what this run measured (None when the figure was not measured)."""
        figure = FIGURES.get(self.figure)
        if figure is None:
            return None
        reached: float | None
        if self.measure == "ratio":
            ratio = figure.ratio()
            reached = ratio[0] if ratio is not None else None
            shown = f"{reached:.2f} x {figure.baseline}" if reached is not None else "(its baseline was not run)"
        else:
            reached = figure.per_cpu_second
            shown = f"{reached:,.0f} {figure.unit} per CPU second" if reached is not None else "(no CPU time)"
        met = "met" if reached is not None and reached >= self.value else "NOT met"
        return f"target: {self.what}: {shown} (target {self.value:,g}): {met}"


TARGETS: list[Target] = []
"""The targets the suites declare, printed after the table for the figures this run measured."""


class Durations(list[float]):
    """Wall-clock seconds of each timed round, with the CPU seconds of this process in ``cpu``."""

    def __init__(self, wall: list[float], cpu: list[float]) -> None:
        super().__init__(wall)
        self.cpu = cpu


def timed(benchmark: Any, target: Callable[[], T], rounds: int,
          warmup_rounds: int = 1) -> tuple[Durations, T]:
    """Run ``target`` through ``benchmark.pedantic`` (one iteration per round) and return the durations of
    the timed rounds (measured here as well, so that it works with ``--benchmark-disable`` too) and the
    result of the last call."""
    wall: list[float] = []
    cpu: list[float] = []
    last: list[T] = []

    def run() -> T:
        last.clear()  # keep one result alive at a time: a growing heap would slow the garbage collector
        gc.collect()  # and start every round from a clean heap (outside the timed part)
        started, started_cpu = time.perf_counter(), time.process_time()
        result = target()
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        last.append(result)
        return result

    benchmark.pedantic(run, rounds=rounds, warmup_rounds=warmup_rounds, iterations=1)
    skip = warmup_rounds if len(wall) > warmup_rounds else 0
    return Durations(wall[skip:], cpu[skip:]), last[-1]


def report(benchmark: Any, name: str, unit: str, count: float, durations: list[float], *,
           baseline: str | None = None, in_process: bool = True, ratio_on: str | None = None,
           **extra: Any) -> Figure:
    """Record the rate of ``count`` ``unit`` per round over ``durations``; put it in ``extra_info``.

    The CPU-time rate is kept when ``durations`` carries CPU times and the work ran ``in_process`` (the
    CPU time of this process says nothing of work done by a child process, unless ``durations`` measured
    the children). ``ratio_on="wall"`` compares with the baseline on the wall clock even when both have
    CPU times (for a speed-up from parallel work).
    """
    cpu = getattr(durations, "cpu", None) if in_process else None
    figure = Figure(name, unit, count, min(durations), statistics.median(durations), len(durations), baseline,
                    min(cpu) if cpu else None, dict(extra), ratio_on)
    FIGURES[name] = figure
    info = benchmark.extra_info
    info["figure"] = name
    info[f"{unit}_per_round"] = count
    info[f"{unit}_per_second"] = round(figure.per_second, 1)
    info[f"{unit}_per_second_median"] = round(figure.median_per_second, 1)
    if figure.per_cpu_second is not None:
        info[f"{unit}_per_cpu_second"] = round(figure.per_cpu_second, 1)
    ratio = figure.ratio()
    if baseline is not None:
        info["baseline"] = baseline
        if ratio is not None:
            info["ratio_to_baseline"] = round(ratio[0], 3)
            info["ratio_basis"] = ratio[1]
    info.update(extra)
    info["load_average_1min"] = _load()
    return figure


def _load() -> float | None:
    """The 1-minute load average (other processes competing for the cores), where the system has one."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def note(line: str) -> None:
    """A line for the end-of-run summary."""
    NOTES.append(line)


def summary_lines() -> list[str]:
    """The end-of-run table: every figure with its rate and its ratio to its baseline."""
    if not FIGURES and not NOTES:
        return []
    lines = [f"load average now: {_load()} on {os.cpu_count()} CPUs (figures taken under load are lower)"]
    if FIGURES:
        width = max(len(f.name) for f in FIGURES.values())
        head = (f"{'figure':<{width}}  {'rate (best round)':>20}  {'median round':>12}  {'per CPU s':>12}  "
                f"ratio to baseline")
        lines.append(head)
        for figure in FIGURES.values():
            ratio = figure.ratio()
            against = ""
            if figure.baseline is not None:
                against = (f"{ratio[0]:.3f} x {figure.baseline} ({ratio[1]})" if ratio is not None
                           else f"({figure.baseline} not run)")
            cpu = ""
            if figure.unit == "runs":  # a one-off run: its duration says more than its rate
                rate, median = f"{figure.seconds:,.2f} s/run", f"{figure.median:,.2f} s"
                if figure.cpu is not None:
                    cpu = f"{figure.cpu:,.2f} s"
            else:
                rate, median = f"{figure.per_second:,.1f} {figure.unit}/s", f"{figure.median_per_second:,.1f}"
                if figure.per_cpu_second is not None:
                    cpu = f"{figure.per_cpu_second:,.1f}"
            lines.append(f"{figure.name:<{width}}  {rate:>20}  {median:>12}  {cpu:>12}  {against}")
    lines.extend(NOTES)
    lines.extend(line for line in (t.line() for t in TARGETS) if line is not None)
    return lines


@dataclass(frozen=True)
class TraceCorpus:
    """Recorded games, their traces (with observations, the richest detail) and their ``.jsonl`` lines."""

    played: list[GameRecord]
    traces: list[dict[str, Any]]
    lines: list[str]

    @property
    def decisions(self) -> int:
        """Decision steps over the whole corpus."""
        return sum(len(p.plies) for p in self.played)

    @property
    def size(self) -> int:
        """Bytes of the corpus as ``.jsonl``."""
        return sum(len(line.encode("utf-8")) for line in self.lines)


def trace_corpus_of(ruleset: Ruleset, policy: Policy, games: int, players: int = 3) -> TraceCorpus:
    """Games ``0 .. games-1`` of the run seeded ``SEED``, recorded with events and observations."""
    played = [record_game(ruleset, players, policy, game_rng(SEED, i), observe=True, seed=f"{SEED}:{i}",
                          generator="flip7-spec bench") for i in range(games)]
    traces = [p.trace() for p in played]
    return TraceCorpus(played, traces, [dumps_line(t) for t in traces])

