"""Playing whole games with built-in policies, for statistics and for recording traces.

Each game ``i`` of a run with seed ``S`` draws all its chance (the deck order, the Dealer, every reshuffle
order and every random choice) from its own generator seeded with ``"S:i"``, so a run can be split across
processes and still give the same games. The seed is provenance only: a recorded trace holds the orders
themselves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.errors import LimitError
from flip7_spec.events import Choice, Decision
from flip7_spec.limits import DECISIONS
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.rulesets import Ruleset
from flip7_spec.simulation.policies import Policy
from flip7_spec.trace.record import GENERATOR, GameRecord

__all__ = [
    "MAX_DECISIONS_PER_GAME",
    "Stats",
    "game_rng",
    "play_game",
    "play_games",
    "record_game",
    "record_games",
]

MAX_DECISIONS_PER_GAME = DECISIONS.value  # far above any real game: a game that never ends is stopped here


@dataclass(slots=True)
class Stats:
    """Counts over many games, for the ``simulate`` summary."""

    players: int
    games: int = 0
    rounds: int = 0
    decisions: int = 0
    player_rounds: int = 0
    score_sum: int = 0
    busts: int = 0
    flip7s: int = 0
    wins: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0.0] * self.players

    def add_round(self, game: Game) -> None:
        self.rounds += 1
        self.player_rounds += len(game.last_scores)
        self.score_sum += sum(game.last_scores)
        self.busts += sum(game.last_busted)
        self.flip7s += game.last_flip7 is not None

    def add_game(self, game: Game) -> None:
        self.games += 1
        for seat in game.winners:
            self.wins[seat] += 1 / len(game.winners)

    def merge(self, other: Stats) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.decisions += other.decisions
        self.player_rounds += other.player_rounds
        self.score_sum += other.score_sum
        self.busts += other.busts
        self.flip7s += other.flip7s
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]

    def summary(self) -> dict[str, Any]:
        rounds = max(self.rounds, 1)
        player_rounds = max(self.player_rounds, 1)
        games = max(self.games, 1)
        return {
            "games": self.games,
            "rounds": self.rounds,
            "decisions": self.decisions,
            "mean_rounds_per_game": round(self.rounds / games, 3),
            "mean_round_score": round(self.score_sum / player_rounds, 3),
            "bust_rate": round(self.busts / player_rounds, 4),
            "flip7_rate": round(self.flip7s / rounds, 4),
            "win_rate_by_seat": [round(w / games, 4) for w in self.wins],
        }


def game_rng(seed: int | str, index: int) -> random.Random:
    """The generator of game ``index`` in a run seeded with ``seed``."""
    return random.Random(f"{seed}:{index}")


def _dealt(ruleset: Ruleset, players: int, rng: random.Random, record: bool = False) -> Game:
    """A game of ``ruleset`` for ``players`` not yet started, its chance drawn from ``rng``: the deck order,
    then the Dealer, then each reshuffle order as it is needed. With ``record`` it keeps its history."""
    deck = ruleset.deck_cards(players)
    rng.shuffle(deck)
    dealer = rng.randrange(players)

    def reshuffler(discard: list[Any]) -> list[Any]:
        rng.shuffle(discard)
        return discard

    return make_game(ruleset, players, deck, dealer, reshuffler, record)


def _play_out(game: Game, policy: Policy, rng: random.Random, stats: Stats | None = None,
             observations: list[dict[str, Any]] | None = None, seed: str = "",
             watch: Callable[[Game], None] | None = None) -> Game:
    """Start ``game`` and play it to its end with ``policy``; returns it. Every round and the game are added
    to ``stats``; with ``observations``, the observation after the start and after each decision is
    appended to it; ``watch`` is handed the game before it starts (to hook its round ends, say). Raises
    :class:`LimitError` for a game that does not end within ``MAX_DECISIONS_PER_GAME`` decisions (``seed``
    names it)."""
    if stats is not None:
        game.on_round_end = stats.add_round
    if watch is not None:
        watch(game)
    game.start()
    decisions = 0

    def choose(game: Game, decision: Decision) -> Choice:
        nonlocal decisions
        decisions += 1
        if decisions > MAX_DECISIONS_PER_GAME:
            raise LimitError(f"game {seed or 0} of {game.named_ruleset.name} did not end within "
                             f"{MAX_DECISIONS_PER_GAME:,} decisions (the limit of {DECISIONS.name}): its players "
                             f"never bring it to an end")
        return policy(game, decision, rng)

    if observations is None and not game.recording:
        game.play_out(choose)  # the fast path: the game asks the policy itself at each decision
    else:
        if observations is not None:
            observations.append(game.observation())
        apply = game.apply
        while not game.over:
            decision = game.pending
            assert decision is not None
            apply(choose(game, decision))
            if observations is not None:
                observations.append(game.observation())
    if stats is not None:
        stats.add_game(game)
        stats.decisions += decisions
    return game


def play_game(ruleset: Ruleset, players: int, policy: Policy, rng: random.Random, stats: Stats | None = None,
              seed: str = "") -> Game:
    """Play one whole game, keeping no history (the fast path, for statistics); returns it finished."""
    return _play_out(_dealt(ruleset, players, rng), policy, rng, stats, seed=seed)


def record_game(ruleset: Ruleset, players: int, policy: Policy, rng: random.Random, observe: bool = False,
                stats: Stats | None = None, seed: str = "", generator: str = GENERATOR,
                watch: Callable[[Game], None] | None = None) -> GameRecord:
    """Play one whole game as :func:`play_game` does (the same chance, the same game) and return its record,
    with the observation after every step when ``observe``; ``seed`` and ``generator`` are its provenance;
    ``watch`` is handed the game before it starts."""
    observations: list[dict[str, Any]] | None = [] if observe else None
    game = _play_out(_dealt(ruleset, players, rng, record=True), policy, rng, stats, observations, seed, watch)
    return GameRecord.of(game, observations=observations or (), seed=seed, generator=generator)


def play_games(ruleset: Ruleset, players: int, policy: Policy, seed: int | str, games: range,
               stats: Stats | None = None) -> Iterator[Game]:
    """Play games ``games`` (indices) of the run seeded with ``seed``, yielding each as it ends."""
    for index in games:
        yield play_game(ruleset, players, policy, game_rng(seed, index), stats, seed=f"{seed}:{index}")


def record_games(ruleset: Ruleset, players: int, policy: Policy, seed: int | str, games: range,
                 observe: bool = False, stats: Stats | None = None, generator: str = GENERATOR
                 ) -> Iterator[GameRecord]:
    """The records of games ``games`` (indices) of the run seeded with ``seed`` (the games
    :func:`play_games` plays), yielding each as it ends."""
    for index in games:
        yield record_game(ruleset, players, policy, game_rng(seed, index), observe, stats, f"{seed}:{index}",
                          generator)
