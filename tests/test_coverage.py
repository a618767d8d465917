"""Clause coverage of the conformance corpus, and the aimed games that fill it.

The witness tests build the evidence of a situation by hand and check that the clause stating it is named
(the expected clause is the one whose statement describes the situation, in the game's clauses module).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.clauses import clauses_for
from flip7_spec.conformance.aimed import MISSES, aimed_cases, played_clauses
from flip7_spec.conformance.cases import game_jobs, generated_cases, generated_game
from flip7_spec.conformance.coverage import (
    Coverage,
    RulesetCoverage,
    Unreachable,
    case_clauses,
    clauses_of_evidence,
    coverage_lines,
    evidence_of,
    expected_clauses,
    summarise,
    trace_clauses,
)
from flip7_spec.conformance.hunts import Aim, RunawayGame, aimed_game, deck_hunt
from flip7_spec.conformance.session import Corpus
from flip7_spec.evidence import Evidence, RoundEnd, ScoredRow
from flip7_spec.protocol.adapter import reference_hello
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import preset, ruleset_from_json
from flip7_spec.steering import new_number_for, rig
from flip7_spec.trace.record import record_choices


def witnessed(name: str, events: Sequence[dict[str, Any]], rows: Sequence[tuple[Sequence[str], str]] = (),
              players: int = 3) -> set[str]:
    ruleset = preset(name)
    ends = [RoundEnd(1, tuple(ScoredRow(tuple(c), s) for c, s in rows), tuple(0 for _ in rows),
                     tuple(0 for _ in rows))] if rows else []
    return set(definition_of(ruleset).clause_witness(Evidence(ruleset, players, list(events), ends, False)))


@pytest.mark.clause("F7-MOD-X2")
def test_an_x2_with_a_plus_card_or_a_flip7_is_the_x2_clause() -> None:
    # F7-MOD-X2: "x2 doubles the sum of the Number cards only, never the +N cards or the bonus": a scored row
    # holding Numbers, x2 and a +N card (or seven Numbers) shows the whole clause.
    found = witnessed("flip7", [], [(("5", "x2", "+4"), "stayed"), (("3",), "stayed"), (("4", "4"), "busted")])
    assert "F7-MOD-X2" in found
    assert {"F7-SCORE-BUST", "F7-BUST-CARDS-STAY", "F7-MOD-ADD"} <= found  # the busted row keeps its cards
    assert "F7-MOD-ONLY" not in found  # every scored row holds a Number
    seven = ("0", "1", "2", "3", "4", "5", "x2", "6")
    assert "F7-MOD-X2" in witnessed("flip7", [], [(seven, "stayed"), (("3",), "stayed")])
    assert "F7-MOD-X2" not in witnessed("flip7", [], [(("5", "x2"), "stayed"), (("3",), "stayed")])


@pytest.mark.clause("F7-FLIP7-IN-FLIP3")
def test_a_flip7_during_a_flip_three_is_its_own_clause() -> None:
    events = [{"event": "round_start", "clause": "F7-DEAL", "round": 1},
              {"event": "flip3_start", "clause": "F7-FLIP3", "player": 0, "card": "FLIP3"},
              {"event": "draw", "clause": "F7-FLIP3", "player": 0, "card": "7", "via": "flip3"},
              {"event": "flip7", "clause": "F7-FLIP7", "player": 0}]
    found = witnessed("flip7", events)
    assert {"F7-FLIP7-IN-FLIP3", "F7-FLIP3-STOP", "F7-FLIP7-BONUS"} <= found
    plain = [events[0], {"event": "draw", "clause": "F7-HIT-STAY", "player": 0, "card": "7", "via": "hit"},
             {"event": "flip7", "clause": "F7-FLIP7", "player": 0}]
    assert "F7-FLIP7-IN-FLIP3" not in witnessed("flip7", plain)


@pytest.mark.clause("F7-TIE")
def test_a_shared_win_is_a_tie_at_the_target() -> None:
    end = {"event": "game_end", "clause": "F7-WINNER", "winners": [0, 2]}
    assert {"F7-TIE", "F7-GAME-END"} <= witnessed("flip7", [end])
    assert "F7-TIE" not in witnessed("flip7", [{**end, "winners": [1]}])


@pytest.mark.clause("V-BUST-BY-ACTION")
def test_a_steal_that_busts_is_the_bust_by_action_clause() -> None:
    events = [{"event": "round_start", "clause": "V-DEAL", "round": 1},
              {"event": "steal", "clause": "V-STEAL", "player": 1, "card": "9", "from": 0},
              {"event": "bust", "clause": "V-BUST", "player": 1, "card": "9"}]
    found = witnessed("vengeance", events)
    assert {"V-BUST-BY-ACTION", "V-STEAL-DISCARD-CARDS"} <= found
    assert "V-BUST-BY-ACTION" not in witnessed("vengeance", [events[0], events[2]])


def test_clauses_about_cards_a_deck_lacks_are_not_expected() -> None:
    # vengeance-basic has no special Numbers and no Just One More (its deck table in the ruleset)
    expected, missing = expected_clauses(preset("vengeance-basic"))
    reasons = {u.clause: u.reason for u in missing}
    assert "V-ZERO-SCORE" in reasons and "ZERO" in reasons["V-ZERO-SCORE"]
    assert "V-ONEMORE" in reasons and "V-ZERO-SCORE" not in expected
    assert "V-STEAL" in expected and "V-BASIC" in expected and "V-DECK" in reasons
    full, _ = expected_clauses(preset("vengeance"))
    assert {"V-ZERO-SCORE", "V-ONEMORE", "V-DECK"} <= set(full)


@pytest.mark.clause("F7-SETASIDE-PASS-VARIANT")
def test_a_value_clause_is_expected_only_when_its_value_can_be_played() -> None:
    ruleset = preset("flip7")
    undeclared, missing = expected_clauses(ruleset, {"set_aside_on_bust": ["discard"]})
    reason = next(u.reason for u in missing if u.clause == "F7-SETASIDE-PASS-VARIANT")
    assert "set_aside_on_bust" in reason and "pass_to_other_active" in reason
    assert "F7-SETASIDE-PASS-VARIANT" not in undeclared
    declared, _ = expected_clauses(ruleset, reference_hello()["options"])
    assert "F7-SETASIDE-PASS-VARIANT" in declared and "F7-FLIP3-SETASIDE-BUST" in declared


def test_every_clause_of_a_game_is_expected_or_explained() -> None:
    for name in ("flip7", "vengeance", "vengeance-basic"):
        ruleset = preset(name)
        expected, missing = expected_clauses(ruleset, reference_hello()["options"])
        assert sorted(expected + [u.clause for u in missing]) == sorted(c.id for c in clauses_for(ruleset.game))
        assert all(u.reason for u in missing)


def test_a_recorded_trace_counts_its_round_within_its_game() -> None:
    # Three players each dealt a different Number, everyone stays: one round, no bust, no tie, and the target of
    # 1 is reached; the round case is the game's first round, so its clauses are among the game's.
    ruleset = preset("flip7").with_options(target_score=1)
    deck = rig(ruleset.deck_cards(3), [new_number_for({0})] * 3)
    assert deck is not None
    trace = record_choices(ruleset, 3, 0, [c.text for c in deck], ["stay", "stay", "stay"])
    round_clauses, game_clauses = trace_clauses(ruleset, trace)
    assert round_clauses <= game_clauses
    assert {"F7-DEAL", "F7-HIT-STAY", "F7-ROUND-END", "F7-BANK", "F7-GAME-END"} <= game_clauses
    assert "F7-BUST" not in game_clauses


def test_a_generated_game_counts_the_clauses_its_trace_replays_to() -> None:
    # The generator reads a generated game's clauses from its own play; a replay of its trace reads the same.
    for job in game_jobs([preset("flip7"), preset("vengeance")], (3, 4, 5), 8, "coverage",
                         reference_hello()["options"]):
        trace, clauses = played_clauses(job)
        assert clauses == trace_clauses(job.ruleset, trace)
        assert trace == generated_game(job.ruleset, job.players, job.seed, job.index)


def test_aimed_games_reach_clauses_plain_games_do_not_and_are_deterministic() -> None:
    ruleset = preset("flip7")
    variants = reference_hello()["options"]

    def run() -> tuple[list[str], Coverage]:
        coverage = Coverage()
        ids = [case.id for case, _ in aimed_cases([ruleset], (3, 4), "7", coverage, 1, variants, cap=30)]
        return ids, coverage

    first, coverage = run()
    assert first == run()[0]
    assert first and all(i.startswith("game:") and "aimed" in i for i in first)
    reached = {c for c, n in coverage.counts["flip7"].items() if n}
    # from nothing, 30 aimed candidates reach Flip 7s, ties or game ends and Flip Three tangles
    assert {"F7-FLIP7", "F7-GAME-END", "F7-FLIP3-SETASIDE"} <= reached


@pytest.mark.parametrize("document", [
    {"name": "house-rules", "base": "flip7", "options": {"target_score": 150}},
    {"name": "flip7-fingerprint", "base": "flip7",
     "deviations": ["tie_to_first_seat", 'reshuffle_moment="when_emptied"']},
], ids=["ruleset-file", "fingerprint"])
def test_a_ruleset_of_the_run_that_starts_from_a_preset_counts_under_its_own_name(document: dict[str, Any]) -> None:
    # A ruleset file or a fingerprint (`--ruleset FILE`) is summarised under its own name, and its aimed games
    # see the cases already counted: they stop once every clause has its cases instead of spending the budget.
    ruleset = ruleset_from_json(document)
    corpus = Corpus(rulesets=[ruleset], games=20, seed="0").for_engine(reference_hello())
    cases = list(corpus.cases())
    summary = summarise(corpus.coverage, corpus.variants, [ruleset])[0]
    assert summary.ruleset == document["name"] and "flip7" not in corpus.coverage.counts
    assert len(summary.reached) >= 0.9 * len(summary.expected), summary.unreached
    aimed = [c for c in cases if ":aimed/" in c.id]
    assert len(aimed) < corpus.candidates_per_ruleset() // 4


def test_the_corpus_counts_coverage_by_part() -> None:
    corpus = Corpus(rulesets=[preset("flip7")], games=2, seed="0", min_coverage=0)
    cases = list(corpus.cases())
    summary = summarise(corpus.coverage, None, [preset("flip7")])[0]
    assert set(summary.by_part) == {"scoring", "generated"}
    # each scoring case counts the clause it was built for
    scoring = [c.clause for c in cases if c.level == "scoring"]
    assert sum(summary.by_part["scoring"].values()) == len(scoring)
    assert summary.counts["F7-DEAL"] == 4  # two games, a round case and a game case each
    assert summary.to_json()["reached"] == len(summary.reached)


def test_the_default_corpus_reaches_every_clause_of_each_declared_ruleset_three_times() -> None:
    """The default corpus (seed 0, 40 generated games, the shipped fixtures and the scoring cases, then the
    aimed games) for an engine that declares every option value, as the reference and the bundled JavaScript
    engine do: every expected clause of each preset is exercised by at least 3 cases."""
    from flip7_spec.fixtures import shipped_fixtures_dir

    rulesets = [preset("flip7"), preset("vengeance"), preset("vengeance-basic")]
    corpus = Corpus(rulesets=rulesets, games=40, seed="0", fixtures=shipped_fixtures_dir()).for_engine(
        reference_hello())
    for _ in corpus.cases():
        pass
    summaries = {s.ruleset: s for s in summarise(corpus.coverage, corpus.variants, rulesets)}
    for name in ("flip7", "vengeance", "vengeance-basic"):
        s = summaries[name]
        short = {c: s.counts.get(c, 0) for c in s.expected if s.counts.get(c, 0) < 3}
        assert not short, (name, short)


def test_deck_hunts_reach_the_empty_deck_and_endless_play() -> None:
    # A tiny deck runs out within the first round; a deck of bare 0s under a long round limit deals out round
    # after round with no decision and no point, until play counts as endless.
    rng = random.Random(5)
    found: dict[str, set[str]] = {"flip7": set(), "vengeance": set()}
    for name in found:
        for index in range(40):
            hunt = "tiny_deck" if index % 2 else "still_deck"
            ruleset = deck_hunt(preset(name), hunt, 3, None, rng)
            assert ruleset is not None and sum(n for _, n in ruleset.deck) <= 9
            try:
                played = aimed_game(Aim(ruleset, 3, hunt), "deck", index)
            except RunawayGame:
                continue  # a deck that cycles for ever inside one decision
            found[name] |= clauses_of_evidence(played.evidence)
    assert {"F7-EMPTY-DECK", "F7-ENDLESS", "F7-CUSTOM-DECK"} <= found["flip7"]
    assert {"V-EMPTY-DECK", "V-ENDLESS", "V-ROUND-LIMIT"} <= found["vengeance"]


def test_a_clause_the_hunts_cannot_reach_is_set_aside_and_said_so() -> None:
    # Without custom decks no aimed game can play out endlessly (a full deck always brings points): F7-ENDLESS
    # is set aside after MISSES candidates aimed at it, the others are still aimed at, and the notes (carried
    # by the last generated case into the corpus's coverage) say why.
    rulesets = [preset("flip7")]
    corpus = Corpus(rulesets=rulesets, games=2, seed="3", fixtures=None, scoring=False, min_coverage=1,
                    aim_cap=120, decks=False)
    cases = list(corpus.cases())
    assert cases[-1].shortfalls is not None and "flip7" in cases[-1].shortfalls
    summary = summarise(corpus.coverage, None, rulesets)[0]
    reason = summary.shortfalls["F7-ENDLESS"]
    assert reason.startswith(f"not exercised by {MISSES} aimed candidate games (")
    assert summary.generated("F7-ENDLESS") == 0
    assert len(summary.reached) > 0.9 * len(summary.expected)  # the set-aside clause did not starve the others
    lines = coverage_lines([summary], aimed=1, explain=True)
    assert "  short of 1 generated cases (the aimed games could not reach them):" in lines
    assert f"    F7-ENDLESS: 0 generated cases; {reason}" in lines
    brief = coverage_lines([summary], aimed=1)
    assert any("short of 1 generated cases (-v or --min-coverage 1 lists them" in line for line in brief)
    assert {"clause": "F7-ENDLESS", "generated": 0, "reason": reason} in summary.to_json()["short_of_aim"]


@given(st.dictionaries(st.sampled_from([c.id for c in clauses_for("flip7")]), st.integers(0, 50), min_size=1))
def test_at_least_n_cases_each_is_the_fewest_cases_of_a_reached_clause(counts: dict[str, int]) -> None:
    """The summary's "at least N cases each" promises every reached clause N cases or more: N is the count of
    the least exercised reached clause, whatever the others."""
    expected = [c.id for c in clauses_for("flip7")]
    summary = RulesetCoverage("flip7", tuple(expected), counts, {}, ())
    reached = [n for n in counts.values() if n > 0]
    least = min(reached) if reached else 0
    assert summary.least == least
    assert all(counts.get(c, 0) >= least for c in summary.reached)
    line = coverage_lines([summary])[0]
    assert line.endswith(f"at least {least} case{'s' if least != 1 else ''} each"), line


def test_a_round_case_counts_the_clauses_of_its_first_round_only() -> None:
    """A round case compares the first round of its game: the game's end (F7-GAME-END) and the Dealer passing
    on at the next round (F7-DEALER-ROTATION), which come later, are not among its clauses; the game case of the
    same game counts them."""
    tried = 0
    played: dict[int, Any] = {}
    for case in generated_cases([preset("flip7")], [3, 4], 6, "0"):
        assert case.trace is not None
        if case.trace["footer"]["rounds"] < 2:
            continue
        clauses = case_clauses(case, played)
        if case.level == "round":
            assert not {"F7-GAME-END", "F7-DEALER-ROTATION"} & clauses, case.id
            assert clauses == trace_clauses(case.ruleset, case.trace)[0]
            tried += 1
        else:
            assert {"F7-GAME-END", "F7-DEALER-ROTATION"} <= clauses, case.id
    assert tried >= 3


def test_a_skipped_case_is_taken_back_and_its_clauses_are_left_unchecked_under_its_reason() -> None:
    """A case counted and then skipped checks nothing: its counts go, in all and in its part (no clause is left
    at 0), and its clauses are kept under the skip reason; those no case that ran reached are left unchecked."""
    from types import SimpleNamespace

    coverage = Coverage()
    flip7 = preset("flip7")
    ran = SimpleNamespace(id="game:a", ruleset=flip7, level="game", clauses=("F7-DEAL", "F7-BUST"), shortfalls={})
    skipped = SimpleNamespace(id="game:b", ruleset=flip7, level="game", clauses=("F7-BUST", "F7-FREEZE"),
                              shortfalls={"flip7": {"F7-TIE": "no tie in 30 candidates"}})
    assert coverage.add_case(ran, "generated") == frozenset({"F7-DEAL", "F7-BUST"})
    coverage.add_case(skipped, "generated")
    assert coverage.counts["flip7"] == {"F7-DEAL": 1, "F7-BUST": 2, "F7-FREEZE": 1}
    assert coverage.shortfalls == {"flip7": {"F7-TIE": "no tie in 30 candidates"}}
    coverage.skipped("game:b", "the engine does not play it")
    coverage.skipped("game:unknown", "never counted")  # nothing to take back
    assert dict(coverage.counts["flip7"]) == {"F7-DEAL": 1, "F7-BUST": 1}
    assert dict(coverage.by_part["flip7"]["generated"]) == {"F7-DEAL": 1, "F7-BUST": 1}
    assert coverage.unchecked == {"the engine does not play it": {"flip7": {"F7-BUST", "F7-FREEZE"}}}
    assert coverage.left_unchecked("the engine does not play it") == ["F7-FREEZE"]
    assert coverage.left_unchecked("never counted") == []


def test_the_summary_lines_and_json_of_a_ruleset_s_coverage() -> None:
    """What the summary prints and --json writes: reached of expected, the fewest cases, the unreached, the
    clauses short of the aim with their generated counts and reasons (listed with -v or --explain), the
    clauses not expected and why (with -v)."""
    summary = RulesetCoverage("flip7", ("F7-DEAL", "F7-BUST", "F7-TIE"), {"F7-DEAL": 4, "F7-BUST": 1},
                              {"generated": {"F7-DEAL": 3, "F7-BUST": 1}, "scoring": {"F7-DEAL": 1}},
                              (Unreachable("F7-TWO-DECKS", "needs 19 players"),),
                              {"F7-BUST": "one bust in 30 candidates", "F7-TIE": "no tie in 30 candidates"})
    assert summary.reached == ["F7-DEAL", "F7-BUST"] and summary.unreached == ["F7-TIE"]
    assert (summary.generated("F7-DEAL"), summary.generated("F7-TIE")) == (3, 0)
    assert coverage_lines([summary], aimed=3) == [
        "coverage flip7: 2 of 3 clauses reached, at least 1 case each", "  unreached: F7-TIE",
        "  2 clauses short of 3 generated cases (-v or --min-coverage 3 lists them, with the reason)"]
    assert coverage_lines([summary], aimed=3, explain=True)[2:] == [
        "  short of 3 generated cases (the aimed games could not reach them):",
        "    F7-BUST: 1 generated case; one bust in 30 candidates",
        "    F7-TIE: 0 generated cases; no tie in 30 candidates"]
    assert coverage_lines([summary], verbose=True)[-1] == "  not expected: F7-TWO-DECKS: needs 19 players"
    assert coverage_lines([summary]) == coverage_lines([summary], aimed=0, explain=True)[:2]
    assert summary.to_json() == {
        "ruleset": "flip7", "expected": 3, "reached": 2, "least": 1,
        "counts": {"F7-DEAL": 4, "F7-BUST": 1, "F7-TIE": 0},
        "by_part": {"generated": {"F7-BUST": 1, "F7-DEAL": 3}, "scoring": {"F7-DEAL": 1}},
        "unreached": ["F7-TIE"], "unreachable": [{"clause": "F7-TWO-DECKS", "reason": "needs 19 players"}],
        "short_of_aim": [{"clause": "F7-BUST", "generated": 1, "reason": "one bust in 30 candidates"},
                         {"clause": "F7-TIE", "generated": 0, "reason": "no tie in 30 candidates"}]}


def test_the_first_round_of_evidence_ends_at_its_first_round_end() -> None:
    """Evidence.first_round: the events up to and including the first round_end, that round's scoring, and a game
    not over; evidence with no round end is its own first round."""
    ruleset = preset("flip7")
    rows = (ScoredRow(("5",), "stayed"),)
    events = [{"event": "round_start", "round": 1}, {"event": "round_end", "round": 1},
              {"event": "round_start", "round": 2}, {"event": "round_end", "round": 2}, {"event": "game_end"}]
    ends = (RoundEnd(1, rows, (5,), (5,)), RoundEnd(2, rows, (5,), (10,)))
    first = Evidence(ruleset, 1, events, ends, True).first_round()
    assert (list(first.events), list(first.round_ends), first.over) == (events[:2], [ends[0]], False)
    unended = Evidence(ruleset, 1, events[:1], (), False)
    assert unended.first_round() is unended
    played = evidence_of(ruleset, record_choices(ruleset, 3, 0, [c.text for c in ruleset.deck_cards(3)],
                                                 ["stay"] * 3), first_round_only=True)
    assert len(played.round_ends) == 1 and played.events[-1]["event"] == "round_end"


def test_a_trace_the_reference_refuses_counts_what_was_played_up_to_there() -> None:
    """evidence_of stops quietly at a choice the reference refuses: the steps before it count."""
    ruleset = preset("flip7").with_options(target_score=1)
    deck = rig(ruleset.deck_cards(3), [new_number_for({0})] * 3)
    assert deck is not None
    trace = record_choices(ruleset, 3, 0, [c.text for c in deck], ["stay", "stay", "stay"])
    whole = evidence_of(ruleset, trace)
    broken = {**trace, "steps": [dict(s) for s in trace["steps"]]}
    last = next(s for s in reversed(broken["steps"]) if "decision" in s)
    last["decision"] = {**last["decision"], "choice": "fly"}
    cut = evidence_of(ruleset, broken)
    assert cut.events and len(cut.events) < len(whole.events) and not cut.over and whole.over


def test_why_a_clause_is_not_expected_names_the_missing_cards_deck_or_option_values() -> None:
    no_specials = ruleset_from_json({"name": "plain-vengeance", "base": "vengeance",
                                     "deck": {**dict(preset("vengeance").deck), "U7": 0, "L13": 0, "ZERO": 0}})
    _, missing = expected_clauses(no_specials, reference_hello()["options"])
    reasons = {u.clause: u.reason for u in missing}
    assert reasons["V-SPECIAL-NUMBERS"] == "the deck of plain-vengeance has no L13 or U7 or ZERO"
    assert reasons["V-LUCKY13-PAIR"] == "the deck of plain-vengeance has no L13"
    _, missing = expected_clauses(preset("flip7"), {"set_aside_on_bust": ["discard"]})
    reasons = {u.clause: u.reason for u in missing}
    assert reasons["F7-SETASIDE-PASS-VARIANT"] == ('belongs to set_aside_on_bust="pass_to_other_active", which the '
                                                   "engine does not declare")
    assert any(r == "needs a ruleset with another deck (--ruleset FILE)" for r in reasons.values())


def test_a_clause_of_an_option_value_is_expected_for_the_rulesets_own_value_or_a_declared_one() -> None:
    """Its own value needs no declaration; another value needs the engine to declare it, or "any"."""
    flip7 = preset("flip7")
    for variants, expected in (({}, False), ({"set_aside_on_bust": "any"}, True),
                               ({"set_aside_on_bust": ["discard", "pass_to_other_active"]}, True),
                               ({"set_aside_on_bust": "none"}, False), (None, True)):
        found, _ = expected_clauses(flip7, variants)
        assert ("F7-SETASIDE-PASS-VARIANT" in found) is expected, variants
        assert "F7-FLIP3-SETASIDE-BUST" in found  # the preset's own value: always expected
    passing = flip7.with_options(set_aside_on_bust="pass_to_other_active")
    assert "F7-SETASIDE-PASS-VARIANT" in expected_clauses(passing, {})[0]


def test_a_summary_of_rulesets_with_no_case_and_of_every_ruleset_counted() -> None:
    """summarise: a ruleset asked for with no case counted reaches nothing; without a list, every ruleset counted,
    in the order first counted, an option variant under its preset (with the preset's own values); the engine's
    declared values decide what is expected."""
    empty = summarise(Coverage(), None, [preset("flip7")])[0]
    assert (empty.reached, empty.least, empty.by_part) == ([], 0, {})
    coverage = Coverage()
    coverage.add(preset("vengeance"), "generated", ["V-DEAL"])
    coverage.add(preset("flip7").with_options(target_score=50), "generated", ["F7-DEAL"])
    summaries = summarise(coverage, {"set_aside_on_bust": ["discard"]})
    assert [s.ruleset for s in summaries] == ["vengeance", "flip7"]
    assert coverage.rulesets["flip7"] == preset("flip7")
    assert "F7-SETASIDE-PASS-VARIANT" not in summaries[1].expected and summaries[1].reached == ["F7-DEAL"]
    assert summaries[1].generated("F7-DEAL") == 1
    scoring_only = RulesetCoverage("flip7", ("F7-DEAL",), {"F7-DEAL": 1}, {"scoring": {"F7-DEAL": 1}}, ())
    assert scoring_only.generated("F7-DEAL") == 0


def test_the_summary_names_each_unreached_clause_and_counts_one_clause_short_in_the_singular() -> None:
    summary = RulesetCoverage("flip7", ("F7-DEAL", "F7-BUST", "F7-TIE"), {"F7-DEAL": 1}, {}, (),
                              {"F7-TIE": "no tie in 30 candidates"})
    assert coverage_lines([summary], aimed=3)[1:] == [
        "  unreached: F7-BUST, F7-TIE",
        "  1 clause short of 3 generated cases (-v or --min-coverage 3 lists them, with the reason)"]


def test_a_ruleset_all_of_whose_cases_were_skipped_leaves_all_their_clauses_unchecked() -> None:
    from types import SimpleNamespace

    coverage = Coverage()
    case = SimpleNamespace(id="game:v", ruleset=preset("vengeance"), level="game", clauses=("V-DEAL",),
                           shortfalls={})
    coverage.add_case(case, "generated")
    coverage.skipped("game:v", "no vengeance")
    assert coverage.left_unchecked("no vengeance") == ["V-DEAL"]
