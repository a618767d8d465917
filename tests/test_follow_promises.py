"""What following a case past its divergences promises (flip7_spec/judge/follow.py, docs/protocol.md "A reading is
a claim with evidence" and "Past a divergence no reading explains"): the fields of a divergence no known reading
explains are set aside and the case goes on, so one unexplained deviation hides no other; a known reading that
explains a divergence but for one field is followed with that field alone set aside; at most MAX_CAUSES causes;
of several readings the simplest path is kept; a reading the evidence does not confirm reads "possibly", with
what it matched; each cause says at which trace step it shows and an unexplained one where.

The engine here is the reference itself under a known reading (its observations are an engine playing that
reading, as tests/mutants/dealer_fixed.py does), with slips no reading of the rules gives written into chosen
observations (a pile or a total off by a large amount): where each deviation shows is known by construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from flip7_spec.conformance.cases import generated_cases
from flip7_spec.judge.diagnosis import Diagnosis, alternatives, diagnoses, reference_observations
from flip7_spec.judge.follow import MAX_CAUSES, Follow, Support, possibly
from flip7_spec.judge.runner import _projection
from flip7_spec.rulesets import preset
from flip7_spec.trace.compare import canonical, differences

FLIP7 = preset("flip7")
PROJECT = _projection(None)  # a game case's comparison: every observation whole, the legal choices left out

Change = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Game:
    """The first generated flip7 game (3 players): its setup, decisions and the reference's own observations.
    ``indices`` places each decision at an odd step of the trace (a trace with another step before each
    decision), so that a cause's step, a trace step index, is told apart from its position."""

    table: Any
    reshuffles: list[list[str]]
    choices: list[Any]
    indices: list[int]
    own: list[Any]
    round_end: int
    """The decision during which the first round ends (a round case compares up to there, the totals only)."""

    def under(self, reading: str) -> list[Any]:
        """The observations of an engine that plays ``reading``: the reference under it."""
        return reference_observations(replace(FLIP7, deviations=(reading,)), self.table, self.reshuffles,
                                      self.choices, len(self.choices) + 1)

    def follow(self, found: list[Any], at: int | None = None, project: Any = PROJECT) -> Follow:
        """The case followed as the runner follows it, from a first divergence at ``at`` (if given: the runner
        gives the number of fields that differ there)."""
        follow = Follow(FLIP7, self.table, self.reshuffles, self.choices, found, self.indices, project)
        if at is not None:
            follow.fields[at] = len(differences(project(at, self.own[at]), project(at, found[at])))
        return follow

    def step(self, position: int) -> int:
        return self.indices[position - 1]

    def first_divergence(self, found: list[Any]) -> int | None:
        return next((k for k in range(min(len(found), len(self.own)))
                     if canonical(PROJECT(k, found[k])) != canonical(PROJECT(k, self.own[k]))), None)


@cache
def game() -> Game:
    case = next(c for c in generated_cases([FLIP7], [3], 1, "0") if c.level == "game")
    document = case.document
    choices = list(document.choices)
    reshuffles = [list(order) for order in document.reshuffles]
    own = reference_observations(FLIP7, document.table, reshuffles, choices, len(choices) + 1)
    indices = [2 * s.index + 1 for s in document.decisions]
    round_end = document.first_round_end()
    assert round_end is not None
    return Game(document.table, reshuffles, choices, indices, own, round_end)


# Slips no reading of the rules gives (each field off by far more than any rule moves it in one step).
def miscount(o: dict[str, Any]) -> dict[str, Any]:
    return {**o, "discard_pile": o["discard_pile"] + 1000}


def round_off(o: dict[str, Any]) -> dict[str, Any]:
    return {**o, "round": o["round"] + 100}


def draw_off(o: dict[str, Any]) -> dict[str, Any]:
    return {**o, "draw_pile": o["draw_pile"] + 1000}


