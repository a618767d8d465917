"""What the HTML pages show, read back from the parsed page and checked against the report or trace it was drawn
from (docs/html-report.md): each step titled by its decision, the rounds before a divergence as scores and
totals, the divergence panel (its title, links and events, the differing fields in words), card faces, pending
choices that name the cards they point at, errored cases, the run's facts, the clause coverage, what the engine
declared, a trace's ruleset, and the saved traces an older report points at.

The games are rigged decks on the reference in which every player stays on the first card dealt, so that every
score is worked out from the rules: the deal starts left of the Dealer and the Dealer is dealt last (F7-DEAL), a
player who stays banks the sum of their Numbers (F7-HIT-STAY, F7-SCORE), and the Dealer moves one seat left each
round (F7-DEAL).
"""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.htmlreport import Limits, render_report, render_trace, report_from, report_with_saved, write_html
from flip7_spec.rulesets import preset
from flip7_spec.trace.record import record_choices
from tests.htmltree import card_text, classes, having, ids, parse, text

# Three players, Dealer seat 0. Round 1 deals seat 1, seat 2, seat 0 (left of the Dealer first, the Dealer last):
# 5, 9, 3; round 2 (Dealer seat 1) deals seat 2, seat 0, seat 1: 12, 2, 8; round 3 (Dealer seat 2) deals seat 0,
# seat 1, seat 2: 7, 4, 6. Everyone stays at once, so a round scores each seat its one card.
TOP = ["5", "9", "3", "12", "2", "8", "7", "4", "6"]
ROUND_1 = [3, 5, 9]  # per seat 0, 1, 2
ROUND_2 = [2, 8, 12]
TOTALS_2 = [a + b for a, b in zip(ROUND_1, ROUND_2, strict=True)]
STAYS = 9  # three rounds of three stays: steps 0-8, all decisions; step 5's last stay ends round 2 and deals round 3
CASE = "game:flip7/seed=0/game=0/players=3"


@cache
def _trace() -> str:
    ruleset = preset("flip7")
    rest = [c.text for c in ruleset.deck_cards(3)]
    for card in TOP:
        rest.remove(card)
    return json.dumps(record_choices(ruleset, 3, 0, TOP + rest, ["stay"] * STAYS))


def three_rounds() -> dict[str, Any]:
    """The rigged game (a fresh copy): nine stays over three rounds."""
    trace: dict[str, Any] = json.loads(_trace())
    return trace


def observation_at(trace: dict[str, Any], step: int) -> dict[str, Any]:
    return copy.deepcopy(trace["steps"][step]["observation"])


def at(step: int, path: str, expected: Any, found: Any) -> dict[str, Any]:
    return {"where": f"$.steps[{step}].observation.{path}", "expected": expected, "found": found}


def failure(step: int, differences: list[dict[str, Any]], expected: dict[str, Any] | None,
            found: dict[str, Any] | None, case_id: str = CASE, **more: Any) -> dict[str, Any]:
    """A failed game case at ``step`` as ``conform --json`` records it."""
    first = differences[0]
    result = {"case_id": case_id, "level": "game", "outcome": "fail", "step": step, "where": first["where"],
              "expected": first["expected"], "found": first["found"], "clause": "F7-SCORE",
              "differences": differences, **more}
    if expected is not None:
        result["expected_observation"] = expected
    if found is not None:
        result["found_observation"] = found
    return result


def total_off(trace: dict[str, Any], step: int, case_id: str = CASE, **more: Any) -> dict[str, Any]:
    """The engine shows seat 0's total one higher than the reference at ``step``."""
    expected = observation_at(trace, step)
    found = copy.deepcopy(expected)
    found["players"][0]["total"] += 1
    return failure(step, [at(step, "players[0].total", expected["players"][0]["total"],
                             found["players"][0]["total"])], expected, found, case_id, **more)


def page_of(results: list[dict[str, Any]], limits: Limits | None = None, **document: Any) -> ET.Element:
    report = report_from({"engine": "x", "results": results, **document})
    return parse(render_report(report, limits or Limits()))


