"""The helper process that generates a conformance run's games (flip7_spec/conformance/background.py): its
games arrive in order, its failure is raised in the runner, and its death is an error, never a wait."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from flip7_spec.conformance.background import in_background
from flip7_spec.errors import Flip7Error


def _counting() -> Iterator[Any]:
    yield from range(300)


def _failing() -> Iterator[Any]:
    yield 1
    raise ValueError("no deck")


def _dying() -> Iterator[Any]:
    yield 1
    os._exit(9)


def test_the_helpers_items_arrive_in_order() -> None:
    assert list(in_background(_counting)) == list(range(300))


def test_the_helpers_failure_is_raised_in_the_runner() -> None:
    made = in_background(_failing)
    assert next(made) == 1
    with pytest.raises(ValueError, match="no deck"):
        next(made)


def test_a_helper_that_dies_is_an_error_named_with_its_exit_code_not_a_wait() -> None:
    began = time.monotonic()
    with pytest.raises(Flip7Error, match=r"ended without a word \(exit code 9\)"):
        list(in_background(_dying))  # (what it put just before it ended may be lost with it)
    assert time.monotonic() - began < 30
