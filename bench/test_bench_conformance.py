"""Conformance over the protocol: decisions per second.

The corpus is ``GAMES`` generated games of the official rules (3 to 6 players, mixed random and threshold
play), each giving a round case and a game case, as ``flip7-spec conform`` builds them. Figures:

- ``generate cases``: building the corpus (playing and recording the reference games), timed alone.
- ``run_case <engine>``: the pre-generated cases run against an engine already started and greeted: only
  talking to the engine and comparing its observations. Engines: the reference in-process
  (``ReferenceAdapter``, the baseline), the reference behind the protocol in a child process
  (``python -m flip7_spec serve``), and the bundled JavaScript engine (``node examples/js-engine/engine.js``,
  skipped when node or the file is missing).
- ``session.run <engine>``: :func:`flip7_spec.conformance.session.run` end to end (start the engine,
  handshake, generate the games, run them), over the same games.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.support import SEED, report, timed
from flip7_spec.conformance import PASS
from flip7_spec.conformance.cases import generated_cases
from flip7_spec.conformance.session import Corpus, EngineSpec, handshake, run
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import CaseResult, run_case
from flip7_spec.rulesets import Ruleset

GAMES = 20
PLAYERS = (3, 4, 5, 6)
ROUNDS = 3
ROOT = Path(__file__).resolve().parents[1]
JS_ENGINE = ROOT / "examples" / "js-engine" / "engine.js"

IN_PROCESS = "in-process"
ENGINES = {
    IN_PROCESS: EngineSpec(python="flip7_spec.protocol.adapter:ReferenceAdapter"),
    "serve": EngineSpec(command=f"{sys.executable} -m flip7_spec serve"),
    "node": EngineSpec(command=f"node {JS_ENGINE}"),
}


def _available(name: str) -> None:
    if name == "node":
        if shutil.which("node") is None:
            pytest.skip("node is not installed")
        if not JS_ENGINE.is_file():
            pytest.skip(f"{JS_ENGINE.relative_to(ROOT)} does not exist")


def _decisions(results: list[CaseResult]) -> int:
    """Decisions sent to the engine (the ``legal`` results repeat their case's decisions)."""
    return sum(r.decisions for r in results if r.level != "legal")


def _all_pass(results: list[CaseResult]) -> None:
    failed = [f"{r.case_id} {r.level}: {r.outcome} {r.message}" for r in results if r.outcome != PASS]
    assert not failed, failed[:3]


@pytest.fixture(scope="module")
def cases(ruleset: Ruleset) -> list[Case]:
    """The pre-generated corpus."""
    return list(generated_cases([ruleset], PLAYERS, GAMES, SEED))


def test_generate_cases(benchmark: Any, ruleset: Ruleset, cases: list[Case]) -> None:
    """Building the corpus alone: the reference games played and recorded with observations."""
    durations, built = timed(benchmark, lambda: list(generated_cases([ruleset], PLAYERS, GAMES, SEED)),
                             ROUNDS)
    assert [c.trace for c in built] == [c.trace for c in cases]
    decisions = sum(sum(1 for s in c.trace["steps"] if "decision" in s) for c in built
                    if c.level == "game" and c.trace is not None)
    report(benchmark, "generate cases", "decisions", decisions, durations, cases=len(built), games=GAMES)


@pytest.mark.parametrize("name", list(ENGINES))
def test_run_case(benchmark: Any, cases: list[Case], name: str) -> None:
    """The pre-generated cases against an engine that is already running: decisions per second."""
    _available(name)
    engine, hello = handshake(ENGINES[name])
    try:
        durations, results = timed(benchmark, lambda: [r for c in cases for r in run_case(engine, c, hello)],
                                   ROUNDS)
    finally:
        engine.close()
    _all_pass(results)
    decisions = _decisions(results)
    report(benchmark, f"run_case {name}", "decisions", decisions, durations,
           baseline=None if name == IN_PROCESS else f"run_case {IN_PROCESS}", in_process=name == IN_PROCESS,
           engine=ENGINES[name].name,
           cases=len(cases), engine_name=hello.get("name"))


@pytest.mark.parametrize("name", list(ENGINES))
def test_session_run(benchmark: Any, ruleset: Ruleset, name: str) -> None:
    """``session.run`` end to end over the same games (engine start, handshake and generation included)."""
    _available(name)
    corpus = Corpus(rulesets=[ruleset], games=GAMES, seed=SEED, players=PLAYERS, fixtures=None, scoring=False,
                    min_coverage=0)  # the same games as the other benchmarks, no aimed game
    durations, (hello, results, decisions) = timed(benchmark, lambda: run(ENGINES[name], corpus), 2)
    _all_pass(results)
    assert len(results) == 2 * GAMES * 2  # a round and a game case per game, each also at the legal level
    report(benchmark, f"session.run {name}", "decisions", decisions, durations, baseline=f"run_case {name}",
           in_process=name == IN_PROCESS, engine=ENGINES[name].name, engine_name=hello.get("name"))
