"""A whole conformance run: build the corpus, run it (in one process or several), shrink, save, report."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import shlex
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.background import in_background
from flip7_spec.conformance.cases import (
    Case,
    default_rulesets,
    fixture_cases,
    scoring_cases,
    trace_file_cases,
)
from flip7_spec.conformance.coverage import Coverage
from flip7_spec.conformance.declarations import DeclarationError, check_declarations
from flip7_spec.conformance.runner import CaseResult, run_case
from flip7_spec.conformance.shrink import shrink
from flip7_spec.conformance.steer import generated_and_aimed
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
    """What to run: scoring cases, fixtures, saved traces, and generated games.

    ``rulesets`` None means the presets the engine declares in its handshake (see :meth:`for_engine`).
    """

    rulesets: Sequence[Ruleset] | None = None
    games: int = 20
    seed: str = "0"
    players: Sequence[int] = (3, 4, 5, 6)
    fixtures: Path | None = None
    scoring: bool = True
    levels: frozenset[str] = field(default_factory=lambda: frozenset({"scoring", "round", "game"}))
    traces: Sequence[Path] = ()
    fresh_hands: bool = False
    background: bool = False
    """Record the generated games in a helper process while the engine plays (one runner only)."""
    variants: Mapping[str, Any] | None = None
    """The option values the engine declares; generated games play a mix of them (see :meth:`for_engine`)."""
    min_coverage: int = 3
    """After the generated games, aimed games until each expected clause is exercised by this many generated
    cases (see :mod:`flip7_spec.conformance.steer`); 0: no aimed games."""
    aim_cap: int = 16
    decks: bool = True
    """Whether the engine takes custom decks (aimed games may then play small decks)."""
    """Aimed candidate games tried per ruleset at most."""
    coverage: Coverage = field(default_factory=Coverage, compare=False)
    """The clause coverage of the cases yielded so far, by corpus part (filled by :meth:`cases`)."""
    _fixture_cases: list[Case] | None = field(default=None, init=False, repr=False, compare=False)

    def for_engine(self, hello: dict[str, Any]) -> Corpus:
        """This corpus with its rulesets settled (when none were given, the presets the engine declares) and the
        option values the engine declares, which generated games play."""
        variants = hello.get("options", {}) if self.variants is None else self.variants
        decks = hello.get("decks", False) is True
        if self.rulesets is not None:
            return replace(self, variants=variants, decks=decks)
        declared = hello.get("rulesets", [])
        names = [str(n) for n in declared] if isinstance(declared, list) else []
        return replace(self, rulesets=default_rulesets(names), variants=variants, decks=decks)

    @property
    def ruleset_list(self) -> Sequence[Ruleset]:
        return self.rulesets if self.rulesets is not None else default_rulesets()

    def fixture_list(self) -> list[Case]:
        """The fixture cases (read once)."""
        if self._fixture_cases is None:
            found = fixture_cases(self.fixtures) if self.fixtures is not None and self.fixtures.is_dir() else []
            self._fixture_cases = [case for case in found if case.level in self.levels]
        return self._fixture_cases

    def trace_list(self) -> list[Case]:
        """The cases of the saved traces given with ``--trace`` (``trace:PATH``)."""
        out: list[Case] = []
        for path in self.traces:
            out.extend(case for case in trace_file_cases(path, str(path), prefix="trace")
                       if case.level in self.levels)
        return out

    def cases(self) -> Iterator[Case]:
        """Every case, scoring first, then saved traces, fixtures, then generated games and aimed games
        (lazily); each case is counted in :attr:`coverage` as it is yielded."""
        if self.scoring and "scoring" in self.levels:
            for ruleset in self.ruleset_list:
                for case in (scoring_cases(ruleset, fresh=True) if self.fresh_hands else scoring_cases(ruleset)):
                    self.coverage.add_case(case, "scoring")
                    yield case
        for case in self.trace_list():
            self.coverage.add_case(case, "trace")
            yield case
        for case in self.fixture_list():
            self.coverage.add_case(case, "fixture")
            yield case
        rulesets = self.ruleset_list
        if rulesets:
            def make() -> Iterator[Case]:
                return generated_and_aimed(rulesets, self.players, self.games, self.seed, self.variants,
                                           self.min_coverage, self.aim_cap, self.decks, self.levels)

            for case in in_background(make) if self.background and self.games > 1 else make():
                self.coverage.add_case(case, "generated")
                yield case

    def size(self) -> int:
        """An estimate of the number of cases, for the progress bar."""
        generated = self.games * len({"round", "game"} & self.levels) if self.ruleset_list else 0
        scoring = 14 * len(self.ruleset_list) if self.scoring and "scoring" in self.levels else 0
        return generated + len(self.fixture_list()) + len(self.traces) + scoring


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
    try:
        check_declarations(hello)
    except DeclarationError as error:
        engine.close()
        raise EngineUnusable(f"engine {spec.name!r}: {error}") from None
    return engine, hello


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


def _finish(engine: EngineAdapter, hello: dict[str, Any], case: Case, save: Path | None,
            spec: EngineSpec | None = None) -> Outcome:
    results = run_case(engine, case, hello)
    for result in results:
        if result.outcome == FAIL and case.generated and save is not None:
            try:
                small = shrink(case, result, lambda c: run_case(engine, c, hello))
                _record_failure(small, case, result, engine, hello)
                save.mkdir(parents=True, exist_ok=True)
                name = case.id.replace("/", "_").replace(":", "_").replace("=", "-") + f"-{result.level}.json"
                path = save / name
                if spec is not None:
                    small["header"].setdefault("provenance", {})["rerun"] = rerun_command(spec, path)
                path.write_text(dumps_document(small), encoding="utf-8")
                result.shrunk = str(path)
            except Exception as error:  # shrinking must never lose the failure itself
                result.shrunk = f"(shrinking failed: {type(error).__name__}: {error})"
    decisions = sum(r.decisions for r in results if r.level != "legal")
    return Outcome(results, decisions, case if any(r.outcome == FAIL for r in results) else None)


_worker: dict[str, Any] = {}


def _worker_init(spec: EngineSpec, save: Path | None) -> None:
    engine, hello = handshake(spec)
    _worker.update(engine=engine, hello=hello, save=save, spec=spec)


def _worker_run(case: Case) -> Outcome:
    return _finish(_worker["engine"], _worker["hello"], case, _worker["save"], _worker["spec"])


def run(spec: EngineSpec, corpus: Corpus, workers: int = 1, save: Path | None = None,
        on_outcome: Callable[[Outcome], None] | None = None,
        on_start: Callable[[dict[str, Any], Corpus], None] | None = None,
        ) -> tuple[dict[str, Any], list[CaseResult], int]:
    """Run the corpus against the engine. Returns the handshake, every result, and the decisions made.

    After the handshake the corpus is settled for the engine (:meth:`Corpus.for_engine`) and handed to
    ``on_start``. Results arrive through ``on_outcome`` as cases finish, so an interrupted run still has them.
    """
    engine, hello = handshake(spec)
    corpus = replace(corpus.for_engine(hello), background=workers <= 1)
    results: list[CaseResult] = []
    decisions = 0

    def collect(outcome: Outcome) -> None:
        nonlocal decisions
        results.extend(outcome.results)
        decisions += outcome.decisions
        if on_outcome is not None:
            on_outcome(outcome)

    try:
        if on_start is not None:
            on_start(hello, corpus)
        if workers <= 1:
            for case in corpus.cases():
                collect(_finish(engine, hello, case, save, spec))
        else:
            engine.close()
            context = multiprocessing.get_context("fork")
            with context.Pool(workers, initializer=_worker_init, initargs=(spec, save)) as pool:
                for outcome in pool.imap(_worker_run, corpus.cases(), chunksize=4):
                    collect(outcome)
    finally:
        engine.close()
    return hello, results, decisions
