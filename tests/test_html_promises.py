"""What the HTML pages promise (docs/html-report.md, the docstrings of ``flip7_spec.htmlreport``), read back from
the parsed page: every card of both games drawn by its family with its sign, word or caption and marked where it
differs; the table's round, Dealer and piles as the observation holds them, each side's table named for its
side; a card reference past a seat's last card; the differing fields of the whole observation or of a field
the table does not know; the report's own counts; what the report does not give said to be unknown; the cause
table's levels, the clauses not expected and the engine's options; the limits the page was drawn with; a
passing run's verdict; an errored case's label; a trace's provenance and its steps titled by where they are,
a Vengeance card decision naming the card it points at.

The games are those of tests/test_html_content.py (three players who stay on their first card, F7-DEAL,
F7-HIT-STAY, F7-SCORE) and the Vengeance fixtures that choose cards (V-STEAL, V-DISCARD, V-SWAP).
"""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from flip7_spec.cards import card_type
from flip7_spec.htmlreport import Limits, render_report, render_trace, report_from
from flip7_spec.htmlreport.cards import face
from flip7_spec.htmlreport.steps import seat_namer
from flip7_spec.htmlreport.tables import table
from flip7_spec.rulesets import preset
from tests.htmltree import card_text, classes, having, ids, parse, text
from tests.test_html_content import (
    CASE,
    articles,
    at,
    difference_rows,
    extra_seat_failure,
    facts,
    failure,
    figure,
    key_values,
    observation_at,
    page_of,
    panel_of,
    rows_of,
    saved,
    three_rounds,
    total_off,
)
from tests.test_html_report import family, summary_counts

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# What each card shows, from docs/html-report.md: an Action is a word, The Zero, Unlucky 7 and Lucky 13 their value
# with a caption; a Number its value and a modifier its sign (below).
ACTION_WORDS = {"FREEZE": "Freeze", "FLIP3": "Flip 3", "CHANCE": "2nd Chance", "ONEMORE": "1 More",
                "FLIP4": "Flip 4", "SWAP": "Swap", "STEAL": "Steal", "DISCARD": "Discard"}
CAPTIONED = {"ZERO": ("0", "zero"), "U7": ("7", "unlucky"), "L13": ("13", "lucky")}
SIGNS = {"+": "+", "x": "×", "-": "−", "/": "÷"}


def shown(card: str) -> tuple[str, str]:
    """What the card ``card`` shows and its caption (empty when it has none), as docs/html-report.md says."""
    if card in ACTION_WORDS:
        return ACTION_WORDS[card], ""
    if card in CAPTIONED:
        return CAPTIONED[card]
    if card.isdigit():
        return card, ""
    return SIGNS[card[0]] + card[1:], ""


def every_card() -> list[str]:
    """Every card text of the base game's and Vengeance's decks, each once."""
    return sorted({c.text for name in ("flip7", "vengeance") for c in preset(name).deck_cards(3)})


def engine_row(panel: ET.Element, side: str, seat: int) -> ET.Element:
    players = next(t for t in figure(panel, side).iter("table") if "players" in classes(t))
    return rows_of(players)[seat]


def piles(panel: ET.Element, side: str) -> str:
    return text(next(p for p in figure(panel, side).iter("p") if "piles" in classes(p)))


# ---- cards ------------------------------------------------------------------------------------------------------


