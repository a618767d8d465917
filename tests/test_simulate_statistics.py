"""What ``simulate``'s figures promise (flip7_spec/simulation/simulate_run.py, round_stats.py, intervals.py, and
docs/simulation.md): a one-round experiment is one round, ties at the top included; a mean's interval is built
on the sample standard deviation, and the intervals cover a known mean or rate at about their stated 95%; the
overall rates count player-rounds, so they are the means of the rates by seat."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.rulesets import preset
from flip7_spec.simulation.intervals import Z95, Moments, wilson_interval
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.simulation.round_stats import RoundStats
from flip7_spec.simulation.simulate import Stats, play_games, record_games
from flip7_spec.simulation.simulate_run import SimulationRun, one_round_ruleset, run_experiment


@pytest.mark.clause("F7-TIE", "F7-GAME-END")
def test_a_one_round_experiment_ends_after_its_round_even_on_a_tie() -> None:
    """Each experiment is a game of exactly one round: when two players share the top score (every player
    busting, say) the game ends with a shared win instead of playing a second round."""
    ruleset = one_round_ruleset(preset("flip7"))
    games = list(play_games(ruleset, 3, threshold_policy(25), "ties", range(120)))
    assert [g.round for g in games] == [1] * len(games) and all(g.over for g in games)
    tied = [g for g in games if len(g.winners) > 1]
    assert len(tied) >= 5, "ties at the top are common with three players hitting to 25"
    for game in tied:
        top = max(game.totals)
        assert sorted(game.winners) == [seat for seat, total in enumerate(game.totals) if total == top]


@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=2, max_size=40))
def test_the_interval_of_a_mean_is_built_on_the_sample_standard_deviation(values: list[float]) -> None:
    moments = Moments()
    for value in values:
        moments.add(value)
    sd = statistics.stdev(values)  # n - 1 in the denominator
    # a running sum of squares loses digits to cancellation: to within a millionth of the values' size
    scale = 1e-6 * max(1.0, *(abs(v) for v in values))
    assert moments.sd == pytest.approx(sd, rel=1e-6, abs=scale)
    low, high = moments.interval()
    half = Z95 * sd / math.sqrt(len(values))
    assert (high - low) / 2 == pytest.approx(half, rel=1e-6, abs=scale)


def test_the_sample_variance_is_unbiased_for_a_fair_die() -> None:
    """The square of the sample standard deviation estimates the variance without bias: over many samples of
    three throws of a die it averages 35/12, where the population formula would average two thirds of that."""
    rng = random.Random(12)
    squares = []
    for _ in range(6000):
        moments = Moments()
        for _ in range(3):
            moments.add(rng.randint(1, 6))
        squares.append(moments.sd ** 2)
    assert statistics.fmean(squares) == pytest.approx(35 / 12, rel=0.04)


def test_the_intervals_cover_a_known_mean_and_rate_about_95_times_in_100() -> None:
    rng = random.Random(95)
    samples = 1000
    mean_covered = rate_covered = 0
    for _ in range(samples):
        moments = Moments()
        for _ in range(60):
            moments.add(rng.randint(1, 6))  # a fair die: mean 3.5
        low, high = moments.interval()
        mean_covered += low <= 3.5 <= high
        low, high = wilson_interval(sum(rng.random() < 0.08 for _ in range(150)), 150)  # a rate of 8%
        rate_covered += low <= 0.08 <= high
    assert 0.93 <= mean_covered / samples <= 0.97
    assert 0.93 <= rate_covered / samples <= 0.97


@pytest.mark.parametrize("players", [2, 3])
def test_the_overall_rates_are_per_player_round_the_means_of_the_rates_by_seat(players: int) -> None:
    """Players who never stay: a round ends on a Flip 7 at most once, and the overall Flip 7 rate is the
    share of player-rounds that ended on one, as are the bust rate and the other figures."""
    ruleset = preset("flip7").with_options(min_players=2)
    run = SimulationRun(ruleset=ruleset, players=players, games=300, seed="overall", one_round=True,
                        policies=("threshold-numbers:1000",))
    summary = run_experiment(run, progress=False)[1].summary()
    assert summary["rounds"] == 300 and summary["player_rounds"] == 300 * players
    seats = summary["by_seat"]
    assert sum(s["flip7_rate"]["rate"] for s in seats) > 0
    for name, key in (("flip7_rate", "rate"), ("bust_rate", "rate"), ("points_per_round", "mean"),
                      ("cards_per_round", "mean")):
        mean_by_seat = statistics.fmean(s[name][key] for s in seats)
        assert summary[name][key] == pytest.approx(mean_by_seat, abs=2e-3), name


@given(st.lists(st.integers(-50, 50), max_size=20), st.lists(st.integers(-50, 50), max_size=20))
def test_merged_moments_are_the_moments_of_the_whole_sample(first: list[int], second: list[int]) -> None:
    """Workers' figures are merged (``--workers``): the result is that of one worker adding every value."""
    parts, whole = [Moments(), Moments()], Moments()
    for part, values in zip(parts, (first, second), strict=True):
        for value in values:
            part.add(value)
            whole.add(value)
    parts[0].merge(parts[1])
    assert (parts[0].n, parts[0].total, parts[0].squares) == (whole.n, whole.total, whole.squares)


