"""Whole games and single rounds on the reference, 3, 6 and 18 players, threshold strategy (stay at 20).

Baselines measured in the same run:

- ``floor``: a minimal pure-Python game loop on the same deck and random generator, which only shuffles,
  draws and banks (each player draws until a bust or 20 points; no actions, no modifiers, no rule
  bookkeeping). It is a floor on what plain Python can do per game, not a Flip 7 engine.
- ``recorded``: the reference with ``record=True`` (every step and its events kept, as for a trace).

The headline figure is whole games per second, 3 players, to 200 points, stay at 20, one core.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bench.support import (
    FIGURES,
    HEADLINE_GOAL_GAMES_PER_SECOND,
    PUBLIC_JS_ROUNDS_PER_SECOND,
    PUBLIC_PYTHON_GAMES_PER_SECOND,
    PUBLIC_PYTHON_ROUNDS_PER_SECOND,
    SEED,
    Durations,
    note,
    report,
    timed,
)
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.rulesets import Ruleset
from flip7_spec.simulation.policies import Policy
from flip7_spec.simulation.simulate import Stats, game_rng, play_game, record_game

PLAYERS = (3, 6, 18)
GAMES_PER_ROUND = {3: 300, 6: 150, 18: 50}
"""Whole games timed per benchmark round (about a tenth of a second each on the reference)."""
FIRST_ROUNDS_PER_ROUND = {3: 2000, 6: 1000, 18: 400}
"""Single rounds (each from a fresh game) timed per benchmark round."""
ROUNDS = 9
HEADLINE_GAMES = 1000
HEADLINE_ROUNDS = 9

Outcome = tuple[tuple[int, ...], tuple[int, ...]]
"""The final totals and winners of a game: what must not depend on how it was timed."""


# ---- the reference --------------------------------------------------------------------------------------


def play_batch(ruleset: Ruleset, players: int, policy: Policy, games: int, record: bool) -> list[Outcome]:
    """Play games ``0 .. games-1`` of the run seeded ``SEED`` and return their outcomes."""
    out = []
    for index in range(games):
        if record:
            recorded = record_game(ruleset, players, policy, game_rng(SEED, index))
            out.append((recorded.totals, recorded.winners))
        else:
            game = play_game(ruleset, players, policy, game_rng(SEED, index))
            out.append((tuple(game.totals), tuple(game.winners)))
    return out


def count_batch(ruleset: Ruleset, players: int, policy: Policy, games: int) -> tuple[Stats, list[Outcome]]:
    """The rounds and decisions of a batch (an untimed pass) and its outcomes."""
    stats = Stats(players)
    outcomes = []
    for index in range(games):
        game = play_game(ruleset, players, policy, game_rng(SEED, index), stats=stats)
        outcomes.append((tuple(game.totals), tuple(game.winners)))
    return stats, outcomes


class _RoundOver(Exception):
    """Raised from the round-end hook to stop a game right after its first round is scored."""


def _stop(game: Game) -> None:
    raise _RoundOver


def play_first_rounds(ruleset: Ruleset, players: int, policy: Policy, count: int) -> int:
    """Set up ``count`` games (shuffle, Dealer) and play each through its first round; returns the points
    banked in all (a checksum)."""
    banked = 0
    for index in range(count):
        rng = game_rng(SEED, index)
        deck = ruleset.deck_cards(players)
        rng.shuffle(deck)
        dealer = rng.randrange(players)

        def reshuffler(discard: list[Any], rng: random.Random = rng) -> list[Any]:
            rng.shuffle(discard)
            return discard

        game = make_game(ruleset, players, deck, dealer, reshuffler, record=False)
        game.on_round_end = _stop
        try:
            game.start()
            while True:
                decision = game.pending
                assert decision is not None
                game.apply(policy(game, decision, rng))
        except _RoundOver:
            banked += sum(game.last_scores)
    return banked


# ---- the floor ------------------------------------------------------------------------------------------


def deck_values(ruleset: Ruleset, players: int) -> list[int]:
    """The deck as plain integers: a Number card's value, -1 for every other card."""
    return [c.value if c.is_number else -1 for c in ruleset.deck_cards(players)]


def floor_game(values: Sequence[int], players: int, rng: random.Random, stay: int = 20,
               target: int = 200) -> int:
    """A minimal Flip 7-like game in plain Python; returns the rounds played.

    Each round, each player in turn draws until a duplicate Number (a bust), ``stay`` points, or seven
    different Numbers; other cards are drawn and discarded. The deck is reshuffled from the discard pile
    when it runs out, and the game ends when a total reaches ``target``.
    """
    pile = list(values)
    rng.shuffle(pile)
    discard: list[int] = []
    totals = [0] * players
    rounds = 0
    while max(totals) < target:
        rounds += 1
        for seat in range(players):
            held: set[int] = set()
            points = 0
            while points < stay and len(held) < 7:
                if not pile:
                    pile, discard = discard, pile
                    rng.shuffle(pile)
                value = pile.pop()
                discard.append(value)
                if value < 0:
                    continue
                if value in held:
                    points = 0
                    break
                held.add(value)
                points += value
            totals[seat] += points
    return rounds


def floor_batch(values: Sequence[int], players: int, games: int) -> int:
    """Floor games ``0 .. games-1`` (same seeds as the reference batches); returns the rounds played."""
    return sum(floor_game(values, players, game_rng(SEED, index)) for index in range(games))


# ---- benchmarks -----------------------------------------------------------------------------------------


def rates(durations: Durations, **counts: int) -> dict[str, Any]:
    """``<name>_per_second`` (fastest round, wall clock) and ``<name>_per_cpu_second`` for each count."""
    wall, cpu = min(durations), min(durations.cpu)
    out: dict[str, Any] = {}
    for name, count in counts.items():
        out[f"{name}_per_second"] = round(count / wall, 1)
        out[f"{name}_per_cpu_second"] = round(count / cpu, 1)
    return out



