"""Decision policies for generated games: Hypothesis picks, thresholds, and fixed index sequences."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from flip7_spec.events import Choice, Decision
from flip7_spec.machine import Game
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.strategies.setups import Draw

Chooser = Callable[[Game, Decision], Choice]
"""A decision policy: given the game and its pending decision, one of ``decision.options``."""


def data_chooser(draw: Draw) -> Chooser:
    """A policy that asks Hypothesis for every decision: an index into the legal options (shrinking
    towards the first option: ``hit``, the lowest seat)."""

    def choose(game: Game, decision: Decision) -> Choice:
        options = decision.options
        return options[draw(st.integers(0, len(options) - 1))]

    return choose


def threshold_chooser(threshold: int) -> Chooser:
    """The built-in threshold policy (stay at ``threshold`` points, aim Actions at the leader) as a chooser."""
    policy = threshold_policy(threshold)
    rng = random.Random(0)  # the threshold policy makes no random choice; this only fills the argument

    def choose(game: Game, decision: Decision) -> Choice:
        return policy(game, decision, rng)

    return choose


def index_chooser(indices: Sequence[int], fallback: Chooser) -> Chooser:
    """A policy that takes option ``indices[k] % len(options)`` at its k-th decision, then ``fallback``."""
    queue = list(indices)
    position = [0]

    def choose(game: Game, decision: Decision) -> Choice:
        if position[0] < len(queue):
            index = queue[position[0]]
            position[0] += 1
            return decision.options[index % len(decision.options)]
        return fallback(game, decision)

    return choose


def threshold_choosers() -> st.SearchStrategy[Chooser]:
    """Threshold policies with a threshold from 1 to 40 points."""
    return st.integers(1, 40).map(threshold_chooser)


def choosers() -> st.SearchStrategy[Chooser]:
    """Decision policies as values: a threshold policy, or a list of option indices followed by one (the
    indices are a choice sequence Hypothesis shrinks like any list)."""
    indexed = st.builds(index_chooser, st.lists(st.integers(0, 255), max_size=200), threshold_choosers())
    return st.one_of(threshold_choosers(), indexed)
