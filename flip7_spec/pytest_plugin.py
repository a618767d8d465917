"""The flip7-spec pytest plugin (registered through the ``pytest11`` entry point).

It adds:

- ``--flip7-engine CMD``: the differential properties (``properties/test_differential.py``, or any test
  using the fixtures below) run against that engine, a command speaking docs/protocol.md, instead of the
  in-process reference;
- ``--flip7-failures-dir DIR`` (or ``$FLIP7_FAILURES_DIR``): where the differential machine writes the
  trace of a failing run (default: ``flip7-failures/`` for an engine, ``fixtures/regressions/`` for the
  reference);
- the fixtures ``flip7_engine_command``, ``flip7_failures_dir`` and ``flip7_engine`` (the engine under test
  as an :class:`~flip7_spec.protocol.adapter.EngineAdapter`, one per session);
- the ``clause`` marker, naming the rule clauses a test exercises.

The Hypothesis profiles ``ci``, ``deep`` and ``fuzz`` live in :mod:`flip7_spec.testing`; a project's
``conftest.py`` calls :func:`flip7_spec.testing.load_profile` to register them and load the one
``$FLIP7_HYPOTHESIS_PROFILE`` names (``--hypothesis-profile`` still wins). The plugin registers them, so that
``--hypothesis-profile fuzz`` works in any project (the fuzzing command, :mod:`flip7_spec.testing.fuzz`), and
never loads one: it does not change the settings of other projects.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from flip7_spec.protocol.adapter import EngineAdapter
from flip7_spec.testing.profiles import register_profiles

register_profiles()  # registered, not loaded: --hypothesis-profile NAME can name them


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("flip7-spec")
    group.addoption("--flip7-engine", metavar="CMD", default=None,
                    help="run the differential properties against this engine command (docs/protocol.md) "
                         "instead of the reference")
    group.addoption("--flip7-failures-dir", metavar="DIR", default=None,
                    help="where the differential machine writes the trace of a failing run (default: "
                         "$FLIP7_FAILURES_DIR, else flip7-failures/ for an engine, fixtures/regressions/ for "
                         "the reference)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): the rule clauses a test exercises")


def pytest_report_header(config: pytest.Config) -> list[str]:
    command = config.getoption("--flip7-engine")
    profile = config.getoption("--hypothesis-profile", default=None) or os.environ.get(
        "FLIP7_HYPOTHESIS_PROFILE", "ci")
    engine = f"engine {command!r}" if command else "the in-process reference"
    return [f"flip7-spec: differential properties against {engine}; Hypothesis profile {profile}"]


@pytest.fixture
def flip7_engine_command(request: pytest.FixtureRequest) -> str | None:
    """The engine command given with ``--flip7-engine``, or None for the reference."""
    value = request.config.getoption("--flip7-engine")
    return str(value) if value is not None else None


@pytest.fixture(scope="session")
def flip7_failures_dir(request: pytest.FixtureRequest) -> Path:
    """Where the differential machine writes failing runs (see ``--flip7-failures-dir``)."""
    from flip7_spec.testing import failures_dir_for

    command = request.config.getoption("--flip7-engine")
    return failures_dir_for(command, request.config.getoption("--flip7-failures-dir"))


@pytest.fixture(scope="session")
def flip7_engine(request: pytest.FixtureRequest) -> Iterator[EngineAdapter]:
    """The engine under test for the session: a :class:`~flip7_spec.protocol.process.ProcessEngine` running
    ``--flip7-engine``, or the in-process reference. Closed at the end of the session."""
    from flip7_spec.protocol.adapter import ReferenceAdapter
    from flip7_spec.protocol.process import ProcessEngine

    command = request.config.getoption("--flip7-engine")
    engine: EngineAdapter = ProcessEngine(str(command)) if command else ReferenceAdapter()
    try:
        yield engine
    finally:
        engine.close()