def total_off(o: dict[str, Any]) -> dict[str, Any]:
    players = [dict(p) for p in o["players"]]
    players[1]["total"] += 1000
    return {**o, "players": players}


def score_off(o: dict[str, Any]) -> dict[str, Any]:
    players = [dict(p) for p in o["players"]]
    players[2]["round_score"] += 1000
    return {**o, "players": players}


def slipped(observations: list[Any], at: Iterable[int], change: Change) -> list[Any]:
    positions = set(at)
    return [change(o) if k in positions else o for k, o in enumerate(observations)]


def dealer_fixed() -> tuple[list[Any], int]:
    """An engine with a Dealer for life, and the position where it first shows (the second round's deal)."""
    found = game().under("dealer_fixed")
    divergence = game().first_divergence(found)
    assert divergence is not None and divergence >= 3, "the Dealer shows at the second round"
    return found, divergence


# ---- past a divergence no known reading explains ---------------------------------------------------------------


def test_an_unexplained_divergence_sets_its_fields_aside_and_the_next_reading_is_still_found() -> None:
    """The discard pile is miscounted from position 2 on, before the Dealer for life shows: the miscount is a
    cause no reading explains, at its step, pointing at the discard pile; the case goes on with the discard pile
    set aside and finds the Dealer for life where it shows, confirmed (the reference under it reproduces the
    engine to the end once the miscount is set aside)."""
    g = game()
    plain, dealer = dealer_fixed()
    found = slipped(plain, range(2, len(plain)), miscount)
    assert g.first_divergence(found) == 2
    assert not diagnoses(FLIP7, g.table, g.reshuffles, g.choices, found, 2, PROJECT), "no reading: a slip"
    follow = g.follow(found)
    path = follow.unexplained(2)
    assert path.steps == [2, dealer]
    unexplained, reading = follow.causes(path)
    assert unexplained.reading is None and unexplained.step == g.step(2)
    assert unexplained.where == f"$.steps[{g.step(2)}].observation.discard_pile"
    assert unexplained.set_aside == ()
    assert reading.reading == "dealer_fixed" and reading.step == g.step(dealer)
    assert reading.set_aside == ("discard_pile",)
    assert reading.evidence is not None and reading.evidence.confirmed
    assert reading.evidence.broke_at is None and reading.evidence.held == len(found) - dealer
    assert reading.evidence.broke_explained is False  # nothing broke it
    assert not reading.text.startswith("possibly")
    assert [d.name for d in path.ruleset.readings()] == ["dealer_fixed"]


def test_an_unexplained_divergence_at_the_start_points_into_the_start_observation() -> None:
    g = game()
    plain, dealer = dealer_fixed()
    found = slipped(plain, range(len(plain)), miscount)
    follow = g.follow(found)
    path = follow.unexplained(0)
    unexplained, reading = follow.causes(path)
    assert unexplained.step is None and unexplained.where == "$.start.observation.discard_pile"
    assert reading.reading == "dealer_fixed" and reading.step == g.step(dealer)


@pytest.mark.parametrize("changes", [(miscount,), (miscount, round_off)], ids=["one field", "two fields"])
def test_a_slip_no_reading_explains_names_no_reading(changes: tuple[Change, ...]) -> None:
    """A correct engine whose observation at one step is off in one field, or two: one cause, no reading (a
    reading is never stated without evidence, and setting the slipped fields aside leaves nothing to explain)."""
    g = game()
    found = g.own
    for change in changes:
        found = slipped(found, [10], change)
    follow = g.follow(found)
    path = follow.unexplained(10)
    assert path.causes == [None] and path.steps == [10]
    assert path.ruleset == FLIP7  # no reading found: the case's own ruleset, no deviation
    (cause,) = follow.causes(path)
    assert cause.reading is None and cause.step == g.step(10)
    assert cause.where is not None and cause.where.startswith(f"$.steps[{g.step(10)}].observation.")