@given(st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_wilson_interval_holds_the_rates_the_score_test_accepts(case: tuple[int, int]) -> None:
    """The Wilson interval is every rate p the score test does not reject: |p̂ - p| <= z·√(p(1-p)/n). Its ends
    are where that holds with equality (or 0 and 1), and it always holds the observed rate."""
    successes, trials = case
    observed = successes / trials
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= observed + 1e-12 and observed - 1e-12 <= high <= 1.0  # to rounding: 0 gives 5e-17
    for end, clipped in ((low, successes == 0), (high, successes == trials)):
        if clipped:
            assert end == pytest.approx(0.0 if end is low else 1.0, abs=1e-12)
        else:
            assert abs(observed - end) == pytest.approx(Z95 * math.sqrt(end * (1 - end) / trials), rel=1e-9)


def test_a_rate_of_no_trials_has_no_interval() -> None:
    assert all(math.isnan(end) for end in wilson_interval(0, 0))
    empty = RoundStats(3).summary()
    assert empty["rounds"] == 0 and all(seat["flip7_rate"]["rate"] is None for seat in empty["by_seat"])


def test_game_statistics_count_what_the_recorded_games_show() -> None:
    """``simulate --games``'s figures, against the games' own records: rounds, decisions, points banked, busts,
    rounds ending on a Flip 7 and shared wins (one-round games hitting to 40: Flip 7s and ties happen); and the
    figures of two halves merged (``--workers``) are those of the whole run."""
    ruleset, players, policy = one_round_ruleset(preset("flip7")), 3, threshold_policy(40)
    stats, first, second = Stats(players), Stats(players), Stats(players)
    records = list(record_games(ruleset, players, policy, "counted", range(60), stats=stats))
    for part, games in ((first, range(30)), (second, range(30, 60))):
        for _ in play_games(ruleset, players, policy, "counted", games, part):
            pass
    events = [e for r in records for ply in r.plies for e in ply.events]
    ends = [e for e in events if e.kind == "round_end"]
    assert (stats.games, stats.rounds, stats.decisions) == (60, sum(r.rounds for r in records),
                                                          sum(len(r.plies) for r in records))
    assert len(ends) == stats.rounds and stats.player_rounds == players * stats.rounds
    assert stats.score_sum == sum(sum(e.get("scores")) for e in ends)
    assert stats.busts == sum(e.kind == "bust" for e in events) > 0
    assert stats.flip7s == sum(e.kind == "flip7" for e in events) > 0
    wins = [0.0] * players
    for record in records:
        for seat in record.winners:
            wins[seat] += 1 / len(record.winners)
    assert any(len(r.winners) > 1 for r in records)
    assert stats.wins == pytest.approx(wins) and sum(stats.wins) == pytest.approx(60)
    first.merge(second)
    assert dataclasses.replace(first, wins=[]) == dataclasses.replace(stats, wins=[])
    assert first.wins == pytest.approx(stats.wins)  # shares of ties add up in another order
    summary = stats.summary()
    assert summary["mean_rounds_per_game"] == round(stats.rounds / 60, 3)
    assert summary["bust_rate"] == round(stats.busts / stats.player_rounds, 4)
    assert summary["flip7_rate"] == round(stats.flip7s / stats.rounds, 4)
    assert summary["mean_round_score"] == round(stats.score_sum / stats.player_rounds, 3)
    assert summary["win_rate_by_seat"] == [round(w / 60, 4) for w in wins]
    one = Stats(players)
    game = next(play_games(preset("flip7"), players, policy, "one", range(1), one))
    assert one.summary()["mean_rounds_per_game"] == game.round


def test_an_overall_rate_interval_stays_between_0_and_1() -> None:
    """Overall rates take the round as the unit (the mean over its seats) with the normal interval; a rare
    event's interval is cut at 0 (and at 1), since no rate lies outside them: one Flip 7 in 100 four-player
    rounds has a normal interval reaching below 0."""
    from flip7_spec.simulation.round_stats import RoundStats

    stats = RoundStats(4)
    for flip7 in [0.25] + [0.0] * 99:
        stats.round_flip7s.add(flip7)
        stats.round_busts.add(1.0)
        stats.round_points.add(10.0)
        stats.round_cards.add(3.0)
    stats.rounds = 100
    overall = stats.summary()
    low, high = overall["flip7_rate"]["ci95"]
    assert low == 0.0 < overall["flip7_rate"]["rate"] < high
    assert overall["bust_rate"]["ci95"][1] <= 1.0
