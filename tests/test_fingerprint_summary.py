"""What a run's causes and fingerprints promise beyond the cover (flip7_spec/conformance/fingerprint.py): each
cause counted once per failure, the most frequent first with its first case by id, unexplained divergences
grouped by clause, the summary's lines, a reading shown on one preset of a game standing on its other presets,
where the fingerprint files go, what the summary says of them, the passed cases a reading is checked against,
and the fixtures a fingerprint run re-records under its deviations."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

import flip7_spec.conformance.fingerprint as fingerprint
from flip7_spec.conformance import FAIL, PASS
from flip7_spec.conformance.cases import generated_cases
from flip7_spec.conformance.fingerprint import (
    Cause,
    Fingerprint,
    FingerprintEntry,
    _spread,
    cause_lines,
    cause_table,
    causes_of,
    fingerprint_cases,
    fingerprint_lines,
    fingerprint_paths,
    fingerprints,
    in_order,
    write_fingerprints,
)
from flip7_spec.errors import OutputError
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import CaseResult, reproduces_case
from flip7_spec.results import Explanation
from flip7_spec.rulesets import load_ruleset, preset


def reading(name: str, text: str | None = None, sure: bool = True) -> dict[str, Any]:
    return {"reading": name, "text": text or name, "clause": "F7-DEALER-ROTATION", "confidence": "H", "step": 3,
            "evidence": {"confirmed": sure}}


def result(case_id: str, causes: list[dict[str, Any]] | None = None, base: str = "flip7", outcome: str = FAIL,
           **fields: Any) -> CaseResult:
    typed = None if causes is None else tuple(Explanation.from_json(c) for c in causes)
    return CaseResult(case_id, "game", outcome, causes=typed, base=base, **fields)  # type: ignore[arg-type]


RESULTS = [
    result("game:b", [reading("dealer_fixed", "dealer_fixed (it matched 3 fields at step 4)"),
                      reading("dealer_fixed", "dealer_fixed (the engine diverged from it again at step 9)")]),
    result("game:a", [reading("dealer_fixed", "dealer_fixed; this case fits turns_to_the_right too")]),
    result("game:d", [], clause="F7-DEAL", where="$.players[1].cards"),
    result("game:c", [], clause="F7-DEAL", where="$.dealer"),
    CaseResult("game:e", "game", FAIL,  # type: ignore[arg-type]
               diagnosis=Explanation.from_json(reading("bust_banks_cards")), base="flip7"),
    result("game:0", [reading("turns_to_the_right")], outcome=PASS),
]


def test_each_cause_counts_once_per_failure_the_most_frequent_first_with_its_first_case() -> None:
    expected = [Cause("dealer_fixed", "dealer_fixed", 2, "game:a"),
                Cause("unexplained: clause F7-DEAL (a guess)", None, 2, "game:c"),
                Cause("bust_banks_cards", "bust_banks_cards", 1, "game:e")]
    for seed in range(4):
        shuffled = list(RESULTS)
        random.Random(seed).shuffle(shuffled)
        assert cause_table(shuffled) == expected
    assert causes_of(RESULTS[2]) == [{"reading": None,
                                      "text": "unexplained: clause F7-DEAL (a guess) at $.players[1].cards"}]


def test_the_summary_lists_the_causes_one_line_each_up_to_its_limit() -> None:
    assert cause_lines(RESULTS) == ["failures by cause (count, cause, first case):",
                                    "      2  dealer_fixed  e.g. game:a",
                                    "      2  unexplained: clause F7-DEAL (a guess)  e.g. game:c",
                                    "      1  bust_banks_cards  e.g. game:e"]
    assert cause_lines(RESULTS, limit=1) == ["failures by cause (count, cause, first case):",
                                             "      2  dealer_fixed  e.g. game:a",
                                             "  ... and 2 more causes (--json lists them all)"]
    assert cause_lines(RESULTS[-1:]) == []


def test_a_reading_shown_on_one_preset_stands_on_the_games_other_presets() -> None:
    """flip7-no-deal is another preset of Flip 7: a reading only possible there counts once a failure on flip7
    confirms it; a reading confirmed on no preset of the game, or on another game's, stays out."""
    results = [result("game:flip7/1", [reading("dealer_fixed")]),
               result("game:no-deal/1", [reading("dealer_fixed", sure=False)], base="flip7-no-deal"),
               result("game:no-deal/2", [reading("bust_banks_cards", sure=False)], base="flip7-no-deal"),
               result("game:vengeance/1", [reading("dealer_fixed", sure=False)], base="vengeance")]
    found = fingerprints(results)
    assert set(found) == {"flip7", "flip7-no-deal"}
    assert found["flip7-no-deal"].readings == ("dealer_fixed",)
    assert found["flip7-no-deal"].entries == (FingerprintEntry("dealer_fixed", explained=1, possible=1),)
    assert found["flip7"].entries == (FingerprintEntry("dealer_fixed", explained=1),)


