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


def test_no_file_holds_a_merge_conflict_marker() -> None:
    """Every text file of the repository is free of the lines a merge leaves where two changes met."""
    markers = ("<<<<<<< ", ">>>>>>> ")
    found = []
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if not path.is_file() or parts[0].startswith(".") or "node_modules" in parts or "__pycache__" in parts:
            continue
        if path.suffix not in (".py", ".md", ".json", ".jsonl", ".toml", ".js", ".j2", ".css", ".txt", ".cfg", ""):
            continue
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        found.extend(f"{path.relative_to(ROOT)}:{n}" for n, line in enumerate(lines, 1) if line.startswith(markers))
    assert not found, found
