"""The documented two-line test of an engine (docs/properties.md), run by pytest from a folder outside this
checkout, as an engine author's suite runs it: the profile it announces is the one in force, and a failing
run against a mutant engine ends within the documented shrink budget, its report led by the command that runs
the saved failure again and conform's diagnosis of it."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import settings

from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.pytest_plugin import fold
from flip7_spec.testing import differential_machine, machine_profile
from tests.test_conform import REPO, serve_command

DOC = REPO / "docs" / "properties.md"


def snippet(engine: str) -> str:
    """The doc's test_my_engine.py, with ``engine`` for its example command."""
    (source,) = [b for b in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
                 if b.startswith("# test_my_engine.py")]
    assert source.count('"node my_engine.js"') == 1
    return source.replace('"node my_engine.js"', repr(engine))


def run_snippet(folder: Path, engine: str, *args: str, **env: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """pytest on the snippet in ``folder`` (nothing of this checkout on its import path), and how long it took."""
    (folder / "test_my_engine.py").write_text(snippet(engine), encoding="utf-8")
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "FLIP7_HYPOTHESIS_PROFILE", "FLIP7_SHRINK_SECONDS", "FLIP7_FAILURES_DIR")}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", *args],
                          cwd=folder, env={**environment, **env}, capture_output=True, text=True, timeout=600)
    return done, time.monotonic() - started


def test_the_snippet_runs_the_ci_profile_it_announces(tmp_path: Path) -> None:
    done, _ = run_snippet(tmp_path, serve_command(), "--hypothesis-show-statistics")
    assert done.returncode == 0, done.stdout[-3000:]
    assert ("flip7-spec: differential machines run Hypothesis profile ci (30 examples, derandomized, up to 40 "
            "steps a run; shrinking stops after 30 s)") in done.stdout
    # what Hypothesis itself says it ran: the ci profile's 30 examples, not its default 100
    assert "Stopped because settings.max_examples=30" in done.stdout, done.stdout[-3000:]


def test_a_failing_engine_is_reported_within_the_shrink_budget_rerun_command_first(tmp_path: Path) -> None:
    # This mutant lets a busted player bank their +N cards: the ci profile finds it in a few seconds, and
    # shrinking the game it fails in takes some 25 s more unbounded, much more than the budget set here.
    mutant = shlex.join(["env", f"PYTHONPATH={REPO}", sys.executable, "-m", "tests.mutants.bust_keeps_adds"])
    budget = 4
    done, seconds = run_snippet(tmp_path, mutant, FLIP7_SHRINK_SECONDS=str(budget))
    assert done.returncode == 1, done.stdout[-3000:]
    assert f"shrinking stops after {budget} s" in done.stdout
    report = done.stdout.split(" TestMyEngine.runTest _", 1)[1].splitlines()[1:]
    saved = sorted((tmp_path / "flip7-failures").glob("*.jsonl"))
    assert len(saved) == 1
    assert report[0] == f"EngineDivergence: Run it again with: flip7-spec conform --engine {shlex.quote(mutant)} " \
                        f"--trace {saved[0]}"
    assert report[1] == "conform's diagnosis of the saved run:"
    assert "misreading bust_banks_adds" in "\n".join(report[2:8])
    assert f"Shrinking stopped after {budget} s" in "\n".join(report)
    assert "PLEASE REPORT THIS" not in done.stdout + done.stderr
    # generation finds it in a few seconds; then at most the budget, the final report and pytest's start-up
    assert seconds < budget + 45, seconds
    # the command it prints gives the same diagnosis
    again = subprocess.run([sys.executable, "-m", "flip7_spec", *shlex.split(report[0].split("flip7-spec ", 1)[1])],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert again.returncode == 1 and "misreading bust_banks_adds" in again.stdout, again.stderr


def test_the_minimal_example_is_folded_for_reading() -> None:
    lines = ["Draw 1 (setup): GameSetup(ruleset=base,", " deck=('0',", *[f"  '{n}'," for n in range(1, 13)],
             "  'CHANCE'))", *[f"Draw {n}: 0" for n in range(2, 40)], "state.teardown()"]
    folded = fold(lines)
    assert folded[:3] == ["Draw 1 (setup): GameSetup(ruleset=base,", " deck=('0',",
                          "  " + " ".join(f"'{n}'," for n in range(1, 13)) + " 'CHANCE'))"]
    assert folded[3:9] == [f"Draw {n}: 0" for n in range(2, 7)] + ["... 33 more draws (the saved trace holds the "
                                                                    "whole run)"]
    assert folded[-1] == "state.teardown()" and len(folded) == 10
    assert fold(["Draw 2: 1", "Draw 3: 0"]) == ["Draw 2: 1", "Draw 3: 0"]


def test_the_shrink_budget_and_the_profile_are_settable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FLIP7_HYPOTHESIS_PROFILE", raising=False)
    monkeypatch.setenv("FLIP7_SHRINK_SECONDS", "12.5")
    machine = differential_machine(ReferenceAdapter())
    assert machine.shrink_seconds == 12.5 and differential_machine(None, shrink_seconds=3).shrink_seconds == 3
    assert machine.TestCase.settings.max_examples == settings.get_profile(machine_profile()).max_examples
    deep = differential_machine(None, profile="deep").TestCase.settings
    assert deep.max_examples == 2_000 and not deep.derandomize
    monkeypatch.setenv("FLIP7_SHRINK_SECONDS", "soon")
    with pytest.raises(ValueError, match="FLIP7_SHRINK_SECONDS"):
        differential_machine(None)
    with pytest.raises(ValueError, match="positive"):
        differential_machine(None, shrink_seconds=0)
