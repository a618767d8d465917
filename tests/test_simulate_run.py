"""What a simulation run promises (flip7_spec/simulation/simulate_run.py, flip7_spec/simulation/simulate.py,
docs/simulation.md): the traces it writes are the games it played, one line each, named by their seed and the
command that played them, the same for any worker count; everything is checked before the first game, and each
refusal says what and why; a trace replay would refuse as too large is not written; a failing game is named by
its index and seed; a user's policy plays in a worker process that leaves interrupts to the parent; the pool's
workers end at once when a run stops; the progress bar counts games or rounds and leaves no line behind; the
JSON gives means to 3 decimals with their sample standard deviation and rates to 4."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import flip7_spec.simulation.simulate as simulate
import flip7_spec.simulation.simulate_run as simulate_run
from flip7_spec.errors import Flip7Error, LimitError, OutputError, SimulationError
from flip7_spec.limits import Limit
from flip7_spec.machine import Game
from flip7_spec.ordered_pool import WorkerDied, leave_interrupts_to_parent, ordered_map
from flip7_spec.rulesets import preset
from flip7_spec.simulation.intervals import Moments, wilson_interval
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.simulation.policy_specs import seat_policies
from flip7_spec.simulation.round_stats import RoundStats, SeatTally, _tally
from flip7_spec.simulation.simulate import Stats, game_rng, play_game, play_games, record_game, record_games
from flip7_spec.simulation.simulate_run import (
    SimulationRun,
    _guarded_chunk,
    one_round_ruleset,
    run_experiment,
    run_simulation,
)
from flip7_spec.trace.replay import ReplayStatus, replay

TWO = preset("flip7").with_options(min_players=2)
ONE = preset("flip7").with_options(min_players=1)


def traces(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> int:
    """Units of work of 3 games, so that a short run has several (worker processes are forked after this)."""
    monkeypatch.setattr(simulate_run, "CHUNK", 3)
    return 3


# ---- the traces written --------------------------------------------------------------------------------------


def test_the_traces_written_are_the_games_played_one_line_each_whatever_the_worker_count(
        tmp_path: Path, small_chunks: int) -> None:
    specs = ("threshold:15", "cards:3")
    files = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}" / "rounds.jsonl"
        out.parent.mkdir()
        run = SimulationRun(ruleset=TWO, players=2, games=8, seed="run", out=out, workers=workers, policies=specs,
                            one_round=True)
        games, rounds = run_experiment(run, progress=False)
        assert games.games == rounds.rounds == 8
        assert sorted(p.name for p in out.parent.iterdir()) == ["rounds.jsonl"], "no partial file is left"
        files.append(out.read_bytes())
    assert files[0] == files[1]
    written = traces(tmp_path / "w1" / "rounds.jsonl")
    played = list(play_games(one_round_ruleset(TWO), 2, seat_policies(specs, 2), "run", range(8)))
    assert len(written) == 8
    for index, (trace, game) in enumerate(zip(written, played, strict=True)):
        assert replay(trace).status is ReplayStatus.CONFORM
        assert trace["header"]["provenance"] == {
            "seed": f"run:{index}", "generator": "flip7-spec simulate --policy threshold:15 --policy cards:3 --rounds"}
        options = trace["header"]["ruleset"]["options"]
        assert (options["target_score"], options["tie_at_target"]) == (0, "shared_win")
        assert trace["footer"]["totals"] == game.totals and trace["footer"]["rounds"] == 1
        assert all("observation" in step for step in trace["steps"])


def test_whole_games_are_written_under_their_own_ruleset_and_a_json_file_holds_one(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    run = SimulationRun(ruleset=preset("flip7"), players=3, games=3, seed="g", out=out, observations=False,
                        policies=("threshold:20",))
    games, rounds = run_experiment(run, progress=False)
    written = traces(out)
    generators = {t["header"]["provenance"]["generator"] for t in written}
    assert len(written) == 3 and generators == {"flip7-spec simulate --policy threshold:20"}
    assert all(t["header"]["ruleset"]["options"]["target_score"] == 200 for t in written)
    assert all(max(t["footer"]["totals"]) >= 200 for t in written)
    assert games.rounds == rounds.rounds == sum(t["footer"]["rounds"] for t in written) > 3
    assert not any("observation" in step for t in written for step in t["steps"])
    one = tmp_path / "one.json"
    run_experiment(SimulationRun(ruleset=preset("flip7"), players=3, games=1, seed="g", out=one), progress=False)
    document = json.loads(one.read_text(encoding="utf-8"))
    assert document["footer"] == written[0]["footer"] and "observation" in document["steps"][0]
    assert replay(document).status is ReplayStatus.CONFORM


def test_a_policy_named_without_its_number_takes_the_runs_threshold() -> None:
    def figures(policies: tuple[str, ...], threshold: int) -> dict[str, Any]:
        run = SimulationRun(ruleset=ONE, players=1, games=150, seed="t", policies=policies, threshold=threshold,
                            one_round=True)
        return run_experiment(run, progress=False)[1].summary()

    assert figures(("threshold",), 9) == figures(("threshold:9",), 20)
    assert figures(("threshold",), 9) != figures(("threshold",), 30)


@pytest.mark.clause("V-BRUTAL", "V-SCORE-FLOOR")
def test_a_one_round_experiment_that_goes_on_below_zero_counts_its_first_round_only() -> None:
    """One player in Brutal Mode who keeps hitting often ends round 1 below 0: the target of 0 is not reached
    and the game goes on, but the experiment is its first round."""
    ruleset = preset("vengeance").with_options(brutal_mode=True, min_players=1)
    went_on = [g.round for g in play_games(one_round_ruleset(ruleset), 1, threshold_policy(40), "low", range(120))]
    assert sum(r >= 3 for r in went_on) >= 2, "some games play a third round"
    run = SimulationRun(ruleset=ruleset, players=1, games=120, seed="low", policies=("threshold:40",),
                        one_round=True)
    games, rounds = run_experiment(run, progress=False)
    assert games.rounds == rounds.rounds == 120 and games.games == 120
    assert sum(rounds.cards_seen.values()) == 120


# ---- refusals before the first game ----------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "error", "message"), [
    ({"out": "x.txt"}, Flip7Error, "x.txt: the output must end in .json (one game) or .jsonl (many games)"),
    ({"out": "x.json", "games": 2}, Flip7Error, "x.json: a .json file holds one game; use .jsonl for 2 games"),
    ({"games": 100_000_001}, LimitError, "games: 100,000,001 is over the limit of 100,000,000 games"),
    ({"games": 100_000_001, "one_round": True}, LimitError,
     "rounds: 100,000,001 is over the limit of 100,000,000 games"),
    ({"workers": 65}, LimitError, "workers: 65 is over the limit of 64 workers"),
])
def test_a_run_that_cannot_be_played_is_refused_before_anything_is_written(
        tmp_path: Path, changes: dict[str, Any], error: type[Exception], message: str) -> None:
    settings: dict[str, Any] = {"ruleset": preset("flip7"), "players": 3, "games": 5, "seed": "r", **changes}
    if "out" in settings:
        settings["out"] = tmp_path / settings["out"]
        message = f"{tmp_path}{os.sep}{message}"
    with pytest.raises(error) as raised:
        run_experiment(SimulationRun(**settings), progress=False)
    assert str(raised.value) == message
    assert list(tmp_path.iterdir()) == []


def test_an_output_that_is_an_input_or_cannot_be_written_is_refused_naming_the_option(tmp_path: Path) -> None:
    source = tmp_path / "games.jsonl"
    source.write_text("", encoding="utf-8")
    run = SimulationRun(ruleset=preset("flip7"), players=3, games=2, seed="o", out=source)
    for play in (run_experiment, run_simulation):
        with pytest.raises(OutputError, match=f"^--out {re.escape(str(source))}: is also an input of this run"):
            play(run, False, [source])
    assert source.read_text(encoding="utf-8") == ""
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    beyond = tmp_path / "a-file" / "games.jsonl"
    with pytest.raises(OutputError, match=f"^cannot write --out {re.escape(str(beyond))}: "):
        run_experiment(SimulationRun(ruleset=preset("flip7"), players=3, games=2, seed="o", out=beyond),
                       progress=False)


def test_run_simulation_returns_the_game_statistics_of_the_run() -> None:
    run = SimulationRun(ruleset=preset("flip7"), players=3, games=4, seed="s")
    assert run_simulation(run, False) == run_experiment(run, False)[0]


# ---- traces over the size replay reads -------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_a_trace_over_the_size_replay_reads_is_refused_naming_its_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_chunks: int, workers: int) -> None:
    """A line of a ``.jsonl`` is measured in bytes, not characters (the seed, recorded in each trace, has
    characters of four bytes): the first game over the limit is named, and nothing is written."""
    seed = "\U0001f0a1" * 40
    probe = tmp_path / "probe.jsonl"
    settings: dict[str, Any] = {"ruleset": preset("flip7"), "players": 3, "games": 9, "seed": seed,
                                "workers": workers, "policies": ("threshold:20",)}
    run_experiment(SimulationRun(**settings, out=probe), progress=False)
    sizes = [len(line.encode("utf-8")) for line in probe.read_text(encoding="utf-8").splitlines(keepends=True)]
    assert all(size > len(line) for size, line in zip(sizes, probe.read_text(encoding="utf-8").splitlines(),
                                                       strict=True))
    limit = max(sizes[:small_chunks + 1])  # the first unit of work and the next game fit
    over = next(index for index, size in enumerate(sizes) if size > limit)
    assert over % small_chunks, "the game named is not the first of its unit of work"
    monkeypatch.setattr(simulate_run, "CORPUS_LINE", Limit("corpus line length", limit, "bytes", "a line"))
    out = tmp_path / "out" / "games.jsonl"
    out.parent.mkdir()
    with pytest.raises(SimulationError) as raised:
        run_experiment(SimulationRun(**settings, out=out), progress=False)
    assert str(raised.value) == (
        f"game {over} (seed {seed}:{over}): its trace is {sizes[over]:,} bytes, over the limit of {limit:,} bytes "
        "(corpus line length) that replay reads; record fewer players, a lower target or no observations")
    assert list(out.parent.iterdir()) == []
    monkeypatch.setattr(simulate_run, "CORPUS_LINE", Limit("corpus line length", max(sizes), "bytes", "a line"))
    run_experiment(SimulationRun(**settings, out=out), progress=False)  # exactly at the limit is within it
    assert out.read_bytes() == probe.read_bytes()


def test_a_json_trace_is_held_to_the_trace_file_limit_and_a_jsonl_line_to_the_line_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings: dict[str, Any] = {"ruleset": preset("flip7"), "players": 3, "games": 1, "seed": "one"}
    line = tmp_path / "one.jsonl"
    run_experiment(SimulationRun(**settings, out=line), progress=False)
    size = len(line.read_bytes())
    small = Limit("trace file size", size - 1, "bytes", "a document")
    monkeypatch.setattr(simulate_run, "TRACE_FILE", small)
    again = tmp_path / "again.jsonl"
    run_experiment(SimulationRun(**settings, out=again), progress=False)  # a line: the trace file limit is not its
    assert again.read_bytes() == line.read_bytes()
    with pytest.raises(SimulationError, match=r"over the limit of .* bytes \(trace file size\)"):
        run_experiment(SimulationRun(**settings, out=tmp_path / "one.json"), progress=False)
    assert not (tmp_path / "one.json").exists()


# ---- failures named ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("recording", [False, True])
def test_a_game_that_does_not_end_within_the_decision_limit_is_named_by_index_and_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_chunks: int, recording: bool) -> None:
    records = list(record_games(preset("flip7"), 3, threshold_policy(20), "long", range(9)))
    decisions = [len(r.plies) for r in records]
    limit = max(decisions[:small_chunks + 1])  # the first unit of work and the next game end within it
    over = next(index for index, count in enumerate(decisions) if count > limit)
    monkeypatch.setattr(simulate, "MAX_DECISIONS_PER_GAME", limit)
    run = SimulationRun(ruleset=preset("flip7"), players=3, games=9, seed="long", policies=("threshold:20",),
                        out=tmp_path / "long.jsonl" if recording else None)
    with pytest.raises(SimulationError) as raised:
        run_experiment(run, progress=False)
    assert str(raised.value) == (
        f"game {over} (seed long:{over}): game long:{over} of flip7 did not end within {limit:,} decisions (the "
        f"limit of decisions per game): its players never bring it to an end")
    with pytest.raises(LimitError, match=r"^game 0 of flip7 did not end within"):
        play_game(preset("flip7"), 3, threshold_policy(20), game_rng("long", over))


def test_a_failure_before_the_first_game_names_the_games_of_its_unit_of_work(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = SimulationRun(ruleset=preset("flip7"), players=3, games=9, seed="b", policies=("threshold:x",))
    with pytest.raises(SimulationError) as raised:
        _guarded_chunk(bad, 6, 9)
    assert str(raised.value) == ("games 6 to 8: policy 'threshold:x': the parameter must be a whole number >= 0, "
                                 "got 'x'")

    def out_of_memory(run: SimulationRun, start: int, stop: int) -> None:
        raise MemoryError("no room for the deck")

    monkeypatch.setattr(simulate_run, "_play_chunk", out_of_memory)
    with pytest.raises(SimulationError) as raised:
        _guarded_chunk(SimulationRun(ruleset=preset("flip7"), players=3, games=9, seed="b"), 3, 6)
    assert str(raised.value) == "games 3 to 5: MemoryError: no room for the deck"


# ---- worker processes --------------------------------------------------------------------------------------------

SPY = '''
import os, signal

def spy(view):
    with open({log!r}, "a", encoding="utf-8") as log:
        log.write(f"{{os.getpid()}} {{signal.getsignal(signal.SIGINT) == signal.SIG_IGN}}\\n")
    return None


def leave(view):
    os._exit(3)
'''


def test_a_users_policy_plays_in_a_worker_process_that_leaves_interrupts_to_the_parent(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    (tmp_path / "spy.py").write_text(SPY.format(log=str(log)), encoding="utf-8")
    run = SimulationRun(ruleset=ONE, players=1, games=3, seed="w", one_round=True,
                        policies=(f"{tmp_path / 'spy.py'}:spy",))
    assert run_experiment(run, progress=False)[1].rounds == 3
    calls = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    assert calls and {pid for pid, _ in calls} != {str(os.getpid())}
    assert str(os.getpid()) not in {pid for pid, _ in calls} and {ignored for _, ignored in calls} == {"True"}


def test_a_worker_that_ends_its_process_is_named_with_its_games_and_the_policies(
        tmp_path: Path, small_chunks: int) -> None:
    (tmp_path / "spy.py").write_text(SPY.format(log=str(tmp_path / "calls.log")), encoding="utf-8")
    spec = f"{tmp_path / 'spy.py'}:leave"
    run = SimulationRun(ruleset=preset("flip7"), players=3, games=7, seed="x", policies=(spec, "cards:2", "random"))
    with pytest.raises(SimulationError) as raised:
        run_experiment(run, progress=False)
    assert str(raised.value) == (
        "games 0 to 2 (seeds x:0...): the worker process playing them ended without a result (a policy that ends "
        f"or crashes its process? policies: {spec}, cards:2, random)")


def test_a_worker_ignores_interrupts_and_ends_on_sigterm() -> None:
    """What each worker process runs first: a Ctrl-C reaches the whole process group, and the parent, not the
    worker, stops the pool; the parent's SIGTERM ends a worker."""
    saved = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    try:
        signal.signal(signal.SIGTERM, lambda *_: None)
        leave_interrupts_to_parent()
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, saved[0])
        signal.signal(signal.SIGTERM, saved[1])


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="looks processes up in /proc")
def test_stopping_the_pool_ends_its_busy_worker_at_once_and_runs_none_of_the_waiting_work(tmp_path: Path) -> None:
    """Closing the results while a worker is 30 s into a task ends that worker at once, and the tasks not yet
    handed out are never even taken from the caller's iterator (no more than two are out per worker)."""
    log = tmp_path / "started"
    taken: list[int] = []

    def task(n: int) -> int:
        with log.open("a", encoding="utf-8") as started:
            started.write(f"{os.getpid()} {n}\n")
        if n > 0:
            time.sleep(30)
        return n

    def tasks() -> Iterator[int]:
        for n in range(8):
            taken.append(n)
            yield n

    results = ordered_map(task, tasks(), 1)
    assert next(results) == 0
    while len(log.read_text(encoding="utf-8").splitlines()) < 2:  # task 1 has started
        time.sleep(0.01)
    began = time.monotonic()
    results.close()
    assert time.monotonic() - began < 10
    lines = [line.split() for line in log.read_text(encoding="utf-8").splitlines()]
    assert [n for _, n in lines] == ["0", "1"]
    assert not Path(f"/proc/{lines[0][0]}").exists(), "the busy worker has ended and been collected"
    assert taken == [0, 1]


