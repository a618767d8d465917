"""A whole conformance run: build the corpus, run it (in one process or several), shrink, save, report."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Protocol

from flip7_spec.conformance import PASS, SKIPPED
from flip7_spec.conformance.aimed import BATCH, RUN_BUDGET, generated_and_aimed
from flip7_spec.conformance.background import in_background
from flip7_spec.conformance.campaign import Campaign
from flip7_spec.conformance.cases import default_rulesets, fixture_cases, scoring_cases
from flip7_spec.conformance.coverage import Coverage
from flip7_spec.conformance.engines import (
    SAVED_FAILURE_OMITS,
    EngineSpec,
    EngineUnusable,
    FinishedCase,
    finish,
    handshake,
    rerun_command,
)
from flip7_spec.conformance.fingerprint import fingerprint_cases
from flip7_spec.conformance.workers import WorkerPool
from flip7_spec.judge.case import Case, trace_file_cases
from flip7_spec.protocol import CHECKED_LEVELS, TRACE_LEVELS, Level
from flip7_spec.results import CaseResult
from flip7_spec.rulesets import Ruleset

__all__ = ["SAVED_FAILURE_OMITS", "Corpus", "EngineSpec", "EngineUnusable", "FinishedCase", "finish", "handshake",
           "rerun_command", "run"]


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
    levels: frozenset[Level] = CHECKED_LEVELS
    traces: Sequence[Path] = ()
    fresh_hands: bool = False
    background: bool = False
    """Record the generated games in a helper process while the engine plays (one runner only)."""
    variants: Mapping[str, Any] | None = None
    """The option values the engine declares; generated games play a mix of them (see :meth:`for_engine`)."""
    min_coverage: int = 3
    """After the generated games, aimed games until each expected clause is exercised by this many generated
    cases (see :mod:`flip7_spec.conformance.aimed`); 0: no aimed games."""
    aim_cap: int | None = None
    """Aimed candidate games tried per ruleset at most (a budget the rulesets share); None: the run's default
    budget, :data:`~flip7_spec.conformance.aimed.RUN_BUDGET` candidates split among its rulesets."""
    decks: bool = True
    """Whether the engine takes custom decks (aimed games may then play small decks)."""
    only: tuple[str, ...] = ()
    """Shell-style patterns of case ids (``fixture:flip7/tie-*``): when given, only the cases whose id matches
    one of them run (``conform --only``)."""
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

    def candidates_per_ruleset(self) -> int:
        """The aimed candidates each ruleset may play (see :attr:`aim_cap`)."""
        if self.aim_cap is not None:
            return self.aim_cap
        return max(BATCH, RUN_BUDGET // max(1, len(self.ruleset_list)))

    @property
    def ruleset_list(self) -> Sequence[Ruleset]:
        return self.rulesets if self.rulesets is not None else default_rulesets()

    def wanted(self, case: Case) -> bool:
        """Whether ``case`` is one of those :attr:`only` asks for (every case when it is empty)."""
        return not self.only or any(fnmatchcase(case.id, pattern) for pattern in self.only)

    def generates(self) -> bool:
        """Whether generated games may be wanted: some, unless every :attr:`only` pattern names another part
        (a generated case's id starts with ``round:`` or ``game:``)."""
        if not self.only:
            return True
        heads = [re.split(r"[*?\[]", pattern, maxsplit=1)[0] for pattern in self.only]
        return any(part.startswith(head) or head.startswith(part) for head in heads for part in ("round:", "game:"))

    def fixture_list(self) -> list[Case]:
        """The fixture cases (read once)."""
        if self._fixture_cases is None:
            found = fixture_cases(self.fixtures) if self.fixtures is not None and self.fixtures.is_dir() else []
            found = fingerprint_cases(found, self.ruleset_list)  # a fingerprint's reference deviates
            self._fixture_cases = [case for case in found if case.level in self.levels and self.wanted(case)]
        return self._fixture_cases

    def trace_list(self) -> list[Case]:
        """The cases of the saved traces given with ``--trace`` (``trace:PATH``)."""
        out: list[Case] = []
        for path in self.traces:
            out.extend(case for case in trace_file_cases(path, str(path), prefix="trace")
                       if case.level in self.levels and self.wanted(case))
        return out

    def cases(self) -> Iterator[Case]:
        """Every case, scoring first, then saved traces, fixtures, then generated games and aimed games
        (lazily); each case is counted in :attr:`coverage` as it is yielded. With :attr:`background`, the
        helper process starts generating before the first case is yielded."""
        rulesets = self.ruleset_list
        self.coverage.own = frozenset(r.name for r in rulesets)
        generated: Iterator[Case] = iter(())
        if rulesets and self.generates():
            def make() -> Iterator[Case]:
                return generated_and_aimed(rulesets, self.players, self.games, self.seed, self.variants,
                                           self.min_coverage, self.candidates_per_ruleset(), self.decks,
                                           self.levels)

            if self.background and self.games > 1:
                helper = in_background(make)
                first = next(helper, None)  # the helper is running from here on
                generated = itertools.chain([] if first is None else [first], helper)
            else:
                generated = make()
        if self.scoring and Level.SCORING in self.levels:
            for ruleset in self.ruleset_list:
                for case in (scoring_cases(ruleset, fresh=True) if self.fresh_hands else scoring_cases(ruleset)):
                    if self.wanted(case):
                        self.coverage.add_case(case, "scoring")
                        yield case
        for case in self.trace_list():
            self.coverage.add_case(case, "trace")
            yield case
        for case in self.fixture_list():
            self.coverage.add_case(case, "fixture")
            yield case
        for case in generated:
            if self.wanted(case):
                self.coverage.add_case(case, "generated")
                yield case

    def size(self) -> int:
        """An estimate of the number of cases, for the progress bar."""
        generated = self.games * len(TRACE_LEVELS & self.levels) if self.generates() else 0
        generated = generated if self.ruleset_list else 0
        scoring = 14 * len(self.ruleset_list) if self.scoring and Level.SCORING in self.levels else 0
        return generated + len(self.fixture_list()) + len(self.traces) + scoring


class CasePool(Protocol):
    """Runs the cases somewhere else than the command's process (:class:`~.cluster.ClusterPool`): checks the
    engine where it runs and returns its handshake, then runs cases, delivering outcomes in case order."""

    def hello(self) -> dict[str, Any]: ...

    def run(self, cases: Iterator[Case], deliver: Callable[[FinishedCase], None],
            finished: Callable[[Case, FinishedCase], None] | None = None) -> None: ...


KEPT_PASSED = 2_000
"""Passed cases a run keeps at most for the fingerprint's check (their traces stay in memory)."""


def run(spec: EngineSpec, corpus: Corpus, workers: int = 1, save: Path | None = None,
        on_outcome: Callable[[FinishedCase], None] | None = None,
        on_start: Callable[[dict[str, Any], Corpus], None] | None = None,
        passed: list[Case] | None = None, pool: CasePool | None = None,
        campaign: Campaign | None = None, isolated: bool = False) -> tuple[dict[str, Any], list[CaseResult], int]:
    """Run the corpus against the engine. Returns the handshake, every result, and the decisions made.

    After the handshake the corpus is settled for the engine (:meth:`Corpus.for_engine`) and handed to
    ``on_start``. Results arrive through ``on_outcome`` as cases finish, so an interrupted run still has them.
    With several ``workers``, each runs its own engine (see :mod:`.workers`). ``passed``, when given, receives
    the cases that passed (those of the :data:`KEPT_PASSED` smallest ids, in id order), against which a
    fingerprint is checked. ``isolated`` runs the cases in a worker process even with one worker (the command
    line does so for an in-process engine: one that ends or crashes its process then errors a case, instead
    of ending the run).

    With a ``pool``, the cases run there (a cluster) and its handshake is the run's. With a ``campaign``,
    each finished case is recorded as it finishes and the cases it recorded before are not run again: their
    recorded outcomes arrive in their place (see :mod:`.campaign`).
    """
    engine, hello = handshake(spec) if pool is None else (None, pool.hello())
    if campaign is not None:
        try:
            campaign.begin(hello)
        except BaseException:
            if engine is not None:
                engine.close()
            raise
    pooled = workers > 1 or isolated
    corpus = replace(corpus.for_engine(hello), background=not pooled and pool is None)
    results: list[CaseResult] = []
    decisions = 0

    running: dict[str, Case] = {}

    def remembered(cases: Iterator[Case]) -> Iterator[Case]:
        for case in cases:
            if passed is not None:
                running[case.id] = case
            yield case

    def collect(outcome: FinishedCase) -> None:
        nonlocal decisions
        results.extend(outcome.results)
        case = running.pop(outcome.results[0].case_id, None) if outcome.results else None
        if case is not None and passed is not None and all(r.outcome == PASS for r in outcome.results):
            bisect.insort(passed, case, key=lambda c: c.id)
            if len(passed) > KEPT_PASSED:
                passed.pop()  # keep the smallest ids: the same cases whatever order they finished in
        if outcome.results and all(r.outcome == SKIPPED for r in outcome.results):
            corpus.coverage.skipped(outcome.results[0].case_id, outcome.results[0].message)  # it checked nothing
        decisions += outcome.decisions
        if on_outcome is not None:
            on_outcome(outcome)

    def inline(cases: Iterator[Case], deliver: Callable[[FinishedCase], None],
               finished: Callable[[Case, FinishedCase], None] | None = None) -> None:
        assert engine is not None
        for case in cases:
            outcome = finish(engine, hello, case, save, spec)
            if finished is not None:
                finished(case, outcome)
            deliver(outcome)

    try:
        if on_start is not None:
            on_start(hello, corpus)
        runner: Callable[[Iterator[Case], Callable[[FinishedCase], None], Callable[[Case, FinishedCase], None] | None],
                         None] = inline
        if pool is not None:
            runner = pool.run
        elif pooled:
            assert engine is not None
            engine.close()
            runner = WorkerPool(spec, max(workers, 1), save).run
        if campaign is not None:
            campaign.run(runner, remembered(corpus.cases()), collect)
        else:
            runner(remembered(corpus.cases()), collect, None)
    finally:
        if engine is not None:
            engine.close()
    return hello, results, decisions
