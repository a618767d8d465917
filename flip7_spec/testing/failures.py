"""Where failing runs are written as trace files, and the error an engine's divergence raises."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from flip7_spec.protocol.adapter import EngineAdapter

FAILURES_ENV: Final = "FLIP7_FAILURES_DIR"
"""The environment variable naming where the differential machine writes failing runs of an engine."""
DEFAULT_FAILURES_DIR: Final = "flip7-failures"


class EngineDivergence(AssertionError):
    """The engine under test disagreed with the reference (or failed). ``trace_path`` is the trace file of
    the failing run (None until Hypothesis replays its minimal example); ``step`` the decision after which
    it happened (None: at the start); ``where`` the JSON path in the observation; ``expected`` and
    ``found`` the values there; ``clause`` the rule clause behind it."""

    def __init__(self, message: str, *, trace_path: Path | None = None, step: int | None = None,
                 where: str | None = None, expected: Any = None, found: Any = None,
                 clause: str | None = None) -> None:
        super().__init__(message)
        self.trace_path = trace_path
        self.step = step
        self.where = where
        self.expected = expected
        self.found = found
        self.clause = clause


def regressions_dir() -> Path:
    """``fixtures/regressions`` of the source checkout this package lives in (else under the current
    directory): where failing runs of the reference itself are kept."""
    checkout = Path(__file__).resolve().parents[2] / "fixtures"
    base = checkout if checkout.is_dir() else Path.cwd() / "fixtures"
    return base / "regressions"


def failures_dir_for(engine: str | EngineAdapter | None, given: str | Path | None = None) -> Path:
    """Where failing runs of ``engine`` are written: ``given``, else ``$FLIP7_FAILURES_DIR``, else
    ``fixtures/regressions`` for the reference (``engine`` None) and ``flip7-failures/`` under the current
    directory for any other engine."""
    if given is not None:
        return Path(given)
    if os.environ.get(FAILURES_ENV):
        return Path(os.environ[FAILURES_ENV])
    return regressions_dir() if engine is None else Path.cwd() / DEFAULT_FAILURES_DIR
