"""The engine author's first hour, as a user meets it: flip7-spec installed, run from the user's own folder
(not this repository), against engines nobody here wrote for it.

The default test runs the flip7-spec installed next to this interpreter from an empty temporary folder;
the slow one builds a fresh virtual environment, ``pip install``s this checkout into it (a real wheel, not
an editable install) and does the same.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.test_conform import REPO
from tests.test_conform_first_hour import shipped_trace_count

FLOP7_ENGINE = REPO / "examples" / "flop7" / "engine.py"


def run_from(folder: Path, script: Path, python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``flip7-spec ARGS`` from ``folder``, with nothing of this checkout on the import path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "FLIP7_SPEC_CACHE_DIR")}
    env["PATH"] = os.pathsep.join([str(python.parent), env.get("PATH", "")])
    env["FLIP7_SPEC_CACHE_DIR"] = str(folder / ".cache")
    return subprocess.run([str(script), *args], cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def check_first_hour(folder: Path, script: Path, python: Path) -> None:
    """The acceptance of the first hour: the JavaScript engine passes the fixtures it can run (the summary
    counts them), and flop7's deviations are reported."""
    expected = shipped_trace_count()
    node = shutil.which("node")
    if node is not None:
        # the bundled JavaScript engine, found in the installed package (the folder holds no examples/)
        ran = run_from(folder, script, python, "conform", "--example", "js", "--games", "4")
        assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
        assert "conformance of node " in ran.stdout and "js-engine/engine.js" in ran.stdout
        counted = re.search(r"(\d+) fixture from flip7-spec's shipped fixtures \((\d+) ran\)", ran.stdout)
        assert counted is not None, ran.stdout
        assert int(counted.group(1)) == expected and int(counted.group(2)) > 0
        assert "warning" not in ran.stderr
    if importlib.util.find_spec("flop7") is not None or python != Path(sys.executable):
        local = folder / "examples" / "flop7"
        local.mkdir(parents=True, exist_ok=True)
        shutil.copy(FLOP7_ENGINE, local / "engine.py")  # the user's copy of the example, run from their folder
        ran = run_from(folder, script, python, "conform", "--engine", f"{python} examples/flop7/engine.py",
                       "--games", "4")
        assert ran.returncode == 1, ran.stdout[-3000:] + ran.stderr[-3000:]
        assert "FAIL fixture:flip7/tie-another-round [game]" in ran.stdout
        # the blame names the tie rule, certain or marked as a guess
        assert re.search(r"\[clause F7-TIE( \(a guess\))?\]", ran.stdout) and "Traceback" not in ran.stderr


def test_installed_flip7_spec_from_an_empty_folder(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "flip7-spec"
    if not script.is_file():
        pytest.skip("the flip7-spec console script is not installed next to this interpreter")
    check_first_hour(tmp_path, script, Path(sys.executable))


@pytest.mark.slow
def test_fresh_virtual_environment_from_a_pip_install_of_the_checkout(tmp_path: Path) -> None:
    environment = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", str(REPO), "flop7==1.0.2"],
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr[-3000:]
    folder = tmp_path / "work"
    folder.mkdir()
    # A real wheel: the fixtures come from site-packages, not from this checkout.
    where = subprocess.run([str(python), "-c", "from flip7_spec.fixtures import shipped_fixtures_dir as d; print(d())"],
                           cwd=folder, capture_output=True, text=True, timeout=60)
    assert where.returncode == 0 and "site-packages" in where.stdout, where.stdout + where.stderr
    check_first_hour(folder, environment / "bin" / "flip7-spec", python)
