"""The code stays lint-clean (ruff) and type-clean (mypy --strict on the package)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    done = run("ruff", "check", "flip7_spec", "tests", "properties", "bench", "tools")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_mypy_is_clean() -> None:
    done = run("mypy", "flip7_spec", "tools")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
