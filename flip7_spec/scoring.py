"""What every game's round scoring shares: the breakdown of a score, and the size of a Flip 7.

Each game scores a round as a pure function of one player's final cards (see its ``scoring`` module);
:func:`flip7_spec.play.score` finds the scorer of a ruleset's game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from flip7_spec.cards import Card

FLIP7_SIZE: Final = 7
"""Seven different Numbers in one row: a Flip 7."""


@dataclass(frozen=True, slots=True)
class Score:
    """A round score with the steps that produced it, in the order the rules apply them."""

    number_sum: int
    after_multiplier: int
    after_modifiers: int
    bonus: int
    total: int
    flip7: bool
    busted: bool

    def steps(self) -> list[str]:
        """One line per scoring step, for people."""
        if self.busted:
            return ["busted: 0"]
        return [
            f"numbers: {self.number_sum}",
            f"after multipliers: {self.after_multiplier}",
            f"after +N/-N modifiers: {self.after_modifiers}",
            f"Flip 7 bonus: {self.bonus}",
            f"total: {self.total}",
        ]


def distinct_numbers(hand: Sequence[Card]) -> int:
    """How many different Number values ``hand`` holds."""
    return len({c.value for c in hand if c.is_number})
