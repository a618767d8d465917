"""A simulation run split across worker processes, with a progress bar and optional trace output.

A run plays either whole games or one-round experiments (``one_round``): each experiment is a game of
exactly one round on its own freshly shuffled deck (see :func:`one_round_ruleset`), so every round is
independent of the others. Either way every round that ends feeds the per-round statistics
(:class:`~flip7_spec.simulation.round_stats.RoundStats`).
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Never

from flip7_spec.collector import fewer_collections
from flip7_spec.errors import Flip7Error, SimulationError
from flip7_spec.limits import CORPUS_LINE, GAMES, TRACE_FILE, WORKERS, check_game_size, check_ruleset
from flip7_spec.machine import Game
from flip7_spec.ordered_pool import WorkerDied, ordered_map
from flip7_spec.outputs import Output, check_distinct
from flip7_spec.play import check_reachable
from flip7_spec.rulesets import Ruleset
from flip7_spec.simulation.policies import Policy
from flip7_spec.simulation.policy_specs import seat_policies, user_policies
from flip7_spec.simulation.round_stats import RoundStats
from flip7_spec.simulation.simulate import Stats, play_games, record_games
from flip7_spec.simulation.user_policy import describe_error

if TYPE_CHECKING:
    from tqdm import tqdm

CHUNK = 200  # games per unit of work: small enough for a smooth progress bar, big enough to amortise IPC


def one_round_ruleset(ruleset: Ruleset) -> Ruleset:
    """``ruleset`` with a game that ends after its first round: a target of 0 points, reached by every
    total, and a shared win for a tie (so a tie at the top plays no further round)."""
    return ruleset.with_options(target_score=0, tie_at_target="shared_win")


@dataclass(frozen=True)
class SimulationRun:
    """What to play and where to write it.

    ``games`` is how many games are played, or with ``one_round`` how many one-round experiments.
    ``policies`` are policy specs (one for every seat, or one per seat); when empty, ``strategy`` and
    ``threshold`` name the policy as the ``--strategy`` option did.
    """

    ruleset: Ruleset
    players: int
    games: int
    seed: str
    strategy: str = "threshold"
    threshold: int = 20
    out: Path | None = None
    observations: bool = True
    workers: int = 1
    policies: tuple[str, ...] = ()
    one_round: bool = False
    cluster: str | None = None
    """A Dask cluster (``--cluster``) to play the units of work on instead of local processes; the command
    holds the connection open (:func:`flip7_spec.cluster.session`)."""

    @property
    def policy_specs(self) -> tuple[str, ...]:
        """The policy specs this run plays, one for every seat or one per seat."""
        if self.policies:
            return self.policies
        return (f"threshold:{self.threshold}",) if self.strategy == "threshold" else (self.strategy,)

    def played_ruleset(self) -> Ruleset:
        """The ruleset the games are played under (one-round experiments end after their first round)."""
        return one_round_ruleset(self.ruleset) if self.one_round else self.ruleset

    def policy(self) -> Policy:
        return seat_policies(self.policy_specs, self.players, self.threshold)


class _RoundRecordingStats(Stats):
    """Game statistics that also hand every round that ends to a :class:`RoundStats`."""

    def __init__(self, players: int, per_round: RoundStats, first_round_only: bool) -> None:
        super().__init__(players)
        self.per_round = per_round
        self.first_round_only = first_round_only

    def add_round(self, game: Game) -> None:
        if self.first_round_only and game.round > 1:
            return  # a one-round game that went on (every total below 0, Brutal Mode): only round 1 counts
        Stats.add_round(self, game)
        self.per_round.add_round(game)


@dataclass(frozen=True)
class ChunkResult:
    """What a worker sends back: game and round statistics, and the trace lines when recording."""

    games: Stats
    rounds: RoundStats
    lines: list[str]


def _play_chunk(run: SimulationRun, start: int, stop: int) -> ChunkResult:
    """Play games [start, stop); return their statistics and, when recording, their trace lines."""
    with fewer_collections():
        return _played_chunk(run, start, stop)


def _played_chunk(run: SimulationRun, start: int, stop: int) -> ChunkResult:
    """:func:`_play_chunk`'s work."""
    per_round = RoundStats(run.players)
    stats = _RoundRecordingStats(run.players, per_round, run.one_round)
    policy = run.policy()
    lines: list[str] = []
    game = start
    try:
        if run.out is None:
            for _ in play_games(run.played_ruleset(), run.players, policy, run.seed, range(start, stop), stats):
                game += 1
        else:
            from flip7_spec.trace.canonical import dumps_line

            for record in record_games(run.played_ruleset(), run.players, policy, run.seed, range(start, stop),
                                       run.observations, stats, _generator(run)):
                lines.append(dumps_line(record.trace()))
                game += 1
    except (Exception, SystemExit) as error:  # SystemExit: a user's code in the game
        text = str(error) if isinstance(error, Flip7Error) else describe_error(error)
        raise SimulationError(f"game {game} (seed {run.seed}:{game}): {text}") from None
    games = Stats(run.players)
    games.merge(stats)
    return ChunkResult(games, per_round, lines)


