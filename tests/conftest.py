"""The test suite's fixtures (the Hypothesis profile and the package's modules are the root conftest.py's)."""

from collections.abc import Iterator

import pytest


@pytest.fixture
def toy_game() -> Iterator[str]:
    """The toy third game of tests/toy_game.py registered for one test; yields its preset's name."""
    from tests import toy_game as toy

    toy.register()
    try:
        yield toy.TOY_PRESET
    finally:
        toy.unregister()
