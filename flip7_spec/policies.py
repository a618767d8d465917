"""Decision policies: who a simulated player hits, stays and targets.

A policy is a function ``(game, decision, rng) -> choice`` that returns one of ``decision.options``.
Policies are players, not rules: they never change what is legal.

A policy is named by a *spec* (the ``--policy`` option of ``flip7-spec simulate``):

- ``threshold:N``: stay once the round score (modifiers included) reaches N;
- ``threshold-numbers:N``: stay once the Number cards alone sum to N or more;
- ``cards:N``: stay once N cards are in front of the player;
- ``random``: a uniformly random legal choice at every decision;
- ``MODULE:CALLABLE`` or ``path/to/file.py:CALLABLE``: your own function of a
  :class:`~flip7_spec.policy_view.PlayerView` (see :mod:`flip7_spec.user_policy`).

The built-in stay rules share their other choices: aim Freeze and Flip Three at the leading opponent, give a
spare Second Chance to the trailing one, and for Vengeance choices take the first legal option that hurts an
opponent.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec import Decision, Flip7Error, Game
from flip7_spec.events import Choice
from flip7_spec.policy_view import card_count, number_sum

Policy = Callable[[Game, Decision, random.Random], Choice]
StayRule = Callable[[Game, int], bool]
"""Whether the player in ``seat`` stays (rather than hits) now."""


class PolicyError(Flip7Error, ValueError):
    """A policy spec that names no policy, or a user policy that cannot be loaded or misbehaves."""


def random_policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
    """A uniformly random legal choice."""
    options = decision.options
    return options[0] if len(options) == 1 else rng.choice(options)


def _leader(game: Game, seats: tuple[Any, ...], exclude: int) -> Any:
    """The seat among ``seats`` (not ``exclude`` if possible) with the highest round score, then total."""
    others = [s for s in seats if s != exclude] or list(seats)
    return max(others, key=lambda s: (game.round_score(s), game.totals[s], -s))


def stay_rule_policy(stays: StayRule) -> Policy:
    """Hit or stay by ``stays``; every other choice as the built-in policies make it (see the module)."""

    def policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
        kind = decision.kind
        options = decision.options
        if kind == "hit_or_stay":
            if len(options) == 1:
                return options[0]
            return "stay" if stays(game, decision.player) else "hit"
        if kind in ("target", "assign"):
            return _leader(game, options, decision.player)
        if kind == "give":
            return min(options, key=lambda s: (game.totals[s], s))
        return _vengeance_choice(game, decision)

    return policy


def threshold_policy(threshold: int) -> Policy:
    """Stay once the round score reaches ``threshold``."""
    return stay_rule_policy(lambda game, seat: game.round_score(seat) >= threshold)


def threshold_numbers_policy(threshold: int) -> Policy:
    """Stay once the Number cards alone (no modifier) sum to ``threshold`` or more."""
    return stay_rule_policy(lambda game, seat: number_sum(game, seat) >= threshold)


def cards_policy(count: int) -> Policy:
    """Stay once ``count`` cards are in front of the player."""
    return stay_rule_policy(lambda game, seat: card_count(game, seat) >= count)


def _vengeance_choice(game: Game, decision: Decision) -> Choice:
    options = decision.options
    for option in options:
        refs = option if isinstance(option, list) else [option]
        if all(isinstance(r, dict) and r.get("player") != decision.player for r in refs):
            return option
    return options[0]


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


def policy_specs_help() -> str:
    """One line per built-in policy spec, for ``--help``."""
    return "; ".join(f"{name}{':' + b.parameter if b.parameter else ''}: {b.help}" for name, b in BUILT_INS.items())


def parameterised(spec: str) -> tuple[str, int] | None:
    """``(family, value)`` when ``spec`` is a built-in policy with a parameter (``threshold:20``), else None."""
    name, _, argument = spec.partition(":")
    built_in = BUILT_INS.get(name)
    if built_in is None or built_in.parameter is None:
        return None
    return name, _whole_number(spec, argument)


def make_policy(spec: str, threshold: int = 20) -> Policy:
    """The policy named by ``spec`` (see the module). A bare ``threshold`` stays at ``threshold`` points.

    Raises :class:`PolicyError` with a one-line reason for a spec that names no policy.
    """
    if spec == "threshold":
        return threshold_policy(threshold)
    name, colon, argument = spec.partition(":")
    built_in = BUILT_INS.get(name)
    if built_in is not None:
        if built_in.build is None:
            if colon:
                raise PolicyError(f"policy {spec!r}: {name} takes no parameter")
            return random_policy
        if not colon:
            raise PolicyError(f"policy {spec!r}: give {name}:{built_in.parameter}, for example {name}:20")
        return built_in.build(_whole_number(spec, argument))
    if colon and argument.rpartition(":")[2].isidentifier():
        from flip7_spec.user_policy import load_user_policy

        return load_user_policy(spec)
    close = difflib.get_close_matches(name, BUILT_INS, n=1)
    hint = f"did you mean {close[0]}{colon}{argument}? " if close else ""
    raise PolicyError(f"unknown policy {spec!r}; {hint}policies are {', '.join(_spec_forms())} or MODULE:CALLABLE")


def seat_policies(specs: Sequence[str], players: int, threshold: int = 20) -> Policy:
    """One policy for every seat (one spec), or one spec per seat in seat order."""
    if len(specs) not in (1, players):
        raise PolicyError(f"{len(specs)} policies for {players} players: give one policy for every seat, "
                          f"or one per seat")
    built = [make_policy(spec, threshold) for spec in specs]
    if len(built) == 1:
        return built[0]

    def by_seat(game: Game, decision: Decision, rng: random.Random) -> Choice:
        return built[decision.player](game, decision, rng)

    return by_seat


def _whole_number(spec: str, argument: str) -> int:
    if not argument.isdigit():
        raise PolicyError(f"policy {spec!r}: the parameter must be a whole number >= 0, got {argument!r}")
    return int(argument)


def _spec_forms() -> list[str]:
    return [f"{name}:{b.parameter}" if b.parameter else name for name, b in BUILT_INS.items()]
