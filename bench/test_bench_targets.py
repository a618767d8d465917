"""The speed targets, side by side in one run: each figure as a ratio to a baseline measured in this process.

One row per line of the table of targets (docs/performance.md, "The targets"), each timed on CPU time (the
machine is shared: the wall clock moves with other work, the CPU time of this process much less):

- whole games the way ``flip7-spec simulate -p 3 --strategy threshold`` plays them (the per-round statistics
  kept, :func:`flip7_spec.simulation.simulate_run._play_chunk`), against flop7 1.0.2 playing the same games in-process
  with the same policy (:mod:`bench.flop7_games`), and against the in-repo floor loop
  (:func:`bench.test_bench_games.floor_game`);
- ``replay`` of 200 recorded 4-player games with observations, read from their ``.jsonl`` file as
  ``flip7-spec replay`` reads it, and of the same traces already parsed; the floor is the file parsed with
  ``json.loads`` and the recorded choices applied with nothing checked;
- ``replay`` of the same games recorded ``--no-observations``;
- ``simulate -p 4 --games 200 --out FILE`` (traces with observations), against flop7 playing 4-player games.

Every benchmark checks its work (the same outcomes each round, every replay conforming); none asserts a
timing. The end-of-run summary prints each target beside the figure reached.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.flop7_games import flop7_batch
from bench.support import FIGURES, SEED, TARGETS, Target, report, timed
from bench.test_bench_games import deck_values, floor_batch
from bench.test_bench_replay import raw_replay
from flip7_spec.collector import fewer_collections
from flip7_spec.rulesets import Ruleset
from flip7_spec.simulation.simulate_run import SimulationRun, _play_chunk, run_simulation
from flip7_spec.trace.reader import read_traces
from flip7_spec.trace.replay import CONFORM, replay

GAMES = 1000
"""Whole 3-player games per timed round (flop7, the floor and the reference play the same ones)."""
GAME_ROUNDS = 7
REPLAY_GAMES = 200
REPLAY_ROUNDS = 5
OUT_GAMES = 200
OUT_ROUNDS = 5

REPLAY_NO_OBSERVATIONS_BEFORE = 23_779
"""Steps per CPU second of ``replay: file, no observations`` before the work on this table (2026-12-04):
its target is ten times that."""

TARGETS.extend([
    Target("simulate -p 3 whole games vs flop7 1.0.2", "simulate: games 3p", "ratio", 3.0),
    Target("replay, 4 players, with observations (from the file)", "replay: file, observations", "rate", 100_000),
    Target("replay, 4 players, with observations (parsed traces)", "replay: parsed, observations", "rate",
           100_000),
    Target("replay --no-observations, 10x its first figure (from the file)", "replay: file, no observations",
           "rate", 10 * REPLAY_NO_OBSERVATIONS_BEFORE),
    Target("simulate -p 4 --out (observations)", "simulate --out: 4p, observations", "rate", 1_500),
])


def _simulate_run(ruleset: Ruleset, players: int, games: int, out: Path | None = None,
                  observations: bool = True) -> SimulationRun:
    return SimulationRun(ruleset, players, games, SEED, "threshold", 20, out, observations)


# ---- whole games --------------------------------------------------------------------------------------------


def test_flop7_games(benchmark: Any, ruleset: Ruleset) -> None:
    """Baseline: flop7 1.0.2 plays the games in-process with the same policy."""
    expected = flop7_batch(ruleset, 3, SEED, GAMES)
    durations, rounds = timed(benchmark, lambda: flop7_batch(ruleset, 3, SEED, GAMES), GAME_ROUNDS)
    assert rounds == expected > GAMES
    report(benchmark, "flop7 1.0.2: games 3p", "games", GAMES, durations, rounds_per_game=round(rounds / GAMES, 2))


def test_floor_games(benchmark: Any, ruleset: Ruleset) -> None:
    """Baseline: the in-repo minimal loop (draw until a bust or 20 points), the same seeds."""
    values = deck_values(ruleset, 3)
    durations, rounds = timed(benchmark, lambda: floor_batch(values, 3, GAMES), GAME_ROUNDS)
    assert rounds >= GAMES
    report(benchmark, "floor: games 3p", "games", GAMES, durations)


def test_simulate_games(benchmark: Any, ruleset: Ruleset) -> None:
    """``simulate -p 3 --strategy threshold``'s own loop: whole games, with the game and per-round statistics."""
    run = _simulate_run(ruleset, 3, GAMES)
    expected = _play_chunk(run, 0, GAMES).rounds.summary()
    durations, result = timed(benchmark, lambda: _play_chunk(run, 0, GAMES), GAME_ROUNDS)
    assert result.rounds.summary() == expected
    figure = report(benchmark, "simulate: games 3p", "games", GAMES, durations, baseline="flop7 1.0.2: games 3p",
                    rounds_per_game=round(result.games.rounds / GAMES, 3),
                    decisions_per_game=round(result.games.decisions / GAMES, 2))
    floor = FIGURES.get("floor: games 3p")
    if floor is not None and floor.per_cpu_second and figure.per_cpu_second:
        benchmark.extra_info["ratio_to_floor"] = round(figure.per_cpu_second / floor.per_cpu_second, 4)


