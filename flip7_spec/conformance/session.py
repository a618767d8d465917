"""A whole conformance run: build the corpus, run it (in one process or several), shrink, save, report."""

from __future__ import annotations

import importlib
import multiprocessing
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
from flip7_spec.errors import Flip7Error
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

    def open(self) -> EngineAdapter:
        if self.command is not None:
            return ProcessEngine(self.command, timeout=self.timeout)
        assert self.python is not None
        module_name, _, attribute = self.python.partition(":")
        if os.getcwd() not in sys.path:  # import from the current directory, as `python -m` would
            sys.path.insert(0, os.getcwd())
        try:
            factory = getattr(importlib.import_module(module_name), attribute or "Engine")
        except (ImportError, AttributeError) as error:
            raise EngineUnusable(f"cannot load in-process engine {self.python!r}: {error}") from None
        engine = factory()
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


def handshake(spec: EngineSpec) -> tuple[EngineAdapter, dict[str, Any]]:
    """Open the engine and say hello; raise :class:`EngineUnusable` with the reason if that fails."""
    engine = spec.open()
    try:
        hello = engine.hello()
    except EngineFailure as failure:
        engine.close()
        tail = f"; stderr: {failure.stderr.strip().splitlines()[-1]}" if failure.stderr.strip() else ""
        raw = f"; got: {failure.raw[:200]}" if failure.raw else ""
        raise EngineUnusable(f"engine {spec.name!r} failed the handshake: {failure}{raw}{tail}") from None
    except Exception as error:
        engine.close()
        raise EngineUnusable(f"engine {spec.name!r} failed the handshake: {type(error).__name__}: {error}") from None
    return engine, hello


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


def _finish(engine: EngineAdapter, hello: dict[str, Any], case: Case, save: Path | None) -> Outcome:
    results = run_case(engine, case, hello)
    for result in results:
        if result.outcome == FAIL and case.generated and save is not None:
            try:
                small = shrink(case, result, lambda c: run_case(engine, c, hello))
                _record_failure(small, case, result, engine, hello)
                save.mkdir(parents=True, exist_ok=True)
                name = case.id.replace("/", "_").replace(":", "_").replace("=", "-") + f"-{result.level}.json"
                path = save / name
                path.write_text(dumps_document(small), encoding="utf-8")
                result.shrunk = str(path)
            except Exception as error:  # shrinking must never lose the failure itself
                result.shrunk = f"(shrinking failed: {type(error).__name__}: {error})"
    decisions = sum(r.decisions for r in results if r.level != "legal")
    return Outcome(results, decisions, case if any(r.outcome == FAIL for r in results) else None)


_worker: dict[str, Any] = {}


def _worker_init(spec: EngineSpec, save: Path | None) -> None:
    engine, hello = handshake(spec)
    _worker.update(engine=engine, hello=hello, save=save)


def _worker_run(case: Case) -> Outcome:
    return _finish(_worker["engine"], _worker["hello"], case, _worker["save"])


def run(spec: EngineSpec, corpus: Corpus, workers: int = 1, save: Path | None = None,
        on_outcome: Callable[[Outcome], None] | None = None) -> tuple[dict[str, Any], list[CaseResult], int]:
    """Run the corpus against the engine. Returns the handshake, every result, and the decisions made.

    Results arrive through ``on_outcome`` as cases finish, so an interrupted run still has them.
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
                collect(_finish(engine, hello, case, save))
        else:
            engine.close()
            context = multiprocessing.get_context("fork")
            with context.Pool(workers, initializer=_worker_init, initargs=(spec, save)) as pool:
                for outcome in pool.imap(_worker_run, corpus.cases(), chunksize=4):
                    collect(outcome)
    finally:
        engine.close()
    return hello, results, decisions
