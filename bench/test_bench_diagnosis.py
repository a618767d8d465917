"""What diagnosis costs: the same corpus against an engine that fails every case, and against the reference.

The failing engine is the mutant that never passes the deck on (``tests/mutants/dealer_fixed``): every
game case diverges at its second round, late enough that each reading's replay is long, so every such case is
diagnosed (every option value and every misreading of the catalogue replayed) and followed past its first
divergence. The reference run is the same corpus against the reference adapter, in-process too, one after the
other in the same benchmark. The target: the failing run takes at most 3 times the reference run.
"""

from __future__ import annotations

import time
from typing import Any

from bench.support import note, report
from flip7_spec.conformance import FAIL
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.fixtures import shipped_fixtures_dir
from flip7_spec.rulesets import preset

CORPUS = Corpus(rulesets=[preset("flip7")], games=40, seed="0", fixtures=shipped_fixtures_dir())


def timed(engine: str) -> tuple[float, int, int]:
    """(seconds, failed game cases, game cases) of one run of :data:`CORPUS` against the in-process
    ``engine``; the game cases counted are the plain generated games (an aimed game often ends with its first
    round, before the Dealer moves)."""
    started = time.perf_counter()
    _, results, _ = run(EngineSpec(python=engine), CORPUS)
    games = [r for r in results if r.level == "game" and r.case_id.startswith("game:") and ":aimed/" not in r.case_id]
    return time.perf_counter() - started, sum(r.outcome == FAIL for r in games), len(games)


def test_diagnosing_every_case_costs_at_most_three_times_a_passing_run(benchmark: Any) -> None:
    runs: dict[str, tuple[float, int, int]] = {}

    def both() -> None:
        runs["reference"] = timed("flip7_spec.protocol.adapter:ReferenceAdapter")
        runs["failing"] = timed("tests.mutants.dealer_fixed:Engine")

    benchmark.pedantic(both, rounds=1, iterations=1)
    reference_seconds, reference_failures, _ = runs["reference"]
    failing_seconds, failures, results = runs["failing"]
    ratio = failing_seconds / reference_seconds
    report(benchmark, "conform with diagnosis of every case", "runs", 1, [failing_seconds], in_process=True,
           reference_seconds=round(reference_seconds, 2), failing_over_reference=round(ratio, 3),
           failures=failures)
    note(f"the flip7 corpus (40 games, fixtures, scoring): against the reference {reference_seconds:.2f} s; "
         f"against an engine failing {failures} of {results} generated games, diagnosed: {failing_seconds:.2f} s "
         f"({ratio:.2f}x)")
    assert reference_failures == 0
    assert failures == results, "the failing engine should fail every generated game"
    assert ratio <= 3.0, f"diagnosis made the run {ratio:.2f}x slower than a passing one"
