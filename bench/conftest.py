"""Fixtures shared by the benchmark suites, and the summary table printed at the end of the run."""

from __future__ import annotations

from typing import Any

import pytest

from bench.support import TraceCorpus, summary_lines, trace_corpus_of
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.simulation.policies import Policy, threshold_policy

CORPUS_GAMES = 60
"""Games in the trace corpus shared by the export, import and replay suites (3 players, stay at 20)."""


@pytest.fixture(scope="session")
def ruleset() -> Ruleset:
    """The official rules."""
    return preset("flip7")


@pytest.fixture(scope="session")
def policy() -> Policy:
    """The threshold strategy: stay at 20 points, aim actions at the leader."""
    return threshold_policy(20)


@pytest.fixture(scope="session")
def trace_corpus(ruleset: Ruleset, policy: Policy) -> TraceCorpus:
    """``CORPUS_GAMES`` whole games of 3 players, recorded with events and observations."""
    return trace_corpus_of(ruleset, policy, CORPUS_GAMES)


def pytest_addoption(parser: Any) -> None:
    """``--ratio-tolerance``: how much lower than the compared run a ratio may come out (see
    :func:`pytest_sessionfinish`)."""
    parser.addoption("--ratio-tolerance", type=float, default=RATIO_TOLERANCE,
                     help="with --benchmark-compare: fail when a figure's ratio to its in-run baseline is lower "
                          f"than the compared run's by more than this fraction (default {RATIO_TOLERANCE})")


RATIO_TOLERANCE = 0.15
"""The default of ``--ratio-tolerance``: ratios to in-run baselines moved by up to about 10 % between runs of
the same code on the shared 2-core machine (docs/performance.md)."""

_RATIO_LINES: list[str] = []


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    """The regression guard: with ``--benchmark-compare``, hold every figure's ratio to its in-run baseline
    (``extra_info["ratio_to_baseline"]``) to the compared run's; a ratio lower by more than
    ``--ratio-tolerance`` fails the run. Ratios, not times, because the machine is shared: a loaded machine
    slows a figure and its baseline alike."""
    bench_session = getattr(session.config, "_benchmarksession", None)
    compared = getattr(bench_session, "compared_mapping", None) or {}
    if bench_session is None or not compared:
        return
    tolerance = session.config.getoption("ratio_tolerance")
    saved: dict[str, dict[str, Any]] = {}
    for mapping in compared.values():
        for name, bench in mapping.items():
            if "ratio_to_baseline" in bench.get("extra_info", {}):
                saved[name] = bench["extra_info"]
    failed = []
    _RATIO_LINES.clear()
    for bench in bench_session.benchmarks:
        now = bench.extra_info.get("ratio_to_baseline")
        before = saved.get(bench.fullname)
        if now is None or before is None:
            continue
        then = before["ratio_to_baseline"]
        change = now / then - 1 if then else 0.0
        worse = change < -tolerance
        figure = bench.extra_info.get("figure", bench.fullname)
        _RATIO_LINES.append(f"{figure:<45} {then:8.3f} -> {now:8.3f} x {bench.extra_info.get('baseline')} "
                            f"({change:+.1%}){'  REGRESSION' if worse else ''}")
        if worse:
            failed.append(figure)
    if not _RATIO_LINES:
        _RATIO_LINES.append("no figure of this run has a ratio in the compared run")
    if failed:
        _RATIO_LINES.append(f"{len(failed)} ratio(s) fell by more than {tolerance:.0%}: {', '.join(failed)}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print every figure with its ratio to its baseline, and the notes of the run; then, with
    ``--benchmark-compare``, each ratio against the compared run's."""
    lines = summary_lines()
    if lines:
        terminalreporter.section("flip7-spec figures (rates from the fastest round)")
        for line in lines:
            terminalreporter.write_line(line)
    if _RATIO_LINES:
        terminalreporter.section("ratios to in-run baselines against the compared run")
        for line in _RATIO_LINES:
            terminalreporter.write_line(line)
