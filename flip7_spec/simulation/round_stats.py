"""Per-round statistics of a simulation: points, busts, Flip 7s and cards per player and round.

Every round that ends adds one record per seat: the points banked, whether the player busted, whether the
round ended on that player's Flip 7, and how many cards were in front of them at the end (a busting
duplicate included; a Second Chance spent with its duplicate not). The summary gives each figure with its
95% interval, overall and by seat, and the distributions of points and of cards.

Intervals treat rounds as independent, which they are in one-round experiments on fresh decks
(``simulate --rounds N``); for the rounds of whole games, where the deck carries over, they
are approximate. Seats of one round share a deck, so the overall intervals take the round as the unit (the
mean over its seats); by seat, each round is one independent outcome.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.machine import Game
from flip7_spec.simulation.intervals import Moments, wilson_interval


@dataclass(slots=True)
class SeatTally:
    """One seat's outcomes over the rounds."""

    points: Moments = field(default_factory=Moments)
    cards: Moments = field(default_factory=Moments)
    busts: int = 0
    flip7s: int = 0

    def merge(self, other: SeatTally) -> None:
        self.points.merge(other.points)
        self.cards.merge(other.cards)
        self.busts += other.busts
        self.flip7s += other.flip7s


RoundOutcome = tuple[int, int, bool, bool]
"""One seat's round: the points banked, the cards in front of the player, whether they busted, whether the
round ended on their Flip 7."""


@dataclass(slots=True)
class RoundStats:
    """Counts over rounds; :meth:`add_round` is the game's round-end hook, :meth:`merge` joins workers.

    Each seat's rounds are counted by outcome (most rounds repeat one of a few hundred), and the seat's
    figures are made from those counts when asked for (:attr:`seats`): the same sums as adding the
    rounds one by one, since they are sums of whole numbers. The figures of whole rounds (means over the
    seats) are added as each round ends, in order.
    """

    players: int
    rounds: int = 0
    outcomes: list[Counter[RoundOutcome]] = field(default_factory=list)
    round_points: Moments = field(default_factory=Moments)
    round_busts: Moments = field(default_factory=Moments)
    round_flip7s: Moments = field(default_factory=Moments)
    round_cards: Moments = field(default_factory=Moments)

    def __post_init__(self) -> None:
        if not self.outcomes:
            self.outcomes = [Counter() for _ in range(self.players)]

    def add_round(self, game: Game) -> None:
        """Record the round that ``game`` has just scored (its cards are still on the table)."""
        self.rounds += 1
        flip7_seat = game.last_flip7
        scores = game.last_scores
        busted = game.last_busted
        cards = [len(p.cards) for p in game.players]
        for seat, outcomes in enumerate(self.outcomes):
            outcomes[(scores[seat], cards[seat], busted[seat], seat == flip7_seat)] += 1
        n = self.players
        self.round_points.add(sum(scores) / n)
        self.round_busts.add(sum(busted) / n)
        self.round_flip7s.add((flip7_seat is not None) / n)
        self.round_cards.add(sum(cards) / n)

    @property
    def seats(self) -> list[SeatTally]:
        """Each seat's tally, from its outcomes."""
        return [_tally(outcomes) for outcomes in self.outcomes]

    @property
    def points_seen(self) -> Counter[int]:
        """Player-rounds by points banked."""
        return _seen(self.outcomes, 0)

    @property
    def cards_seen(self) -> Counter[int]:
        """Player-rounds by cards in front of the player at the round's end."""
        return _seen(self.outcomes, 1)

    def merge(self, other: RoundStats) -> None:
        self.rounds += other.rounds
        for mine, theirs in zip(self.outcomes, other.outcomes, strict=True):
            mine.update(theirs)
        self.round_points.merge(other.round_points)
        self.round_busts.merge(other.round_busts)
        self.round_flip7s.merge(other.round_flip7s)
        self.round_cards.merge(other.round_cards)

    def summary(self) -> dict[str, Any]:
        """The figures as JSON: overall, by seat, and the distributions (value -> player-rounds)."""
        return {
            "rounds": self.rounds,
            "player_rounds": self.rounds * self.players,
            **self._overall(),
            "points_distribution": {str(k): v for k, v in sorted(self.points_seen.items())},
            "cards_distribution": {str(k): v for k, v in sorted(self.cards_seen.items())},
            "by_seat": [{"seat": seat, **_seat_figures(tally, self.rounds)} for seat, tally in enumerate(self.seats)],
        }

    def _overall(self) -> dict[str, Any]:
        if self.players == 1:  # one seat: each round is one independent outcome
            return _seat_figures(self.seats[0], self.rounds)
        return {
            "points_per_round": _mean(self.round_points, 3),
            "bust_rate": _mean(self.round_busts, 4, key="rate"),
            "flip7_rate": _mean(self.round_flip7s, 4, key="rate"),
            "cards_per_round": _mean(self.round_cards, 3),
        }


def _tally(outcomes: Counter[RoundOutcome]) -> SeatTally:
    """A seat's tally from its outcomes: sums of whole numbers, so exactly what adding them round by round
    gives."""
    tally = SeatTally()
    rounds = sum(outcomes.values())
    points, cards = tally.points, tally.cards
    points.n = cards.n = rounds
    points.total = float(sum(count * p for (p, _, _, _), count in outcomes.items()))
    points.squares = float(sum(count * p * p for (p, _, _, _), count in outcomes.items()))
    cards.total = float(sum(count * c for (_, c, _, _), count in outcomes.items()))
    cards.squares = float(sum(count * c * c for (_, c, _, _), count in outcomes.items()))
    tally.busts = sum(count for (_, _, busted, _), count in outcomes.items() if busted)
    tally.flip7s = sum(count for (_, _, _, flip7), count in outcomes.items() if flip7)
    return tally


def _seen(outcomes: list[Counter[RoundOutcome]], part: int) -> Counter[int]:
    """Player-rounds by one part of the outcome (0: points, 1: cards), over every seat."""
    seen: Counter[int] = Counter()
    for counts in outcomes:
        for outcome, count in counts.items():
            seen[outcome[part]] += count
    return seen


def _seat_figures(tally: SeatTally, rounds: int) -> dict[str, Any]:
    return {
        "points_per_round": _mean(tally.points, 3),
        "bust_rate": _rate(tally.busts, rounds),
        "flip7_rate": _rate(tally.flip7s, rounds),
        "cards_per_round": _mean(tally.cards, 3),
    }


def _mean(moments: Moments, digits: int, key: str = "mean") -> dict[str, Any]:
    low, high = moments.interval()
    if key == "rate":  # a rate lies in [0, 1]: the normal interval of a rare event's mean may reach past either
        low, high = max(0.0, low), min(1.0, high)
    figures: dict[str, Any] = {key: round(moments.mean, digits), "ci95": [round(low, digits), round(high, digits)]}
    if key == "mean":
        figures["sd"] = round(moments.sd, digits)
    return figures


def _rate(successes: int, trials: int) -> dict[str, Any]:
    low, high = wilson_interval(successes, trials)
    return {"rate": round(successes / trials, 4) if trials else None, "ci95": [round(low, 4), round(high, 4)]}
