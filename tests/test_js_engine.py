"""The bundled JavaScript engine's own tests (Node's built-in test runner), when Node is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_js_engine_unit_tests_pass() -> None:
    done = subprocess.run(["node", "--test", "examples/js-engine/test/"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
