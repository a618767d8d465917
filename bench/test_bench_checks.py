"""The heavier checks: the differential Hypothesis machine (examples per second) and ``flip7-spec prove``
(seconds). Each is skipped, with the reason, when the package does not provide it.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bench.support import report, timed
from flip7_spec.rulesets import Ruleset

EXAMPLES = 50
"""Examples of the differential machine timed per round."""


def _modules(package: ModuleType) -> list[ModuleType]:
    """``package`` and, when it is a package, its submodules."""
    out = [package]
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), package.__name__ + "."):
        try:
            out.append(importlib.import_module(info.name))
        except ImportError:
            continue
    return out


def differential_machine(engine: str | None, failures: Path) -> type[Any] | None:
    """The differential state machine of ``flip7_spec.testing`` for ``engine`` (a command; None: the
    reference in-process), or None when there is none.

    ``differential_machine(engine, failures_dir=...)`` is used when the module has it; otherwise any
    ``RuleBasedStateMachine`` subclass whose name says *differential* (against its default engine).
    """
    from hypothesis.stateful import RuleBasedStateMachine

    try:
        package = importlib.import_module("flip7_spec.testing")
    except ImportError:
        return None
    factory = getattr(package, "differential_machine", None)
    if callable(factory):
        built = factory(engine, failures_dir=failures)
        if inspect.isclass(built) and issubclass(built, RuleBasedStateMachine):
            return built
    if engine is not None:
        return None
    for module in _modules(package):
        for name, value in vars(module).items():
            if ("differential" in name.lower() and inspect.isclass(value)
                    and issubclass(value, RuleBasedStateMachine)):
                return value
    return None


def _differential_engines() -> list[str | None]:
    """The reference in-process, and the command in ``FLIP7_BENCH_DIFFERENTIAL_ENGINE`` if set."""
    command = os.environ.get("FLIP7_BENCH_DIFFERENTIAL_ENGINE")
    return [None, command] if command else [None]


@pytest.mark.parametrize("engine", _differential_engines(), ids=lambda e: "in-process" if e is None else e)
def test_differential_machine(benchmark: Any, tmp_path: Path, engine: str | None) -> None:
    """``EXAMPLES`` examples of the differential machine, derandomized: examples per second."""
    machine = differential_machine(engine, tmp_path / "failures")
    if machine is None:
        pytest.skip("flip7_spec.testing does not exist or exposes no differential state machine")
    from hypothesis import HealthCheck, Phase, settings
    from hypothesis.stateful import run_state_machine_as_test

    # No shrinking: a failure is reported as found (the properties suite is where failures are shrunk).
    config = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    run_machine: Callable[..., None] = run_state_machine_as_test
    durations, _ = timed(benchmark, lambda: run_machine(machine, settings=config), 2, warmup_rounds=0)
    name = "in-process" if engine is None else engine
    report(benchmark, f"differential machine {name}", "examples", EXAMPLES, durations,
           machine=machine.__qualname__)


def _prove_command() -> list[str] | None:
    """The ``flip7-spec prove`` command line for the official rules, when the CLI has that command."""
    from flip7_spec.cli import cli

    command = cli.commands.get("prove")
    if command is None:
        return None
    argv = [sys.executable, "-m", "flip7_spec", "prove"]
    names = {name for param in command.params for name in getattr(param, "opts", [])}
    if "--ruleset" in names:
        argv += ["--ruleset", "flip7"]
    return argv


def test_prove_command(benchmark: Any) -> None:
    """``flip7-spec prove --ruleset flip7`` in a child process: every theorem and the distinguishing cases
    (one round: the z3 work is not repeated; interpreter start-up included)."""
    argv = _prove_command()
    if argv is None:
        pytest.skip("the flip7-spec command has no prove subcommand")
    durations, completed = timed(benchmark, lambda: subprocess.run(argv, capture_output=True, text=True,
                                                                   check=False), 1, warmup_rounds=0)
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-2000:]
    report(benchmark, "flip7-spec prove (command)", "runs", 1, durations, in_process=False,
           command=" ".join(argv[1:]),
           seconds=round(durations[0], 3))


def test_prove_in_process(benchmark: Any, ruleset: Ruleset) -> None:
    """:func:`flip7_spec.symbolic.theorems.prove` for the official rules: the theorems and the check of the
    model against the reference scorer, in this process (one round)."""
    try:
        from flip7_spec.symbolic.prover import prove
    except ImportError:
        pytest.skip("flip7_spec.symbolic does not exist (or has no prover module)")
    durations, result = timed(benchmark, lambda: prove(ruleset), 1, warmup_rounds=0)
    assert result.ok, [(r.id, r.status) for r in result.results if not r.proved]
    slowest = sorted(result.results, key=lambda r: -r.seconds)[:3]
    report(benchmark, "prove flip7 (in-process)", "runs", 1, durations, theorems=len(result.results),
           seconds=round(durations[0], 3), slowest={r.id: round(r.seconds, 3) for r in slowest})
