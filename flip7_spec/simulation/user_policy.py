"""Loading a user's own policy from ``MODULE:CALLABLE`` or ``path/to/file.py:CALLABLE``.

The callable receives a :class:`~flip7_spec.simulation.policy_view.PlayerView` and returns one of ``view.options``,
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

A dotted module name is found in the installed locations, then in the current folder (which never shadows an
installed module: see :mod:`flip7_spec.user_modules`).
"""

from __future__ import annotations

import importlib.util
import inspect
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from flip7_spec.errors import ModuleClash
from flip7_spec.events import Choice, Decision
from flip7_spec.interrupts import TookTooLong, time_limit
from flip7_spec.limits import POLICY_DECISION
from flip7_spec.machine import Game
from flip7_spec.simulation.policies import Policy, PolicyError, threshold_policy
from flip7_spec.simulation.policy_view import PlayerView, player_view
from flip7_spec.user_modules import import_user_module

UserPolicy = Callable[[PlayerView], Choice | None]


def load_user_policy(spec: str, parameter: int | None = None) -> Policy:
    """The policy that ``spec`` (``MODULE:CALLABLE`` or ``FILE.py:CALLABLE``) names, wrapped so that the
    engine sees an ordinary :data:`~flip7_spec.simulation.policies.Policy`; with a ``parameter``, the callable is called
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
        return import_user_module(target)
    except PolicyError:
        raise
    except ModuleClash as error:
        raise PolicyError(f"policy {spec!r}: {error}") from None
    except ModuleNotFoundError as error:
        raise PolicyError(f"policy {spec!r}: cannot import {target} ({error})") from None
    except SystemExit as error:  # the user's module tried to end the process while loading
        raise PolicyError(f"policy {spec!r}: importing {target} tried to end the process (SystemExit "
                          f"{_code(error)})") from None
    except Exception as error:  # the user's module failed while loading: say where, in one line
        raise PolicyError(f"policy {spec!r}: importing {target} raised {describe_error(error)}") from None


def describe_error(error: BaseException) -> str:
    """``TYPE: MESSAGE`` for an exception raised by a user's code, even one whose ``str`` or ``repr`` itself
    fails (the message is then left out)."""
    kind = type(error).__name__
    try:
        text = str(error)
    except Exception:  # a user's exception whose __str__ raises
        return f"{kind} (its message cannot be shown: its __str__ failed)"
    return f"{kind}: {text}" if text else kind


def _wrap(spec: str, function: Any, parameter: int | None = None) -> Policy:
    fallback = threshold_policy(20)
    extra = () if parameter is None else (parameter,)

    def policy(game: Game, decision: Decision, rng: random.Random) -> Choice:
        where = f"at a {decision.kind} decision of player {decision.player} in round {game.round}"
        try:
            with time_limit(POLICY_DECISION.value):
                choice = function(player_view(game, decision, rng), *extra)
        except TookTooLong:
            raise PolicyError(f"policy {spec} took more than {POLICY_DECISION.text} {where} (the limit of "
                              f"{POLICY_DECISION.name}): it was stopped") from None
        except SystemExit as error:
            raise PolicyError(f"policy {spec} tried to end the process (SystemExit {_code(error)}) {where}"
                              ) from None
        except Exception as error:
            kind, _, text = describe_error(error).partition(": ")
            raise PolicyError(f"policy {spec} raised {kind} {where}" + (f": {text}" if text else "")) from None
        if choice is None:
            return fallback(game, decision, rng)
        if choice not in decision.options:
            legal = ", ".join(map(str, decision.options))
            raise PolicyError(f"policy {spec} chose {_shown(choice)} {where}; legal choices: {legal}")
        return choice

    return policy


def _code(error: SystemExit) -> str:
    return _shown(error.code)


def _shown(value: object) -> str:
    """``repr(value)`` cut to 200 characters, or a stand-in when a user's object cannot give one."""
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__} (its repr failed)"
    return text if len(text) <= 200 else text[:200] + "..."
