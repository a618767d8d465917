"""Loading a user's own policy from ``MODULE:CALLABLE`` or ``path/to/file.py:CALLABLE``.

The callable receives a :class:`~flip7_spec.policy_view.PlayerView` and returns one of ``view.options``,
or ``None`` to leave that decision to the built-in ``threshold:20`` policy (handy for a policy that only
cares about hitting and staying)::

    # my_policy.py
    def careful(view):
        if view.kind == "hit_or_stay":
            return "stay" if view.number_sum >= 18 or len(view.numbers) >= 5 else "hit"
        return None

    $ flip7-spec simulate --policy my_policy.py:careful

A policy may take a whole-number parameter as a second argument, given as ``:N`` after its name (and swept by
``--sweep``)::

    def stay_on(view, points):
        return "stay" if view.number_sum >= points else "hit" if view.kind == "hit_or_stay" else None

    $ flip7-spec simulate --policy my_policy.py:stay_on:18
    $ flip7-spec simulate --policy my_policy.py:stay_on --sweep 14:30 --rounds 10000

A dotted module name is imported as ``python -m`` would find it: the current folder comes first.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from flip7_spec.events import Choice, Decision
from flip7_spec.machine import Game
from flip7_spec.policies import Policy, PolicyError, threshold_policy
from flip7_spec.policy_view import PlayerView, player_view

UserPolicy = Callable[[PlayerView], Choice | None]


def load_user_policy(spec: str, parameter: int | None = None) -> Policy:
    """The policy that ``spec`` (``MODULE:CALLABLE`` or ``FILE.py:CALLABLE``) names, wrapped so that the
    engine sees an ordinary :data:`~flip7_spec.policies.Policy`; with a ``parameter``, the callable is called
    with it as a second argument. Raises :class:`PolicyError` when the module cannot be imported, has no
    such callable, or the callable cannot be called with (or without) a parameter as asked."""
    target, _, name = spec.rpartition(":")
    drive_free = target[2:] if target[1:3] in (":\\", ":/") else target  # a Windows path: C:\\bots\\mine.py
    if not target or not name.isidentifier() or ":" in drive_free:
        raise PolicyError(f"policy {spec!r}: expected MODULE:CALLABLE or path/to/file.py:CALLABLE")
    module = _import(spec, target)
    function = getattr(module, name, None)
    if function is None:
        raise PolicyError(f"policy {spec!r}: {target} has no attribute {name!r}")
    if not callable(function):
        raise PolicyError(f"policy {spec!r}: {target}.{name} is not callable")
    _check_arguments(spec, name, function, parameter)
    return _wrap(spec if parameter is None else f"{spec}:{parameter}", function, parameter)


def _check_arguments(spec: str, name: str, function: Any, parameter: int | None) -> None:
    """A one-line error unless ``function`` can be called with a view, and the parameter when there is one."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin or C callable without a signature: find out when it is called
        return
    arguments: tuple[Any, ...] = (None,) if parameter is None else (None, parameter)
    try:
        signature.bind(*arguments)
    except TypeError:
        if parameter is None:
            raise PolicyError(f"policy {spec!r}: {name}{signature} needs more than the view: give its parameter "
                              f"as {spec}:N, or sweep it with --sweep") from None
        raise PolicyError(f"policy {spec}:{parameter}: {name}{signature} takes no parameter besides the view "
                          f"(define it as {name}(view, n) to give it one)") from None


def _import(spec: str, target: str) -> ModuleType:
    try:
        if target.endswith(".py"):
            path = Path(target)
            if not path.is_file():
                raise PolicyError(f"policy {spec!r}: no such file {target}")
            module_name = f"flip7_user_policy_{abs(hash(path.resolve()))}"
            loader_spec = importlib.util.spec_from_file_location(module_name, path)
            if loader_spec is None or loader_spec.loader is None:
                raise PolicyError(f"policy {spec!r}: cannot load {target}")
            module = importlib.util.module_from_spec(loader_spec)
            sys.modules[module_name] = module  # dataclasses and pickling look modules up by name
            loader_spec.loader.exec_module(module)
            return module
        if "" not in sys.path and "." not in sys.path:
            sys.path.insert(0, "")
        return importlib.import_module(target)
    except PolicyError:
        raise
    except ModuleNotFoundError as error:
        raise PolicyError(f"policy {spec!r}: cannot import {target} ({error})") from None
    except Exception as error:  # the user's module failed while loading: say where, in one line
        raise PolicyError(f"policy {spec!r}: importing {target} raised {type(error).__name__}: {error}") from None


def _wrap(spec: str, function: Any, parameter: int | None = None) -> Policy:
    fallback = threshold_policy(20)
    extra = () if parameter is None else (parameter,)

    def policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
        try:
            choice = function(player_view(game, decision, rng), *extra)
        except Exception as error:
            raise PolicyError(f"policy {spec} raised {type(error).__name__} at a {decision.kind} decision of "
                              f"player {decision.player} in round {game.round}: {error}") from None
        if choice is None:
            return fallback(game, decision, rng)
        if choice not in decision.options:
            legal = ", ".join(map(str, decision.options))
            raise PolicyError(f"policy {spec} chose {choice!r} at a {decision.kind} decision of player "
                              f"{decision.player} in round {game.round}; legal choices: {legal}")
        return choice

    return policy