def test_each_unexplained_divergence_in_other_fields_is_its_own_cause_with_the_earlier_fields_set_aside() -> None:
    """The round number is off from position 5 on, and one player's total at position 12 only: two causes, the
    second at position 12 pointing at that total (the round, set aside, no longer counts), saying that the
    fields of the earlier one were set aside."""
    g = game()
    found = slipped(slipped(g.own, range(5, len(g.own)), round_off), [12], total_off)
    follow = g.follow(found)
    path = follow.unexplained(5)
    assert path.causes == [None, None] and path.steps == [5, 12]
    first, second = follow.causes(path)
    assert first.where == f"$.steps[{g.step(5)}].observation.round" and first.set_aside == ()
    assert second.where == f"$.steps[{g.step(12)}].observation.players[1].total"
    assert second.step == g.step(12) and second.set_aside == ("round",)
    assert first.text == "a further divergence that no known reading explains"
    assert second.text.startswith(first.text) and second.text.endswith("set aside)")


def test_a_divergence_in_other_fields_at_the_very_next_step_is_found() -> None:
    g = game()
    found = slipped(slipped(g.own, [5], round_off), [6], total_off)
    path = g.follow(found).unexplained(5)
    assert path.steps == [5, 6] and path.causes == [None, None]


@pytest.mark.parametrize("slips", [3, 4, 5])
def test_a_case_reports_at_most_max_causes_causes(slips: int) -> None:
    """One slip in another field every third position: each is a cause, up to MAX_CAUSES of them."""
    g = game()
    found = g.own
    changes = [round_off, draw_off, miscount, total_off, score_off][:slips]
    for k, change in enumerate(changes):
        found = slipped(found, [3 * (k + 1)], change)
    path = g.follow(found).unexplained(3)
    assert MAX_CAUSES == 4
    assert path.steps == [3 * (k + 1) for k in range(min(slips, MAX_CAUSES))]


def test_past_a_reading_an_unexplained_divergence_is_compared_under_that_reading_and_the_case_goes_on() -> None:
    """A Dealer for life, then the discard pile miscounted from position 12 on, then slips in other fields at
    20, 24 and 28: the Dealer for life held from its divergence to the miscount (confirmed: it held more than one
    step); the miscount is compared with the reference under the Dealer for life (so the Dealer is no divergence
    there) and set aside; each later slip is a cause, up to MAX_CAUSES in all from the first divergence."""
    g = game()
    plain, dealer = dealer_fixed()
    found = slipped(plain, range(12, len(plain)), miscount)
    for at, change in ((20, total_off), (24, round_off), (28, draw_off)):
        found = slipped(found, [at], change)
    follow = g.follow(found, dealer)
    path = follow.path(diagnoses(FLIP7, g.table, g.reshuffles, g.choices, found, dealer, PROJECT), dealer)
    assert path.steps == [dealer, 12, 20, 24]
    fixed, miscounted, total, round_number = follow.causes(path)
    assert fixed.reading == "dealer_fixed" and fixed.evidence is not None
    assert (fixed.evidence.held, fixed.evidence.broke_at, fixed.evidence.broke_explained) == (12 - dealer, 12, False)
    assert fixed.evidence.confirmed
    assert miscounted.reading is None and miscounted.where == f"$.steps[{g.step(12)}].observation.discard_pile"
    assert total.where == f"$.steps[{g.step(20)}].observation.players[1].total"
    assert total.set_aside == ("discard_pile",)
    assert round_number.where == f"$.steps[{g.step(24)}].observation.round"
    assert round_number.set_aside == ("discard_pile", "players.total")
    assert [d.name for d in path.ruleset.readings()] == ["dealer_fixed"]


