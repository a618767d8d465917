"""Policy specs as the command line writes them: ``threshold:20``, ``threshold-numbers:20``, ``cards:4``,
``random``, or a user's ``MODULE:CALLABLE`` / ``file.py:CALLABLE``, with ``:N`` for a callable that takes a
parameter (see :mod:`flip7_spec.simulation.user_policy`)."""

from __future__ import annotations

import difflib
import random
from collections.abc import Sequence

from flip7_spec.events import Choice, Decision
from flip7_spec.machine import Game
from flip7_spec.simulation.policies import BUILT_INS, Policy, PolicyError, random_policy, threshold_policy
from flip7_spec.simulation.user_policy import load_user_policy


def policy_specs_help() -> str:
    """One line per built-in policy spec, for ``--help``."""
    return "; ".join(f"{name}{':' + b.parameter if b.parameter else ''}: {b.help}" for name, b in BUILT_INS.items())


def sweep_family(spec: str) -> str | None:
    """What ``--sweep`` appends each value to (``FAMILY`` of ``FAMILY:N``), or None for a spec without a
    parameter: a built-in policy that takes one, with or without a value (``threshold-numbers`` and
    ``threshold-numbers:20`` both give ``threshold-numbers``), or a user's ``MODULE:CALLABLE`` or
    ``FILE.py:CALLABLE``, with or without ``:N`` (its callable is then called with the value as a second
    argument, see :func:`~flip7_spec.simulation.user_policy.load_user_policy`)."""
    name, _, _ = spec.partition(":")
    built_in = BUILT_INS.get(name)
    if built_in is not None:
        return name if built_in.parameter is not None else None
    base, _ = user_parameter(spec)
    target, colon, callable_name = base.rpartition(":")
    return base if colon and target and callable_name.isidentifier() else None


def user_parameter(spec: str) -> tuple[str, int | None]:
    """A user policy spec split into ``MODULE:CALLABLE`` and its whole-number parameter, when it ends in
    ``:N`` (``my_bot.py:careful:18`` gives ``("my_bot.py:careful", 18)``)."""
    head, colon, tail = spec.rpartition(":")
    if colon and ":" in head and tail.isascii() and tail.isdigit():
        return head, int(tail)
    return spec, None


def parameterised(spec: str) -> tuple[str, int] | None:
    """``(family, value)`` when ``spec`` is a built-in policy with a parameter (``threshold:20``), else None."""
    name, _, argument = spec.partition(":")
    built_in = BUILT_INS.get(name)
    if built_in is None or built_in.parameter is None:
        return None
    return name, _whole_number(spec, argument)


def user_policies(specs: Sequence[str]) -> list[str]:
    """The specs among ``specs`` that name a user's policy (``MODULE:CALLABLE``, ``file.py:CALLABLE``)."""
    return [spec for spec in specs if spec != "threshold" and spec.partition(":")[0] not in BUILT_INS]


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
    base, parameter = user_parameter(spec)
    if colon and base.rpartition(":")[2].isidentifier():
        return load_user_policy(base, parameter)
    close = difflib.get_close_matches(name, BUILT_INS, n=1)
    hint = f"did you mean {close[0]}{colon}{argument}? " if close else ""
    raise PolicyError(f"unknown policy {spec!r}; {hint}policies are {', '.join(_spec_forms())} or MODULE:CALLABLE"
                      "[:N]")


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