def test_every_card_is_drawn_by_its_family_and_a_differing_one_of_any_family_is_marked() -> None:
    """Each card of both games shows its value, sign or word, a caption only for The Zero, Unlucky 7 and Lucky 13,
    and a title naming its canonical text; where it differs it is framed, titled and marked with a ``≠`` whatever
    its family. A value that names no card is drawn as itself, titled as no card (and marked all the same)."""
    cards = every_card()
    assert len(cards) == 22 + 27 - 12  # the twelve Numbers 1-12 are in both decks
    trace = three_rounds()
    expected = observation_at(trace, 6)
    hand: list[Any] = [*cards, 5, "Q"]
    expected["players"][0]["cards"] = hand
    expected["players"][1]["cards"] = hand
    found = copy.deepcopy(expected)
    differing = [at(6, f"players[0].cards[{i}]", c, "?") for i, c in enumerate(hand)]
    panel = panel_of(articles(page_of([failure(6, differing, expected, found)]))[0])
    marked = having(engine_row(panel, "ref", 0), "span", "card")
    plain = having(engine_row(panel, "ref", 1), "span", "card")
    assert len(marked) == len(plain) == len(hand)
    for card, drawn, same in zip(cards, marked, plain, strict=False):
        label, caption = shown(card)
        small = drawn.find("small")
        assert (text(drawn), text(small) if small is not None else "") == (label + caption + "≠", caption), card
        assert family(card) in classes(drawn) and "diff" in classes(drawn), card
        assert drawn.get("title", "").endswith(" (differs)") and card_text(drawn) == card == card_text(same)
        assert text(same) == label + caption and "diff" not in classes(same)
        assert "(differs)" not in same.get("title", "")
        # the face itself: the caption its game lists for it (a CardType's), else none
        listed = card_type(card)
        assert face(card).note == (listed.caption if listed is not None else "") == caption, card
    for value, drawn in zip(hand[len(cards):], marked[len(cards):], strict=True):
        assert text(drawn) == f"{value}≠" and "unknown" in classes(drawn) and "diff" in classes(drawn)
        title = drawn.get("title", "")
        assert ("not a card: 5" if value == 5 else "unknown card 'Q'") + " (differs)" == title
        assert drawn.find("small") is None


# ---- the table ------------------------------------------------------------------------------------------------


def test_the_table_shows_the_observations_round_dealer_and_piles_and_says_whose_it_is() -> None:
    """Each table shows the round, the Dealer (as a seat), both piles as the observation holds them, marking the
    Dealer where the engine's differs; the panel's tables are the reference's and the engine's (TableView's
    ``side``), a trace's own tables neither."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    found = copy.deepcopy(expected)
    found["dealer"] = (expected["dealer"] + 1) % 3
    root = page_of([failure(6, [at(6, "dealer", expected["dealer"], found["dealer"])], expected, found)])
    panel = panel_of(articles(root)[0])
    for side, observation in (("ref", expected), ("eng", found)):
        assert piles(panel, side) == (f"Round {observation['round']} · Dealer seat {observation['dealer']}≠ · "
                                      f"draw pile {observation['draw_pile']} · discard pile "
                                      f"{observation['discard_pile']}")
    sides = {side: next(d for d in figure(panel, side).iter("div") if "obs" in classes(d)) for side in ("ref", "eng")}
    assert "side-reference" in classes(sides["ref"]) and "side-engine" in classes(sides["eng"])
    own = [d for d in parse(render_trace(trace, "t.json")).iter("div") if "obs" in classes(d)]
    assert own and not [d for d in own if any(c.startswith("side-") for c in classes(d))]


def test_a_seat_only_the_engine_has_is_a_marked_row_of_the_reference_numbered_as_its_seat() -> None:
    panel, expected = extra_seat_failure()
    extra = engine_row(panel, "ref", 3)
    assert text(extra[0]) == "seat 3" and "diffrow" in classes(extra)
    assert ["diffrow" in classes(engine_row(panel, "ref", s)) for s in range(3)] == [False] * 3
    drawn = table(expected, seat_namer(), [("players", 3)], "reference")
    assert [(row.seat, row.name) for row in drawn.players] == [(s, f"seat {s}") for s in range(4)]


def test_a_card_reference_past_a_seats_last_card_names_the_position_and_no_card() -> None:
    """A pending Vengeance choice points at a seat's card by position (counted from 1): the card held there
    is named, and none where the seat holds no card there (one past its last card, or further)."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    held = expected["players"][2]["cards"]
    options = [{"player": 2, "index": len(held) - 1}, {"player": 2, "index": len(held)},
               {"player": 2, "index": len(held) + 1}]
    expected["pending"] = {"player": 1, "kind": "card", "card": "STEAL", "options": options}
    found = copy.deepcopy(expected)
    found["pending"] = None
    panel = panel_of(articles(page_of([failure(6, [at(6, "pending", expected["pending"], None)], expected,
                                               found)]))[0])
    pending = text(next(p for p in figure(panel, "ref").iter("p") if "pending" in classes(p)))
    n = len(held)
    assert pending == (f"Next: seat 1 chooses a card for STEAL (seat 2's card {n} ({held[-1]}), seat 2's card {n + 1}, "
                       f"seat 2's card {n + 2})≠")


