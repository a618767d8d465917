"""The parts of the diagnosis (flip7_spec/judge/diagnosis.py) that the runner reaches past the first divergence's
search, each held to its docstring: whether the reference under a reading reproduces the engine through a
position, the first reading that fits, the reshuffle an engine could not make and the readings that need one
too, a score's readings, and how a reading is told (docs/protocol.md, "A reading is a claim with evidence").
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from flip7_spec.clauses import CLAUSES
from flip7_spec.conformance.cases import generated_cases
from flip7_spec.errors import ChanceError
from flip7_spec.judge.diagnosis import (
    Diagnosis,
    alternatives,
    diagnose,
    diagnose_reshuffle,
    diagnose_score,
    diagnoses,
    is_reshuffle_problem,
    needs_other_reshuffle,
    reference_observations,
    reproduces,
)
from flip7_spec.judge.runner import _projection
from flip7_spec.protocol.adapter import EngineFailure
from flip7_spec.protocol.schema import ReshuffleProblem
from flip7_spec.rulesets import preset
from flip7_spec.trace.compare import canonical

FLIP7 = preset("flip7")
PROJECT = _projection(None)


@cache
def setup() -> tuple[Any, list[list[str]], list[Any], list[Any]]:
    """The first generated flip7 game (3 players, no reshuffle order in its trace): table, reshuffle orders,
    decisions and the reference's own observations."""
    case = next(c for c in generated_cases([FLIP7], [3], 1, "0") if c.level == "game")
    document = case.document
    choices = list(document.choices)
    reshuffles = [list(order) for order in document.reshuffles]
    own = reference_observations(FLIP7, document.table, reshuffles, choices, len(choices) + 1)
    return document.table, reshuffles, choices, own


def under(reading: str) -> list[Any]:
    table, reshuffles, choices, _ = setup()
    return reference_observations(replace(FLIP7, deviations=(reading,)), table, reshuffles, choices,
                                  len(choices) + 1)


def first_divergence(found: list[Any]) -> int:
    own = setup()[3]
    return next(k for k in range(min(len(found), len(own)))
                if canonical(PROJECT(k, found[k])) != canonical(PROJECT(k, own[k])))


def miscounted(observation: dict[str, Any]) -> dict[str, Any]:
    """One card too many in the discard pile: what no reading of the rules shows."""
    return {**observation, "discard_pile": observation["discard_pile"] + 1}


# ---- reproduces ---------------------------------------------------------------------------------------------


def test_a_reading_reproduces_the_engine_only_through_every_position_up_to_the_one_asked() -> None:
    """An engine with a Dealer for life: the reference under that reading shows its observations through the
    divergence and to the end; the reference under the rules shows them up to the step before the divergence
    only; a miscount at any earlier position, or at the position itself, and the reading no longer reproduces
    the engine there, unless the case's projection leaves the miscounted field out."""
    table, reshuffles, choices, _ = setup()
    found = under("dealer_fixed")
    at = first_divergence(found)
    fixed = replace(FLIP7, deviations=("dealer_fixed",))
    assert reproduces(fixed, table, reshuffles, choices, found, at, PROJECT)
    assert reproduces(fixed, table, reshuffles, choices, found, len(found) - 1, PROJECT)
    assert not reproduces(FLIP7, table, reshuffles, choices, found, at, PROJECT)
    assert reproduces(FLIP7, table, reshuffles, choices, found, at - 1, PROJECT)

    def without_discard(position: int, observation: Any) -> Any:
        return {k: v for k, v in PROJECT(position, observation).items() if k != "discard_pile"}

    for earlier in (0, at - 1, at):
        slipped = [miscounted(o) if k == earlier else o for k, o in enumerate(found)]
        assert not reproduces(fixed, table, reshuffles, choices, slipped, at, PROJECT), earlier
        assert reproduces(fixed, table, reshuffles, choices, slipped, at, without_discard), earlier