def test_an_entrys_evidence_names_a_contradicting_case_only_when_there_is_one() -> None:
    assert FingerprintEntry("dealer_fixed", 2, 1).to_json() == {"explained": 2, "possible": 1, "contradicted": 0,
                                                     "checked": 0}
    assert FingerprintEntry("dealer_fixed", 2, 0, 3, 9, "game:x").to_json() == {
        "explained": 2, "possible": 0, "contradicted": 3, "checked": 9, "against": "game:x"}


def test_fingerprint_files_go_to_the_path_for_one_base_and_beside_it_for_several(tmp_path: Path) -> None:
    path = tmp_path / "engine.toml"
    assert fingerprint_paths(path, ["flip7"]) == {"flip7": path}
    assert fingerprint_paths(path, ["flip7", "vengeance"]) == {"flip7": tmp_path / "engine-flip7.toml",
                                                               "vengeance": tmp_path / "engine-vengeance.toml"}


def test_only_fingerprints_with_readings_are_written(tmp_path: Path) -> None:
    prints = fingerprints([result("game:1", [reading("dealer_fixed")]),
                           result("game:2", [reading("turns_to_the_right")], base="vengeance")])
    empty = Fingerprint("flip7-no-deal", dataclasses.replace(preset("flip7-no-deal"), deviations=()), (),
                        (FingerprintEntry("dealer_fixed", 1, 0, 2, 2, "game:3"),))
    assert write_fingerprints(tmp_path / "none.toml", {"flip7-no-deal": empty}) == []
    assert list(tmp_path.iterdir()) == []
    one = write_fingerprints(tmp_path / "one.toml", {"flip7": prints["flip7"], "flip7-no-deal": empty})
    assert one == [tmp_path / "one.toml"] and load_ruleset(str(one[0])).deviations == ("dealer_fixed",)
    two = write_fingerprints(tmp_path / "two.json", prints)
    assert two == [tmp_path / "two-flip7.json", tmp_path / "two-vengeance.json"]
    assert [load_ruleset(str(p)).deviations for p in two] == [("dealer_fixed",), ("turns_to_the_right",)]


def test_the_summary_names_each_fingerprints_evidence_and_what_it_leaves_out() -> None:
    prints = {"flip7": Fingerprint("flip7", preset("flip7"), (FingerprintEntry("dealer_fixed", 2, 0, 0, 5),),
                                   (FingerprintEntry("turns_to_the_right", 1, 0, 3, 5, "game:7"),))}
    plain = [result("game:1", [reading("dealer_fixed")])]
    lines = ["fingerprint of the engine on flip7: dealer_fixed (2 explained, 0 of 5 passed cases contradict)",
             "  dropped turns_to_the_right: the reference under it fails 3 of 5 cases the engine passed (e.g. "
             "game:7); it is not what the engine plays"]
    assert fingerprint_lines(prints, plain) == lines
    unexplained = "  (some failures have no known reading: the fingerprint does not explain those)"
    possible = "  (readings shown as possibly ... are not in the fingerprint unless other failures confirm them)"
    assert fingerprint_lines(prints, [*plain, result("game:2", [], clause="F7-DEAL", where="$.dealer")]) == [
        *lines, unexplained]
    assert fingerprint_lines(prints, [*plain, result("game:3", [reading("bust_banks_cards", sure=False)])]) == [
        *lines, possible]
    assert fingerprint_lines(prints, [*plain, result("game:4", [reading("bust_banks_cards", sure=False)],
                                                     outcome=PASS)]) == lines
    nothing = {"flip7": Fingerprint("flip7", preset("flip7"), (), ())}
    assert fingerprint_lines(nothing, plain) == ["fingerprint of the engine on flip7: none"]
    assert fingerprint_lines({}, [*plain, result("game:2", [], clause="F7-DEAL", where="$.dealer")]) == []