def _generator(run: SimulationRun) -> str:
    """What the traces of ``run`` name as their generator: the command and the policies that played."""
    policies = " ".join(f"--policy {spec}" for spec in run.policy_specs)
    mode = " --rounds" if run.one_round else ""
    return f"flip7-spec simulate {policies}{mode}"


def _chunks(run: SimulationRun) -> Iterator[tuple[int, int]]:
    """The units of work, made as they are needed (a run of 10^8 games never lists them all)."""
    return ((start, min(start + CHUNK, run.games)) for start in range(0, run.games, CHUNK))


def chunk_count(run: SimulationRun) -> int:
    """How many units of work the run has (no more workers than this are started)."""
    return -(-run.games // CHUNK)


def _results(run: SimulationRun) -> Iterator[tuple[int, ChunkResult]]:
    if run.cluster is not None:
        yield from _cluster_results(run, run.cluster)
        return
    workers = min(run.workers, chunk_count(run))
    if workers == 1 and not user_policies(run.policy_specs):
        for start, stop in _chunks(run):
            yield stop - start, _guarded_chunk(run, start, stop)
        return
    # A user's policy always plays in a worker process: one that ends its process, or crashes it, ends the
    # worker, which is named as an error, never the run itself (with exit 0 and no output).
    results = ordered_map(functools.partial(_chunk_task, run), _chunks(run), workers)
    try:
        with contextlib.closing(results):  # the workers end as soon as the run does, whatever ends it
            for (start, stop), result in zip(_chunks(run), results, strict=True):
                yield stop - start, result
    except WorkerDied as died:
        start, stop = died.task
        raise SimulationError(f"games {start} to {stop - 1} (seeds {run.seed}:{start}...): the worker process "
                              "playing them ended without a result (a policy that ends or crashes its process? "
                              f"policies: {', '.join(run.policy_specs)})") from None


def _chunk_task(run: SimulationRun, chunk: tuple[int, int]) -> ChunkResult:
    return _guarded_chunk(run, *chunk)


def _cluster_results(run: SimulationRun, address: str) -> Iterator[tuple[int, ChunkResult]]:
    """The units of work played on the cluster's workers and handed on in order (so the statistics and the
    trace file are those of a local run), a few in flight per worker thread."""
    from flip7_spec.cluster import client_for, in_order, worker_count

    client = client_for(address)
    tasks = ((_play_chunk, (run, start, stop)) for start, stop in _chunks(run))
    for (start, stop), result in zip(_chunks(run), in_order(client, tasks, 3 * worker_count(client)), strict=True):
        yield stop - start, result


def _guarded_chunk(run: SimulationRun, start: int, stop: int) -> ChunkResult:
    """:func:`_play_chunk`, with any failure raised as a :class:`SimulationError` naming the game (a plain
    exception that a worker process can send back)."""
    try:
        return _play_chunk(run, start, stop)
    except SimulationError:
        raise
    except (Exception, SystemExit) as error:  # before the first game: making the policies
        text = str(error) if isinstance(error, Flip7Error) else describe_error(error)
        raise SimulationError(f"games {start} to {stop - 1}: {text}") from None


def check_run(run: SimulationRun) -> None:
    """Raise a :class:`~flip7_spec.Flip7Error` for a run that cannot be played, before anything is."""
    if run.out is not None and run.out.suffix not in (".json", ".jsonl"):
        raise Flip7Error(f"{run.out}: the output must end in .json (one game) or .jsonl (many games)")
    if run.out is not None and run.out.suffix == ".json" and run.games != 1:
        raise Flip7Error(f"{run.out}: a .json file holds one game; use .jsonl for {run.games} games")
    GAMES.check(run.games, "rounds" if run.one_round else "games")
    WORKERS.check(run.workers, "workers")
    check_ruleset(run.ruleset)
    check_game_size(run.ruleset, run.players)
    run.ruleset.check_players(run.players)
    check_reachable(run.played_ruleset())
    run.policy()  # a bad policy spec or an unloadable user policy is reported now, in one line


def run_experiment(run: SimulationRun, progress: bool | None = None, inputs: Sequence[Path] = ()
                   ) -> tuple[Stats, RoundStats]:
    """Play the run, writing traces to ``run.out`` as they come (nothing is held for the whole run); return
    the game and the per-round statistics. ``progress``: show a bar on stderr (None: when it is a terminal).

    Everything is checked before the first game: the limits, the player count, the policies, and the
    output (its folder, the room on its disk, that it is none of ``inputs`` and that no other run writes
    it). The traces go to ``OUT.partial``, renamed to ``OUT`` at the end, so an interrupted or failed run
    never leaves a truncated file behind under the requested name.
    """
    check_run(run)
    output = None
    total, rounds = Stats(run.players), RoundStats(run.players)
    show = sys.stderr.isatty() if progress is None else progress
    written = 0
    try:
        if run.out is not None:
            check_distinct([("--out", run.out)], inputs)
            output = Output.reserve(run.out, "--out")
        with _progress_bar(run.games, "round" if run.one_round else "game", show) as bar:
            for count, result in _results(run):
                total.merge(result.games)
                rounds.merge(result.rounds)
                if output is not None:
                    _check_lines(run, result.lines, written)
                    output.write("".join(result.lines))
                bar.update(count)
                written += count
    except BaseException:
        if output is not None:
            output.discard()
        raise
    if output is not None:
        output.commit()
    return total, rounds


def _check_lines(run: SimulationRun, lines: Sequence[str], first: int) -> None:
    """Refuse to write a trace that ``replay`` would refuse as too large (:data:`TRACE_FILE` for a ``.json``
    file, :data:`CORPUS_LINE` for a line of a ``.jsonl``): what simulate writes, replay reads."""
    limit = TRACE_FILE if run.out is not None and run.out.suffix == ".json" else CORPUS_LINE
    for offset, line in enumerate(lines):
        if len(line) * 4 > limit.value:  # else it cannot be over, whatever its characters
            size = len(line.encode("utf-8"))
            if size > limit.value:
                raise SimulationError(f"game {first + offset} (seed {run.seed}:{first + offset}): its trace is "
                                      f"{size:,} bytes, over the limit of {limit.text} ({limit.name}) that "
                                      "replay reads; record fewer players, a lower target or no observations")


def run_simulation(run: SimulationRun, progress: bool | None = None, inputs: Sequence[Path] = ()) -> Stats:
    """Play the run (see :func:`run_experiment`) and return its game statistics."""
    return run_experiment(run, progress, inputs)[0]


def _progress_bar(total: int, unit: str, show: bool) -> _Bar:
    if not show:
        return _Bar()
    from tqdm import tqdm

    return _Bar(tqdm(total=total, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False))


class _Bar:
    """A tqdm bar, or nothing."""

    def __init__(self, bar: tqdm[Never] | None = None) -> None:
        self.bar = bar

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()

    def update(self, count: int) -> None:
        if self.bar is not None:
            self.bar.update(count)