# ---- the differing fields -------------------------------------------------------------------------------------


def test_a_differing_field_is_named_as_the_table_names_it_and_any_other_by_its_path() -> None:
    """The end of the game is "game over" as the table says it, the discard pile as the table labels it; a field
    the table does not draw, and the whole observation (an engine that sends no object), are named by their
    path, and the page is drawn all the same."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    found = copy.deepcopy(expected)
    found.update(over=True, discard_pile=expected["discard_pile"] + 1, extra=1)
    listed = [at(6, "over", False, True), at(6, "discard_pile", expected["discard_pile"], found["discard_pile"]),
              at(6, "extra", None, 1)]
    rows = difference_rows(panel_of(articles(page_of([failure(6, listed, expected, found)]))[0]))
    assert [row[:2] for row in rows] == [["game over", "over"], ["discard pile (cards)", "discard_pile"],
                                         ["extra", "extra"]]
    whole = {"where": "$.steps[6].observation", "expected": expected, "found": "nonsense"}
    rows = difference_rows(panel_of(articles(page_of([failure(6, [whole], expected, None)]))[0]))
    assert len(rows) == 1 and rows[0][0] == rows[0][1] != ""


def test_fields_that_differ_only_in_json_type_are_explained_as_exact_json() -> None:
    """docs/html-report.md: the comparison is exact JSON, where ``1``, ``1.0`` and ``true`` differ; the panel says
    so when the values differ in type alone."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    found = copy.deepcopy(expected)
    found["round"] = float(expected["round"])
    panel = panel_of(articles(page_of([failure(6, [at(6, "round", expected["round"], found["round"])], expected,
                                               found)]))[0])
    notes = [text(p) for p in panel.iter("p") if "note" in classes(p)]
    about = [n for n in notes if "JSON type" in n]
    assert len(about) == 1 and about[0].startswith(f"1 of the differing fields differ only in JSON type "
                                                   f"({expected['round']} against {found['round']})")
    assert "compared as exact JSON, where 1, 1.0 and true all differ" in about[0]


# ---- the report's own figures, and what it does not give --------------------------------------------------------


def test_the_summary_counts_are_the_reports_own_when_it_gives_them() -> None:
    """``counts`` (per level and outcome) is the run's own count, in the order of the levels whatever the order of
    its keys; only a report without it is counted from its results."""
    counts = {"game": {"pass": 5, "fail": 1, "skipped": 2, "errored": 0},
              "round": {"pass": 4, "fail": 0, "skipped": 0, "errored": 1}}
    root = page_of([], counts=counts)
    shown_counts = summary_counts(root)
    assert list(shown_counts) == ["round", "game", "total"]
    assert shown_counts["round"] == [4, 0, 0, 1, 5] and shown_counts["game"] == [5, 1, 2, 0, 8]
    assert shown_counts["total"] == [9, 1, 2, 1, 13]
    rebuilt = summary_counts(page_of([{"case_id": CASE, "level": "game", "outcome": "pass"}]))
    assert rebuilt["game"] == [1, 0, 0, 0, 1] and rebuilt["total"] == [1, 0, 0, 0, 1]


def test_what_the_report_does_not_give_is_said_to_be_unknown() -> None:
    """A failure without a path says ``?`` where the path goes; a clause coverage without the count expected
    says ``?`` for it; a report that names no engine calls it "an engine"."""
    result = {"case_id": CASE, "level": "game", "outcome": "fail", "step": 6, "expected": 1, "found": 2}
    root = page_of([result])
    where = next(p for p in articles(root)[0].iter("p") if "where" in classes(p))
    assert text(where.find("code")) == "?: expected 1, found 2"
    coverage = key_values(page_of([], coverage=[{"ruleset": "flip7", "reached": 3}]))["clauses of flip7"]
    assert coverage["reached"] == "3 of ? clauses"
    nameless = parse(render_report(report_from({"results": []})))
    assert text(nameless.find(".//h1")) == "Conformance of an engine" and facts(nameless)["engine"] == "an engine"


