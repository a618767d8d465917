"""The default conform run with clause coverage and aimed games, against the same run as it was before them.

Both runs are :func:`flip7_spec.conformance.session.run` against the reference behind the protocol
(``python -m flip7_spec serve`` in a child process) with every default of ``flip7-spec conform``: 40 generated
games over the presets the engine declares, the shipped fixtures and the scoring cases. The *before* run is the
same corpus without aimed games (``min_coverage=0``) and without counting coverage: games recorded in a helper
process while the engine plays, as the generator did before coverage; the *after* run is the default (the
helper also counts each case's clauses, then aims games at the short ones). Target: after / before at most
1.5 (wall clock).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import pytest

from bench.support import note, report
from flip7_spec.conformance import aimed as aimed_games
from flip7_spec.conformance.cases import generated_game
from flip7_spec.conformance.coverage import Coverage
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.fixtures import shipped_fixtures_dir

SERVE = EngineSpec(command=f"{sys.executable} -m flip7_spec serve")


def _default_run(aimed: bool) -> tuple[float, int]:
    corpus = Corpus(games=40, seed="0", fixtures=shipped_fixtures_dir())
    if not aimed:
        corpus.min_coverage = 0
    started = time.perf_counter()
    _, results, _ = run(SERVE, corpus)
    return time.perf_counter() - started, len(results)


def test_default_run_with_coverage_and_aimed_games(benchmark: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    runs: dict[str, tuple[float, int]] = {}

    def both() -> None:
        with monkeypatch.context() as patch:
            patch.setattr(Coverage, "add_case", lambda self, case, part: frozenset())
            patch.setattr(aimed_games, "played_clauses", lambda job: (
                generated_game(job.ruleset, job.players, job.seed, job.index), (frozenset(), frozenset())))
            runs["before"] = _default_run(aimed=False)
        runs["after"] = _default_run(aimed=True)

    benchmark.pedantic(both, rounds=1, iterations=1)
    before, before_results = runs["before"]
    after, after_results = runs["after"]
    ratio = after / before
    report(benchmark, "conform default with coverage", "runs", 1, [after], in_process=False,
           before_seconds=round(before, 2), after_over_before=round(ratio, 3))
    note(f"default conform against serve: before {before:.2f} s ({before_results} results), after "
         f"{after:.2f} s ({after_results} results); after / before = {ratio:.2f}")
    assert ratio <= 1.5, f"the default run with coverage and aimed games took {ratio:.2f} times as long"
