"""The read-only view of a game that a decision policy sees: a stable, documented interface.

A policy written against :class:`PlayerView` keeps working whatever the engine's internals become: the view
is built from the game's public state (cards in front of each player, statuses, round scores, totals, pile
sizes) and is a frozen value, so a policy cannot change the game by accident. See docs/simulation.md.

Fields that hold cards use the canonical card texts (``"7"``, ``"+4"``, ``"x2"``, ``"FREEZE"``; see
:mod:`flip7_spec.cards`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from flip7_spec.events import Choice, Decision
from flip7_spec.machine import Game

__all__ = [
    "PlayerView",
    "SeatView",
    "card_count",
    "number_sum",
    "player_view",
    "seat_view",
]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat at the table, as everyone can see it."""

    seat: int
    """The seat number, from 0."""
    status: str
    """``active`` (still playing the round), ``stayed``, ``frozen`` or ``busted``."""
    cards: tuple[str, ...]
    """Every card in front of the player, in the order received (a busting duplicate included)."""
    numbers: tuple[int, ...]
    """The values of the Number cards among ``cards``, in the order received."""
    number_sum: int
    """The sum of ``numbers``: what the Number cards alone are worth, before any modifier."""
    round_score: int
    """What the player would bank if the round ended now (0 once busted)."""
    total: int
    """The points banked in earlier rounds."""


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What the player who must decide sees: the pending decision, every seat, and the piles.

    ``cards``, ``numbers``, ``number_sum``, ``round_score`` and ``total`` are the deciding player's own;
    ``seats`` holds every seat (the deciding one included) in seat order.
    """

    decision: Decision
    """The pending decision: ``player``, ``kind`` (see :mod:`flip7_spec.events`), ``card`` and ``options``."""
    seats: tuple[SeatView, ...]
    round: int
    """The round being played, from 1."""
    dealer: int
    """The Dealer's seat this round."""
    draw_pile: int
    """How many cards are left to draw before the discard pile is reshuffled."""
    discard_pile: int
    """How many cards are in the discard pile."""
    target_score: int
    """The total that ends the game (the ruleset's ``target_score``)."""
    rng: random.Random = field(compare=False, repr=False)
    """The game's random generator: draw from it (and only from it) so a run stays reproducible."""

    @property
    def seat(self) -> int:
        """The deciding player's seat."""
        return self.decision.player

    @property
    def me(self) -> SeatView:
        """The deciding player's seat view."""
        return self.seats[self.decision.player]

    @property
    def kind(self) -> str:
        """The kind of the pending decision: ``hit_or_stay``, ``target``, ``give``, ``assign``, ..."""
        return self.decision.kind

    @property
    def options(self) -> tuple[Choice, ...]:
        """The legal choices; a policy returns one of them."""
        return self.decision.options

    @property
    def cards(self) -> tuple[str, ...]:
        return self.me.cards

    @property
    def numbers(self) -> tuple[int, ...]:
        return self.me.numbers

    @property
    def number_sum(self) -> int:
        return self.me.number_sum

    @property
    def round_score(self) -> int:
        return self.me.round_score

    @property
    def total(self) -> int:
        return self.me.total

    @property
    def totals(self) -> tuple[int, ...]:
        """Every seat's banked total, in seat order."""
        return tuple(s.total for s in self.seats)

    @property
    def opponents(self) -> tuple[SeatView, ...]:
        """Every other seat, in seat order."""
        return tuple(s for s in self.seats if s.seat != self.decision.player)


def seat_view(game: Game, seat: int) -> SeatView:
    """The public view of one seat of ``game``."""
    row = game.players[seat].cards
    numbers = tuple(c.value for c in row if c.is_number)
    return SeatView(seat, game.status(seat), tuple(c.text for c in row), numbers, sum(numbers),
                    game.round_score(seat), game.totals[seat])


def player_view(game: Game, decision: Decision, rng: random.Random) -> PlayerView:
    """The view of ``game`` for the player who must make ``decision``."""
    return PlayerView(decision, tuple(seat_view(game, s) for s in range(game.n)), game.round, game.dealer,
                      len(game.draw_pile()), len(game.discard), game.ruleset.target_score, rng)


def number_sum(game: Game, seat: int) -> int:
    """The sum of the Number cards in front of ``seat`` (a cheap read for the built-in policies)."""
    return sum(c.value for c in game.players[seat].cards if c.is_number)


def card_count(game: Game, seat: int) -> int:
    """How many cards are in front of ``seat``."""
    return len(game.players[seat].cards)
