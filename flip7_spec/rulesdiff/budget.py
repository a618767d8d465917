"""The work a rules diff may do, counted in games played on both sides (not seconds: the same budget gives
the same answer on any machine), and the progress line that reports it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


class Spent(Exception):
    """The budget is used up."""


@dataclass
class Budget:
    """Games (each played on both sides) that may still be played; ``report`` is called with a line of
    progress every ``every`` games."""

    games: int
    report: Callable[[str], None] | None = None
    every: int = 2000
    used: int = 0
    stage: str = field(default="")

    def spend(self) -> None:
        """Count one game; raise :class:`Spent` once the budget is used up."""
        if self.used >= self.games:
            raise Spent(f"the budget of {self.games:,} games is used up")
        self.used += 1
        if self.report is not None and self.used % self.every == 0:
            self.report(f"{self.stage}: {self.used:,} of {self.games:,} games")

    @property
    def left(self) -> int:
        return max(0, self.games - self.used)

    def share(self, part: float) -> Budget:
        """A budget of ``part`` of what is left, reporting as this one does; what it uses counts here too
        (:meth:`settle`)."""
        return Budget(max(1, int(self.left * part)), self.report, self.every, 0, self.stage)

    def settle(self, part: Budget) -> None:
        """Count what ``part`` (from :meth:`share`) used."""
        self.used += part.used