def test_a_reading_whose_reference_refuses_a_decision_the_engine_took_held_up_to_there() -> None:
    """An engine that plays a Dealer for life yet takes the trace's later decisions, which the reference under
    that reading refuses (its rounds are dealt otherwise): the reading held from its divergence up to the
    refused decision, and is broken there, by nothing a known reading explains; the case is followed no further."""
    g = game()
    plain, dealer = dealer_fixed()
    found = plain + g.own[len(plain):]
    assert len(found) > len(plain)
    follow = g.follow(found, dealer)
    path = follow.path(diagnoses(FLIP7, g.table, g.reshuffles, g.choices, found, dealer, PROJECT), dealer)
    assert path.steps == [dealer]
    (fixed,) = follow.causes(path)
    assert fixed.reading == "dealer_fixed" and fixed.evidence is not None
    evidence = fixed.evidence
    assert (evidence.held, evidence.broke_at, evidence.broke_explained) == (len(plain) - dealer, len(plain), False)
    assert evidence.confirmed and evidence.fields == follow.fields[dealer]
    assert [d.name for d in path.ruleset.readings()] == ["dealer_fixed"]  # the deviations the failure reports


def test_a_reading_found_at_the_start_is_followed_from_the_first_decision_on() -> None:
    """An engine that plays to the right (it differs at the start) and slips in one total at its last step: the
    reading at the start, then the slip; in a round case (the totals only at its last step) the reading alone,
    held to the end."""
    g = game()
    right = g.under("turns_to_the_right")
    assert g.first_divergence(right) == 0
    last = len(right) - 1
    found = slipped(right, [last], total_off)
    follow = g.follow(found, 0)
    path = follow.path(diagnoses(FLIP7, g.table, g.reshuffles, g.choices, found, 0, PROJECT), 0)
    assert path.steps == [0, last] and [c.reading for c in follow.causes(path)] == ["turns_to_the_right", None]
    assert follow.causes(path)[0].step is None  # the start
    end = g.round_end + 1
    project = _projection(g.round_end)
    first_round = right[:end + 1]
    round_follow = g.follow(first_round, 0, project)
    round_path = round_follow.path(diagnoses(FLIP7, g.table, g.reshuffles, g.choices, first_round, 0, project), 0)
    assert round_path.steps == [0]
    (reading,) = round_follow.causes(round_path)
    assert reading.reading == "turns_to_the_right" and reading.evidence is not None
    assert (reading.evidence.held, reading.evidence.broke_at) == (end + 1, None)


def test_in_a_round_case_the_last_step_compares_the_totals_only_past_an_unexplained_divergence() -> None:
    """A round case compares only the players' totals at its last step (the next round is dealt there): past a
    miscount at position 3, a slipped total at the last step is a cause, a slipped discard pile there is not."""
    g = game()
    last = g.round_end + 1
    project = _projection(g.round_end)
    first_round = slipped(g.own[:last + 1], [3], miscount)
    both = slipped(slipped(first_round, [last], total_off), [last], draw_off)
    follow = g.follow(both, project=project)
    path = follow.unexplained(3)
    assert path.steps == [3, last]
    assert follow.causes(path)[1].where == f"$.steps[{g.step(last)}].observation.players[1].total"
    pile_only = slipped(first_round, [last], draw_off)
    assert g.follow(pile_only, project=project).unexplained(3).steps == [3]


def test_the_causes_past_a_reading_found_after_an_unexplained_divergence_count_towards_max_causes() -> None:
    """A slip in the round at position 2, the Dealer for life from its divergence, slips in other fields at 10,
    14 and 18: the slip, the Dealer for life and the slips at 10 and 14 are the MAX_CAUSES causes."""
    g = game()
    plain, dealer = dealer_fixed()
    found = slipped(plain, [2], round_off)
    for at, change in ((10, total_off), (14, draw_off), (18, miscount)):
        found = slipped(found, [at], change)
    follow = g.follow(found)
    path = follow.unexplained(2)
    assert path.steps == [2, dealer, 10, 14]
    assert [c.reading for c in follow.causes(path)] == [None, "dealer_fixed", None, None]


