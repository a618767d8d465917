"""Each reading option's golden fixture conforms under its own ruleset and diverges under the other reading.

A fixture written for one value of an option derives, by hand, a checkpoint that the other value would
change (its source comments say which and why). Replaying the compiled trace with only that option of the
header's ruleset changed must therefore diverge, and first at that checkpoint's decision: the readings
agree on everything before it. Both readings' clauses are named, since the pair tells them apart.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from flip7_spec.trace.replay import CONFORM, DIVERGE, replay

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

Trace = dict[str, Any]


class Reading(NamedTuple):
    """A fixture, the option it is about, the other value of that option, and the decision (1-based, as a
    source's ``after``) after which the two readings first disagree."""

    fixture: str
    option: str
    other: Any
    decision: int


def _reading(fixture: str, option: str, other: Any, decision: int, *clauses: str) -> Any:
    return pytest.param(Reading(fixture, option, other, decision), id=f"{fixture}:{option}={other}",
                        marks=pytest.mark.clause(*clauses))


READINGS = [
    # deal_after_flip3_cards
    _reading("flip7/deal-flip3-undealt-dealt-anyway", "deal_after_flip3_cards", "hit_or_stay", 1,
             "F7-DEAL-ANYWAY", "F7-DEAL-STAY-INSTEAD"),
    _reading("flip7/deal-flip3-undealt-stays", "deal_after_flip3_cards", "deal_anyway", 1,
             "F7-DEAL-STAY-INSTEAD", "F7-DEAL-ANYWAY"),
    # flip3_card_discard
    _reading("flip7/flip3-card-discarded-after-set-aside", "flip3_card_discard", "after_draws", 2,
             "F7-FLIP3-DISCARDED-LATE", "F7-FLIP3-DISCARDED"),
    _reading("flip7/flip3-card-discarded-before-assign", "flip3_card_discard", "after_set_aside", 2,
             "F7-FLIP3-DISCARDED", "F7-FLIP3-DISCARDED-LATE"),
    # set_aside_resolution
    _reading("flip7/flip3-assign-each-freeze-then-flip3", "set_aside_resolution", "assign_all_first", 3,
             "F7-FLIP3-ASSIGN-EACH", "F7-FLIP3-ASSIGN"),
    _reading("flip7/flip3-assign-freeze-then-flip3", "set_aside_resolution", "resolve_each", 3,
             "F7-FLIP3-ASSIGN", "F7-FLIP3-ASSIGN-EACH"),
    # reshuffle_moment
    _reading("flip7/reshuffle-when-emptied", "reshuffle_moment", "when_needed", 7,
             "F7-RESHUFFLE-EMPTIED", "F7-RESHUFFLE"),
    _reading("flip7/reshuffle-when-needed", "reshuffle_moment", "when_emptied", 7,
             "F7-RESHUFFLE", "F7-RESHUFFLE-EMPTIED"),
    _reading("vengeance/reshuffle-when-emptied", "reshuffle_moment", "when_needed", 6,
             "V-RESHUFFLE-EMPTIED", "V-RESHUFFLE"),
    # the Flip Four's third card is the deck's last: when_emptied reshuffles before it, not after
    _reading("vengeance/reshuffle-in-flip4", "reshuffle_moment", "when_emptied", 5,
             "V-RESHUFFLE", "V-RESHUFFLE-EMPTIED"),
    # stalled_round
    _reading("flip7/stalled-round-ends", "stalled_round", "reshuffle", 7,
             "F7-STALLED-ROUND", "F7-STALLED-RESHUFFLE"),
    _reading("flip7/stalled-round-reshuffle", "stalled_round", "end", 7,
             "F7-STALLED-RESHUFFLE", "F7-STALLED-ROUND"),
    # round_limit (an integer: "the other value" is no limit, or a limit that ends the game sooner)
    _reading("flip7/challenge-nobody-reaches", "round_limit", 0, 4, "F7-CHALLENGE", "F7-GAME-END"),
    _reading("flip7/challenge-reaches-target", "round_limit", 2, 2, "F7-CHALLENGE", "F7-GAME-END"),
    _reading("vengeance/round-limit-tie-at-target", "round_limit", 0, 6, "V-ROUND-LIMIT", "V-TIE"),
    # brutal_flip7_target
    _reading("vengeance/brutal-flip7-in-round", "brutal_flip7_target", "any_seat", 8,
             "V-BRUTAL-FLIP7-IN-ROUND", "V-BRUTAL-FLIP7"),
    _reading("vengeance/brutal-mode", "brutal_flip7_target", "in_round", 12,
             "V-BRUTAL-FLIP7", "V-BRUTAL-FLIP7-IN-ROUND"),
]


def _load(name: str) -> Trace:
    trace: Trace = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return trace


def _under(trace: Trace, option: str, value: Any) -> Trace:
    """A copy of ``trace`` whose header ruleset has ``option`` set to ``value``, nothing else changed."""
    changed = copy.deepcopy(trace)
    options = changed["header"]["ruleset"]["options"]
    assert option in options, f"the compiled header lists every option, {option} included"
    assert options[option] != value, f"the fixture already uses {option} = {value!r}"
    options[option] = value
    return changed


def _step_of_decision(trace: Trace, decision: int) -> int:
    """The index in ``steps`` (chance steps counted, as replay numbers them) of decision number ``decision``."""
    decisions = [index for index, step in enumerate(trace["steps"]) if "decision" in step]
    return decisions[decision - 1]


@pytest.mark.parametrize("reading", READINGS)
def test_fixture_conforms_under_its_reading_and_diverges_under_the_other(reading: Reading) -> None:
    trace = _load(reading.fixture)
    own = replay(trace)
    assert own.status == CONFORM, own.divergence or own.error
    other = replay(_under(trace, reading.option, reading.other))
    assert other.status == DIVERGE, (f"{reading.fixture} replays the same under {reading.option} = "
                                     f"{reading.other!r}: it does not tell the readings apart")
    assert other.divergence is not None
    # the readings agree up to the hand-derived checkpoint, and part there
    assert other.divergence.step == _step_of_decision(trace, reading.decision), other.divergence.message


def test_every_reading_value_has_a_fixture_of_its_own() -> None:
    # each value of each reading option is the own value of some fixture in the table; for round_limit the
    # no-limit side (0) is every other fixture's, and a pair flips it from a positive limit
    own: dict[str, set[Any]] = {}
    for param in READINGS:
        reading: Reading = param.values[0]
        value = _load(reading.fixture)["header"]["ruleset"]["options"][reading.option]
        own.setdefault(reading.option, set()).add(value)
    assert own == {
        "deal_after_flip3_cards": {"hit_or_stay", "deal_anyway"},
        "flip3_card_discard": {"after_draws", "after_set_aside"},
        "set_aside_resolution": {"assign_all_first", "resolve_each"},
        "reshuffle_moment": {"when_needed", "when_emptied"},
        "stalled_round": {"end", "reshuffle"},
        "round_limit": {4, 2},
        "brutal_flip7_target": {"any_seat", "in_round"},
    }