def test_a_round_case_is_reproduced_through_its_last_step_by_the_totals_only() -> None:
    """A round case compares only the totals at the step its round ends (the next round is dealt there): a pile
    off there does not keep the rules from reproducing the engine; a total off does."""
    table, reshuffles, choices, own = setup()
    document = next(c for c in generated_cases([FLIP7], [3], 1, "0") if c.level == "game").document
    end = document.first_round_end()
    assert end is not None
    last, project = end + 1, _projection(end)
    pile = [miscounted(o) if k == last else o for k, o in enumerate(own[:last + 1])]
    assert reproduces(FLIP7, table, reshuffles, choices, pile, last, project)
    total = [*own[:last], {**own[last], "players": [{**p, "total": p["total"] + 1} for p in own[last]["players"]]}]
    assert not reproduces(FLIP7, table, reshuffles, choices, total, last, project)
    # no reading of the rules adds one to every total at once: no reading is named for it
    assert diagnoses(FLIP7, table, reshuffles, choices, total, last, project) == []


def test_a_reading_whose_replay_refuses_a_decision_does_not_reproduce_the_engine() -> None:
    """The reference under a Dealer for life stops where the trace's decisions no longer fit it (fewer
    observations than the trace): past that position it reproduces nothing, whatever the engine showed."""
    table, reshuffles, choices, own = setup()
    fixed = replace(FLIP7, deviations=("dealer_fixed",))
    stops = len(under("dealer_fixed"))
    assert stops < len(own)
    assert not reproduces(fixed, table, reshuffles, choices, own, stops, lambda at, o: None)
    assert reproduces(fixed, table, reshuffles, choices, own, stops - 1, lambda at, o: None)


# ---- diagnose -----------------------------------------------------------------------------------------------


def test_diagnose_names_the_first_reading_that_fits_and_none_for_a_slip() -> None:
    table, reshuffles, choices, own = setup()
    found = under("dealer_fixed")
    at = first_divergence(found)
    every = diagnoses(FLIP7, table, reshuffles, choices, found, at, PROJECT)
    first = diagnose(FLIP7, table, reshuffles, choices, found, at, PROJECT)
    assert first is not None and every and first == every[0] and first.reading == "dealer_fixed"
    assert first.ruleset is not None and [d.name for d in first.ruleset.readings()] == ["dealer_fixed"]
    slipped = [miscounted(o) if k == 4 else o for k, o in enumerate(own)]
    assert diagnose(FLIP7, table, reshuffles, choices, slipped, 4, PROJECT) is None


# ---- a reshuffle the engine could not make --------------------------------------------------------------------


def reshuffles_each_round() -> list[Any]:
    """What an engine that reshuffles at every new round shows before it stops, at the second round, for a
    reshuffle order the trace does not hold (a game of one deck's worth: the trace holds none)."""
    _, reshuffles, _, own = setup()
    assert reshuffles == []
    found = under("reshuffle_every_round")
    assert 1 < len(found) < len(own), "the reference under it stops for want of an order"
    assert [canonical(o) for o in found] == [canonical(o) for o in own[:len(found)]]
    return found


def test_a_reading_needs_another_reshuffle_when_it_shows_the_engine_and_then_cannot_go_on() -> None:
    table, reshuffles, choices, _ = setup()
    found = reshuffles_each_round()
    every_round = replace(FLIP7, deviations=("reshuffle_every_round",))
    assert needs_other_reshuffle(every_round, table, reshuffles, choices, found, PROJECT)
    # the rules go on at the next decision: they need no reshuffle there
    assert not needs_other_reshuffle(FLIP7, table, reshuffles, choices, found, PROJECT)
    # a reading that does not show the engine's observations first is not the one
    slipped = [miscounted(o) if k == 1 else o for k, o in enumerate(found)]
    assert not needs_other_reshuffle(every_round, table, reshuffles, choices, slipped, PROJECT)
    # one decision earlier, or shown the start only, the reading goes on at the next decision (its reshuffle
    # comes later); with nothing shown, there is nothing it reproduces
    assert not needs_other_reshuffle(every_round, table, reshuffles, choices, found[:-1], PROJECT)
    assert not needs_other_reshuffle(every_round, table, reshuffles, choices, found[:1], PROJECT)
    assert not needs_other_reshuffle(every_round, table, reshuffles, choices, [], PROJECT)
    # a reading that refuses the engine's next decision (a Dealer for life, once the next round is dealt
    # otherwise) does not need a reshuffle: the decision does not fit it, which is no reshuffle problem
    fixed = under("dealer_fixed")
    assert len(fixed) < len(setup()[3])
    assert not needs_other_reshuffle(replace(FLIP7, deviations=("dealer_fixed",)), table, reshuffles, choices,
                                     fixed, PROJECT)


