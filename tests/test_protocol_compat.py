"""Protocol v1 never breaks an adapter: an adapter frozen at an earlier release runs every case its declarations
allow, today and after a new option is added to a ruleset (docs/protocol.md, "Compatibility").

The frozen adapter (tests/frozen_engines/js_v1) answers ``skipped`` to any option it does not know. An engine
is sent only the options it declares, so a new option never reaches it.
"""

from __future__ import annotations

import dataclasses
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from flip7_spec.conformance import FAIL, SKIPPED
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.games.flip7.ruleset import Flip7Ruleset
from flip7_spec.judge.runner import BY_ENGINE, HANDSHAKE, CaseResult
from flip7_spec.protocol.declared import sent_ruleset
from flip7_spec.rulesets import Option, preset

ROOT = Path(__file__).resolve().parent.parent
FROZEN_JS = ROOT / "tests" / "frozen_engines" / "js_v1" / "engine.js"
THROWAWAY = "throwaway_reading"

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture
def throwaway_option(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A new option of the base game, unknown to every adapter written before it (its default is the value
    every existing ruleset plays)."""
    option = Option(THROWAWAY, bool, None, "F7-HIT-STAY", "a reading added after the adapter was written")
    monkeypatch.setattr(Flip7Ruleset, "OPTIONS", {**Flip7Ruleset.OPTIONS, THROWAWAY: option})
    monkeypatch.setattr(Flip7Ruleset, THROWAWAY, False, raising=False)
    yield THROWAWAY


def frozen_run() -> tuple[dict[str, object], list[CaseResult]]:
    corpus = Corpus(rulesets=[preset("flip7")], games=3, seed="0", min_coverage=0,
                    fixtures=ROOT / "fixtures")
    spec = EngineSpec(command=f"node {shlex.quote(str(FROZEN_JS))}", timeout=20.0)
    hello, results, _ = run(spec, corpus)
    return hello, results


def assert_runs_what_it_declares(results: list[CaseResult]) -> None:
    skipped_by_engine = [f"{r.case_id}: {r.message}" for r in results
                         if r.outcome == SKIPPED and r.skipped_by == BY_ENGINE]
    assert not skipped_by_engine, "\n".join(skipped_by_engine[:5])
    assert all(r.skipped_by == HANDSHAKE for r in results if r.outcome == SKIPPED)
    ran = [r for r in results if r.outcome != SKIPPED]
    assert len(ran) > 100, f"only {len(ran)} results ran"
    assert not [r for r in ran if r.outcome == FAIL], "the frozen engine plays the official rules it knows"


@needs_node
def test_frozen_adapter_runs_every_case_its_declarations_allow() -> None:
    _, results = frozen_run()
    assert_runs_what_it_declares(results)


@needs_node
def test_frozen_adapter_still_runs_after_a_new_option(throwaway_option: str) -> None:
    assert throwaway_option in preset("flip7").options()  # the option is there, sent to whoever declares it
    hello, results = frozen_run()
    assert throwaway_option not in sent_ruleset(preset("flip7"), hello)["options"]
    assert_runs_what_it_declares(results)


def test_an_engine_is_sent_only_the_options_it_declares() -> None:
    ruleset = preset("flip7").with_options(target_score=150)
    assert sent_ruleset(ruleset, {"options": {"target_score": "any"}})["options"] == {"target_score": 150}
    assert sent_ruleset(ruleset, {})["options"] == {}
    everything = {name: "any" for name in ruleset.options()}
    assert sent_ruleset(ruleset, {"options": everything})["options"] == ruleset.options()


def test_deviations_are_never_sent() -> None:
    fingerprint = dataclasses.replace(preset("flip7"), deviations=("dealer_fixed",))
    assert "deviations" not in sent_ruleset(fingerprint, {"options": {}})
