"""Promises that no other test held to account: how the coverage names a clause that two values of one option
choose, the order of equally frequent causes on the HTML page, how far a fingerprint run re-records a
fixture whose reshuffle the fingerprint's reading no longer plays as recorded, and how an existence theorem is
re-checked on a scorer that lacks the property at the model's witness.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from flip7_spec.cards import Card, cards
from flip7_spec.conformance.coverage import expected_clauses
from flip7_spec.conformance.fingerprint import rerecorded
from flip7_spec.errors import ChanceError, Flip7Error
from flip7_spec.games.vengeance.symbolic.theorems import VengeanceTheorems
from flip7_spec.judge.case import trace_file_cases
from flip7_spec.play import round_score
from flip7_spec.rulesets import Option, preset
from flip7_spec.symbolic.theorems import COUNTEREXAMPLE, PROVED
from flip7_spec.trace.record import record_choices
from tests.htmltree import ids, text
from tests.test_html_content import page_of, rows_of, three_rounds, total_off
from tests.test_symbolic_vengeance import TINY
from tests.toy_game import ToyRuleset

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@dataclasses.dataclass(frozen=True, slots=True)
class _TaggedToy(ToyRuleset):
    """The toy game with one more option, ``tag_rule``, whose values "twice" and "never" both choose the clause
    TOY-FORCED (its own value, "once", the clause TOY-TAG)."""

    OPTIONS: ClassVar[Mapping[str, Option]] = {
        **ToyRuleset.OPTIONS,
        "tag_rule": Option("tag_rule", str, ("once", "twice", "never"), "TOY-TAG", "how often a Tag draws",
                           {"twice": "TOY-FORCED", "never": "TOY-FORCED"}),
    }
    tag_rule: str = "once"


def test_a_clause_two_values_choose_is_expected_when_either_is_declared_and_else_names_both(toy_game: str) -> None:
    """coverage.expected_clauses: a clause chosen by two values of one option is expected as soon as the engine
    declares one of them; when it declares neither, the reason names both values, joined by " or "."""
    ruleset = _TaggedToy()
    expected, missing = expected_clauses(ruleset, {})
    assert "TOY-FORCED" not in expected
    reasons = {u.clause: u.reason for u in missing}
    assert reasons["TOY-FORCED"] == ('belongs to tag_rule="twice" or tag_rule="never", which the engine does not '
                                     "declare")
    assert "TOY-TAG" in expected  # the ruleset's own value needs no declaration
    for declared in (["never"], ["twice"], "any"):
        expected, missing = expected_clauses(ruleset, {"tag_rule": declared})
        assert "TOY-FORCED" in expected and "TOY-FORCED" not in {u.clause for u in missing}, declared


def test_causes_of_equal_count_are_listed_by_name_whatever_order_their_failures_came_in() -> None:
    """docs/html-report.md: the cause table lists the most frequent cause first, and causes of equal count by
    name, so the page does not depend on the order in which the cases finished."""
    trace = three_rounds()
    later = {"diagnosis": {"text": "the engine adds one to a total"}}
    earlier = {"diagnosis": {"text": "a total one too high"}}
    frequent = {"diagnosis": {"text": "the engine counts a Freeze"}}
    results = [total_off(trace, 5, "game:flip7/seed=0/game=1/players=3", **later),
               total_off(trace, 6, "game:flip7/seed=0/game=2/players=3", **earlier),
               total_off(trace, 7, "game:flip7/seed=0/game=3/players=3", **frequent),
               total_off(trace, 8, "game:flip7/seed=0/game=4/players=3", **frequent)]
    for order in (results, results[::-1], [results[1], results[2], results[0], results[3]]):
        rows = [[text(c) for c in row] for row in rows_of(next(ids(page_of(order))["causes"].iter("table")))]
        assert [row[0] for row in rows] == ["the engine counts a Freeze", "a total one too high",
                                            "the engine adds one to a total"]
        assert [row[3] for row in rows] == ["2", "1", "1"]


def test_a_fingerprint_re_records_a_fixture_up_to_the_last_decision_its_recorded_reshuffle_still_fits() -> None:
    """fingerprint.rerecorded: under a reading that reshuffles at another moment (RULES: the discard pile becomes
    the deck as soon as the last card is drawn, not when a card is needed), the fixture's recorded reshuffle
    order no longer fits its whole game; the fixture is re-recorded under the reading with the longest prefix of
    its decisions that still plays, not the whole game and not a shorter prefix."""
    case = trace_file_cases(FIXTURES / "flip7" / "reshuffle-when-emptied.json", "reshuffle-when-emptied")[-1]
    fingerprint = dataclasses.replace(preset("flip7"), deviations=('reshuffle_moment="when_needed"',))
    ruleset = dataclasses.replace(case.ruleset, deviations=fingerprint.deviations)
    document = case.document
    choices = document.choices

    def plays(count: int) -> bool:
        try:
            record_choices(ruleset, document.table.players, document.table.dealer, document.table.deck,
                           choices[:count], document.reshuffles, strict=False)
        except (ChanceError, Flip7Error):
            return False
        return True

    assert not plays(len(choices)), "the recorded reshuffle does not fit the reading's whole game"
    again = rerecorded(case, fingerprint)
    assert again.ruleset.deviations == fingerprint.deviations and again.trace is not None
    kept = again.document.choices
    assert 0 < len(kept) < len(choices) and list(kept) == list(choices[:len(kept)])
    assert not plays(len(kept) + 1), "the longest prefix that still plays"
    assert plays(len(kept))
    assert again.trace["header"]["deck"] == case.trace["header"]["deck"]  # type: ignore[index]


def test_a_fixture_whose_whole_game_fits_the_reading_is_re_recorded_whole() -> None:
    """The other side of the back-off: a reading under which the recorded reshuffle still fits keeps every
    decision (the same fixture under its own reshuffle moment, stated as a reading)."""
    case = trace_file_cases(FIXTURES / "flip7" / "reshuffle-when-emptied.json", "reshuffle-when-emptied")[-1]
    own = case.ruleset.reshuffle_moment  # type: ignore[attr-defined]
    fingerprint = dataclasses.replace(preset("flip7"), deviations=(f'reshuffle_moment="{own}"',))
    again = rerecorded(case, fingerprint)
    assert list(again.document.choices) == list(case.document.choices)


def test_a_fixture_whose_first_decision_already_needs_an_unrecorded_reshuffle_keeps_no_decision() -> None:
    """The back-off goes down to no decision at all: a one-player challenge reshuffled before every round (the
    misreading reshuffle_every_round of RULES F7-DISCARD-PILE) needs, before its first decision, a reshuffle the
    fixture never recorded, so it is re-recorded under the reading with none of its decisions, rather than kept
    as recorded on the base."""
    case = trace_file_cases(FIXTURES / "flip7" / "challenge-nobody-reaches.json", "challenge-nobody-reaches")[-1]
    assert case.document.choices and not case.document.reshuffles
    fingerprint = dataclasses.replace(preset("flip7"), deviations=("reshuffle_every_round",))
    again = rerecorded(case, fingerprint)
    assert again.ruleset.deviations == ("reshuffle_every_round",) and again.ruleset.name == case.ruleset.name
    assert list(again.document.choices) == []
    with pytest.raises(ChanceError):
        record_choices(again.ruleset, case.document.table.players, case.document.table.dealer,
                       case.document.table.deck, case.document.choices[:1], (), strict=False)


def test_an_existence_theorem_holds_of_a_scorer_that_has_the_property_at_another_hand_than_the_witness() -> None:
    """theorems.check_against_scorer: "an existence needs a compared hand that has the property under the
    scorer's score". Without a floor (V-SCORE-FLOOR off), some hand scores below 0 (VT-NEGATIVE-SCORE-EXISTS). A
    scorer that scores the model's witness 0 and every other hand as the rules do still has such a hand, and the
    theorem is proved with it; a scorer that floors every hand at 0 has none, and the theorem fails."""
    ruleset = TINY.with_options(negative_scores=True)
    theorems = VengeanceTheorems(ruleset)
    proved = {r.id: r for r in theorems.prove(scorer=None).results}["VT-NEGATIVE-SCORE-EXISTS"]
    assert proved.status == PROVED
    (witness,) = proved.hands
    assert witness.score < 0

    def misses_the_witness(rules: Any, hand: Sequence[Card], busted: bool) -> int:
        if [str(c) for c in hand] == witness.cards and busted == witness.busted:
            return 0
        return round_score(rules, hand, busted)

    report = {r.id: r for r in theorems.prove(scorer=misses_the_witness).results}
    assert report["C-MODEL-MATCHES-SCORER"].status == COUNTEREXAMPLE
    again = report["VT-NEGATIVE-SCORE-EXISTS"]
    assert again.status == PROVED and again.detail == "the scorer has the property at another hand"
    (other,) = again.hands
    assert other.cards != witness.cards and other.score < 0
    assert round_score(ruleset, cards(" ".join(other.cards)), other.busted) == other.score

    def floored(rules: Any, hand: Sequence[Card], busted: bool) -> int:
        return max(0, round_score(rules, hand, busted))

    lacking = {r.id: r for r in theorems.prove(scorer=floored).results}["VT-NEGATIVE-SCORE-EXISTS"]
    assert lacking.status == COUNTEREXAMPLE
    assert lacking.detail == "under the scorer no hand of the domain has the property"