def test_the_pool_hands_results_back_in_order_and_raises_a_tasks_error_at_its_place() -> None:
    def slow_first(n: int) -> int:
        time.sleep(0.2 if n == 0 else 0)
        if n == 5:
            raise ValueError("five")
        return n * n

    results = ordered_map(slow_first, range(10), 3)
    assert [next(results) for _ in range(5)] == [0, 1, 4, 9, 16]
    with pytest.raises(ValueError, match="five"):
        next(results)


def test_a_worker_that_ends_its_process_is_named_with_its_task() -> None:
    def leave_on_three(n: int) -> int:
        if n == 3:
            os._exit(7)
        return n

    with pytest.raises(WorkerDied) as died:
        list(ordered_map(leave_on_three, range(6), 2))
    assert (died.value.task, died.value.exitcode) == (3, 7)


# ---- the progress bar ----------------------------------------------------------------------------------------------


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("one_round", "unit"), [(True, "round"), (False, "game")])
def test_the_progress_bar_counts_rounds_or_games_on_a_terminal_and_leaves_no_line(
        monkeypatch: pytest.MonkeyPatch, one_round: bool, unit: str) -> None:
    run = SimulationRun(ruleset=ONE if one_round else preset("flip7"), players=1 if one_round else 3, games=7,
                        seed="p", one_round=one_round)
    shown: dict[bool | None, str] = {}
    for progress in (None, True, False):
        terminal = Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        run_experiment(run, progress)
        shown[progress] = terminal.getvalue()
    assert shown[False] == ""
    assert shown[None] == shown[True] and f"0/7 [00:00<?, ?{unit}/s]" in shown[True]
    assert "\n" not in shown[True] and shown[True].endswith("\r"), "the bar is cleared at the end"
    plain = io.StringIO()
    monkeypatch.setattr(sys, "stderr", plain)
    run_experiment(run)
    run_simulation(run)
    assert plain.getvalue() == "", "no bar when stderr is not a terminal"
    run_simulation(run, True)
    assert "0/7" in plain.getvalue()


