"""The helper process that generates a conformance run's games (flip7_spec/conformance/background.py): its
games arrive in order, its failure is raised in the runner, and its death is an error, never a wait."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.conformance import background
from flip7_spec.conformance.background import in_background
from flip7_spec.errors import Flip7Error
from tests.test_ordered_pool import lines_once_still, logged


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


def test_a_helper_slower_than_the_poll_still_hands_over_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiting longer than POLL for the next game is no end: the runner looks whether the helper lives, and
    while it does, goes on waiting."""
    monkeypatch.setattr(background, "POLL", 0.05)

    def slow() -> Iterator[Any]:
        for n in range(3):
            time.sleep(0.2)
            yield n

    assert list(in_background(slow)) == [0, 1, 2]


def test_the_helper_records_no_more_than_its_bound_ahead_of_the_runner(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """The helper holds at most AHEAD games (two cases each, a round and a game case) that the runner has not
    taken, plus the one it is handing over: the bound on the memory they take."""
    monkeypatch.setattr(background, "AHEAD", 3)
    log = tmp_path / "made"
    log.write_text("", encoding="utf-8")

    cases = in_background(lambda: logged(log, 100))
    try:
        assert next(cases) == 0
        count = lines_once_still(log)
    finally:
        cases.close()
    assert count == 1 + 2 * 3 + 1  # the one taken, 2 * AHEAD waiting, one more made and waiting for room