def test_the_cause_table_lists_the_levels_its_failures_come_from() -> None:
    trace = three_rounds()
    same = {"diagnosis": {"text": "the engine adds one to a total"}}
    round_case = {**total_off(trace, 7, "round:flip7/seed=0/game=0/players=3", **same), "level": "round"}
    root = page_of([total_off(trace, 6, **same), round_case])
    rows = [[text(c) for c in row] for row in rows_of(next(ids(root)["causes"].iter("table")))]
    assert len(rows) == 1 and rows[0][3:5] == ["2", "game, round"]


def test_the_clauses_not_expected_are_listed_with_why() -> None:
    """docs/html-report.md: the clause coverage lists, per ruleset, the clauses not expected and why."""
    coverage = [{"ruleset": "vengeance", "expected": 2, "reached": 2,
                 "unreachable": [{"clause": "V-STEAL", "reason": "no Steal in this deck"},
                                 {"clause": "V-SWAP", "reason": "no Swap either"}]}]
    rows = key_values(page_of([], coverage=coverage))["clauses of vengeance"]
    assert rows["not expected"] == "V-STEAL: no Steal in this deck; V-SWAP: no Swap either"


def test_each_option_the_engine_declares_is_listed_with_its_value() -> None:
    hello = {"name": "eng", "options": {"flip7_bonus": 15, "deal_order": "left"}}
    declared = key_values(page_of([], hello=hello))["What the engine declared in the handshake"]
    assert sorted(declared["options"].split("; ")) == ["deal_order: left", "flip7_bonus: 15"]


def test_the_page_says_how_many_failures_of_a_cause_it_draws_in_full() -> None:
    """The bound the page was drawn with (docs/html-report.md: the first ``per_cause`` of each cause, at most
    ``full_failures``) is the one it states."""
    trace = three_rounds()
    results = [total_off(trace, s, f"game:flip7/seed=0/game={s}/players=3") for s in (5, 6, 7)]
    root = page_of(results, Limits(per_cause=2, full_failures=5))
    assert len(articles(root)) == 2
    assert "2 of 3 failures are drawn in full (the first 2 of each cause, 5 at most)" in text(ids(root)["failures"])


def test_the_list_of_all_failures_shows_no_step_for_a_scoring_hand_and_no_clause_where_none_is_named() -> None:
    """A scoring case is a hand, not a step of a game; a failure that names no clause has none in the list."""
    trace = three_rounds()
    unnamed = total_off(trace, 6)
    del unnamed["clause"]
    scoring = {"case_id": "scoring:flip7:official-x2", "level": "scoring", "outcome": "fail", "where": "$.score",
               "expected": 30, "found": 15, "clause": "F7-SCORE", "hand": ["5", "10", "x2"]}
    root = page_of([unnamed, scoring])
    listing = next(t for t in root.iter("table") if "list" in classes(t))
    rows = [[text(c) for c in row] for row in rows_of(listing)]
    # columns: number, case, level, at, path, expected, found, clause
    assert [(r[1], r[3], r[7]) for r in rows] == [(CASE, "step 6", ""), ("scoring:flip7:official-x2", "", "F7-SCORE")]


def test_a_passing_runs_verdict_gives_the_passed_and_skipped_counts() -> None:
    results = [{"case_id": f"game:flip7/seed=0/game={n}/players=3", "level": "game", "outcome": "pass"}
               for n in range(3)] + [{"case_id": "round:vengeance/seed=0/game=0/players=3", "level": "round",
                                      "outcome": "skipped", "message": "no vengeance"}]
    verdict = text(next(p for p in page_of(results).iter("p") if "verdict" in classes(p)))
    assert verdict.startswith("PASS ")
    found = re.search(r"(\d+) passed, (\d+) skipped", verdict)
    assert found is not None and found.groups() == ("3", "1") and "passed" in verdict.split(":")[0]


def test_an_errored_case_shows_what_its_case_catches() -> None:
    """An error is drawn with the run's record of it, as a failure is: what the case catches among it."""
    result = {"case_id": "round:flip7/seed=0/game=0/players=3", "level": "round", "outcome": "errored",
              "message": "timeout", "label": "a bust scores nothing", "shrunk": "saved/x.json"}
    error, = articles(page_of([result]), "error")
    meta = next(d for d in error.iter("dl") if "meta" in classes(d))
    assert dict(zip(map(text, meta.iter("dt")), map(text, meta.iter("dd")), strict=True)) == {
        "catches": "a bust scores nothing", "saved trace": "saved/x.json"}


