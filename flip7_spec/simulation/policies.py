"""Decision policies: who a simulated player hits, stays and targets.

A policy is a function ``(game, decision, rng) -> choice`` that returns one of ``decision.options``.
Policies are players, not rules: they never change what is legal.

A policy is named by a *spec* (the ``--policy`` option of ``flip7-spec simulate``):

- ``threshold:N``: stay once the round score (modifiers included) reaches N;
- ``threshold-numbers:N``: stay once the Number cards alone sum to N or more;
- ``cards:N``: stay once N cards are in front of the player;
- ``random``: a uniformly random legal choice at every decision;
- ``MODULE:CALLABLE`` or ``path/to/file.py:CALLABLE``: your own function of a
  :class:`~flip7_spec.simulation.policy_view.PlayerView` (see :mod:`flip7_spec.simulation.user_policy`).

The built-in stay rules share their other choices: aim Freeze and Flip Three at the leading opponent, give a
spare Second Chance to the trailing one, and for Vengeance choices take the first legal option that hurts an
opponent.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flip7_spec.errors import Flip7Error
from flip7_spec.events import HIT, STAY, Choice, Decision, DecisionKind
from flip7_spec.machine import Game
from flip7_spec.registry import definition_of
from flip7_spec.simulation.policy_view import card_count, number_sum

__all__ = [
    "BUILT_INS",
    "POLICIES",
    "BuiltIn",
    "Policy",
    "PolicyError",
    "StayRule",
    "cards_policy",
    "leader",
    "random_policy",
    "stay_rule_policy",
    "threshold_numbers_policy",
    "threshold_policy",
]

Policy = Callable[[Game, Decision, random.Random], Choice]
StayRule = Callable[[Game, int], bool]
"""Whether the player in ``seat`` stays (rather than hits) now."""


class PolicyError(Flip7Error, ValueError):
    """A policy spec that names no policy, or a user policy that cannot be loaded or misbehaves."""


def random_policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
    """A uniformly random legal choice."""
    options = decision.options
    return options[0] if len(options) == 1 else rng.choice(options)


def leader(game: Game, seats: tuple[Any, ...], exclude: int) -> Any:
    """The seat among ``seats`` (not ``exclude`` if possible) with the highest round score, then total."""
    others = [s for s in seats if s != exclude] or list(seats)
    return max(others, key=lambda s: (game.round_score(s), game.totals[s], -s))


def stay_rule_policy(stays: StayRule) -> Policy:
    """Hit or stay by ``stays``; every other decision is the game's own simple choice (its definition's
    ``policy_choice``: aim Actions at the leading opponent, and so on)."""

    def policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
        options = decision.options
        if decision.kind == DecisionKind.HIT_OR_STAY:
            if len(options) == 1:
                return options[0]
            return STAY if stays(game, decision.player) else HIT
        return definition_of(game.ruleset).policy_choice(game, decision)

    return policy


def threshold_policy(threshold: int) -> Policy:
    """Stay once the round score reaches ``threshold`` (the same choices as a :func:`stay_rule_policy` on the
    round score, written out: simulations spend much of their time here)."""
    hit_or_stay = DecisionKind.HIT_OR_STAY

    def policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
        if decision.kind == hit_or_stay:
            options = decision.options
            if len(options) == 1:
                return options[0]
            return STAY if game.round_score(decision.player) >= threshold else HIT
        return definition_of(game.ruleset).policy_choice(game, decision)

    return policy


def threshold_numbers_policy(threshold: int) -> Policy:
    """Stay once the Number cards alone (no modifier) sum to ``threshold`` or more."""
    return stay_rule_policy(lambda game, seat: number_sum(game, seat) >= threshold)


def cards_policy(count: int) -> Policy:
    """Stay once ``count`` cards are in front of the player."""
    return stay_rule_policy(lambda game, seat: card_count(game, seat) >= count)


@dataclass(frozen=True, slots=True)
class BuiltIn:
    """A built-in policy family: its description and, when it takes one, its parameter's meaning."""

    build: Callable[[int], Policy] | None
    help: str
    parameter: str | None = None


BUILT_INS: dict[str, BuiltIn] = {
    "threshold": BuiltIn(threshold_policy, "stay once the round score (modifiers included) reaches N", "N"),
    "threshold-numbers": BuiltIn(threshold_numbers_policy, "stay once the Number cards alone sum to N or more",
                                 "N"),
    "cards": BuiltIn(cards_policy, "stay once N cards are in front of the player", "N"),
    "random": BuiltIn(None, "a uniformly random legal choice at every decision"),
}

POLICIES: dict[str, str] = {
    "random": "a uniformly random legal choice at every decision",
    "threshold": "stay once the round score reaches the threshold (--threshold, default 20); "
                 "aim actions at the leading opponent",
}
"""The names ``--strategy`` accepts (the older form of ``--policy``)."""
