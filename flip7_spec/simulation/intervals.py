"""95% confidence intervals for the means and rates a simulation reports.

A mean gets the normal interval ``mean ± 1.96·s/√n`` (s the sample standard deviation); a rate of
independent yes/no outcomes gets the Wilson score interval, which stays inside [0, 1] and is honest for
rare events (a Flip 7 rate of a few percent) where the normal interval is not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


@dataclass(slots=True)
class Moments:
    """Running count, sum and sum of squares of a sample: enough for its mean and interval, and mergeable."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    @property
    def sd(self) -> float:
        """The sample standard deviation (n - 1 in the denominator); 0 for fewer than two values."""
        if self.n < 2:
            return 0.0
        variance = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(variance, 0.0))

    def interval(self) -> tuple[float, float]:
        """The normal 95% interval of the mean."""
        if not self.n:
            return (math.nan, math.nan)
        half = Z95 * self.sd / math.sqrt(self.n)
        return (self.mean - half, self.mean + half)


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a rate of ``successes`` in ``trials`` independent trials."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))