# ---- a trace's page ---------------------------------------------------------------------------------------------


def test_a_traces_provenance_is_a_fact_of_its_page_without_the_saved_failure() -> None:
    trace = three_rounds()
    trace["header"]["provenance"] = {"tool": "conform", "seed": 7}
    assert json.loads(facts(parse(render_trace(trace, "t.json")))["provenance"]) == {"tool": "conform", "seed": 7}
    shown_saved = facts(parse(render_trace(saved(trace, total_off(trace, 6)), "s.json")))
    assert json.loads(shown_saved["provenance"]) == {"tool": "conform", "seed": 7}


def test_each_step_is_titled_by_where_it_is_the_start_or_its_step_number() -> None:
    """Steps are numbered as replay numbers them (docs/html-report.md); the deal before the first decision is
    the start."""
    trace = three_rounds()
    root = parse(render_trace(trace, "t.json"))
    titles = [text(a) for nav in root.iter("nav") if "steplist" in classes(nav) for a in nav.iter("a")]
    assert [t.split(":")[0] for t in titles] == ["start", *(f"step {i}" for i in range(len(trace["steps"])))]


def card_words(reference: dict[str, int], before: dict[str, Any]) -> str:
    """A card reference as docs/html-report.md has the page name it: the seat, the position counted from 1,
    and the card held there before the decision."""
    player, index = reference["player"], reference["index"]
    return f"seat {player}'s card {index + 1} ({before['players'][player]['cards'][index]})"


def card_decisions(trace: dict[str, Any]) -> list[tuple[int, str]]:
    """The card and swap decisions of ``trace`` with the words of what they choose, each card read in the last
    observation the trace records before the decision."""
    out = []
    last = trace["start"]["observation"]
    for index, step in enumerate(trace["steps"]):
        decision = step.get("decision")
        if decision is not None and isinstance(decision["choice"], (dict, list)):
            choice = decision["choice"]
            chosen = [choice] if isinstance(choice, dict) else choice
            out.append((index, " ⇄ ".join(card_words(c, last) for c in chosen)))
        last = step.get("observation", last)
    return out


VENGEANCE_CHOOSING = ["basic-actions", "swap-modifier-for-number", "reshuffle-when-needed", "steal-flip7-ends-round"]
"""Vengeance fixtures with card decisions late in the game, a swap, and one after a reshuffle."""


def test_a_vengeance_card_decision_names_each_card_it_chooses_as_held_before_it() -> None:
    """V-STEAL, V-DISCARD, V-SWAP: a step that chooses cards names each as its seat, its position and the card
    held there in the observation before the decision (pending_text's and decision_text's promise)."""
    checked = 0
    for name in VENGEANCE_CHOOSING:
        trace = json.loads((FIXTURES / "vengeance" / f"{name}.json").read_text(encoding="utf-8"))
        known = ids(parse(render_trace(trace, f"{name}.json")))
        for index, words in card_decisions(trace):
            decision = trace["steps"][index]["decision"]
            assert text(known[f"s{index}"].find("h3")) == f"step {index}: seat {decision['player']} chooses {words}"
            checked += 1
    assert checked == 5


def test_a_card_decision_that_does_not_give_its_kind_still_names_its_cards() -> None:
    """docs/trace-format.md: a decision's ``kind`` and ``player`` are optional; a choice of card references is
    then still a card or swap decision, and the page names the cards (not the reference as JSON)."""
    trace = json.loads((FIXTURES / "vengeance" / "basic-actions.json").read_text(encoding="utf-8"))
    chosen = card_decisions(trace)
    assert chosen
    for index, _ in chosen:
        del trace["steps"][index]["decision"]["kind"]
    first = chosen[0][0]
    del trace["steps"][first]["decision"]["player"]
    known = ids(parse(render_trace(trace, "basic-actions.json")))
    for index, words in chosen:
        decision = trace["steps"][index]["decision"]
        who = f"seat {decision['player']}" if "player" in decision else "the player to decide"
        assert text(known[f"s{index}"].find("h3")) == f"step {index}: {who} chooses {words}"