def articles(root: ET.Element, kind: str = "failure") -> list[ET.Element]:
    return having(root, "article", kind)


def panel_of(article: ET.Element) -> ET.Element:
    return next(s for s in article.iter("section") if "panel" in classes(s))


def panel_heading(panel: ET.Element) -> str:
    return text(next(h for h in panel.iter() if "panel-h" in classes(h)))


def panel_links(panel: ET.Element) -> dict[str, str]:
    """The panel's own links (rel prev and next) to the steps around the divergence."""
    nav = next((n for n in panel if n.tag == "nav"), None)
    return {} if nav is None else {a.get("rel", ""): a.get("href", "") for a in nav.iter("a")}


def panel_events(panel: ET.Element) -> list[str]:
    lists = [u for u in panel if u.tag == "ul" and "events" in classes(u)]
    return [text(li) for u in lists for li in u.iter("li")]


def step_events(step: ET.Element) -> list[str]:
    return [text(li) for u in step.iter("ul") if "events" in classes(u) for li in u.iter("li")]


def window_titles(article: ET.Element) -> list[tuple[str, str]]:
    """The game window's steps as the list of steps shows them: (anchor, title)."""
    nav = next(n for n in article.iter("nav") if "steplist" in classes(n))
    return [(a.get("href", ""), text(a)) for a in nav.iter("a")]


def figure(panel: ET.Element, side: str) -> ET.Element:
    return next(f for f in panel.iter("figure") if side in classes(f))


def rows_of(table: ET.Element) -> list[ET.Element]:
    return list(table.find("tbody") or [])


def difference_rows(panel: ET.Element) -> list[list[str]]:
    table = next(t for t in panel.iter("table") if "diffs" in classes(t))
    return [[text(c) for c in row] for row in rows_of(table)]


def facts(root: ET.Element) -> dict[str, str]:
    listing = next(d for d in root.iter("dl") if "facts" in classes(d))
    return {text(pair.find("dt")): text(pair.find("dd")) for pair in listing}


def key_values(root: ET.Element) -> dict[str, dict[str, str]]:
    """The coverage section's titled tables of names and values, by caption."""
    return {text(t.find("caption")): {text(r[0]): text(r[1]) for r in t.iter("tr")}
            for t in ids(root)["coverage"].iter("table") if "kv" in classes(t)}


def stay_title(trace: dict[str, Any], step: int) -> str:
    decision = trace["steps"][step]["decision"]
    assert decision["choice"] == "stay"
    return f"step {step}: seat {decision['player']}: stay"


# ---- the game up to a divergence ------------------------------------------------------------------------------


def test_each_step_of_the_game_window_is_titled_by_the_decision_the_trace_records() -> None:
    """The window runs from the step that dealt the divergence's round to ``steps_after`` steps past it, each
    step titled by the decision the trace records there; the rest is counted, not drawn."""
    trace = three_rounds()
    root = page_of([total_off(trace, 6)], Limits(steps_after=1), traces={CASE: trace})
    article, = articles(root)
    # step 6 is round 3's first decision; step 5 dealt round 3; one step after the divergence: step 7
    assert window_titles(article) == [(f"#f1-s{s}", stay_title(trace, s)) for s in (5, 6, 7)]
    assert "goes on for 1 more steps" in text(article), "step 8 is past the window"


def test_the_rounds_before_the_divergence_show_each_seats_round_score_and_total() -> None:
    trace = three_rounds()
    root = page_of([total_off(trace, 6)], traces={CASE: trace})
    article, = articles(root)
    earlier = next(t for t in article.iter("table") if "earlier" in classes(t))
    header = [text(c) for c in earlier.iter("th") if c.get("scope") == "col"]
    assert header == ["Round", "seat 0", "seat 1", "seat 2"]
    shown = [[text(c) for c in row] for row in rows_of(earlier)]
    assert shown == [["1", *(f"{s} → {s}" for s in ROUND_1)],
                     ["2", *(f"{s} → {t}" for s, t in zip(ROUND_2, TOTALS_2, strict=True))]]