def test_two_independent_deviations_are_both_named_and_the_first_is_confirmed_up_to_the_second() -> None:
    """An engine with a Dealer for life that also banks a busted player's cards, and slips in other fields at 20,
    24 and 28: the Dealer for life is confirmed up to the bust, a later divergence another known reading explains
    (an independent deviation); the bust banking its cards is named there; then the slips, up to MAX_CAUSES."""
    g = game()
    _, dealer = dealer_fixed()
    found = reference_observations(replace(FLIP7, deviations=("dealer_fixed", "bust_banks_cards")), g.table,
                                   g.reshuffles, g.choices, len(g.choices) + 1)
    for at, change in ((20, total_off), (24, round_off), (28, draw_off)):
        found = slipped(found, [at], change)
    follow = g.follow(found, dealer)
    path = follow.path(diagnoses(FLIP7, g.table, g.reshuffles, g.choices, found, dealer, PROJECT), dealer)
    fixed, banks, *slips = follow.causes(path)
    assert path.steps[:2] == [dealer, path.steps[1]] and dealer < path.steps[1] < 20
    assert (fixed.reading, banks.reading) == ("dealer_fixed", "bust_banks_cards")
    assert fixed.evidence is not None and fixed.evidence.confirmed
    assert (fixed.evidence.broke_at, fixed.evidence.broke_explained) == (path.steps[1], True)
    assert path.steps[2:] == [20, 24] and [c.reading for c in slips] == [None, None]
    assert {d.name for d in path.ruleset.readings()} == {"dealer_fixed", "bust_banks_cards"}


def test_a_reading_found_as_the_last_cause_is_among_the_readings_the_case_was_followed_under() -> None:
    """Slips in three fields at positions 1, 2 and 3, the Dealer for life at its divergence, a slip after it: the
    Dealer for life is the last of the MAX_CAUSES causes, and the ruleset of the path (whose readings a failure
    reports as its deviations) plays it, though the case is followed no further."""
    g = game()
    plain, dealer = dealer_fixed()
    found = plain
    for at, change in ((1, round_off), (2, draw_off), (3, total_off), (dealer + 4, score_off)):
        found = slipped(found, [at], change)
    path = g.follow(found).unexplained(1)
    assert path.steps == [1, 2, 3, dealer]
    assert [c.reading if c else None for c in path.causes] == [None, None, None, "dealer_fixed"]
    assert [d.name for d in path.ruleset.readings()] == ["dealer_fixed"]


def test_fields_set_aside_stay_aside_past_every_reading_found_after_them() -> None:
    """The discard pile miscounted from position 2 on, in an engine with a Dealer for life that also banks a
    busted player's cards: past the miscount, both readings are found, each with the discard pile set aside,
    and nothing else (the miscount shows at every step after, but is set aside for the rest of the case)."""
    g = game()
    both = reference_observations(replace(FLIP7, deviations=("dealer_fixed", "bust_banks_cards")), g.table,
                                  g.reshuffles, g.choices, len(g.choices) + 1)
    found = slipped(both, range(2, len(both)), miscount)
    follow = g.follow(found)
    causes = follow.causes(follow.unexplained(2))
    assert [(c.reading, c.set_aside) for c in causes] == [
        (None, ()), ("dealer_fixed", ("discard_pile",)), ("bust_banks_cards", ("discard_pile",))]


# ---- a known reading but for one field ----------------------------------------------------------------------