def test_a_reshuffle_the_trace_holds_an_order_for_is_no_other_reshuffle() -> None:
    """In a game whose trace holds a reshuffle order, an engine that stopped just before the reshuffle: the rules
    reproduce it and then reshuffle with the trace's order, so they need no other reshuffle."""
    case = next(c for c in generated_cases([FLIP7], [3, 4], 4, "0") if c.level == "game" and c.document.reshuffles)
    document = case.document
    reshuffles = [list(order) for order in document.reshuffles]
    choices = list(document.choices)
    own = reference_observations(FLIP7, document.table, reshuffles, choices, len(choices) + 1)
    # the reshuffle: the first position whose draw pile is larger than the one before
    at = next(k for k in range(1, len(own)) if own[k]["draw_pile"] > own[k - 1]["draw_pile"])
    assert not needs_other_reshuffle(FLIP7, document.table, reshuffles, choices, own[:at], PROJECT)
    # and the rules reproduce the whole game past it, with the trace's order
    assert reproduces(FLIP7, document.table, reshuffles, choices, own, len(own) - 1, PROJECT)
    assert reference_observations(FLIP7, document.table, [], choices, len(own)) == own[:at], \
        "without the trace's order the rules stop there"


def test_diagnose_reshuffle_names_the_first_reading_that_needs_a_reshuffle_there_too() -> None:
    table, reshuffles, choices, _ = setup()
    found = reshuffles_each_round()
    named = diagnose_reshuffle(FLIP7, table, reshuffles, choices, found, PROJECT)
    assert named is not None and named.ruleset is not None
    assert needs_other_reshuffle(named.ruleset, table, reshuffles, choices, found, PROJECT)
    first = [d for d in alternatives(FLIP7)
             if d.ruleset is not None and needs_other_reshuffle(d.ruleset, table, reshuffles, choices, found,
                                                                PROJECT)]
    assert named.reading == first[0].reading
    assert "reshuffle_every_round" in [d.reading for d in first]
    slipped = [miscounted(o) if k == 1 else o for k, o in enumerate(found)]
    assert diagnose_reshuffle(FLIP7, table, reshuffles, choices, slipped, PROJECT) is None


def test_a_pair_of_readings_that_explains_a_step_together_is_named_once() -> None:
    """An engine whose Flip 7 earns no bonus and leaves the others with nothing (tests/test_diagnosis_pairs.py)
    shows both at the step of the Flip 7 (a game of the generated corpus that has one): no single reading
    reproduces that step, the pair does, and it is named once (not once in each order)."""
    case = next(c for c in generated_cases([FLIP7], [3, 4, 5, 6], 10, "0")
                if c.level == "game" and c.id.endswith("game=9/players=4"))
    document = case.document
    reshuffles = [list(order) for order in document.reshuffles]
    choices = list(document.choices)
    both = replace(FLIP7, deviations=("flip7_others_bank_nothing", "no_flip7_bonus"))
    found = reference_observations(both, document.table, reshuffles, choices, len(choices) + 1)
    own = reference_observations(FLIP7, document.table, reshuffles, choices, len(choices) + 1)
    at = next(k for k in range(len(found)) if canonical(PROJECT(k, found[k])) != canonical(PROJECT(k, own[k])))
    assert not diagnoses(FLIP7, document.table, reshuffles, choices, found, at, PROJECT, pairs=False)
    named = diagnoses(FLIP7, document.table, reshuffles, choices, found, at, PROJECT)
    assert [(d.reading, tuple(o.reading for o in d.together)) for d in named] == [
        ("flip7_others_bank_nothing", ("no_flip7_bonus",))]
    ruleset = named[0].ruleset  # what the reference plays to follow the engine further: both readings
    assert ruleset is not None and {d.name for d in ruleset.readings()} == {"flip7_others_bank_nothing",
                                                                            "no_flip7_bonus"}


