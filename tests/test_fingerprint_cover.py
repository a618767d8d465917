"""What a fingerprint promises (flip7_spec/conformance/fingerprint.py), over any set of diagnosed causes: it
explains every confirmed cause it can, with the fewest readings (a cause's equally good readings, its
``also``, count as explaining it), reads each option one way only, and its file loads back, TOML or JSON, as the
ruleset that plays the same readings, whatever characters they hold."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from hypothesis import assume, example, given
from hypothesis import strategies as st

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.fingerprint import Fingerprint, fingerprint_text, fingerprints
from flip7_spec.errors import Flip7Error
from flip7_spec.judge.diagnosis import alternatives
from flip7_spec.judge.runner import CaseResult
from flip7_spec.misreadings import split_deviation
from flip7_spec.results import Explanation
from flip7_spec.rulesets import load_ruleset, preset

FLIP7 = preset("flip7")
# Two values of two options (quotes in them: what a TOML file must escape), and misreadings: few enough that
# causes share readings and options often.
POOL = ['deal_start="dealer"', 'deal_start="left_of_dealer"', 'reshuffle_moment="when_emptied"',
        'reshuffle_moment="when_needed"', "bust_banks_cards", "dealer_fixed", "turns_to_the_right",
        "stay_with_no_cards"]
assert {r for r in POOL if r != 'deal_start="left_of_dealer"' and r != 'reshuffle_moment="when_needed"'} <= {
    d.reading for d in alternatives(FLIP7)}


def option_of(reading: str) -> str | None:
    split = split_deviation(reading)
    return None if split is None else split[0]


def failure(number: int, causes: list[dict[str, Any]]) -> CaseResult:
    return CaseResult(f"game:flip7/seed=p/game={number}/players=3", "game", FAIL,
                      causes=tuple(Explanation.from_json(c) for c in causes), base="flip7")


@st.composite
def diagnosed_runs(draw: st.DrawFn) -> list[tuple[set[str], bool]]:
    """Failures, each with one cause: its readings (the first named, the others its ``also``) and whether its
    evidence confirms it."""
    causes = st.tuples(st.sets(st.sampled_from(POOL), min_size=1, max_size=4), st.booleans())
    return draw(st.lists(causes, min_size=1, max_size=8))


def results_of(run: list[tuple[set[str], bool]]) -> list[CaseResult]:
    out = []
    for number, (readings, sure) in enumerate(run):
        first, *others = sorted(readings)
        out.append(failure(number, [{"reading": first, "also": others, "text": first, "clause": "F7-DEAL",
                                     "confidence": "M", "step": 1, "evidence": {"confirmed": sure}}]))
    return out


def fingerprint_of(run: list[tuple[set[str], bool]]) -> Fingerprint | None:
    return fingerprints(results_of(run)).get("flip7")


# a greedy cover alone takes bust_banks_cards (in two sets) first, then needs the two others anyway
@example([({"bust_banks_cards", "dealer_fixed"}, True), ({"bust_banks_cards", "turns_to_the_right"}, True),
          ({"dealer_fixed"}, True), ({"turns_to_the_right"}, True)])
@given(diagnosed_runs())
def test_a_fingerprint_explains_every_confirmed_cause_with_readings_each_of_which_is_needed(
        run: list[tuple[set[str], bool]]) -> None:
    found = fingerprint_of(run)
    confirmed = [readings for readings, sure in run if sure]
    if not confirmed:
        assert found is None
        return
    assert found is not None
    chosen = set(found.readings)
    taken = {option_of(r) for r in chosen} - {None}
    for readings in confirmed:
        # explained, unless every reading of the cause is another value of an option the fingerprint reads
        assert readings & chosen or all(option_of(r) in taken for r in readings), (readings, chosen)
    for reading in chosen:
        assert any(readings & chosen == {reading} for readings in confirmed), f"{reading} explains nothing alone"


@example([({'deal_start="dealer"'}, True), ({'deal_start="left_of_dealer"'}, True)])
@given(diagnosed_runs())
def test_a_fingerprint_reads_each_option_one_way(run: list[tuple[set[str], bool]]) -> None:
    found = fingerprint_of(run)
    options = [option_of(r) for r in (found.readings if found else ()) if option_of(r) is not None]
    assert len(options) == len(set(options)), found.readings if found else None


@given(st.sampled_from(POOL), st.integers(2, 6))
def test_causes_one_reading_explains_give_a_fingerprint_of_that_one_reading(shared: str, count: int) -> None:
    """Every cause fits the reading ``shared`` and one other reading of its own: ``shared`` alone explains them
    all, so the fewest readings are that one."""
    others = [r for r in POOL if r != shared]
    run = [({shared, others[i]}, True) for i in range(count)]
    found = fingerprint_of(run)
    assert found is not None and found.readings == (shared,)


@given(diagnosed_runs(), st.sampled_from([".toml", ".json"]))
def test_a_fingerprint_file_loads_back_as_the_ruleset_that_plays_its_readings(
        tmp_path_factory: Any, run: list[tuple[set[str], bool]], suffix: str) -> None:
    found = fingerprint_of(run)
    assume(found is not None and found.readings)
    assert found is not None
    try:
        found.ruleset.played()
    except Flip7Error:
        assume(False)  # readings the reference cannot play together: no ruleset file either way
    path: Path = tmp_path_factory.mktemp("fingerprint") / f"engine{suffix}"
    path.write_text(fingerprint_text(found, suffix), encoding="utf-8")
    loaded = load_ruleset(str(path))
    assert loaded.deviations == found.readings
    assert loaded.description == found.ruleset.description and loaded.name == found.ruleset.name
    assert dataclasses.replace(loaded, description="") == dataclasses.replace(found.ruleset, description="")
