"""The flip7-spec pytest plugin (registered through the ``pytest11`` entry point).

It adds ``--flip7-engine CMD``: the differential properties then run against that engine instead of the
reference, and the ``clause`` marker that names the rule clauses a test exercises.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("flip7-spec")
    group.addoption("--flip7-engine", metavar="CMD", default=None,
                    help="run the differential properties against this engine command (docs/protocol.md) "
                         "instead of the reference")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): the rule clauses a test exercises")


@pytest.fixture
def flip7_engine_command(request: pytest.FixtureRequest) -> str | None:
    """The engine command given with ``--flip7-engine``, or None for the reference."""
    value = request.config.getoption("--flip7-engine")
    return str(value) if value is not None else None