# ---- replay -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def replay_files(ruleset: Ruleset, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """200 4-player games written by ``simulate --out``, with observations and without."""
    folder = tmp_path_factory.mktemp("replay")
    full, bare = folder / "games.jsonl", folder / "games-no-observations.jsonl"
    run_simulation(_simulate_run(ruleset, 4, REPLAY_GAMES, full), progress=False)
    run_simulation(_simulate_run(ruleset, 4, REPLAY_GAMES, bare, observations=False), progress=False)
    yield full, bare


def _replay_file(path: Path) -> int:
    """``flip7-spec replay``'s work on one file: read, parse and replay every trace (with the collector's
    thresholds the command sets); returns the steps."""
    steps = 0
    with fewer_collections():
        for source in read_traces(path):
            assert source.error is None, source.error
            result = replay(source.trace)
            assert result.status == CONFORM and result.complete, result
            steps += result.steps
    return steps


def test_replay_floor(benchmark: Any, replay_files: tuple[Path, Path]) -> None:
    """Baseline: the file parsed with ``json.loads`` and every recorded choice applied, nothing checked."""
    path = replay_files[0]

    def floor() -> int:
        with path.open("rb") as handle:
            return sum(raw_replay(json.loads(line)) for line in handle)

    durations, steps = timed(benchmark, floor, REPLAY_ROUNDS)
    report(benchmark, "replay floor: parse + choices", "steps", steps, durations, traces=REPLAY_GAMES)


def test_replay_file(benchmark: Any, replay_files: tuple[Path, Path]) -> None:
    """``replay`` of the 4-player corpus with observations, from its file."""
    durations, steps = timed(benchmark, lambda: _replay_file(replay_files[0]), REPLAY_ROUNDS)
    report(benchmark, "replay: file, observations", "steps", steps, durations,
           baseline="replay floor: parse + choices", traces=REPLAY_GAMES)


def test_replay_parsed(benchmark: Any, replay_files: tuple[Path, Path]) -> None:
    """``replay`` of the same traces already parsed (what replay adds to reading the file)."""
    traces = [source.trace for source in read_traces(replay_files[0])]

    def run() -> int:
        results = [replay(trace) for trace in traces]
        assert all(r.status == CONFORM for r in results)
        return sum(r.steps for r in results)

    durations, steps = timed(benchmark, run, REPLAY_ROUNDS)
    report(benchmark, "replay: parsed, observations", "steps", steps, durations,
           baseline="replay floor: parse + choices", traces=REPLAY_GAMES)


def test_replay_file_no_observations(benchmark: Any, replay_files: tuple[Path, Path]) -> None:
    """``replay`` of the same games recorded ``--no-observations`` (events compared), from their file."""
    durations, steps = timed(benchmark, lambda: _replay_file(replay_files[1]), REPLAY_ROUNDS)
    report(benchmark, "replay: file, no observations", "steps", steps, durations,
           baseline="replay: file, observations", traces=REPLAY_GAMES)


# ---- writing traces -----------------------------------------------------------------------------------------


def test_flop7_games_4p(benchmark: Any, ruleset: Ruleset) -> None:
    """Baseline: flop7 1.0.2 playing 4-player games (no record kept: it has none)."""
    durations, rounds = timed(benchmark, lambda: flop7_batch(ruleset, 4, SEED, OUT_GAMES), OUT_ROUNDS)
    assert rounds > OUT_GAMES
    report(benchmark, "flop7 1.0.2: games 4p", "games", OUT_GAMES, durations)


def test_simulate_out(benchmark: Any, ruleset: Ruleset, tmp_path: Path) -> None:
    """``simulate -p 4 --games 200 --out FILE.jsonl``: games played, recorded with observations, written."""
    out = tmp_path / "games.jsonl"
    run = _simulate_run(ruleset, 4, OUT_GAMES, out)
    durations, stats = timed(benchmark, lambda: run_simulation(run, progress=False), OUT_ROUNDS)
    assert stats.games == OUT_GAMES
    report(benchmark, "simulate --out: 4p, observations", "games", OUT_GAMES, durations,
           baseline="flop7 1.0.2: games 4p", megabytes=round(out.stat().st_size / 1e6, 2))

