"""A simulation run split across worker processes, with a progress bar and optional trace output."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import click

from flip7_spec.errors import Flip7Error
from flip7_spec.policies import make_policy
from flip7_spec.rulesets import Ruleset
from flip7_spec.simulate import PlayedGame, Stats, play_games

CHUNK = 200  # games per unit of work: small enough for a smooth progress bar, big enough to amortise IPC


@dataclass(frozen=True)
class SimulationRun:
    """What to play and where to write it."""

    ruleset: Ruleset
    players: int
    games: int
    seed: str
    strategy: str
    threshold: int = 20
    out: Path | None = None
    observations: bool = True
    workers: int = 1


def _play_chunk(run: SimulationRun, start: int, stop: int) -> tuple[Stats, list[str]]:
    """Play games [start, stop); return their statistics and, when recording, their trace lines."""
    stats = Stats(run.players)
    policy = make_policy(run.strategy, run.threshold)
    record = run.out is not None
    lines: list[str] = []
    for played in play_games(run.ruleset, run.players, policy, run.seed, range(start, stop), record=record,
                             observe=record and run.observations, stats=stats):
        if record:
            lines.append(_trace_line(played, run))
    return stats, lines


def _trace_line(played: PlayedGame, run: SimulationRun) -> str:
    from flip7_spec.trace.canonical import dumps_line
    from flip7_spec.trace.record import played_to_trace

    return dumps_line(played_to_trace(played, generator=f"flip7-spec simulate --strategy {run.strategy}"))


def _chunks(run: SimulationRun) -> list[tuple[int, int]]:
    return [(start, min(start + CHUNK, run.games)) for start in range(0, run.games, CHUNK)]


def _results(run: SimulationRun) -> Iterator[tuple[int, Stats, list[str]]]:
    chunks = _chunks(run)
    if run.workers == 1 or len(chunks) == 1:
        for start, stop in chunks:
            stats, lines = _play_chunk(run, start, stop)
            yield stop - start, stats, lines
        return
    context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
    with context.Pool(run.workers) as pool:
        # imap keeps the games in order, so the output file is the same for any worker count
        for (start, stop), (stats, lines) in zip(
            chunks, pool.imap(_star_play, [(run, a, b) for a, b in chunks]), strict=True
        ):
            yield stop - start, stats, lines


def _star_play(args: tuple[SimulationRun, int, int]) -> tuple[Stats, list[str]]:
    return _play_chunk(*args)


def run_simulation(run: SimulationRun, progress: bool | None = None) -> Stats:
    """Play the run, writing traces to ``run.out`` as they come (nothing is held for the whole run).

    The output file is written to a temporary name and renamed at the end, so an interrupted run never
    leaves a truncated file behind under the requested name.
    """
    if run.out is not None and run.out.suffix not in (".json", ".jsonl"):
        raise Flip7Error(f"{run.out}: the output must end in .json (one game) or .jsonl (many games)")
    if run.out is not None and run.out.suffix == ".json" and run.games != 1:
        raise Flip7Error(f"{run.out}: a .json file holds one game; use .jsonl for {run.games} games")
    run.ruleset.check_players(run.players)
    total = Stats(run.players)
    show = sys.stderr.isatty() if progress is None else progress
    partial = run.out.with_name(run.out.name + ".partial") if run.out is not None else None
    handle = partial.open("w", encoding="utf-8", newline="\n") if partial is not None else None
    try:
        with click.progressbar(length=run.games, label="playing", file=sys.stderr,
                               show_eta=True, show_pos=True) if show else _NoBar() as bar:
            for count, stats, lines in _results(run):
                total.merge(stats)
                if handle is not None:
                    handle.writelines(lines)
                bar.update(count)
    except BaseException:
        if handle is not None:
            handle.close()
        raise
    if handle is not None and partial is not None and run.out is not None:
        handle.close()
        partial.replace(run.out)
    return total


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, count: int) -> None:
        return None