def cases_of(ids: list[str]) -> list[Case]:
    return [Case(i, "game", preset("flip7")) for i in ids]  # type: ignore[arg-type]


def test_a_reading_is_checked_against_passed_cases_spread_evenly_by_case_id() -> None:
    ids = [f"game:{n}" for n in "gfedcba"]
    assert [c.id for c in _spread(cases_of(ids), 10)] == sorted(ids)
    assert [c.id for c in _spread(cases_of(ids), 3)] == ["game:a", "game:c", "game:e"]
    assert [c.id for c in _spread(cases_of(ids), 7)] == sorted(ids)


def test_the_passed_cases_checked_and_the_results_read_are_the_same_whatever_order_they_finished_in() -> None:
    """``-j N`` finishes cases in any order, and a trace case runs at two levels under one id: the cases a
    reading is checked against, and the order results are read in, follow the case id and then the level."""
    ids = [f"game:{n}" for n in "abcdef"]
    cases = [Case(i, level, preset("flip7")) for i in ids for level in ("round", "game")]  # type: ignore[arg-type]
    results = [CaseResult(c.id, c.level, PASS) for c in cases]
    shuffler = random.Random(7)
    for limit in (5, 12, 20):
        expected = [(c.id, str(c.level)) for c in _spread(cases, limit)]
        for _ in range(6):
            shuffled = shuffler.sample(cases, len(cases))
            assert [(c.id, str(c.level)) for c in _spread(shuffled, limit)] == expected
    ordered = [(r.case_id, str(r.level)) for r in in_order(results)]
    assert ordered == sorted(ordered)
    for _ in range(6):
        assert [(r.case_id, str(r.level)) for r in in_order(shuffler.sample(results, len(results)))] == ordered


@pytest.fixture(scope="module")
def passed_games() -> list[Case]:
    return [c for c in generated_cases([preset("flip7")], [3, 4], 6, "spread") if c.level == "game"]


def test_at_most_the_checked_number_of_passed_cases_are_played_under_a_reading(
        monkeypatch: pytest.MonkeyPatch, passed_games: list[Case]) -> None:
    several = sorted((c for c in passed_games if c.trace and c.trace["footer"]["rounds"] >= 2),
                     key=lambda c: (c.id, str(c.level)))
    assert len(several) >= 2, "a Dealer for life shows from the second round on"
    monkeypatch.setattr(fingerprint, "CHECKED_CASES", 2)
    found = fingerprints([result("game:x", [reading("dealer_fixed")])], passed_games)["flip7"]
    assert found.readings == () and found.dropped[0].checked == 2
    first_two = _spread(passed_games, 2)
    assert found.dropped[0].contradicted == sum(c in several for c in first_two) >= 1
    assert found.dropped[0].against == next(c.id for c in first_two if c in several)


def test_a_passed_case_that_cannot_take_the_readings_is_passed_over_and_the_next_ones_still_checked(
        passed_games: list[Case]) -> None:
    """A reading of an option another game's ruleset does not have (``stalled_round`` is Flip 7's alone) cannot
    be played on that game's case: it counts neither as checked nor as contradicting, and the cases after it
    are checked as usual (a Dealer for life contradicts every passed game of two rounds or more)."""
    readings = ["dealer_fixed", 'stalled_round="reshuffle"']
    several = [c for c in passed_games if c.trace and c.trace["footer"]["rounds"] >= 2]
    assert several, "a generated game of two rounds or more"
    other_game = Case("game:0-vengeance", "game", preset("vengeance"))  # type: ignore[arg-type]
    assert fingerprint._contradictions(readings, [other_game, several[0]]) == (1, 1, several[0].id)
    assert fingerprint._contradictions(readings, [other_game]) == (0, 0, None)


