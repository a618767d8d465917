"""Reaching an engine and running one case on it: how to start it, the handshake, and one case run, shrunk
and saved when it fails (what one process of a conformance run does, with one worker or several)."""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flip7_spec.conformance import ERRORED, FAIL
from flip7_spec.conformance.cases import part_of
from flip7_spec.conformance.declarations import DeclarationError, check_declarations
from flip7_spec.conformance.filenames import saved_failure_name
from flip7_spec.conformance.guard import GuardedEngine
from flip7_spec.conformance.shrink import shrink, shrinkable
from flip7_spec.errors import Flip7Error
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import run_case
from flip7_spec.outputs import fit_file_name, write_file
from flip7_spec.protocol import Level
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.results import CaseResult
from flip7_spec.trace.canonical import dumps_document
from flip7_spec.trace.document import add_provenance
from flip7_spec.user_modules import import_user_module


class EngineUnusable(Flip7Error):
    """The engine cannot be used at all (it does not start, or fails the handshake). ``details`` are lines to
    show under the one-line message: the command as it was run, and the engine's stderr."""

    def __init__(self, message: str, details: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.details = list(details)


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
            raise _unusable(spec, error, getattr(engine, "argv", None)) from None
        raise  # an interrupt: the engine is closed, the run stops
    try:
        check_declarations(hello)
    except DeclarationError as error:
        engine.close()
        raise EngineUnusable(f"engine {spec.name!r}: {error}") from None
    return engine, hello


STDERR_SHOWN = 40
"""Lines of an engine's stderr shown when it cannot be used (at most; the process client keeps as many)."""
STDERR_WIDTH = 500
"""Characters of one such line shown (at most)."""


def _unusable(spec: EngineSpec, error: Exception, argv: Sequence[str] | None = None) -> EngineUnusable:
    """Why the handshake failed: one line (the failure, its raw reply and the last stderr line), then the
    command line as it was run (``argv``, in this directory) and the engine's whole stderr, bounded, since the
    reason an engine cannot start (a missing file, a missing module) is rarely on its last line."""
    details = [f"command as run: {shlex.join(argv)}  (in {os.getcwd()})"] if argv else []
    if isinstance(error, EngineFailure):
        failure = error
        lines = failure.stderr.strip().splitlines() if failure.stderr else []
        tail = f"; stderr: {lines[-1]}" if lines else ""
        raw = f"; got: {failure.raw[:200]}" if failure.raw else ""
        if lines:
            shown = lines[-STDERR_SHOWN:]
            details.append(f"its stderr{f' (the last {len(shown)} lines)' if len(shown) < len(lines) else ''}:")
            details.extend(f"  {line[:STDERR_WIDTH]}{' ...' if len(line) > STDERR_WIDTH else ''}" for line in shown)
        else:
            details.append("it wrote nothing on stderr")
        return EngineUnusable(f"engine {spec.name!r} failed the handshake: {failure}{raw}{tail}", details)
    return EngineUnusable(f"engine {spec.name!r} failed the handshake: {type(error).__name__}: {error}", details)


def rerun_command(spec: EngineSpec, path: Path) -> str:
    """The command that runs the saved trace at ``path`` against the same engine again."""
    engine = f"--engine {shlex.quote(spec.command)}" if spec.command is not None else f"--python {spec.python}"
    return f"flip7-spec conform {engine} --trace {shlex.quote(str(path))}"


@dataclass
class FinishedCase:
    """One finished case, with the saved shrunk trace when it failed; ``case`` is kept only when a result
    failed or errored (reports show the game up to the divergence, or the step before the error)."""

    results: list[CaseResult]
    decisions: int
    case: Case | None = None


SAVED_FAILURE_OMITS = ("seconds", "shrunk", "raw", "stderr", "decisions")
"""Result fields a saved failure does not record in its ``header.provenance.failure``."""

SAVED_ERROR_OMITS = ("seconds", "shrunk", "decisions")
"""Result fields a saved errored case does not record (it keeps the raw reply and the stderr excerpt)."""


def _record_failure(small: dict[str, Any], case: Case, result: CaseResult, engine: EngineAdapter,
                    hello: dict[str, Any]) -> None:
    """Write into the shrunk trace's provenance the failure as it happens on that trace (its step, JSON
    path and both observations), so that the saved file alone shows both sides. An error is recorded as it
    happens on that trace too (its message, step, decision, raw reply and stderr excerpt), or as it
    happened on the case when it does not happen again or cannot be run again cheaply."""
    again = None
    if shrinkable(result):
        shrunk_case = Case(case.id, case.level, case.ruleset, trace=small)
        again = next((r for r in run_case(engine, shrunk_case, hello)
                      if r.level == result.level and r.outcome == result.outcome), None)
    if again is None and result.outcome == ERRORED:
        again = result
    if again is not None:
        omits = SAVED_ERROR_OMITS if again.outcome == ERRORED else SAVED_FAILURE_OMITS
        record = {k: v for k, v in again.to_json().items() if k not in omits}
        add_provenance(small, failure=record)


TraceWriter = Callable[[Path, str], None]
"""Writes a saved trace's text at a path (raising OSError when it cannot)."""


def finish(engine: EngineAdapter, hello: dict[str, Any], case: Case, save: Path | None,
           spec: EngineSpec | None = None, writer: TraceWriter | None = None) -> FinishedCase:
    """Run one case; when it fails or errors and ``save`` is a folder, save its trace there (a generated game
    shrunk, a fixture as it is: outside a checkout the fixtures live in the installed package; a generated
    game the engine did not answer in time whole, as shrinking would wait for it again), with the failure or
    error and the command that re-runs it in its provenance (written whole or not at all: a full disk is
    noted in the result, never a half-written file). A saved trace run again with ``--trace`` is not saved
    again; a scoring case has no trace to save (its result carries the hand and the ruleset).

    ``writer``, when given, is handed each saved trace instead of the file system (a cluster worker hands them
    back to the machine that ran the command, which writes them under ``save``)."""
    results = run_case(engine, case, hello)
    kept = case.trace is not None and (case.generated or part_of(case.id) == "fixture")
    for result in results:
        if result.outcome in (FAIL, ERRORED) and kept and save is not None:
            try:
                if case.generated and shrinkable(result):
                    small = shrink(case, result, lambda c: run_case(engine, c, hello))
                else:
                    small = json.loads(json.dumps(case.trace))  # a copy: the corpus keeps its own
                _record_failure(small, case, result, engine, hello)
            except Exception as error:  # shrinking must never lose the failure itself
                result.shrunk = f"(shrinking failed: {type(error).__name__}: {error})"
                continue
            path = save / fit_file_name(saved_failure_name(case.id, str(result.level)))  # shell-safe, not too long
            if spec is not None:
                add_provenance(small, rerun=rerun_command(spec, path))
            try:
                if writer is not None:
                    writer(path, dumps_document(small))
                else:
                    save.mkdir(parents=True, exist_ok=True)
                    write_file(path, dumps_document(small), "failing trace")
                result.shrunk = str(path)
            except OSError as error:  # OutputError included: a full disk, a folder gone
                result.shrunk = f"(not saved: {error})"
    decisions = sum(r.decisions for r in results if r.level != Level.LEGAL)
    return FinishedCase(results, decisions, case if any(r.outcome in (FAIL, ERRORED) for r in results) else None)
