"""An engine's differential test, ready for a fuzzing campaign (docs/campaigns.md).

The engine under test plays against the reference, decision by decision, in games Hypothesis chooses; a
divergence fails the test and is written as a trace file. Here the engine is the bundled JavaScript one;
put your own command in ENGINE. Run it once like any test, or fuzz it for hours on every core, the
processes sharing one example database::

    python -m flip7_spec.testing.fuzz --processes 2 --minutes 120 -- examples/fuzzing/test_fuzz_engine.py
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest

from flip7_spec.testing import differential_machine, load_profile

load_profile()  # $FLIP7_HYPOTHESIS_PROFILE: ci by default, fuzz under the fuzzing command

ENGINE = os.environ.get("FLIP7_ENGINE") or shlex.join(
    ["node", str(Path(__file__).resolve().parents[1] / "js-engine" / "engine.js")])

if shutil.which(shlex.split(ENGINE)[0]) is None:
    pytest.skip(f"the engine command is not installed: {ENGINE}", allow_module_level=True)

TestEngine = differential_machine(ENGINE, failures_dir=os.environ.get("FLIP7_FAILURES_DIR", "flip7-failures"),
                                  name="engine").TestCase
