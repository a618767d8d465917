"""The test suite's Hypothesis profile: ``ci`` by default, ``$FLIP7_HYPOTHESIS_PROFILE`` or
``--hypothesis-profile`` to choose (see docs/properties.md)."""

from collections.abc import Iterator

import pytest

from flip7_spec.testing import load_profile

load_profile()


@pytest.fixture
def toy_game() -> Iterator[str]:
    """The toy third game of tests/toy_game.py registered for one test; yields its preset's name."""
    from tests import toy_game as toy

    toy.register()
    try:
        yield toy.TOY_PRESET
    finally:
        toy.unregister()