@pytest.mark.parametrize("reading", ["dealer_fixed", "bust_banks_cards"])
def test_a_reading_that_explains_a_divergence_but_for_one_field_is_followed_with_that_field_set_aside(
        reading: str) -> None:
    """The miscount starts at the very step the reading shows (where a Dealer for life differs in several
    fields, a bust banking its cards in one: the round score), so no reading explains that step: the miscount is
    the unexplained cause, pointing at the discard pile, and the reading is named at the same step with the
    discard pile alone set aside, confirmed (it reproduces every other field to the end)."""
    g = game()
    plain = g.under(reading)
    at = g.first_divergence(plain)
    assert at is not None
    found = slipped(plain, range(at, len(plain)), miscount)
    assert not diagnoses(FLIP7, g.table, g.reshuffles, g.choices, found, at, PROJECT)
    follow = g.follow(found)
    path = follow.unexplained(at)
    assert path.steps == [at, at]
    unexplained, named = follow.causes(path)
    assert unexplained.reading is None and unexplained.step == g.step(at)
    assert unexplained.where == f"$.steps[{g.step(at)}].observation.discard_pile"
    assert named.reading == reading and named.step == g.step(at) and named.set_aside == ("discard_pile",)
    assert named.evidence is not None and named.evidence.confirmed
    # the fields the reading explains at its step: those that differ there without the miscount
    assert named.evidence.fields == len(differences(PROJECT(at, g.own[at]), PROJECT(at, plain[at])))


def test_the_causes_past_a_reading_found_but_for_one_field_count_towards_max_causes() -> None:
    """A slip in the round at position 2, the miscount from the Dealer's divergence on, slips in other fields at
    20 and 24: the round, the miscount, the Dealer for life (the discard pile set aside) and the total at 20 are
    the MAX_CAUSES causes; the slip at 24 is past them."""
    g = game()
    plain, dealer = dealer_fixed()
    found = slipped(slipped(plain, [2], round_off), range(dealer, len(plain)), miscount)
    found = slipped(slipped(found, [20], total_off), [24], draw_off)
    follow = g.follow(found)
    path = follow.unexplained(2)
    assert path.steps == [2, dealer, dealer, 20]
    assert [c.reading for c in follow.causes(path)] == [None, None, "dealer_fixed", None]


# ---- the path kept ----------------------------------------------------------------------------------------------


def reading_named(name: str) -> Diagnosis:
    return next(d for d in alternatives(FLIP7) if d.reading == name)


def unchanged_readings(count: int) -> list[Diagnosis]:
    """Readings under which the reference plays the first game exactly as it does under the rules."""
    g = game()
    same = [d for d in alternatives(FLIP7) if d.ruleset is not None and
            [canonical(o) for o in reference_observations(d.ruleset, g.table, g.reshuffles, g.choices,
                                                          len(g.own))] == [canonical(o) for o in g.own]]
    assert len(same) >= count
    return same[:count]


def test_the_path_kept_is_the_one_leaving_fewest_divergences_unexplained() -> None:
    """At the Dealer's divergence, a reading that changes nothing in this game leaves the Dealer to a second
    cause; the Dealer for life explains the whole case alone: it is kept, whichever comes first."""
    g = game()
    found, dealer = dealer_fixed()
    neutral = unchanged_readings(1)[0]
    for matches in ([neutral, reading_named("dealer_fixed")], [reading_named("dealer_fixed"), neutral]):
        follow = g.follow(found, dealer)
        path = follow.path(matches, dealer)
        assert [c.reading for c in path.causes if c is not None] == ["dealer_fixed"], matches[0].reading
        assert path.steps == [dealer]


def test_of_equally_good_paths_the_first_reading_is_kept() -> None:
    """Two readings that change nothing in this game lead to the same path (the Dealer for life one step
    later): the first one given is kept."""
    g = game()
    found, dealer = dealer_fixed()
    first, second = unchanged_readings(2)
    for matches in ([first, second], [second, first]):
        path = g.follow(found, dealer).path(matches, dealer)
        assert path.causes[0] is not None and path.causes[0].reading == matches[0].reading
        assert path.causes[1] is not None and path.causes[1].reading == "dealer_fixed"