def test_a_fingerprint_run_re_records_its_bases_trace_cases_under_its_readings(passed_games: list[Case]) -> None:
    prints = fingerprints([result("game:x", [reading("dealer_fixed")])])
    ruleset = prints["flip7"].ruleset
    scoring = Case("scoring:1", "scoring", preset("flip7"), hand=["5"], expected=5)  # type: ignore[arg-type]
    already = dataclasses.replace(passed_games[0], ruleset=dataclasses.replace(preset("flip7"),
                                                                               deviations=("turns_to_the_right",)))
    cases = [*passed_games, scoring, already]
    assert fingerprint_cases(cases, [preset("flip7")]) == cases
    again = fingerprint_cases(cases, [ruleset])
    assert again[-2:] == [scoring, already]
    for before, after in zip(passed_games, again, strict=False):
        assert after.id == before.id and after.ruleset.deviations == ("dealer_fixed",)
        assert reproduces_case(after, after.ruleset)
        assert after.trace is not None and before.trace is not None
        assert after.trace["header"]["deck"] == before.trace["header"]["deck"]
    changed = [a for a, b in zip(again, passed_games, strict=False) if a.trace != b.trace]
    assert changed, "a Dealer for life shows in the games of two rounds or more"
    assert not any(reproduces_case(a, preset("flip7")) for a in changed), "the plain reference plays them otherwise"


def test_causes_with_the_same_count_come_by_name_and_a_cause_without_text_by_its_reading() -> None:
    results = [result("game:a", [], clause="F7-DEAL", where="$.dealer"),
               result("game:b", [{"reading": "turns_to_the_right", "clause": "F7-TURN-ORDER"}]),
               result("game:c", [{"reading": None, "clause": "F7-DEAL"}]),
               result("game:d", [reading("bust_banks_cards", "the engine behaves as if a bust banks the cards "
                                         "(misreading bust_banks_cards) [F7-BUST, H] (it matched 2 fields)")]),
               result("game:e", [reading("dealer_fixed", "the engine behaves as if the Dealer never changes "
                                         "(misreading dealer_fixed) [F7-DEALER-ROTATION, H] (the engine diverged "
                                         "from it again at step 9)")])]
    assert [(c.text, c.count, c.example) for c in cause_table(results)] == [
        ("the engine behaves as if a bust banks the cards (misreading bust_banks_cards) [F7-BUST, H]", 1, "game:d"),
        ("the engine behaves as if the Dealer never changes (misreading dealer_fixed) [F7-DEALER-ROTATION, H]", 1,
         "game:e"),
        ("turns_to_the_right", 1, "game:b"),
        ("unexplained", 1, "game:c"),
        ("unexplained: clause F7-DEAL (a guess)", 1, "game:a")]
    assert len(cause_lines(results, limit=5)) == 6
    many = [result(f"game:{n:02d}", [reading(f"r{n:02d}")]) for n in range(13)]
    assert cause_lines(many)[-1] == "  ... and 1 more causes (--json lists them all)" and len(cause_lines(many)) == 14


def test_only_failures_with_a_base_and_their_diagnosed_readings_make_a_fingerprint() -> None:
    found = fingerprints([*RESULTS, CaseResult("game:f", "game", FAIL,  # type: ignore[arg-type]
                                               causes=(Explanation.from_json(reading("stay_with_no_cards")),))])
    assert set(found) == {"flip7"} and set(found["flip7"].readings) == {"dealer_fixed", "bust_banks_cards"}
    ruleset = found["flip7"].ruleset
    assert found["flip7"].base == "flip7" and (ruleset.name, ruleset.base) == ("flip7-fingerprint", "flip7")
    assert ruleset.description == "flip7 as the engine plays it: dealer_fixed, bust_banks_cards"


