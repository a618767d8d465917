"""Fixtures shared by the benchmark suites, and the summary table printed at the end of the run."""

from __future__ import annotations

from typing import Any

import pytest

from bench.support import TraceCorpus, summary_lines, trace_corpus_of
from flip7_spec.policies import Policy, threshold_policy
from flip7_spec.rulesets import Ruleset, preset

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


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print every figure with its ratio to its baseline, and the notes of the run."""
    lines = summary_lines()
    if not lines:
        return
    terminalreporter.section("flip7-spec figures (rates from the fastest round)")
    for line in lines:
        terminalreporter.write_line(line)