def test_readings_that_fit_a_divergence_equally_each_list_the_others() -> None:
    """Reshuffling when the draw pile is emptied and reshuffling at the start of a turn show the same thing in this
    game (the draw pile runs out at the end of a turn): the case cannot tell them apart, so both are named, in the
    order of the alternatives, each listing the other in ``also``; diagnose names the first."""
    case = next(c for c in generated_cases([FLIP7], [3, 4, 5, 6], 10, "0")
                if c.level == "game" and c.id.endswith("game=9/players=4"))
    document = case.document
    reshuffles = [list(order) for order in document.reshuffles]
    choices = list(document.choices)
    found = reference_observations(replace(FLIP7, deviations=("reshuffle_at_turn_start",)), document.table,
                                   reshuffles, choices, len(choices) + 1)
    own = reference_observations(FLIP7, document.table, reshuffles, choices, len(choices) + 1)
    at = next(k for k in range(len(found)) if canonical(PROJECT(k, found[k])) != canonical(PROJECT(k, own[k])))
    named = diagnoses(FLIP7, document.table, reshuffles, choices, found, at, PROJECT)
    assert [(d.reading, d.also) for d in named] == [
        ('reshuffle_moment="when_emptied"', ("reshuffle_at_turn_start",)),
        ("reshuffle_at_turn_start", ('reshuffle_moment="when_emptied"',))]
    assert diagnose(FLIP7, document.table, reshuffles, choices, found, at, PROJECT) == named[0]


# ---- the alternatives -------------------------------------------------------------------------------------------


def test_the_alternatives_are_every_other_value_of_each_finite_option_then_every_other_misreading() -> None:
    """Each other allowed value of each option with a finite set of values, in the game's order, never the
    ruleset's own; then each misreading of the catalogue not already among the ruleset's deviations; each with
    the ruleset that plays it (the reading added to the deviations) and its clause's confidence."""
    from flip7_spec.misreadings import catalogue

    fixed = replace(FLIP7, deviations=("dealer_fixed",))
    for ruleset in (FLIP7, fixed):
        found = list(alternatives(ruleset))
        options = [(d.option, d.value) for d in found if d.option is not None]
        played = ruleset.played()
        wanted = [(name, value) for name, option in ruleset.OPTIONS.items() if option.values() is not None
                  for value in option.values() or () if not (type(value) is type(getattr(played, name)) and
                                                             value == getattr(played, name))]
        assert options == wanted and len(wanted) >= 10
        misreadings = [d.reading for d in found if d.option is None]
        assert misreadings == [name for name in catalogue("flip7") if name not in ruleset.misreadings()]
        assert found[-1].reading == list(catalogue("flip7"))[-1]  # the catalogue's last one is reached
        for d in found:
            assert d.ruleset is not None and d.ruleset.deviations == (*ruleset.deviations, d.reading)
            assert d.confidence == CLAUSES[d.clause].confidence
            if d.option is None:
                assert d.description == catalogue("flip7")[d.reading].description
    assert "dealer_fixed" not in [d.reading for d in alternatives(fixed)]


def test_the_reference_observations_are_those_of_the_first_positions_asked() -> None:
    """The start, then after each decision: as many as asked (none for 0), fewer only when the reference cannot
    go on."""
    table, reshuffles, choices, own = setup()
    for count in (0, 1, 2, 7):
        seen = reference_observations(FLIP7, table, reshuffles, choices, count)
        assert [canonical(o) for o in seen] == [canonical(o) for o in own[:count]]


@pytest.mark.parametrize(("error", "problem"), [
    (EngineFailure("engine error: no order", reshuffle=ReshuffleProblem("no_order", ("1", "2"), 0)), True),
    (EngineFailure("engine error: reshuffle: no order left for the discard pile"), True),
    (EngineFailure("  Engine error:   RESHUFFLE: not a permutation"), True),
    (EngineFailure("  reshuffle: no order left"), True),
    (ChanceError("a reshuffle was needed and none was supplied"), True),
    (EngineFailure("ChanceError: a reshuffle was needed and none was supplied"), True),
    (EngineFailure("engine error: the draw pile ran out"), False),
    (EngineFailure("engine error: cannot reshuffle: no order"), False),
    (ValueError("reshuffle"), False),
], ids=["structured", "errored", "errored-case", "message", "chance-error", "in-process", "other", "inside",
        "no-colon"])
def test_a_reshuffle_problem_is_recognised_by_its_field_its_message_or_its_type(error: Exception,
                                                                                 problem: bool) -> None:
    """docs/protocol.md: an errored reply with the ``reshuffle`` field, or whose message starts ``reshuffle:``
    (after the ``engine error:`` a process engine's reply is reported with, any case), or an in-process
    engine's ChanceError (raised, or reported by its type's name)."""
    assert is_reshuffle_problem(error) is problem