@pytest.mark.parametrize("players", PLAYERS)
def test_floor_games(benchmark: Any, ruleset: Ruleset, players: int) -> None:
    """Baseline: the minimal pure-Python game loop, whole games."""
    values = deck_values(ruleset, players)
    games = GAMES_PER_ROUND[players]
    durations, rounds = timed(benchmark, lambda: floor_batch(values, players, games), ROUNDS)
    assert rounds >= games
    report(benchmark, f"floor games {players}p", "games", games, durations, players=players,
           rounds_per_game=round(rounds / games, 2), **rates(durations, rounds=rounds))


@pytest.mark.parametrize("players", PLAYERS)
def test_games_recorded(benchmark: Any, ruleset: Ruleset, policy: Policy, players: int) -> None:
    """Baseline: whole games with ``record=True`` (every step and its events kept)."""
    games = GAMES_PER_ROUND[players]
    stats, expected = count_batch(ruleset, players, policy, games)
    durations, outcomes = timed(benchmark, lambda: play_batch(ruleset, players, policy, games, True), ROUNDS)
    assert outcomes == expected, "recording changed the games"
    report(benchmark, f"recorded games {players}p", "games", games, durations,
           baseline=f"floor games {players}p", players=players,
           **rates(durations, rounds=stats.rounds, decisions=stats.decisions))


@pytest.mark.parametrize("players", PLAYERS)
def test_games(benchmark: Any, ruleset: Ruleset, policy: Policy, players: int) -> None:
    """Whole games to 200, ``record=False``: games/s, rounds/s, decisions/s."""
    games = GAMES_PER_ROUND[players]
    stats, expected = count_batch(ruleset, players, policy, games)
    durations, outcomes = timed(benchmark, lambda: play_batch(ruleset, players, policy, games, False), ROUNDS)
    assert outcomes == expected
    figure = report(benchmark, f"games {players}p", "games", games, durations,
                    baseline=f"recorded games {players}p", players=players,
                    rounds_per_game=round(stats.rounds / games, 3),
                    decisions_per_game=round(stats.decisions / games, 2),
                    **rates(durations, rounds=stats.rounds, decisions=stats.decisions,
                            player_rounds=stats.player_rounds))
    floor = FIGURES.get(f"floor games {players}p")
    if floor is not None and floor.per_cpu_second and figure.per_cpu_second:
        benchmark.extra_info["ratio_to_floor"] = round(figure.per_cpu_second / floor.per_cpu_second, 4)


@pytest.mark.parametrize("players", PLAYERS)
def test_first_rounds(benchmark: Any, ruleset: Ruleset, policy: Policy, players: int) -> None:
    """Single rounds: set up a game (shuffle, Dealer), deal, play to the end of its first round."""
    count = FIRST_ROUNDS_PER_ROUND[players]
    expected = play_first_rounds(ruleset, players, policy, count)
    durations, banked = timed(benchmark, lambda: play_first_rounds(ruleset, players, policy, count), ROUNDS)
    assert banked == expected > 0
    report(benchmark, f"first rounds {players}p", "rounds", count, durations, players=players)


def test_headline(benchmark: Any, ruleset: Ruleset, policy: Policy) -> None:
    """The headline: 3 players, whole games to 200, stay at 20, one core, ``record=False``."""
    stats, expected = count_batch(ruleset, 3, policy, HEADLINE_GAMES)
    durations, outcomes = timed(benchmark, lambda: play_batch(ruleset, 3, policy, HEADLINE_GAMES, False),
                                HEADLINE_ROUNDS)
    assert outcomes == expected
    goal = HEADLINE_GOAL_GAMES_PER_SECOND
    python_games, python_rounds = PUBLIC_PYTHON_GAMES_PER_SECOND, PUBLIC_PYTHON_ROUNDS_PER_SECOND
    comparisons: dict[str, Any] = {"goal_games_per_second": goal}
    lines = []
    bases = (("wall", "wall clock", min(durations)), ("cpu", "CPU time", min(durations.cpu)))
    for basis, label, seconds in bases:
        games, rounds = HEADLINE_GAMES / seconds, stats.rounds / seconds
        comparisons.update({
            f"goal_met_{basis}": games >= goal,
            f"ratio_to_goal_{basis}": round(games / goal, 3),
            f"ratio_to_public_python_games_{basis}": round(games / python_games, 3),
            f"ratio_to_public_python_rounds_{basis}": round(rounds / python_rounds, 3),
            f"ratio_to_public_js_rounds_{basis}": round(rounds / PUBLIC_JS_ROUNDS_PER_SECOND, 4),
        })
        js_rounds = PUBLIC_JS_ROUNDS_PER_SECOND
        lines.append(f"headline ({label}): {games:,.0f} games/s, {rounds:,.0f} rounds/s; "
                     f"goal {goal:,} games/s: {games / goal:.2f} x; public pure Python "
                     f"{python_games:,} games/s ({python_rounds:,} rounds/s): {games / python_games:.2f} x "
                     f"({rounds / python_rounds:.2f} x); public JavaScript "
                     f"{js_rounds:,} rounds/s: {rounds / js_rounds:.3f} x")
    report(benchmark, "headline: games 3p to 200, stay at 20", "games", HEADLINE_GAMES, durations,
           baseline="floor games 3p", rounds_per_game=round(stats.rounds / HEADLINE_GAMES, 3),
           **rates(durations, rounds=stats.rounds, decisions=stats.decisions), **comparisons)
    for line in lines:
        note(line)