def test_readings_fine_alone_that_fail_a_passed_case_together_lose_the_weakest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference under dealer_fixed and turns_to_the_right together fails every passed case (each alone
    fails none): the one that explains fewer failures is dropped, with the evidence of the two together."""
    def reproduces(case: Case, ruleset: Any) -> bool:
        return not {"dealer_fixed", "turns_to_the_right"} <= set(ruleset.deviations)

    monkeypatch.setattr(fingerprint, "reproduces_case", reproduces)
    house = dataclasses.replace(preset("flip7"), name="house")  # a passed case of a ruleset file based on flip7
    passed = [Case(f"game:{n}", "game", house) for n in "xyz"]  # type: ignore[arg-type]
    results = [result("game:1", [reading("dealer_fixed")]), result("game:2", [reading("dealer_fixed")]),
               result("game:3", [reading("turns_to_the_right")])]
    found = fingerprints(results, passed)["flip7"]
    assert found.readings == ("dealer_fixed",)
    assert found.dropped == (FingerprintEntry("turns_to_the_right", 1, 0, 3, 3, "game:x"),)
    monkeypatch.setattr(fingerprint, "reproduces_case", lambda case, ruleset: not ruleset.deviations)
    none = fingerprints(results[:1], passed)["flip7"]
    assert none.readings == () and none.ruleset.description == "flip7 as the engine plays it: no reading that holds"


def test_a_fingerprint_that_cannot_be_written_is_refused_naming_the_option(tmp_path: Path) -> None:
    prints = fingerprints([result("game:1", [reading("dealer_fixed")])])
    with pytest.raises(OutputError, match=r"^cannot write --fingerprint .*engine\.toml: no such folder"):
        write_fingerprints(tmp_path / "missing" / "engine.toml", prints)


def test_a_fingerprint_re_records_the_traces_of_a_ruleset_file_on_its_base_keeping_their_description(
        passed_games: list[Case]) -> None:
    ruleset = fingerprints([result("game:x", [reading("dealer_fixed")])])["flip7"].ruleset
    case = passed_games[0]
    assert case.trace is not None
    trace = {**case.trace, "header": {**case.trace["header"], "description": "a game of three rounds"}}
    house = dataclasses.replace(case, ruleset=dataclasses.replace(preset("flip7"), name="house"), trace=trace)
    again = fingerprint_cases([house], [ruleset])[0]
    assert again.ruleset.deviations == ("dealer_fixed",) and again.trace is not None
    assert again.trace["header"]["description"] == "a game of three rounds"


def test_a_reading_that_leaves_every_decision_legal_re_records_the_whole_game(passed_games: list[Case]) -> None:
    """x2 doubling the +N cards changes scores only: every decision and reshuffle order of the fixture still
    fits, so the re-recorded trace is the whole game, reshuffles included."""
    ruleset = fingerprints([result("game:x", [reading("x2_doubles_adds")])])["flip7"].ruleset
    reshuffled = [c for c in passed_games if c.trace and any(
        e.get("event") == "reshuffle" for s in c.trace["steps"] for e in s.get("events", []))]
    assert reshuffled, "games to 200 points go through the deck"
    for case in reshuffled:
        again = fingerprint_cases([case], [ruleset])[0]
        assert again.trace is not None and case.trace is not None
        assert len(again.trace["steps"]) == len(case.trace["steps"]) and "footer" in again.trace


def test_every_reading_of_a_failure_counts_whatever_comes_before_it() -> None:
    mixed = result("game:1", [{"reading": None, "text": "unexplained: clause F7-DEAL (a guess) at $.dealer"},
                              reading("dealer_fixed")])
    assert fingerprints([mixed])["flip7"].readings == ("dealer_fixed",)
    two = {"flip7": Fingerprint("flip7", preset("flip7"), (FingerprintEntry("dealer_fixed", 2, 0, 0, 5),
                                                           FingerprintEntry("bust_banks_cards", 1, 0, 1, 5, "game:2")))}
    assert fingerprint_lines(two, [mixed])[0] == (
        "fingerprint of the engine on flip7: dealer_fixed (2 explained, 0 of 5 passed cases contradict), "
        "bust_banks_cards (1 explained, 1 of 5 passed cases contradict)")


def test_of_readings_that_fail_a_passed_case_together_the_one_dropped_is_of_the_pair_that_conflicts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """dealer_fixed and turns_to_the_right fail the passed cases together; bust_banks_cards, which explains the
    fewest failures, fails none with either: it stays, and the weaker of the conflicting pair is dropped with
    the pair's evidence."""
    def reproduces(case: Case, ruleset: Any) -> bool:
        return not {"dealer_fixed", "turns_to_the_right"} <= set(ruleset.deviations)

    monkeypatch.setattr(fingerprint, "reproduces_case", reproduces)
    passed = [Case(f"game:{n}", "game", preset("flip7")) for n in "xyz"]  # type: ignore[arg-type]
    results = [result("game:1", [reading("dealer_fixed")]), result("game:2", [reading("dealer_fixed")]),
               result("game:3", [reading("dealer_fixed")]), result("game:4", [reading("turns_to_the_right")]),
               result("game:5", [reading("turns_to_the_right")]), result("game:6", [reading("bust_banks_cards")])]
    found = fingerprints(results, passed)["flip7"]
    assert set(found.readings) == {"dealer_fixed", "bust_banks_cards"}
    assert found.dropped == (FingerprintEntry("turns_to_the_right", 2, 0, 3, 3, "game:x"),)
