"""A simulation run split across worker processes, with a progress bar and optional trace output."""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from flip7_spec.errors import Flip7Error
from flip7_spec.limits import GAMES, WORKERS, check_game_size
from flip7_spec.outputs import Output, check_distinct
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


def _chunks(run: SimulationRun) -> Iterator[tuple[int, int]]:
    """The units of work, made as they are needed (a run of 10^8 games never lists them all)."""
    return ((start, min(start + CHUNK, run.games)) for start in range(0, run.games, CHUNK))


def chunk_count(run: SimulationRun) -> int:
    """How many units of work the run has (no more workers than this are started)."""
    return -(-run.games // CHUNK)


def _results(run: SimulationRun) -> Iterator[tuple[int, Stats, list[str]]]:
    workers = min(run.workers, chunk_count(run))
    if workers == 1:
        for start, stop in _chunks(run):
            stats, lines = _play_chunk(run, start, stop)
            yield stop - start, stats, lines
        return
    context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
    with context.Pool(workers, initializer=_worker_signals) as pool:
        # imap keeps the games in order, so the output file is the same for any worker count
        for (start, stop), (stats, lines) in zip(
            _chunks(run), pool.imap(_star_play, ((run, a, b) for a, b in _chunks(run))), strict=True
        ):
            yield stop - start, stats, lines


def _worker_signals() -> None:
    """A worker leaves interrupts to the parent (a Ctrl-C reaches the whole process group), which stops the
    pool; SIGTERM, from the parent stopping the pool, simply ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _star_play(args: tuple[SimulationRun, int, int]) -> tuple[Stats, list[str]]:
    return _play_chunk(*args)


def run_simulation(run: SimulationRun, progress: bool | None = None, inputs: Sequence[Path] = ()) -> Stats:
    """Play the run, writing traces to ``run.out`` as they come (nothing is held for the whole run).

    Everything is checked before the first game: the limits, the player count, and the output (its
    folder, the room on its disk, that it is none of ``inputs`` and that no other run writes it). The
    traces go to ``OUT.partial``, renamed to ``OUT`` at the end, so an interrupted or failed run never
    leaves a truncated file behind under the requested name.
    """
    if run.out is not None and run.out.suffix not in (".json", ".jsonl"):
        raise Flip7Error(f"{run.out}: the output must end in .json (one game) or .jsonl (many games)")
    if run.out is not None and run.out.suffix == ".json" and run.games != 1:
        raise Flip7Error(f"{run.out}: a .json file holds one game; use .jsonl for {run.games} games")
    GAMES.check(run.games, "games")
    WORKERS.check(run.workers, "workers")
    check_game_size(run.ruleset, run.players)
    run.ruleset.check_players(run.players)
    output = None
    if run.out is not None:
        check_distinct([("--out", run.out)], inputs)
        output = Output.reserve(run.out, "--out")
    total = Stats(run.players)
    show = sys.stderr.isatty() if progress is None else progress
    try:
        with click.progressbar(length=run.games, label="playing", file=sys.stderr,
                               show_eta=True, show_pos=True) if show else _NoBar() as bar:
            for count, stats, lines in _results(run):
                total.merge(stats)
                if output is not None:
                    output.write("".join(lines))
                bar.update(count)
    except BaseException:
        if output is not None:
            output.discard()
        raise
    if output is not None:
        output.commit()
    return total


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, count: int) -> None:
        return None