def test_the_panel_is_titled_by_the_diverging_step_and_the_decision_the_trace_records_there() -> None:
    """A result that does not record its decision takes it from the case's trace."""
    trace = three_rounds()
    result = total_off(trace, 6)
    assert "decision" not in result
    root = page_of([result], traces={CASE: trace})
    panel = panel_of(articles(root)[0])
    assert panel_heading(panel) == f"The divergence: {stay_title(trace, 6)}"


def test_the_panel_links_to_the_last_agreeing_step_and_to_what_the_reference_does_next() -> None:
    trace = three_rounds()
    root = page_of([total_off(trace, 6)], traces={CASE: trace})
    panel = panel_of(articles(root)[0])
    assert panel_links(panel) == {"prev": "#f1-s5", "next": "#f1-s7"}
    known = ids(root)
    assert "f1-s5" in known and "f1-s7" in known


def test_the_panel_says_what_the_reference_does_at_the_step_as_the_game_window_does() -> None:
    """Step 5 ends round 2 and deals round 3: the panel lists the same happenings as the step in the game (the
    round's start is the round's own heading, not a happening of the step)."""
    trace = three_rounds()
    root = page_of([total_off(trace, 5)], traces={CASE: trace})
    article, = articles(root)
    step = ids(root)["f1-s5"]
    events = panel_events(panel_of(article))
    assert events == step_events(step)
    # seat 1 stays, the round ends, and round 3's three cards are dealt
    drawn = [e for e in trace["steps"][5]["events"] if e["event"] != "round_start"]
    assert len(events) == len(drawn) == 5
    assert not [e for e in events if "starts" in e]


# ---- the divergence panel: fields, cards, pending choices -------------------------------------------------------


def test_each_differing_field_is_named_in_words_with_both_values() -> None:
    """Each listed difference is a row: what it is (a seat and the card's position counted from 1, or the
    table's own field as the table labels it), its path, the reference's value and the engine's."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    found = copy.deepcopy(expected)
    listed = [("round", 3, "three"), ("dealer", 2, 0), ("winners", [], [1]), ("in_play[2]", None, "FREEZE"),
              ("players[1].cards[0]", "4", "5"), ("players[2].round_score", 6, 7), ("draw_pile", 82, 81)]
    result = failure(6, [at(6, p, e, f) for p, e, f in listed], expected, found)
    panel = panel_of(articles(page_of([result]))[0])
    words = {"round": "round", "dealer": "Dealer", "winners": "winners", "in_play[2]": "in play, card 3",
             "players[1].cards[0]": "seat 1, card 1", "players[2].round_score": "seat 2, round score",
             "draw_pile": "draw pile (cards)"}
    assert difference_rows(panel) == [[words[p], p, json.dumps(e) if not isinstance(e, str) else e,
                                       (json.dumps(f) if not isinstance(f, str) else f) + " ≠"]
                                      for p, e, f in listed]
    # 3 and "three", 2 and 0, ... differ in value, not only in JSON type
    assert "differ only in JSON type" not in text(panel)


def extra_seat_failure() -> tuple[ET.Element, dict[str, Any]]:
    """The divergence panel of a failure at step 6 where the engine has a fourth seat the rules do not, and the
    rules' observation there."""
    expected = observation_at(three_rounds(), 6)
    found = copy.deepcopy(expected)
    found["players"].append({"cards": ["1"], "status": "active", "round_score": 1, "total": 0})
    result = failure(6, [at(6, "players[3]", None, found["players"][3])], expected, found)
    return panel_of(articles(page_of([result]))[0]), expected


def test_a_seat_only_one_side_has_is_a_marked_row_on_the_other() -> None:
    panel, _ = extra_seat_failure()
    reference = figure(panel, "ref")
    table = next(t for t in reference.iter("table") if "players" in classes(t))
    rows = rows_of(table)
    assert [text(r[0]).removesuffix(" ▶") for r in rows] == ["seat 0", "seat 1", "seat 2", "seat 3"]  # ▶: deciding
    extra = rows[3]
    assert text(extra[1]) == "(no such seat)≠"
    assert [len(list(c.iter("mark"))) for c in extra[1:]] == [1, 0, 1, 1], "status, round score and total marked"