def test_the_progress_bar_reaches_the_number_of_games_played(monkeypatch: pytest.MonkeyPatch,
                                                             small_chunks: int) -> None:
    """The bar counts every game as its unit of work comes back: when it is closed it stands at the total."""
    import tqdm

    closed_at: list[tuple[float, float | None]] = []

    class Counted(tqdm.tqdm):  # type: ignore[type-arg]
        def close(self) -> None:
            if not self.disable and (self.n, self.total) not in closed_at[-1:]:
                closed_at.append((self.n, self.total))
            super().close()

    monkeypatch.setattr(tqdm, "tqdm", Counted)
    monkeypatch.setattr(sys, "stderr", Terminal())
    games = 2 * small_chunks + 1  # three units of work, the last one short
    run_experiment(SimulationRun(ruleset=preset("flip7"), players=3, games=games, seed="bar"), True)
    assert closed_at == [(games, games)]


# ---- games played and recorded -------------------------------------------------------------------------------


def test_a_recorded_game_is_the_game_played_with_its_provenance_and_observations_on_request() -> None:
    ruleset, policy = preset("flip7"), threshold_policy(20)
    played = play_game(ruleset, 3, policy, game_rng("p", 2))
    assert not played.recording, "statistics keep no history"
    seen: list[tuple[Game, int, bool]] = []
    record = record_game(ruleset, 3, policy, game_rng("p", 2),
                         watch=lambda game: seen.append((game, len(game.history), game.over)))
    assert record.totals == tuple(played.totals) and record.rounds == played.round
    assert len(seen) == 1 and seen[0][1:] == (0, False) and tuple(seen[0][0].totals) == record.totals
    assert record.observations == () and record.seed == ""
    observed = record_game(ruleset, 3, policy, game_rng("p", 2), observe=True, seed="p:2", generator="mine")
    assert len(observed.observations) == len(observed.plies) + 1
    assert observed.trace()["header"]["provenance"] == {"seed": "p:2", "generator": "mine"}
    many = list(record_games(ruleset, 3, policy, "p", range(1, 3), generator="mine"))
    assert [r.seed for r in many] == ["p:1", "p:2"] and {r.generator for r in many} == {"mine"}
    assert many[1].totals == record.totals and all(r.observations == () for r in many)