# ---- a score's readings ----------------------------------------------------------------------------------------


def test_a_busted_hand_scored_as_its_cards_is_diagnosed_as_a_bust_banking_its_cards() -> None:
    """F7-SCORE-BUST: a busted player scores 0; an engine that scores the busted hand 5 6 as 11 banks its
    cards, and a hand not busted scored 11 is no deviation to diagnose at all."""
    named = diagnose_score(FLIP7, ["5", "6"], True, 11)
    assert named is not None and named.reading == "bust_banks_cards"
    assert diagnose_score(FLIP7, ["5", "6"], True, 12) is None  # no reading scores a bust 12


def test_a_score_that_fits_several_readings_names_the_first_and_lists_the_others() -> None:
    """docs/protocol.md: a hand with a 0 among seven different Numbers scores 21 (their sum, no Flip 7 bonus)
    under "no Flip 7 bonus" and under "the 0 does not count for Flip 7" alike: the first in the catalogue's order
    is named, the other is in its ``also``."""
    hand = ["0", "1", "2", "3", "4", "5", "6"]
    named = diagnose_score(FLIP7, hand, False, 21)
    assert named is not None
    fits = [d.reading for d in alternatives(FLIP7) if d.reading in ("zero_not_for_flip7", "no_flip7_bonus")]
    assert named.reading == fits[0] and fits[1] in named.also and named.reading not in named.also


# ---- how a reading is told -------------------------------------------------------------------------------------


def reading(name: str) -> Diagnosis:
    return next(d for d in alternatives(FLIP7) if d.reading == name)


def test_a_misreading_is_told_with_its_description_its_clause_and_the_clause_confidence() -> None:
    fixed = reading("dealer_fixed")
    told = fixed.explanation()
    assert told.text == fixed.describe() == ("the engine behaves as if the Dealer never changes (misreading "
                                             "dealer_fixed) [F7-DEALER-ROTATION, H]")  # docs/protocol.md
    assert told.reading == told.misreading == "dealer_fixed" and told.description == "the Dealer never changes"
    assert told.clause == "F7-DEALER-ROTATION" and told.confidence == CLAUSES["F7-DEALER-ROTATION"].confidence
    assert told.option is None and told.value is None and told.also == () and told.together == ()


def test_an_option_value_is_told_with_its_option_and_value_not_as_a_misreading() -> None:
    # docs/protocol.md: reshuffle_moment's value when_emptied has its own clause, F7-RESHUFFLE-EMPTIED
    assert reading('reshuffle_moment="when_emptied"').clause == "F7-RESHUFFLE-EMPTIED"
    dealer_first = reading('deal_start="dealer"')
    told = dealer_first.explanation()
    assert told.option == "deal_start" and told.value == "dealer"
    assert told.misreading is None and told.description is None
    assert told.text == f'the engine behaves as if deal_start="dealer" [{told.clause}, {told.confidence}]'
    assert told.confidence == CLAUSES[dealer_first.clause].confidence


def test_a_pair_is_told_with_the_reading_it_needs_and_the_readings_that_fit_as_well() -> None:
    """A pair of readings names both; a reading that fits with others names them too (``also``); each part of a
    pair is a cause of its own, played by the pair's ruleset."""
    first, second = reading("flip7_others_bank_nothing"), reading("no_flip7_bonus")
    assert first.ruleset is not None
    pair = replace(first, ruleset=replace(FLIP7, deviations=(first.reading, second.reading)),
                   together=(second,), also=("x2_doubles_adds", "x2_doubles_bonus"))
    text = pair.describe()
    assert text.startswith(first.describe())
    assert f", together with no_flip7_bonus [{second.clause}, {second.confidence}]" in text
    assert text.endswith("; this case fits x2_doubles_adds, x2_doubles_bonus as well")
    told = pair.explanation()
    assert told.together == ("no_flip7_bonus",) and told.also == ("x2_doubles_adds", "x2_doubles_bonus")
    alone, other = pair.parts()
    assert alone.reading == first.reading and alone.together == () and alone.ruleset is pair.ruleset
    assert other.reading == second.reading and other.ruleset is pair.ruleset