def test_cards_are_drawn_by_family_and_a_differing_or_missing_card_is_marked() -> None:
    """An Action is a word, a modifier its sign, each titled by its name and text (docs/html-report.md); a card
    only the engine has leaves a marked gap in the reference's hand."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    expected["players"][0]["cards"] = ["7", "+4"]
    found = copy.deepcopy(expected)
    found["players"][0]["cards"] = ["7", "+6", "FREEZE"]
    result = failure(6, [at(6, "players[0].cards[1]", "+4", "+6"), at(6, "players[0].cards[2]", None, "FREEZE")],
                     expected, found)
    panel = panel_of(articles(page_of([result]))[0])

    def hand(side: str) -> list[ET.Element]:
        table = next(t for t in figure(panel, side).iter("table") if "players" in classes(t))
        return having(rows_of(table)[0], "span", "card")

    number, plus, freeze = hand("eng")
    assert (text(number), card_text(number), "diff" in classes(number)) == ("7", "7", False)
    assert (text(plus), card_text(plus), "diff" in classes(plus)) == ("+6≠", "+6", True)
    assert "action" in classes(freeze) and text(freeze) == "Freeze≠"
    assert freeze.get("title") == "Freeze (FREEZE) (differs)"
    *_, gap = hand("ref")
    assert "missing" in classes(gap) and "diff" in classes(gap)
    assert "no card here" in gap.get("title", "")


def test_pending_choices_name_the_cards_they_point_at() -> None:
    """A Vengeance Swap's options are pairs of card references: each is the seat, the card's position counted
    from 1, and the card held there (none when the seat holds no card there)."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    cards = [p["cards"] for p in expected["players"]]
    options = [[{"player": 0, "index": 0}, {"player": 2, "index": 0}], [{"player": 1, "index": 0},
                                                                       {"player": 2, "index": 4}]]
    expected["pending"] = {"player": 1, "kind": "swap", "card": "SWAP", "options": options}
    found = copy.deepcopy(expected)
    found["pending"] = None
    result = failure(6, [at(6, "pending", expected["pending"], None)], expected, found)
    panel = panel_of(articles(page_of([result]))[0])

    def pending(side: str) -> str:
        return text(next(p for p in figure(panel, side).iter("p") if "pending" in classes(p)))

    first = f"seat 0's card 1 ({cards[0][0]}) ⇄ seat 2's card 1 ({cards[2][0]})"
    second = f"seat 1's card 1 ({cards[1][0]}) ⇄ seat 2's card 5"
    assert f"({first}, {second})" in pending("ref")
    assert pending("ref").startswith("Next: seat 1 ")
    assert pending("eng") == "Next: no decision pending≠"


# ---- numbering, the list of failures, errored cases --------------------------------------------------------------


def test_failures_are_numbered_from_one_and_listed_with_their_clause() -> None:
    trace = three_rounds()
    results = [total_off(trace, 6), {**total_off(trace, 7, "game:flip7/seed=0/game=1/players=3"),
                                     "clause": "F7-HIT-STAY"}]
    root = page_of(results)
    first, second = articles(root)
    assert [first.get("id"), second.get("id")] == ["f1", "f2"]
    assert text(first.find("h3")).startswith("FAIL 1 ") and text(second.find("h3")).startswith("FAIL 2 ")
    listing = next(t for t in root.iter("table") if "list" in classes(t))
    rows = rows_of(listing)
    assert [r[0].find("a").get("href") for r in rows] == ["#f1", "#f2"]  # type: ignore[union-attr]
    assert [text(r[3]) for r in rows] == ["step 6", "step 7"]
    assert [text(r[-1]) for r in rows] == ["F7-SCORE", "F7-HIT-STAY"]


