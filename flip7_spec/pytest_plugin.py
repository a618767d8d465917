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

The Hypothesis profiles ``ci``, ``deep`` and ``fuzz`` live in :mod:`flip7_spec.testing`. The plugin registers
them, so that ``--hypothesis-profile fuzz`` works in any project (the fuzzing command,
:mod:`flip7_spec.testing.fuzz`), and never loads one for other tests: a project's ``conftest.py`` calls
:func:`flip7_spec.testing.load_profile` to run its own properties under ``ci``. A differential machine's
``TestCase`` runs under its own profile (``ci`` unless ``$FLIP7_HYPOTHESIS_PROFILE``, ``--hypothesis-profile``
or the project names another; :func:`flip7_spec.testing.machine_profile`), and the header line says which,
with its shrink budget.

A failing differential machine is reported with its message first (the command that runs the saved trace
again, conform's diagnosis, the divergence), then Hypothesis's minimal example with its long runs of cards and
draws folded; ``--tb=long`` (or any ``--tb`` other than the default) shows pytest's usual report instead.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

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
    from flip7_spec.testing.profiles import describe_profile, loaded_profile

    command = config.getoption("--flip7-engine")
    engine = f"--flip7-engine {command!r}" if command else "no --flip7-engine (the fixture flip7_engine is the " \
                                                             "in-process reference)"
    try:
        machines = describe_profile()
    except Exception as error:  # an unknown profile name or a bad budget: say so here, the tests will fail on it
        machines = f"cannot tell the profile ({error})"
    others = loaded_profile() or "default"
    return [f"flip7-spec: differential machines run {machines}; {engine}; other Hypothesis tests: profile {others}"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A failing differential machine's report, led by its message (see the module)."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if call.excinfo is None or not report.failed or item.config.getoption("tbstyle", "auto") != "auto":
        return
    from flip7_spec.testing.failures import EngineDivergence

    error = call.excinfo.value
    if isinstance(error, EngineDivergence) and error.trace_path is not None:
        report.longrepr = failure_report(error)


FOLD_CARDS = 8
"""Lines of one card each (a deck printed by Hypothesis) folded into one line from this many on."""
FOLD_DRAWS = 6
"""Consecutive ``Draw N: ...`` lines of Hypothesis's example shown before the rest are counted instead."""
_CARD_LINE = re.compile(r"^\s*\(?'[^'\s]{1,8}',?\)*,?\s*$")
_DRAW_LINE = re.compile(r"^\s*Draw \d+: ")


def failure_report(error: BaseException) -> str:
    """The text of a differential machine's failure: its message, then the notes Hypothesis adds (the minimal
    example) with each run of one-card lines folded into one line and long runs of draws counted."""
    notes = [line for note in getattr(error, "__notes__", []) for line in str(note).splitlines()]
    return "\n".join([f"{type(error).__name__}: {error}", *fold(notes)])


def fold(lines: list[str]) -> list[str]:
    """``lines`` with every run of :data:`FOLD_CARDS` or more one-card lines joined into one line, and every
    run of more than :data:`FOLD_DRAWS` draw lines cut to its first ones and a count of the others."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        end = index
        while end < len(lines) and _CARD_LINE.match(lines[end]):
            end += 1
        if end - index >= FOLD_CARDS:
            out.append(_indent(lines[index]) + " ".join(line.strip() for line in lines[index:end]))
            index = end
            continue
        end = index
        while end < len(lines) and _DRAW_LINE.match(lines[end]):
            end += 1
        if end - index > FOLD_DRAWS:
            out.extend(lines[index:index + FOLD_DRAWS - 1])
            out.append(f"{_indent(lines[index])}... {end - index - FOLD_DRAWS + 1} more draws (the saved trace "
                       "holds the whole run)")
            index = end
            continue
        out.append(lines[index])
        index += 1
    return out


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


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]
