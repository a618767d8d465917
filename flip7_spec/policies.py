"""Built-in decision policies: who a simulated player hits, stays and targets.

A policy is a function ``(game, decision, rng) -> choice`` that returns one of ``decision.options``.
Policies are players, not rules: they never change what is legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from flip7_spec.engine import Game
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision

Policy = Callable[[Game, Decision, random.Random], Choice]


def random_policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
    """A uniformly random legal choice."""
    options = decision.options
    return options[0] if len(options) == 1 else rng.choice(options)


def _leader(game: Game, seats: tuple[Any, ...], exclude: int) -> Any:
    """The seat among ``seats`` (not ``exclude`` if possible) with the highest round score, then total."""
    others = [s for s in seats if s != exclude] or list(seats)
    return max(others, key=lambda s: (game.round_score(s), game.totals[s], -s))


def threshold_policy(threshold: int) -> Policy:
    """Stay once the round score reaches ``threshold``; aim Freeze and Flip Three at the leading opponent;
    give a spare Second Chance to the trailing one; for Vengeance choices, take the first legal option
    that hurts an opponent (see :func:`_vengeance_choice`)."""

    def policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
        kind = decision.kind
        options = decision.options
        if kind == "hit_or_stay":
            if len(options) == 1:
                return options[0]
            return "stay" if game.round_score(decision.player) >= threshold else "hit"
        if kind in ("target", "assign"):
            return _leader(game, options, decision.player)
        if kind == "give":
            return min(options, key=lambda s: (game.totals[s], s))
        return _vengeance_choice(game, decision)

    return policy


def _vengeance_choice(game: Game, decision: Decision) -> Choice:
    options = decision.options
    for option in options:
        refs = option if isinstance(option, list) else [option]
        if all(isinstance(r, dict) and r.get("player") != decision.player for r in refs):
            return option
    return options[0]


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