def test_an_errored_case_is_headed_by_where_it_errored() -> None:
    """Errors are numbered from 1; the heading names the step and its decision (a Vengeance card reference as a
    seat and a card position counted from 1; "the player to decide" when the decision names nobody), and says
    nothing of where when the result does not say."""
    base = {"level": "round", "outcome": "errored", "message": "timeout"}
    card = {**base, "case_id": "round:vengeance/seed=0/game=0/players=3", "step": 4,
            "decision": {"player": 1, "kind": "card", "choice": {"player": 0, "index": 1}}}
    swap = {**base, "case_id": "round:vengeance/seed=0/game=1/players=3", "step": 7,
            "decision": {"kind": "swap", "choice": [{"player": 0, "index": 0}, {"player": 2, "index": 2}]}}
    nowhere = {**base, "case_id": "round:vengeance/seed=0/game=2/players=3"}
    root = page_of([card, swap, nowhere])
    headings = [(e.get("id"), text(e.find("h3"))) for e in articles(root, "error")]
    assert headings == [
        ("e1", "ERROR 1 round:vengeance/seed=0/game=0/players=3 [round] at step 4: seat 1 chooses seat 0's card 2"),
        ("e2", "ERROR 2 round:vengeance/seed=0/game=1/players=3 [round] at step 7: the player to decide chooses "
               "seat 0's card 1 ⇄ seat 2's card 3"),
        ("e3", "ERROR 3 round:vengeance/seed=0/game=2/players=3 [round]")]


# ---- the run's facts, coverage, declarations ----------------------------------------------------------------------


def test_the_runs_facts_are_those_the_report_records() -> None:
    root = page_of([], seed=1234, games=7, seconds=12.5, decisions=4321)
    shown = facts(root)
    assert shown["engine"] == "x" and shown["seed"] == "1234" and shown["generated games"] == "7"
    assert float(shown["time"].removesuffix(" s")) == 12.5
    assert int(shown["decisions played"].replace(",", "")) == 4321


def test_the_clause_coverage_shows_what_each_ruleset_reached_and_the_cases_per_clause() -> None:
    coverage = [{"ruleset": "flip7", "expected": 4, "reached": 3, "least": 0, "unreached": ["F7-TIE"],
                 "counts": {"F7-DEAL": 12, "F7-SCORE": 5, "F7-BUST": 1, "F7-TIE": 0}},
                {"ruleset": "vengeance", "expected": 2, "reached": 2, "least": 2,
                 "counts": {"V-STEAL": 3, "V-SWAP": 2}}]
    given = key_values(page_of([], coverage=coverage))
    for entry in coverage:
        rows = given[f"clauses of {entry['ruleset']}"]
        least = entry["least"]
        assert rows["reached"] == f"{entry['reached']} of {entry['expected']} clauses" + (
            f", each by at least {least} cases" if least else "")
        per_clause = dict(item.rsplit(" ", 1) for item in rows["cases per clause"].split(", "))
        assert {k: int(v) for k, v in per_clause.items()} == entry["counts"]
        assert min(int(v) for v in per_clause.values()) == least  # the least is the fewest cases of a clause
    assert given["clauses of flip7"]["unreached"] == "F7-TIE"


def test_what_ran_is_counted_by_source_in_the_order_scoring_fixtures_rounds_games() -> None:
    """docs/html-report.md: what ran, by source of cases (scoring hands, fixtures, generated round and game
    cases) and ruleset; the legal level aside."""
    def result(case_id: str, level: str, outcome: str = "pass") -> dict[str, Any]:
        return {"case_id": case_id, "level": level, "outcome": outcome}

    results = [result("game:flip7/seed=0/game=0/players=3", "game"),
               result("game:flip7/seed=0/game=1/players=3", "game", "skipped"),
               result("round:flip7/seed=0/game=0/players=3", "round"),
               result("fixture:flip7/tie-another-round", "game"),
               result("scoring:flip7:official-x2", "scoring"),
               result("game:flip7/seed=0/game=0/players=3", "legal")]
    root = page_of(results)
    table = next(t for t in ids(root)["coverage"].iter("table") if "counts" in classes(t))
    rows = [[text(c) for c in row] for row in rows_of(table)]
    # columns: source, pass, fail, skipped, errored, all
    assert rows == [["scoring · flip7", "1", "0", "0", "0", "1"], ["fixture · flip7", "1", "0", "0", "0", "1"],
                    ["round · flip7", "1", "0", "0", "0", "1"], ["game · flip7", "1", "0", "1", "0", "2"]]