def test_only_the_first_branches_readings_are_followed() -> None:
    """Follow.path tries the first BRANCHES (3) readings only: the Dealer for life fourth is not reached."""
    g = game()
    found, dealer = dealer_fixed()
    neutral = unchanged_readings(3)
    kept = g.follow(found, dealer).path([*neutral, reading_named("dealer_fixed")], dealer)
    assert kept.causes[0] is not None and kept.causes[0].reading == neutral[0].reading
    third = g.follow(found, dealer).path([*neutral[:2], reading_named("dealer_fixed")], dealer)
    assert third.causes[0] is not None and third.causes[0].reading == "dealer_fixed"


# ---- evidence and "possibly" --------------------------------------------------------------------------------------


def test_a_reading_that_matched_one_field_at_one_step_reads_possibly_with_what_it_matched() -> None:
    """The engine shows a bust banking its cards at one step only (one field: the busted player's round score)
    and plays by the rules after it: the reading is possible, not a claim, and says it matched one field at one
    step (docs/protocol.md); the step after is a divergence no reading explains."""
    g = game()
    banks = g.under("bust_banks_cards")
    at = g.first_divergence(banks)
    assert at is not None
    found = [banks[at] if k == at else o for k, o in enumerate(g.own)]
    matches = diagnoses(FLIP7, g.table, g.reshuffles, g.choices, found, at, PROJECT)
    assert "bust_banks_cards" in [d.reading for d in matches]
    follow = g.follow(found, at)
    assert follow.fields[at] == 1
    path = follow.path(matches, at)
    causes = follow.causes(path)
    first = causes[0]
    assert first.evidence is not None and not first.evidence.confirmed
    diagnosis = path.causes[0]
    assert diagnosis is not None
    assert first.text == f"possibly: {diagnosis.describe()} (it matched one field at one step only)"
    assert first.step == g.step(at)


@pytest.mark.parametrize(("support", "note"), [
    (Support(5, fields=1, held=1, broke_at=None, broke_explained=False), "one field"),
    (Support(5, fields=1, held=1, broke_at=6, broke_explained=False), "one field"),
    (Support(5, fields=2, held=1, broke_at=6, broke_explained=False), "again"),
    (Support(5, fields=3, held=1, broke_at=6, broke_explained=False), "again"),
])
def test_a_possible_reading_says_what_it_matched(support: Support, note: str) -> None:
    """A reading that is not confirmed either matched one field at one step only, or matched more and was
    contradicted at once by a divergence no known reading explains: its note says which."""
    assert not support.confirmed
    text = possibly("the engine behaves as if X", support)
    assert text.startswith("possibly: the engine behaves as if X (") and text.endswith(")")
    if note == "one field":
        assert support.note() == "it matched one field at one step only"
    else:
        assert support.note().startswith("the engine diverged from it again at the next step")
        assert support.note().endswith("in a way no known reading explains")


def cost(path: Any) -> tuple[int, int, int]:
    """Follow.path's order of paths (its docstring): the fewest divergences unexplained, then the fewest readings
    unconfirmed, then the fewest causes."""
    causes = len(path.causes)
    unexplained = sum(c is None for c in path.causes)
    confirmed = sum(s is not None and s.confirmed for s in path.supports)
    return unexplained, causes - confirmed, causes