# ---- the figures' precision -------------------------------------------------------------------------------------


def test_game_statistics_give_means_to_three_decimals_and_rates_to_four() -> None:
    stats = Stats(players=2, games=3, rounds=7, decisions=50, player_rounds=14, score_sum=101, busts=5, flip7s=1,
                  wins=[2.0, 1.0])
    assert stats.summary() == {"games": 3, "rounds": 7, "decisions": 50, "mean_rounds_per_game": 2.333,
                               "mean_round_score": 7.214, "bust_rate": 0.3571, "flip7_rate": 0.1429,
                               "win_rate_by_seat": [0.6667, 0.3333]}


def test_round_figures_are_those_of_the_rounds_added_one_by_one_means_to_three_decimals_rates_to_four() -> None:
    """A seat's figures come from its outcomes counted (points, cards, bust, Flip 7): the same mean, sample
    standard deviation and interval as adding the rounds one by one."""
    rounds = [(10, 3, False, False), (10, 3, False, False), (0, 4, True, False), (25, 7, False, True),
              (7, 2, False, False), (0, 3, True, False), (12, 3, False, False)]
    stats = RoundStats(1, rounds=len(rounds), outcomes=[Counter(rounds)])
    summary = stats.summary()
    for name, part in (("points_per_round", 0), ("cards_per_round", 1)):
        moments = Moments()
        for outcome in rounds:
            moments.add(outcome[part])
        low, high = moments.interval()
        sd = statistics.stdev(outcome[part] for outcome in rounds)
        assert summary[name] == {"mean": round(moments.mean, 3), "sd": round(sd, 3),
                                 "ci95": [round(low, 3), round(high, 3)]}
        assert summary["by_seat"][0][name] == summary[name]
    assert summary["points_per_round"]["mean"] == 9.143 and summary["cards_per_round"]["sd"] == 1.618
    for name, count, rate in (("bust_rate", 2, 0.2857), ("flip7_rate", 1, 0.1429)):
        low, high = wilson_interval(count, 7)
        assert summary[name] == {"rate": rate, "ci95": [round(low, 4), round(high, 4)]}
    assert summary["points_distribution"] == {"0": 2, "7": 1, "10": 2, "12": 1, "25": 1}