@pytest.mark.parametrize(("hello", "engine"), [({"name": "eng", "version": "1.2"}, "eng 1.2"),
                                                ({"name": "eng"}, "eng")])
def test_the_engines_declarations_are_what_its_hello_says(hello: dict[str, Any], engine: str) -> None:
    hello = {**hello, "rulesets": ["flip7", "vengeance"], "levels": ["round", "game"],
             "options": {"flip7_bonus": 15}}
    declared = key_values(page_of([], hello=hello))["What the engine declared in the handshake"]
    assert declared == {"engine": engine, "rulesets": "flip7, vengeance", "levels": "round, game",
                        "options": "flip7_bonus: 15"}


# ---- a trace's page ----------------------------------------------------------------------------------------------


def test_a_traces_ruleset_is_named_with_its_base_and_description() -> None:
    """The ruleset fact names the ruleset, its base when it is another, and its description."""
    trace = three_rounds()
    ruleset = trace["header"]["ruleset"]
    assert ruleset["base"] == ruleset["name"] == "flip7"
    assert facts(parse(render_trace(trace, "t.json")))["ruleset"] == f"flip7: {ruleset['description']}"
    house = copy.deepcopy(trace)
    house["header"]["ruleset"] = {**ruleset, "name": "house", "description": "our table"}
    assert facts(parse(render_trace(house, "t.json")))["ruleset"] == "house (base flip7): our table"


def saved(trace: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """``trace`` saved as ``conform --save-failures`` saves a failure: the result in its provenance."""
    header = {**trace["header"], "provenance": {**trace["header"]["provenance"], "failure": record}}
    return {**trace, "header": header}


def test_a_saved_failures_page_links_its_panel_to_the_steps_around_the_divergence() -> None:
    trace = three_rounds()
    root = parse(render_trace(saved(trace, total_off(trace, 5)), "saved.json"))
    article, = articles(root)
    assert text(article.find("h2")).startswith(f"FAIL 1 {CASE} ")
    panel = panel_of(article)
    assert panel_links(panel) == {"prev": "#s4", "next": "#s6"}
    step = ids(root)["s5"]
    assert panel_events(panel) == step_events(step) and len(step_events(step)) == 5
    assert not [t for t in step.iter("table") if "players" in classes(t)], "both tables are in the panel"
    assert any(a.get("href") == f"#{panel.get('id')}" for a in step.iter("a")), "the step points at the panel"


def test_an_older_report_draws_a_failure_on_the_saved_trace_it_points_at(tmp_path: Path) -> None:
    """A report without the games of its failures: each failure is drawn on its saved trace (``shrunk``), read
    from its file; a saved trace that is not there leaves its failure drawn from the report alone."""
    trace = three_rounds()
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved(trace, total_off(trace, 6))), encoding="utf-8")
    other = "game:flip7/seed=0/game=1/players=3"
    document = {"engine": "x", "results": [total_off(trace, 6, shrunk=str(path)),
                                           total_off(trace, 7, other, shrunk=str(tmp_path / "gone.json"))]}
    root = parse(render_report(report_with_saved(document)))
    drawn, alone = articles(root)
    assert [title for _, title in window_titles(drawn)] == [stay_title(trace, s) for s in range(5, 9)]
    meta = next(d for d in drawn.iter("dl") if "meta" in classes(d))
    assert dict(zip(map(text, meta.iter("dt")), map(text, meta.iter("dd")), strict=True))[
        "minimal failing trace"] == str(path)
    assert not [n for n in alone.iter("nav") if "steplist" in classes(n)]


