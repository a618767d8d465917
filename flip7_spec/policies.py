"""Built-in decision policies: who a simulated player hits, stays and targets.

A policy is a function ``(game, decision, rng) -> choice`` that returns one of ``decision.options``.
Policies are players, not rules: they never change what is legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from flip7_spec.errors import Flip7Error
from flip7_spec.events import HIT, STAY, Choice, Decision, DecisionKind
from flip7_spec.machine import Game
from flip7_spec.registry import definition_of

Policy = Callable[[Game, Decision, random.Random], Choice]


def random_policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
    """A uniformly random legal choice."""
    options = decision.options
    return options[0] if len(options) == 1 else rng.choice(options)


def leader(game: Game, seats: tuple[Any, ...], exclude: int) -> Any:
    """The seat among ``seats`` (not ``exclude`` if possible) with the highest round score, then total."""
    others = [s for s in seats if s != exclude] or list(seats)
    return max(others, key=lambda s: (game.round_score(s), game.totals[s], -s))


def threshold_policy(threshold: int) -> Policy:
    """Stay once the round score reaches ``threshold``; every other decision is the game's own simple choice
    (its definition's ``policy_choice``: aim Actions at the leading opponent, and so on)."""
    def policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
        options = decision.options
        if decision.kind == DecisionKind.HIT_OR_STAY:
            if len(options) == 1:
                return options[0]
            return STAY if game.round_score(decision.player) >= threshold else HIT
        return definition_of(game.ruleset).policy_choice(game, decision)

    return policy


POLICIES: dict[str, str] = {
    "random": "a uniformly random legal choice at every decision",
    "threshold": "stay once the round score reaches the threshold (--threshold, default 20); "
                 "aim actions at the leading opponent",
}


def make_policy(name: str, threshold: int = 20) -> Policy:
    """The policy called ``name`` (see :data:`POLICIES`)."""
    if name == "random":
        return random_policy
    if name == "threshold":
        return threshold_policy(threshold)
    raise Flip7Error(f"unknown strategy {name!r}; strategies are {', '.join(sorted(POLICIES))}")