def test_the_overall_figures_of_several_seats_are_means_to_three_decimals_and_rates_to_four() -> None:
    run = SimulationRun(ruleset=TWO, players=2, games=90, seed="d", one_round=True, policies=("threshold:40",))
    stats = run_experiment(run, progress=False)[1]
    summary = stats.summary()
    for name, moments, digits in (("points_per_round", stats.round_points, 3),
                                  ("cards_per_round", stats.round_cards, 3),
                                  ("bust_rate", stats.round_busts, 4), ("flip7_rate", stats.round_flip7s, 4)):
        low, high = moments.interval()
        key = "mean" if digits == 3 else "rate"
        if key == "rate":  # no rate lies outside [0, 1]: its interval is cut there
            low, high = max(0.0, low), min(1.0, high)
        expected = {key: round(moments.mean, digits), "ci95": [round(low, digits), round(high, digits)]}
        if key == "mean":
            expected["sd"] = round(moments.sd, digits)
        assert summary[name] == expected, name
    for seat in summary["by_seat"]:
        assert set(seat["points_per_round"]) == {"mean", "sd", "ci95"} and set(seat["bust_rate"]) == {"rate", "ci95"}
        assert all(len(str(v).split(".")[-1]) <= 3 for v in seat["points_per_round"]["ci95"])


