"""A whole conformance run: build the corpus, run it (in one process or several), shrink, save, report."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.cases import Case, fixture_cases, generated_cases, scoring_cases
from flip7_spec.conformance.runner import CaseResult, run_case
from flip7_spec.conformance.shrink import shrink
from flip7_spec.conformance.workers import WorkerPool
from flip7_spec.errors import Flip7Error
from flip7_spec.outputs import write_file
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.canonical import dumps_document


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
        if os.getcwd() not in sys.path:  # import from the current directory, as `python -m` would
            sys.path.insert(0, os.getcwd())
        try:
            factory = getattr(importlib.import_module(module_name), attribute or "Engine")
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
        return engine


@dataclass
class Corpus:
    """What to run: scoring cases, fixtures, and generated games."""

    rulesets: Sequence[Ruleset]
    games: int = 20
    seed: str = "0"
    players: Sequence[int] = (3, 4, 5, 6)
    fixtures: Path | None = None
    scoring: bool = True
    levels: frozenset[str] = field(default_factory=lambda: frozenset({"scoring", "round", "game"}))

    def cases(self) -> Iterator[Case]:
        """Every case, scoring first, then fixtures, then generated games (lazily)."""
        if self.scoring and "scoring" in self.levels:
            for ruleset in self.rulesets:
                yield from scoring_cases(ruleset)
        if self.fixtures is not None and self.fixtures.is_dir():
            for case in fixture_cases(self.fixtures):
                if case.level in self.levels:
                    yield case
        for case in generated_cases(self.rulesets, self.players, self.games, self.seed):
            if case.level in self.levels:
                yield case

    def size(self) -> int:
        """An estimate of the number of cases, for the progress bar."""
        generated = self.games * len({"round", "game"} & self.levels)
        fixtures = len(fixture_cases(self.fixtures)) if self.fixtures is not None and self.fixtures.is_dir() else 0
        return generated + fixtures + (8 * len(self.rulesets) if self.scoring else 0)


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
    return engine, hello


def _unusable(spec: EngineSpec, error: Exception) -> EngineUnusable:
    """Why the handshake failed, as one line: the failure, its raw reply and the last stderr line."""
    if isinstance(error, EngineFailure):
        failure = error
        tail = f"; stderr: {failure.stderr.strip().splitlines()[-1]}" if failure.stderr.strip() else ""
        raw = f"; got: {failure.raw[:200]}" if failure.raw else ""
        return EngineUnusable(f"engine {spec.name!r} failed the handshake: {failure}{raw}{tail}")
    return EngineUnusable(f"engine {spec.name!r} failed the handshake: {type(error).__name__}: {error}")


@dataclass
class Outcome:
    """One finished case, with the saved shrunk trace when it failed."""

    results: list[CaseResult]
    decisions: int


def finish(engine: EngineAdapter, hello: dict[str, Any], case: Case, save: Path | None) -> Outcome:
    """Run one case; when it fails and ``save`` is a folder, shrink it and save the small trace there
    (written whole or not at all: a full disk is noted in the result, never a half-written file)."""
    results = run_case(engine, case, hello)
    for result in results:
        if result.outcome == FAIL and case.generated and save is not None:
            try:
                small = shrink(case, result, lambda c: run_case(engine, c, hello))
            except Exception as error:  # shrinking must never lose the failure itself
                result.shrunk = f"(shrinking failed: {type(error).__name__}: {error})"
                continue
            name = case.id.replace("/", "_").replace(":", "_").replace("=", "-") + f"-{result.level}.json"
            path = save / name
            try:
                save.mkdir(parents=True, exist_ok=True)
                write_file(path, dumps_document(small), "failing trace")
                result.shrunk = str(path)
            except OSError as error:  # OutputError included: a full disk, a folder gone
                result.shrunk = f"(not saved: {error})"
    decisions = sum(r.decisions for r in results if r.level != "legal")
    return Outcome(results, decisions)


def run(spec: EngineSpec, corpus: Corpus, workers: int = 1, save: Path | None = None,
        on_outcome: Callable[[Outcome], None] | None = None) -> tuple[dict[str, Any], list[CaseResult], int]:
    """Run the corpus against the engine. Returns the handshake, every result, and the decisions made.

    Results arrive through ``on_outcome`` as cases finish, so an interrupted run still has them. With
    several ``workers``, each runs its own engine (see :mod:`.workers`).
    """
    engine, hello = handshake(spec)
    results: list[CaseResult] = []
    decisions = 0

    def collect(outcome: Outcome) -> None:
        nonlocal decisions
        results.extend(outcome.results)
        decisions += outcome.decisions
        if on_outcome is not None:
            on_outcome(outcome)

    try:
        if workers <= 1:
            for case in corpus.cases():
                collect(finish(engine, hello, case, save))
        else:
            engine.close()
            WorkerPool(spec, workers, save).run(corpus.cases(), collect)
    finally:
        engine.close()
    return hello, results, decisions