def test_write_html_writes_the_page_whole(tmp_path: Path) -> None:
    html = render_trace(three_rounds(), "t.json")
    path = tmp_path / "page.html"
    write_html(path, html)
    assert path.read_text(encoding="utf-8") == html


def test_a_step_the_reference_cannot_play_says_so_rather_than_that_nothing_happens() -> None:
    """A trace that records no events or observations is played on the reference (docs/html-report.md); where
    the reference cannot play a decision, that step says why, and the steps after it do not claim that nothing
    happened there (the text ``show`` says the same)."""
    trace = three_rounds()
    del trace["start"]
    for step in trace["steps"]:
        for recorded in ("events", "observation", "scores"):
            step.pop(recorded, None)
    trace["steps"][4]["decision"]["choice"] = "fold"  # not a choice of a hit-or-stay decision (F7-HIT-STAY)
    root = parse(render_trace(trace, "t.json"))
    known = ids(root)
    assert step_events(known["s0"]) == ["seat 1 stays"], "recovered from the reference"
    assert [t for t in known["s3"].iter("table") if "players" in classes(t)], "with the table after it"
    assert "the reference cannot play step 4" in text(known["s4"])
    for index in range(4, STAYS):
        step = known[f"s{index}"]
        assert "nothing else happens" not in text(step) and not step_events(step)
        assert not [t for t in step.iter("table") if "players" in classes(t)]
    titles = [text(h) for h in root.iter("h2")]
    assert titles[:2] == ["Round 1 · Dealer seat 0", "Round 2 · Dealer seat 1"] and "Round 3" not in " ".join(titles)
    # a game the reference cannot start (no seat 7 of three): the start says so, and the game starts in round 1
    trace["header"]["dealer"] = 7
    root = parse(render_trace(trace, "t.json"))
    assert "the reference cannot start this game" in text(ids(root)["start"])
    assert [text(h) for h in root.iter("h2")] == ["Round 1", "End"]
    assert all("nothing else happens" not in text(ids(root)[f"s{i}"]) for i in range(STAYS))


def test_pending_decisions_name_their_card_and_an_unknown_kind_as_given() -> None:
    """A Freeze's target decision names the card and the seats it may target; a kind the page does not know is
    shown as given."""
    trace = three_rounds()
    expected = observation_at(trace, 6)
    expected["pending"] = {"player": 1, "kind": "target", "card": "FREEZE", "options": [0, 1, 2]}
    found = copy.deepcopy(expected)
    found["pending"] = {"player": 1, "kind": "wager", "card": "FREEZE", "options": [5]}
    result = failure(6, [at(6, "pending.kind", "target", "wager")], expected, found)
    panel = panel_of(articles(page_of([result]))[0])

    def pending(side: str) -> str:
        return text(next(p for p in figure(panel, side).iter("p") if "pending" in classes(p)))

    assert pending("ref") == "Next: seat 1 chooses the target of FREEZE (seat 0, seat 1, seat 2)≠"
    assert pending("eng") == "Next: seat 1 decides wager about FREEZE (5)≠"


def test_the_end_of_a_won_game_is_marked_where_the_winners_differ() -> None:
    trace = three_rounds()
    expected = observation_at(trace, 8)
    expected.update(over=True, winners=[2])
    found = copy.deepcopy(expected)
    found["winners"] = [1]
    result = failure(8, [at(8, "winners[0]", 2, 1)], expected, found)
    panel = panel_of(articles(page_of([result]))[0])
    for side, winner in (("ref", 2), ("eng", 1)):
        over = next(p for p in figure(panel, side).iter("p") if "over" in classes(p))
        assert text(over) == f"game over: seat {winner}≠" and over.find("mark") is not None