def test_merged_seat_tallies_are_the_tally_of_all_their_rounds() -> None:
    first = Counter({(10, 3, False, False): 2, (0, 4, True, False): 1, (22, 7, False, True): 1})
    second = Counter({(25, 7, False, True): 1, (0, 5, True, False): 2})
    tally = _tally(first)
    tally.merge(_tally(second))
    whole = _tally(first + second)
    assert tally == whole
    assert (whole.busts, whole.flip7s, whole.points.n) == (3, 2, 7)
    empty = SeatTally()
    empty.merge(whole)
    assert empty == whole


def test_a_run_on_a_cluster_writes_the_traces_and_figures_of_a_local_run(tmp_path: Path, small_chunks: int) -> None:
    pytest.importorskip("distributed", reason="needs the cluster extra (pip install -e '.[cluster]')")
    from flip7_spec.cluster import session

    settings: dict[str, Any] = {"ruleset": TWO, "players": 2, "games": 8, "seed": "c", "one_round": True,
                                "policies": ("threshold:18",)}
    local = run_experiment(SimulationRun(**settings, out=tmp_path / "local.jsonl"), progress=False)
    with session("local:1"):
        remote = run_experiment(SimulationRun(**settings, out=tmp_path / "remote.jsonl", cluster="local:1"),
                                progress=False)
    assert remote[0] == local[0] and remote[1] == local[1]
    assert (tmp_path / "remote.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_a_worker_that_dies_while_the_caller_is_busy_is_named_with_its_task() -> None:
    """The caller takes its time over each result (writing traces, a busy machine) and a worker dies early in
    its next task: sending it more work must not fail on the broken pipe, the death is named with its task."""
    def die_on_five(n: int) -> int:
        if n == 5:
            os._exit(3)
        return n

    results = ordered_map(die_on_five, range(40), 1)
    with pytest.raises(WorkerDied) as died:
        for _ in results:
            time.sleep(0.05)  # the worker reaches task 5 and dies while the caller is here
    assert (died.value.task, died.value.exitcode) == (5, 3)
