"""Reaching an engine and running one case on it: how to start it, the handshake, and one case run, shrunk
and saved when it fails (what one process of a conformance run does, with one worker or several)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.cases import Case, part_of
from flip7_spec.conformance.declarations import DeclarationError, check_declarations
from flip7_spec.conformance.guard import GuardedEngine
from flip7_spec.conformance.runner import CaseResult, run_case
from flip7_spec.conformance.shrink import shrink
from flip7_spec.errors import Flip7Error
from flip7_spec.outputs import fit_file_name, write_file
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.trace.canonical import dumps_document
from flip7_spec.user_modules import import_user_module


class EngineUnusable(Flip7Error):
    """The engine cannot be used at all (it does not start, or fails the handshake)."""


@dataclass(frozen=True)
class EngineSpec:
    """How to reach the engine: a command (a child process) or ``module:attribute`` (an in-process adapter
    class or factory)."""

    command: str | None = None
    python: str | None = None
    timeout: float = 10.0

    @property
    def name(self) -> str:
        return self.command or f"python:{self.python}"

    def open(self, on_spawn: Callable[[int], None] | None = None) -> EngineAdapter:
        """A new adapter for the engine (a process engine starts its process on first use, telling
        ``on_spawn`` its pid each time it starts one)."""
        if self.command is not None:
            engine = ProcessEngine(self.command, timeout=self.timeout)
            engine.on_spawn = on_spawn
            return engine
        assert self.python is not None
        module_name, _, attribute = self.python.partition(":")
        try:  # the current folder is searched after the installed modules, never shadowing one
            factory = getattr(import_user_module(module_name), attribute or "Engine")
        except Exception as error:  # ImportError, AttributeError, or the module's own error on import
            raise EngineUnusable(f"cannot load in-process engine {self.python!r}: {type(error).__name__}: "
                                 f"{error}") from None
        try:
            engine = factory()
        except Exception as error:  # the engine's own code failed while building it
            raise EngineUnusable(f"cannot build in-process engine {self.python!r}: {type(error).__name__}: "
                                 f"{error}") from None
        if not isinstance(engine, EngineAdapter):
            raise EngineUnusable(f"{self.python} did not build an EngineAdapter")
        return GuardedEngine(engine, self.timeout)  # bounded like a process engine, and it cannot end the run


def handshake(spec: EngineSpec, on_spawn: Callable[[int], None] | None = None
              ) -> tuple[EngineAdapter, dict[str, Any]]:
    """Open the engine and say hello; raise :class:`EngineUnusable` with the reason if that fails.

    An interrupt during the handshake closes the engine before it propagates.
    """
    try:
        engine = spec.open(on_spawn)
    except EngineFailure as failure:
        raise EngineUnusable(f"engine {spec.name!r} cannot be used: {failure}") from None
    try:
        hello = engine.hello()
    except BaseException as error:
        engine.close()
        if isinstance(error, Exception):
            raise _unusable(spec, error) from None
        raise  # an interrupt: the engine is closed, the run stops
    try:
        check_declarations(hello)
    except DeclarationError as error:
        engine.close()
        raise EngineUnusable(f"engine {spec.name!r}: {error}") from None
    return engine, hello


def _unusable(spec: EngineSpec, error: Exception) -> EngineUnusable:
    """Why the handshake failed, as one line: the failure, its raw reply and the last stderr line."""
    if isinstance(error, EngineFailure):
        failure = error
        tail = f"; stderr: {failure.stderr.strip().splitlines()[-1]}" if failure.stderr.strip() else ""
        raw = f"; got: {failure.raw[:200]}" if failure.raw else ""
        return EngineUnusable(f"engine {spec.name!r} failed the handshake: {failure}{raw}{tail}")
    return EngineUnusable(f"engine {spec.name!r} failed the handshake: {type(error).__name__}: {error}")


def rerun_command(spec: EngineSpec, path: Path) -> str:
    """The command that runs the saved trace at ``path`` against the same engine again."""
    engine = f"--engine {shlex.quote(spec.command)}" if spec.command is not None else f"--python {spec.python}"
    return f"flip7-spec conform {engine} --trace {shlex.quote(str(path))}"


@dataclass
class Outcome:
    """One finished case, with the saved shrunk trace when it failed; ``case`` is kept only when a result
    failed (reports show the game up to the divergence)."""

    results: list[CaseResult]
    decisions: int
    case: Case | None = None


SAVED_FAILURE_OMITS = ("seconds", "shrunk", "raw", "stderr", "decisions")
"""Result fields a saved failure does not record in its ``header.provenance.failure``."""


def _record_failure(small: dict[str, Any], case: Case, result: CaseResult, engine: EngineAdapter,
                    hello: dict[str, Any]) -> None:
    """Write into the shrunk trace's provenance the failure as it happens on that trace (its step, JSON
    path and both observations), so that the saved file alone shows both sides."""
    shrunk_case = Case(case.id, case.level, case.ruleset, trace=small)
    again = next((r for r in run_case(engine, shrunk_case, hello) if r.level == result.level and r.outcome == FAIL),
                 None)
    if again is not None:
        record = {k: v for k, v in again.to_json().items() if k not in SAVED_FAILURE_OMITS}
        small["header"].setdefault("provenance", {})["failure"] = record


def finish(engine: EngineAdapter, hello: dict[str, Any], case: Case, save: Path | None,
           spec: EngineSpec | None = None) -> Outcome:
    """Run one case; when it fails and ``save`` is a folder, save its trace there (a generated game shrunk, a
    fixture as it is: outside a checkout the fixtures live in the installed package), with the failure and
    the command that re-runs it in its provenance (written whole or not at all: a full disk is noted in the
    result, never a half-written file). A saved trace run again with ``--trace`` is not saved again."""
    results = run_case(engine, case, hello)
    kept = case.trace is not None and (case.generated or part_of(case.id) == "fixture")
    for result in results:
        if result.outcome == FAIL and kept and save is not None:
            try:
                if case.generated:
                    small = shrink(case, result, lambda c: run_case(engine, c, hello))
                else:
                    small = json.loads(json.dumps(case.trace))  # a copy: the corpus keeps its own
                _record_failure(small, case, result, engine, hello)
            except Exception as error:  # shrinking must never lose the failure itself
                result.shrunk = f"(shrinking failed: {type(error).__name__}: {error})"
                continue
            name = case.id.replace("/", "_").replace(":", "_").replace("=", "-") + f"-{result.level}.json"
            path = save / fit_file_name(name)  # a long seed must not make the name unusable
            if spec is not None:
                small["header"].setdefault("provenance", {})["rerun"] = rerun_command(spec, path)
            try:
                save.mkdir(parents=True, exist_ok=True)
                write_file(path, dumps_document(small), "failing trace")
                result.shrunk = str(path)
            except OSError as error:  # OutputError included: a full disk, a folder gone
                result.shrunk = f"(not saved: {error})"
    decisions = sum(r.decisions for r in results if r.level != "legal")
    return Outcome(results, decisions, case if any(r.outcome == FAIL for r in results) else None)
