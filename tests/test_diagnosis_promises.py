"""What the diagnosis promises (flip7_spec/judge/diagnosis.py): a reading is named only when the reference,
playing it, does exactly what the engine did, at the divergent step and at every step before it; a score is
diagnosed only when it is a whole number, as the protocol sends scores."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from flip7_spec.conformance.cases import generated_cases
from flip7_spec.judge.diagnosis import alternatives, diagnose_score, diagnoses, hand_score, reference_observations
from flip7_spec.judge.runner import _projection
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.trace.compare import canonical
from flip7_spec.trace.document import Table

FLIP7 = preset("flip7")
PROJECT = _projection(None)  # a game case's comparison: every observation whole, the legal choices left out


@dataclass(frozen=True)
class Played:
    """The reference's observations of one generated game under ``reading``, and where they first differ from
    the reference's own (``divergence``)."""

    table: Table
    reshuffles: list[list[str]]
    choices: list[Any]
    reading: str
    found: list[Any]
    divergence: int


def played_under(readings: tuple[str, ...], games: int = 4) -> Iterator[Played]:
    """For each generated flip7 game and each reading of ``readings``: the game as an engine playing that reading
    shows it, when the reading changes the game after its start."""
    for case in generated_cases([FLIP7], [3, 4], games, "0"):
        if case.level != "game" or case.trace is None:
            continue
        table, choices = case.document.table, case.document.choices
        reshuffles = [list(order) for order in case.document.reshuffles]
        own = reference_observations(FLIP7, table, reshuffles, choices, len(choices) + 1)
        for reading in readings:
            found = reference_observations(replace(FLIP7, deviations=(reading,)), table, reshuffles, choices,
                                           len(choices) + 1)
            divergence = next((k for k in range(min(len(found), len(own)))
                               if canonical(PROJECT(k, found[k])) != canonical(PROJECT(k, own[k]))), None)
            if divergence is not None and divergence >= 2:
                yield Played(table, reshuffles, choices, reading, found, divergence)


def reproduces_through(ruleset: Ruleset, played: Played, found: list[Any], upto: int) -> bool:
    seen = reference_observations(ruleset, played.table, played.reshuffles, played.choices, upto + 1)
    return len(seen) == upto + 1 and all(canonical(PROJECT(k, seen[k])) == canonical(PROJECT(k, found[k]))
                                         for k in range(upto + 1))


def miscounted(observation: dict[str, Any]) -> dict[str, Any]:
    """``observation`` with one card too many in the discard pile: what no reading of the rules shows."""
    return {**observation, "discard_pile": observation["discard_pile"] + 1}


@pytest.mark.clause("F7-DEALER-ROTATION")
def test_a_diagnosed_reading_reproduces_every_step_up_to_the_divergence() -> None:
    """The engine plays a Dealer for life (or deals from the Dealer) but showed a different observation at an
    earlier step: the reading reproduces the divergent step, not the engine, and is not named; every reading
    that is named reproduces every step through the divergence."""
    tried = 0
    for played in played_under(("dealer_fixed", "turns_to_the_right")):
        at = played.divergence
        named = diagnoses(FLIP7, played.table, played.reshuffles, played.choices, played.found, at, PROJECT)
        assert played.reading in [d.reading for d in named]  # the engine as it played: found
        for earlier in (0, at // 2, at - 1):
            found = list(played.found)
            found[earlier] = miscounted(found[earlier])
            named = diagnoses(FLIP7, played.table, played.reshuffles, played.choices, found, at, PROJECT)
            for diagnosis in named:
                assert diagnosis.ruleset is not None
                assert reproduces_through(diagnosis.ruleset, played, found, at), (diagnosis.reading, earlier)
            assert played.reading not in [d.reading for d in named], (played.reading, earlier, at)
            tried += 1
    assert tried >= 6


@pytest.mark.parametrize("score", [True, 1.0, "1", [1]], ids=["true", "float", "string", "list"])
def test_a_score_that_is_not_a_whole_number_is_diagnosed_as_no_reading(score: Any) -> None:
    """docs/protocol.md: a score is an integer; ``true`` or ``1.0`` is not the score 1, however many readings
    score the hand 1."""
    hand = ["1"]
    assert hand_score(FLIP7, hand, False) == 1
    assert [d.reading for d in alternatives(FLIP7) if d.ruleset and hand_score(d.ruleset, hand, False) == 1]
    assert diagnose_score(FLIP7, hand, False, 1) is not None  # the same hand scored as a number: diagnosed
    assert diagnose_score(FLIP7, hand, False, score) is None