def test_an_errored_case_shows_the_last_table_both_sides_agreed_on() -> None:
    """docs/html-report.md: the first ``full_failures`` errors are drawn with the last step where both agreed
    (the table, the decision that led to it, what the reference does there); the others without."""
    trace = three_rounds()
    agreed = observation_at(trace, 5)

    def errored(number: int) -> dict[str, Any]:
        return {"case_id": f"game:flip7/seed=0/game={number}/players=3", "level": "game", "outcome": "errored",
                "message": "timeout", "step": 6, "decision": trace["steps"][6]["decision"],
                "last_agreed": {"step": 5, "where": "$.steps[5].observation", "observation": agreed}}

    results = [errored(n) for n in range(3)]
    traces = {r["case_id"]: trace for r in results}
    root = page_of(results, Limits(full_failures=2), traces=traces)
    first, second, third = articles(root, "error")
    for drawn in (first, second):
        panel = panel_of(drawn)
        assert panel_heading(panel) == f"The last step where both agreed: {stay_title(trace, 5)}"
        table = next(t for t in panel.iter("table") if "players" in classes(t))
        assert [[card_text(c) for c in having(r, "span", "card")] for r in rows_of(table)] == \
            [p["cards"] for p in agreed["players"]]
        # step 5: seat 1 stays, round 2 ends, round 3's three cards are dealt
        events = panel_events(panel)
        assert len(events) == 5 and events[0] == "seat 1 stays" and events[1].startswith("round ends")
    assert not [s for s in third.iter("section") if "panel" in classes(s)]


def test_a_traces_players_are_named_as_its_header_names_them() -> None:
    trace = three_rounds()
    trace["header"]["names"] = ["Ann", "Bo", "Cy"]
    root = parse(render_trace(trace, "t.json"))
    assert facts(root)["players"] == "seat 0 (Ann), seat 1 (Bo), seat 2 (Cy)"
    assert text(ids(root)["s0"].find("h3")) == "step 0: seat 1 (Bo): stay"


def test_a_trace_pages_ending_is_its_footer_or_says_the_game_is_partial() -> None:
    fixture = json.loads((Path(__file__).parent.parent / "fixtures/flip7/tie-shared-win.json").read_text("utf-8"))
    footer = fixture["footer"]
    assert len(footer["winners"]) == 2
    ending = text(ids(parse(render_trace(fixture, "f.json")))["ending"].find("p"))
    totals = ", ".join(f"seat {i}: {t}" for i, t in enumerate(footer["totals"]))
    assert ending == (f"Game over after {footer['rounds']} rounds: winners "
                      f"{', '.join(f'seat {w}' for w in footer['winners'])}; totals {totals}.")
    partial = text(ids(parse(render_trace(three_rounds(), "t.json")))["ending"].find("p"))
    assert "partial game" in partial and "Game over" not in partial


def test_causes_coverage_and_skips_show_what_the_report_gives_and_nothing_it_does_not() -> None:
    """A cause lists every clause its failures blame; a coverage value that is not a mapping is shown as given,
    an absent one not at all; a clause count the report does not give is unknown, not a number; a skip
    without a reason says so."""
    trace = three_rounds()
    same = {"diagnosis": {"text": "the engine adds one to a total"}}
    results = [total_off(trace, 6, **same), {**total_off(trace, 7, "game:flip7/seed=0/game=1/players=3", **same),
                                             "clause": "F7-HIT-STAY"},
               {"case_id": "round:vengeance/seed=0/game=0/players=3", "level": "round", "outcome": "skipped"}]
    root = page_of(results, coverage="partial")
    causes = next(ids(root)["causes"].iter("table"))
    assert [[text(c) for c in row][:2] for row in rows_of(causes)] == [["the engine adds one to a total",
                                                                       "F7-HIT-STAY, F7-SCORE"]]
    assert key_values(root) == {"coverage": {"": "partial"}}
    skips = next(ids(root)["skipped"].iter("table"))
    assert [text(row[0]) for row in rows_of(skips)] == ["no reason given"]
    assert key_values(page_of([])) == {}
    unknown = key_values(page_of([], coverage=[{"ruleset": "flip7", "expected": 4}]))["clauses of flip7"]
    assert unknown["reached"] == "? of 4 clauses"