@pytest.mark.parametrize(("better", "worse", "differ"), [
    ("bust_banks_cards", "bust_discards_cards", 0),  # three causes each: one unexplained after the latter
    ("bust_discards_cards", "discard_back_each_round", 1),  # one unexplained each, one more unconfirmed
    ("reshuffle_moment=\"when_emptied\"", "bust_banks_cards", 2),  # all confirmed: two causes against three
    ("dealer_fixed", "reshuffle_every_round", 1),  # one cause each, the latter not confirmed
    ("dealer_fixed", "reshuffle_moment=\"when_emptied\"", 2),  # one confirmed cause against two
])
def test_the_path_kept_is_the_cheapest_whichever_reading_comes_first(better: str, worse: str,
                                                                       differ: int) -> None:
    """At the Dealer's divergence, each reading alone leads to a path (Follow.path follows each reading it is given
    from the divergence and diagnoses the divergences after it; here the readings are chosen for the paths they
    lead to, in a run they are those the diagnosis found there); given two, Follow.path keeps the cheaper path in
    its order, whichever is given first, so a cheaper path found second is not lost to an early stop on the
    first."""
    g = game()
    found, dealer = dealer_fixed()
    alone = {name: g.follow(found, dealer).path([reading_named(name)], dealer) for name in (better, worse)}
    costs = {name: cost(path) for name, path in alone.items()}
    assert costs[better] < costs[worse]
    assert costs[better][:differ] == costs[worse][:differ] and costs[better][differ] < costs[worse][differ]
    for order in ((better, worse), (worse, better)):
        kept = g.follow(found, dealer).path([reading_named(name) for name in order], dealer)
        assert kept.causes[0] is not None and kept.causes[0].reading == better, order
        assert kept.steps == alone[better].steps


def test_the_causes_of_the_path_kept_are_those_of_its_own_readings_not_of_the_readings_tried_beside_it() -> None:
    """A Dealer for life with the discard pile miscounted from position 14 on. Tried beside it, a bust discarding
    the busted player's cards leads to the same unexplained position by another path, where under that reading
    the busted player's cards differ too; the Dealer for life alone is kept, and its unexplained cause points at
    the discard pile, as when it is tried alone."""
    g = game()
    plain, dealer = dealer_fixed()
    found = slipped(plain, range(14, len(plain)), miscount)
    alone_follow = g.follow(found, dealer)
    alone = alone_follow.causes(alone_follow.path([reading_named("dealer_fixed")], dealer))
    assert [(c.reading, c.where) for c in alone] == [
        ("dealer_fixed", None), (None, f"$.steps[{g.step(14)}].observation.discard_pile")]
    for order in (["dealer_fixed", "bust_discards_cards"], ["bust_discards_cards", "dealer_fixed"]):
        follow = g.follow(found, dealer)
        kept = follow.causes(follow.path([reading_named(name) for name in order], dealer))
        assert kept == alone, order


def test_each_reading_of_a_pair_is_a_cause_of_its_own_naming_the_other() -> None:
    """docs/protocol.md: a pair is named as two causes at the same step, each saying it fits only with the other
    (the engine of tests/test_diagnosis_pairs.py: a Flip 7 earns no bonus and leaves the others with nothing;
    a game of the generated corpus with a Flip 7)."""
    case = next(c for c in generated_cases([FLIP7], [3, 4, 5, 6], 10, "0")
                if c.level == "game" and c.id.endswith("game=9/players=4"))
    document = case.document
    reshuffles = [list(order) for order in document.reshuffles]
    choices = list(document.choices)
    found = reference_observations(replace(FLIP7, deviations=("flip7_others_bank_nothing", "no_flip7_bonus")),
                                   document.table, reshuffles, choices, len(choices) + 1)
    own = reference_observations(FLIP7, document.table, reshuffles, choices, len(choices) + 1)
    at = next(k for k in range(len(found)) if canonical(PROJECT(k, found[k])) != canonical(PROJECT(k, own[k])))
    follow = Follow(FLIP7, document.table, reshuffles, choices, found, [s.index for s in document.decisions],
                    PROJECT)
    follow.fields[at] = len(differences(PROJECT(at, own[at]), PROJECT(at, found[at])))
    path = follow.path(diagnoses(FLIP7, document.table, reshuffles, choices, found, at, PROJECT), at)
    causes = follow.causes(path)
    assert [(c.reading, c.together) for c in causes] == [
        ("flip7_others_bank_nothing", ("no_flip7_bonus",)), ("no_flip7_bonus", ("flip7_others_bank_nothing",))]
    assert causes[0].step == causes[1].step == document.decisions[at - 1].index
