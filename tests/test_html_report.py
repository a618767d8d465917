"""``conform --html`` and ``show --html``: the pages parsed as a browser parses them (html5lib), their structure
checked for a passing run, a failing run, a Vengeance game, a saved trace and a saved failure.

Expected values come from the rules, not from the renderer: a busted player's round score is 0 (F7-SCORE-BUST,
which the ``bust_scores_cards`` mutant breaks), a bust is a second card of one Number (F7-BUST), a duplicate
taken by a Vengeance action busts (V-BUST-BY-ACTION, broken by ``v_take_never_busts``), and each card family is
drawn as its own kind (docs/trace-format.md's card table).
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cli import cli
from flip7_spec.cli.common import run_main
from flip7_spec.htmlreport import Limits, render_report, report_from
from flip7_spec.htmlreport.differences import parse_path
from flip7_spec.protocol.adapter import ReferenceAdapter
from tests.htmltree import card_text, classes, having, headings, ids, parse, text

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
QUICK = ("--no-scoring", "--no-fixtures", "--min-coverage", "0")  # exactly the --games games
SECTIONS = ["Summary by level", "Failures by cause", "Failures", "Errors", "Coverage", "Skipped cases, by reason"]
"""The report's sections in page order: what failed first, then the coverage (folded) and the skips."""

# The family each card text belongs to, from the card table of docs/trace-format.md.
VENGEANCE_NUMBERS = {"ZERO", "U7", "L13"}
ACTIONS = {"FREEZE", "FLIP3", "CHANCE", "ONEMORE", "FLIP4", "SWAP", "STEAL", "DISCARD"}


def family(card: str) -> str:
    if card in VENGEANCE_NUMBERS:
        return "special"
    if card in ACTIONS:
        return "action"
    if card.isdigit():
        return "number"
    if card[0] in "+x":
        return "modifier"
    assert card[0] in "-/", card
    return "negative"


class FlipOnly(ReferenceAdapter):
    """The reference, declaring the base game only: Vengeance cases are skipped, the rest pass."""

    def hello(self) -> dict[str, Any]:
        return {**super().hello(), "rulesets": ["flip7"]}


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def flip7_spec(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """Run the command line in-process; returns the exit code, stdout and stderr."""

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["flip7-spec", *args])
        code = run_main(cli)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def page(path: Path) -> ET.Element:
    html = path.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    return parse(html)


def check_self_contained(root: ET.Element) -> None:
    """No external resource: no script or stylesheet by URL, no image; a policy that forbids loading any."""
    assert not [e for e in root.iter("script") if e.get("src")]
    assert not [e for e in root.iter("link") if e.get("rel") == "stylesheet"]
    assert not list(root.iter("img"))
    policy = next(e for e in root.iter("meta") if e.get("http-equiv") == "Content-Security-Policy")
    assert "default-src 'none'" in policy.get("content", "")
    for link in root.iter("a"):
        assert not re.match(r"^[a-z]+://", link.get("href", "")), link.get("href")


def check_links(root: ET.Element) -> None:
    """Every in-page link leads to an element of the page."""
    known = ids(root)
    targets = [a.get("href", "")[1:] for a in root.iter("a") if a.get("href", "").startswith("#")]
    assert targets
    missing = sorted({t for t in targets if t not in known})
    assert not missing, missing[:10]


def outline(root: ET.Element) -> list[tuple[int, str]]:
    """The h1 and h2 headings: the page's outline."""
    return [(level, words) for level, words in headings(root) if level <= 2]


def summary_counts(root: ET.Element) -> dict[str, list[int]]:
    table = next(t for t in root.iter("table") if t.find("caption") is not None
                 and text(t.find("caption")).startswith("Results per conformance level"))
    rows = {}
    for row in table.iter("tr"):
        cells = [text(c) for c in row]
        if cells and cells[1:] and all(c.isdigit() for c in cells[1:]):
            rows[cells[0]] = [int(c) for c in cells[1:]]
    return rows


def player_rows(figure: ET.Element) -> list[ET.Element]:
    table = next(t for t in figure.iter("table") if "players" in classes(t))
    return list(table.find("tbody") or [])


def cards_of(row: ET.Element) -> list[str]:
    return [card_text(c) for c in having(row, "span", "card")]


# ---- a passing run -------------------------------------------------------------------------------------


def test_passing_run(flip7_spec: Run, tmp_path: Path) -> None:
    html, report = tmp_path / "report.html", tmp_path / "report.json"
    code, out, err = flip7_spec("conform", "--python", "tests.test_html_report:FlipOnly", "--games", "4", *QUICK,
                                "-r", "flip7", "-r", "vengeance", "--json", str(report), "--html", str(html))
    assert code == 0, out + err
    root = page(html)
    check_self_contained(root)
    check_links(root)
    assert [w for _, w in outline(root)][1:] == SECTIONS
    assert [level for level, _ in outline(root)].count(1) == 1
    assert "PASS" in text(next(e for e in root.iter("p") if "verdict" in classes(e)))
    # 4 games cycle through the two rulesets: 2 flip7 games pass (a round and a game case each, and the legal
    # level for both), the 2 Vengeance games are skipped at their level (no legal result for a skipped case)
    counts = summary_counts(root)
    assert counts["round"] == [2, 0, 2, 0, 4] and counts["game"] == [2, 0, 2, 0, 4]
    assert counts["legal"] == [4, 0, 0, 0, 4] and counts["total"] == [8, 0, 4, 0, 12]
    assert not having(root, "article", "failure") and not having(root, "section", "panel")
    assert "No case failed." in text(ids(root)["causes"]) and "No case errored." in text(ids(root)["errors"])
    skips = next(t for t in ids(root)["skipped"].iter("table"))
    rows = [[text(c) for c in r] for r in skips.find("tbody") or []]
    assert rows == [["the engine does not implement the vengeance ruleset", "4", "game, round",
                     rows[0][3]]], rows
    coverage = text(ids(root)["coverage"])
    assert "round · flip7" in coverage and "round · vengeance" in coverage


# ---- a failing run -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], Path]:
    """One conformance run of the mutant that scores a busted player's cards: the HTML, JSON and saved traces."""
    folder = tmp_path_factory.mktemp("failing")
    html, report, saved = folder / "report.html", folder / "report.json", folder / "saved"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", ["flip7-spec", "conform", "--python", "tests.mutants.bust_scores_cards:Engine",
                                    "--games", "3", *QUICK, "-r", "flip7", "--save-failures", str(saved),
                                    "--json", str(report), "--html", str(html), "-q"])
        assert run_main(cli) == 1
    return html, json.loads(report.read_text(encoding="utf-8")), saved


@pytest.mark.clause("F7-SCORE-BUST", "F7-BUST")
def test_failing_run(failing_run: tuple[Path, dict[str, Any], Path]) -> None:
    path, report, _ = failing_run
    root = page(path)
    check_self_contained(root)
    check_links(root)
    assert [w for _, w in outline(root)][1:] == SECTIONS
    failed = [r for r in report["results"] if r["outcome"] == "fail"]
    assert failed
    assert summary_counts(root)["total"][1] == len(failed)
    # every failure is a row of the list, in the report's order
    listed = next(t for t in ids(root)["failures"].iter("table") if "list" in classes(t))
    rows = [[text(c) for c in r] for r in listed.find("tbody") or []]
    assert [(r[1], r[2], r[4]) for r in rows] == [(f["case_id"], f["level"], f["where"]) for f in failed]
    articles = having(root, "article", "failure")
    assert 1 <= len(articles) <= min(len(failed), Limits().full_failures)
    # the clause coverage conform --json writes, one list per ruleset, not a JSON dump
    coverage = report["coverage"][0]
    given = {text(t.find("caption")): {text(r[0]): text(r[1]) for r in t.iter("tr")}
             for t in ids(root)["coverage"].iter("table") if "kv" in classes(t)}
    flip7 = given["clauses of flip7"]
    assert flip7["reached"].startswith(f"{coverage['reached']} of {coverage['expected']} clauses")
    assert flip7["unreached"] == ", ".join(coverage["unreached"])
    # the diagnosis is said once, without its [clause, confidence] tag (both are shown beside it)
    diagnosis = failed[0]["diagnosis"]
    first = articles[0]
    line = text(next(p for p in first.iter("p") if "diagnosis" in classes(p)))
    assert line == (f"Diagnosis: the engine behaves as if {diagnosis['description']} (misreading "
                    f"{diagnosis['misreading']}) (clause {diagnosis['clause']}, confidence high)")
    assert text(first).count(diagnosis["description"]) == 1

    # a failure at the bust itself: the busted player's round score must be 0
    bust = next(r for r in failed if r["where"].endswith(".round_score"))
    seat = parse_path(bust["where"])[-2]
    assert bust["expected"] == 0 and bust["found"] != 0
    article = next(a for a in articles if bust["case_id"] in text(a.find("h3"))
                   and f"at step {bust['step']}" in text(a.find("h3")))
    panel = next(s for s in article.iter("section") if "panel" in classes(s))
    reference, engine = (next(f for f in panel.iter("figure") if side in classes(f)) for side in ("ref", "eng"))
    players = int(re.search(r"players=(\d+)", bust["case_id"]).group(1))  # type: ignore[union-attr]
    for figure in (reference, engine):
        rows = player_rows(figure)
        assert len(rows) == players
        busted = rows[seat]
        cells = [text(c) for c in busted]
        assert cells[1].startswith("busted")
        numbers = [c for c in cards_of(busted) if c.isdigit()]
        assert len(numbers) != len(set(numbers)), "a bust is a second card of one Number"
        marked = [text(m) for m in busted.iter("mark")]
        assert marked, "the differing round score is marked"
        assert all("≠" in m for m in marked), "the mark is a symbol too, not only a colour"
    assert [text(m) for m in player_rows(reference)[seat].iter("mark")] == ["0≠"]
    assert [text(m) for m in player_rows(engine)[seat].iter("mark")] == [f"{bust['found']}≠"]
    for other in (r for i, r in enumerate(player_rows(reference)) if i != seat):
        assert not list(other.iter("mark")), "only the differing fields are marked"
    differences = next(t for t in panel.iter("table") if "diffs" in classes(t))
    paths = [text(r[1]) for r in differences.find("tbody") or []]
    assert f"players[{seat}].round_score" in paths

    # the game up to the divergence: steps in order, the divergence among them, previous/next between them
    game = next(d for d in article.iter("details") if "game" in classes(d))
    steps = [s for s in game.iter("section") if "step" in classes(s)]
    numbers = [int(s.get("id", "").rsplit("-s", 1)[1]) for s in steps if "-s" in s.get("id", "")]
    assert numbers == sorted(numbers) and bust["step"] in numbers
    divergence = next(s for s in steps if "divergence" in classes(s))
    assert divergence.get("id", "").endswith(f"-s{bust['step']}")
    listed_steps = [a.get("href") for a in game.find(".//nav[@class='steplist']").iter("a")]  # type: ignore[union-attr]
    assert listed_steps == [f"#{s.get('id')}" for s in steps]
    for before, after in pairwise(steps):
        assert f"#{after.get('id')}" in [a.get("href") for a in before.iter("a") if a.get("rel") == "next"]
        assert f"#{before.get('id')}" in [a.get("href") for a in after.iter("a") if a.get("rel") == "prev"]
    # every step before the divergence shows the whole table: one row per player
    for step in steps[: steps.index(divergence)]:
        tables = [t for t in step.iter("table") if "players" in classes(t)]
        assert len(tables) == 1 and len(list(tables[0].find("tbody") or [])) == players


def test_saved_failure_shows_both_sides(failing_run: tuple[Path, dict[str, Any], Path], flip7_spec: Run,
                                        tmp_path: Path) -> None:
    """A trace saved by --save-failures records its failure; show --html draws it round by round with both
    tables at the divergence, and text show names it in one line."""
    _, report, _ = failing_run
    result = next(r for r in report["results"] if r["outcome"] == "fail" and r["shrunk"])
    trace = json.loads(Path(result["shrunk"]).read_text(encoding="utf-8"))
    recorded = trace["header"]["provenance"]["failure"]
    assert recorded["case_id"] == result["case_id"] and recorded["clause"] == result["clause"]
    assert recorded["expected_observation"] != recorded["found_observation"]
    out_path = tmp_path / "saved.html"
    code, out, err = flip7_spec("show", result["shrunk"], "--html", str(out_path))
    assert code == 0 and out == "", err
    root = page(out_path)
    check_self_contained(root)
    check_links(root)
    panel = next(s for s in root.iter("section") if "panel" in classes(s))
    assert {"ref", "eng"} <= {c for f in panel.iter("figure") for c in classes(f)}
    steps = {s.get("id"): s for s in root.iter("section") if "step" in classes(s)}
    decisions = [i for i, s in enumerate(trace["steps"]) if "decision" in s]
    assert set(steps) == {"start"} | {f"s{i}" for i in range(len(trace["steps"]))}
    assert "divergence" in classes(steps[f"s{recorded['step']}"])
    assert decisions[-1] == recorded["step"], "the shrunk trace ends at its failing step"
    code, out, _ = flip7_spec("show", result["shrunk"])
    assert code == 0
    assert f"saved failure of {result['case_id']} [{result['level']}] at step {recorded['step']}" in out


def test_report_rebuilt_from_its_json(failing_run: tuple[Path, dict[str, Any], Path], flip7_spec: Run,
                                      tmp_path: Path) -> None:
    """show --html on a conform --json report draws the same failures, each from its saved trace."""
    path, report, _ = failing_run
    again = tmp_path / "again.html"
    report_path = path.with_name("report.json")
    code, _, err = flip7_spec("show", str(report_path), "--html", str(again))
    assert code == 0, err
    first, second = page(path), page(again)
    assert summary_counts(first) == summary_counts(second)
    titles = [text(a.find("h3")).split(" at ")[0] for a in having(second, "article", "failure")]
    assert titles == [text(a.find("h3")).split(" at ")[0] for a in having(first, "article", "failure")]
    # a failure with a saved trace is drawn from it: its steps are the shrunk trace's
    saved = [r for r in report["results"] if r["outcome"] == "fail" and r["shrunk"]]
    assert saved and having(second, "details", "game")


# ---- Vengeance ---------------------------------------------------------------------------------------


@pytest.mark.clause("V-BUST-BY-ACTION")
def test_vengeance_game(flip7_spec: Run, tmp_path: Path) -> None:
    html = tmp_path / "vengeance.html"
    code, _, _ = flip7_spec("conform", "--python", "tests.mutants.v_take_never_busts:Engine", "--games", "1",
                            "--seed", "6", *QUICK, "-r", "vengeance", "--html", str(html), "-q")
    assert code == 1
    root = page(html)
    check_links(root)
    panel = next(s for s in root.iter("section") if "panel" in classes(s))
    reference, engine = (next(f for f in panel.iter("figure") if side in classes(f)) for side in ("ref", "eng"))
    # the player who took a duplicate is busted for the reference and still active for the mutant
    busted = [i for i, r in enumerate(player_rows(reference)) if text(r[1]).startswith("busted")
              and list(r[1].iter("mark"))]
    assert busted
    assert text(player_rows(engine)[busted[0]][1]).startswith("active")
    drawn = having(root, "span", "card")
    assert drawn
    for card in drawn:
        name = card_text(card)
        assert family(name) in classes(card), (name, card.get("class"))


def test_vengeance_cards_in_a_trace(flip7_spec: Run, tmp_path: Path) -> None:
    """Every Vengeance card drawn as its family: The Zero, Unlucky 7 and Lucky 13 with their caption."""
    out = tmp_path / "trace.html"
    source = FIXTURES / "vengeance" / "two-decks-19-players.json"
    code, _, err = flip7_spec("show", str(source), "--html", str(out))
    assert code == 0, err
    root = page(out)
    trace = json.loads(source.read_text(encoding="utf-8"))
    held = {c for s in trace["steps"] if "observation" in s for p in s["observation"]["players"] for c in p["cards"]}
    drawn: dict[str, set[str]] = {}
    for card in having(root, "span", "card"):
        drawn.setdefault(card_text(card), set()).update(classes(card))
        if card_text(card) in VENGEANCE_NUMBERS:
            assert card.find("small") is not None, "a special Number has its caption"
    assert held <= set(drawn)
    for name, css in drawn.items():
        assert family(name) in css, (name, css)
    assert {"ZERO", "U7", "L13", "/2"} <= held


# ---- a saved trace ----------------------------------------------------------------------------------------


@pytest.mark.clause("F7-FLIP3-SETASIDE-BUST")
def test_trace_round_by_round(flip7_spec: Run, tmp_path: Path) -> None:
    source = FIXTURES / "flip7" / "tie-another-round.json"
    out = tmp_path / "trace.html"
    code, _, err = flip7_spec("show", str(source), "--html", str(out))
    assert code == 0, err
    root = page(out)
    check_self_contained(root)
    check_links(root)
    trace = json.loads(source.read_text(encoding="utf-8"))
    events = [e for part in [trace.get("start", {})] + trace["steps"] for e in part.get("events", [])]
    rounds = [e["round"] for e in events if e["event"] == "round_start"]
    assert [w for level, w in headings(root) if level == 2 and w.startswith("Round")] == [
        f"Round {r} · Dealer seat {e['dealer']}" for r, e in zip(rounds, (e for e in events
                                                                       if e["event"] == "round_start"), strict=True)]
    steps = [s for s in root.iter("section") if "step" in classes(s)]
    assert [s.get("id") for s in steps] == ["start"] + [f"s{i}" for i in range(len(trace["steps"]))]
    players = trace["header"]["players"]
    for step in steps:
        table = next(t for t in step.iter("table") if "players" in classes(t))
        assert len(list(table.find("tbody") or [])) == players
    # the rows hold the recorded observation's cards, in order
    last = trace["steps"][-1]["observation"]
    drawn = [cards_of(r) for r in list(next(t for t in steps[-1].iter("table")).find("tbody") or [])]
    assert drawn == [p["cards"] for p in last["players"]]
    winners = trace["footer"]["winners"]
    assert f"winner seat {winners[0]}" in text(ids(root)["ending"])


def test_trace_without_observations_is_played_on_the_reference(flip7_spec: Run, tmp_path: Path) -> None:
    """The docs' hand-written trace records one event and no observation: the tables come from the reference."""
    trace = {"format": "flip7-trace", "version": 1,
             "header": {"ruleset": {"name": "tiny", "base": "flip7", "options": {"target_score": 5},
                                    "deck": {"1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1}},
                        "players": 3, "dealer": 2, "deck": ["1", "2", "3", "4", "5", "6"]},
             "steps": [{"decision": {"player": 0, "choice": "hit"}}, {"decision": {"player": 1, "choice": "stay"}},
                       {"decision": {"player": 2, "choice": "hit"}}, {"decision": {"player": 0, "choice": "stay"}},
                       {"decision": {"player": 2, "choice": "stay"}}],
             "footer": {"totals": [5, 2, 8], "winners": [2]}}
    source, out = tmp_path / "tiny.json", tmp_path / "tiny.html"
    source.write_text(json.dumps(trace), encoding="utf-8")
    assert flip7_spec("show", str(source), "--html", str(out))[0] == 0
    root = page(out)
    # seat 2 deals: 1, 2, 3 go to seats 0, 1, 2; seat 0 hits the 4 (1 + 4 = 5), seat 2 hits the 5 (3 + 5 = 8)
    after_hit = next(s for s in root.iter("section") if s.get("id") == "s0")
    assert [cards_of(r) for r in list(next(after_hit.iter("table")).find("tbody") or [])] == [["1", "4"], ["2"], ["3"]]
    assert "winner seat 2" in text(ids(root)["ending"])


def test_show_html_errors(flip7_spec: Run, tmp_path: Path) -> None:
    """Unusable input is one line and exit code 2, no page written."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "flip7-trace", "version": 2}', encoding="utf-8")
    out = tmp_path / "out.html"
    code, _, err = flip7_spec("show", str(broken), "--html", str(out))
    assert code == 2 and "unsupported format version" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
    code, _, err = flip7_spec("show", str(FIXTURES / "flip7" / "bust-basic.json"), "--html",
                              str(tmp_path / "missing" / "out.html"))
    assert code == 2 and "cannot write --html" in err and "no such folder" in err


def test_conform_html_into_a_missing_folder(flip7_spec: Run, tmp_path: Path) -> None:
    code, _, err = flip7_spec("conform", "--python", "tests.mutants.dealer_fixed:Engine", "--games", "1", *QUICK,
                              "-r", "flip7", "-q", "--html", str(tmp_path / "missing" / "report.html"))
    assert code == 2 and "cannot write --html" in err and err.strip().endswith("missing")  # before the run
    assert len(err.strip().splitlines()) == 1


# ---- the input model: later fields, missing fields, bounds ---------------------------------------------------


def _observation(cards: list[list[str]], totals: list[int]) -> dict[str, Any]:
    return {"round": 1, "dealer": 0, "draw_pile": 80, "discard_pile": 0, "in_play": [], "over": False, "winners": [],
            "pending": {"player": 1, "kind": "hit_or_stay", "card": None, "options": ["hit", "stay"]},
            "players": [{"cards": c, "status": "active", "round_score": 0, "total": t} for c, t in zip(cards, totals,
                                                                                                        strict=True)]}


def test_the_fields_a_result_records_are_what_the_page_shows() -> None:
    """differences, diagnosis and coverage, as the report records them, are what the page shows: the listed
    differences and no other, the diagnosis with its clause and its confidence in words."""
    expected = _observation([["5", "7"], ["9"]], [0, 0])
    found = _observation([["5"], ["9"]], [0, 3])
    failure = {"case_id": "round:flip7/seed=0/game=0/players=2", "level": "round", "outcome": "fail", "step": 4,
               "where": "$.steps[4].observation.players[0].cards[1]", "expected": "7", "found": "(absent)",
               "clause": "F7-HIT-STAY", "expected_observation": expected, "found_observation": found,
               "differences": [{"where": "$.steps[4].observation.players[0].cards[1]", "expected": "7",
                                "found": "(absent)"}],
               "diagnosis": {"reading": "forgets_dealt_card", "text": "the engine forgets the card it dealt",
                             "clause": "F7-HIT-STAY", "confidence": "H"}}
    document = {"engine": "x", "counts": {"round": {"pass": 0, "fail": 1, "skipped": 0, "errored": 0}},
                "results": [failure, {**failure, "case_id": "round:flip7/seed=0/game=1/players=2"}],
                "coverage": {"clauses": {"F7-HIT-STAY": 3, "F7-BUST": 0}, "decisions": 40}}
    root = parse(render_report(report_from(document)))
    causes = next(ids(root)["causes"].iter("table"))
    rows = [[text(c) for c in r] for r in causes.find("tbody") or []]
    assert rows[0][:4] == ["the engine forgets the card it dealt", "F7-HIT-STAY", "the cause is the diagnosis (high)",
                           "2"]
    assert len(rows) == 1, "one cause for both"
    article = having(root, "article", "failure")[0]
    assert "Diagnosis: the engine forgets the card it dealt (clause F7-HIT-STAY, confidence high)" in text(article)
    differences = next(t for t in article.iter("table") if "diffs" in classes(t))
    # the report's one difference, not the two the observations show (the total differs too)
    assert [text(r[1]) for r in differences.find("tbody") or []] == ["players[0].cards[1]"]
    assert "as the report lists them" in text(differences.find("caption"))
    engine = next(f for f in article.iter("figure") if "eng" in classes(f))
    missing = [c for c in having(player_rows(engine)[0], "span", "card") if "missing" in classes(c)]
    assert len(missing) == 1 and "≠" in text(missing[0]), "where only the reference has a card, a marked gap"
    given = {text(t.find("caption")): {text(r[0]): text(r[1]) for r in t.iter("tr")}
             for t in ids(root)["coverage"].iter("table") if "kv" in classes(t)}
    assert given["clauses"] == {"F7-HIT-STAY": "3", "F7-BUST": "0"} and given["coverage"] == {"decisions": "40"}
    assert not having(article, "details", "game"), "no trace given: no game window"


def test_a_report_whose_results_are_not_results_is_refused_with_where(flip7_spec: Run, tmp_path: Path) -> None:
    """show --html of a report reads each result as the run recorded it: one that is not a result (a
    difference without its path) is named, and no page is written."""
    failure = {"case_id": "round:flip7/seed=0/game=0/players=2", "level": "round", "outcome": "fail",
               "differences": [{"path": "players[0].total", "expected": 1, "found": 2}]}
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"engine": "x", "results": [{**failure, "differences": []}, failure]}),
                      encoding="utf-8")
    code, _, err = flip7_spec("show", str(report), "--html", str(tmp_path / "out.html"))
    assert code == 2 and "results[1]" in err and "'where'" in err, err
    assert not (tmp_path / "out.html").exists()


def test_failures_come_before_the_folded_coverage_and_a_cause_without_a_reading_says_so() -> None:
    failure = {"case_id": "game:flip7/seed=0/game=0/players=3", "level": "game", "outcome": "fail", "step": 9,
               "where": "$.steps[9].observation.players[2].total", "expected": 40, "found": 25, "clause": "F7-SCORE"}
    document = {"engine": "x", "results": [failure], "coverage": {"clauses": {"F7-SCORE": 1}}}
    root = parse(render_report(report_from(document)))
    sections = [s.get("id") for s in root.iter("section") if s.get("id") in ("failures", "errors", "coverage")]
    assert sections == ["failures", "errors", "coverage"]
    contents = [a.get("href") for a in root.find(".//nav[@class='contents']").iter("a")]  # type: ignore[union-attr]
    assert contents.index("#failures") < contents.index("#coverage")
    folded = [d for d in ids(root)["coverage"].iter("details")]
    assert len(folded) == 1 and folded[0].get("open") is None and any(t.tag.endswith("table") for t in folded[0])
    causes = next(ids(root)["causes"].iter("table"))
    assert [text(r[2]) for r in causes.find("tbody") or []] == ["no known reading"]


def test_an_old_report_degrades() -> None:
    """A report without observations still shows each failure's path and values, and says what is missing."""
    document = {"engine": "old", "results": [
        {"case_id": "game:flip7/seed=0/game=0/players=3", "level": "game", "outcome": "fail", "step": 9,
         "where": "$.steps[9].observation.players[2].total", "expected": 40, "found": 25, "clause": "F7-SCORE"},
        {"case_id": "scoring:flip7:official-x2", "level": "scoring", "outcome": "fail", "where": "$.score",
         "expected": 72, "found": 46, "clause": "F7-MOD-X2", "hand": ["3", "11", "5", "7", "10", "x2"]},
        {"case_id": "round:flip7/seed=0/game=1/players=3", "level": "round", "outcome": "errored",
         "message": "timeout", "stderr": "line 1\nline 2"},
        {"case_id": "round:vengeance/seed=0/game=2/players=3", "level": "round", "outcome": "skipped",
         "message": "the engine does not implement the vengeance ruleset"}]}
    root = parse(render_report(report_from(document)))
    assert summary_counts(root)["total"] == [0, 2, 1, 1, 4], "counts rebuilt from the results"
    game, scoring = having(root, "article", "failure")
    assert "This report does not hold the engine's observation" in text(game)
    assert not [f for f in game.iter("figure") if "eng" in classes(f) and f.find(".//table") is not None]
    # the official x2 example: 3 11 5 7 10 x2 scores 72 (RULES.md A.1#17)
    hand = [card_text(c) for c in having(scoring, "span", "card")]
    assert hand == ["3", "11", "5", "7", "10", "x2"]
    assert "x2" not in [card_text(c) for c in having(scoring, "span", "number")]
    assert "72" in text(scoring) and "46" in text(scoring)
    error = text(ids(root)["errors"])
    assert "timeout" in error and "line 2" in error


def test_the_page_is_bounded() -> None:
    """Past the limits failures are rows only, and past the list's limit a count."""
    failure = {"level": "game", "outcome": "fail", "step": 0, "where": "$.steps[0].observation.round",
               "expected": 1, "found": 2, "clause": "F7-DEAL"}
    results = [{**failure, "case_id": f"game:flip7/seed=0/game={i}/players=3",
                "clause": "F7-DEAL" if i % 2 else "F7-SCORE"} for i in range(30)]
    limits = Limits(full_failures=3, per_cause=2, listed_failures=10)
    root = parse(render_report(report_from({"engine": "x", "results": results}), limits))
    articles = having(root, "article", "failure")
    # two causes, two each, but three in all: games 0 and 1 (one of each), then game 2 (F7-SCORE's second)
    assert [text(a.find("h3")).split()[2] for a in articles] == [f"game:flip7/seed=0/game={i}/players=3"
                                                                 for i in range(3)]
    listed = next(t for t in ids(root)["failures"].iter("table") if "list" in classes(t))
    assert len(list(listed.find("tbody") or [])) == 10
    assert "… and 20 more failures" in text(ids(root)["failures"])


def test_parse_path() -> None:
    assert parse_path("$.steps[41].observation.players[2].cards[3]") == ("steps", 41, "observation", "players", 2,
                                                                         "cards", 3)
    assert parse_path(["players", 1, "total"]) == ("players", 1, "total")


# ---- exactly the fields the comparison finds: 1, 1.0 and true differ -------------------------------------


def _floats(observation: Any) -> Any:
    return {**observation, "players": [{**p, "total": float(p["total"])} for p in observation["players"]]}


class FloatTotals(ReferenceAdapter):
    """The reference, with each player's total sent as a float (``0.0`` for ``0``): the rules played right,
    only one JSON type wrong."""

    def start(self, *args: Any, **kwargs: Any) -> Any:
        return _floats(super().start(*args, **kwargs))

    def decide(self, *args: Any, **kwargs: Any) -> Any:
        return _floats(super().decide(*args, **kwargs))


def marks(element: ET.Element) -> list[str]:
    return [text(m) for m in element.iter("mark")]


def test_a_float_for_an_integer_is_marked_in_every_seat(flip7_spec: Run, tmp_path: Path) -> None:
    """Every total is 0 at the start and the engine sends 0.0: conform fails the step, and the page marks
    each seat's total on both sides and lists each, and marks nothing else."""
    html, report = tmp_path / "report.html", tmp_path / "report.json"
    code, out, err = flip7_spec("conform", "--python", "tests.test_html_report:FloatTotals", "--games", "1", *QUICK,
                                "-r", "flip7", "--json", str(report), "--html", str(html), "-q")
    assert code == 1, out + err
    failed = [r for r in json.loads(report.read_text(encoding="utf-8"))["results"] if r["outcome"] == "fail"]
    assert failed and all(r["where"] == "$.start.observation.players[0].total" for r in failed)
    root = page(html)
    articles = having(root, "article", "failure")
    assert len(articles) == len(failed)
    for result, article in zip(failed, articles, strict=True):
        assert result["case_id"] in text(article.find("h3"))
        players = int(re.search(r"players=(\d+)", result["case_id"]).group(1))  # type: ignore[union-attr]
        panel = next(s for s in article.iter("section") if "panel" in classes(s))
        reference, engine = (next(f for f in panel.iter("figure") if side in classes(f)) for side in ("ref", "eng"))
        assert [marks(row) for row in player_rows(reference)] == [["0≠"]] * players
        assert [marks(row) for row in player_rows(engine)] == [["0.0≠"]] * players
        assert len(marks(reference)) == len(marks(engine)) == players, "only the totals are marked"
        listed = next(t for t in panel.iter("table") if "diffs" in classes(t))
        rows = [[text(c) for c in r] for r in listed.find("tbody") or []]
        assert [r[1:] for r in rows] == [[f"players[{seat}].total", "0", "0.0 ≠"] for seat in range(players)]
        assert "as the report lists them" in text(listed.find("caption"))
        notes = [text(n) for n in panel.iter("p") if "note" in classes(n)]
        assert f"{players} of the differing fields differ only in JSON type (0 against 0.0)" in " ".join(notes)


def test_a_bool_or_float_the_report_lists_is_marked_and_nothing_is_compared_again() -> None:
    """The page marks the fields the result lists, as the run's exact-JSON comparison found them (``true`` for
    ``1`` and ``1.0`` for ``1`` differ; the legal choices count only at the legal level). A result that lists
    none shows its first difference alone: the page does not compare the two observations itself."""
    expected = _observation([["5"], ["9"]], [1, 0])
    found = _observation([["5"], ["9"]], [1, 0])
    found["round"] = True
    found["players"][0]["total"] = 1.0
    found["pending"]["options"] = ["stay"]

    def at(path: str, expected: Any, found: Any) -> dict[str, Any]:
        return {"where": f"$.steps[2].observation.{path}", "expected": expected, "found": found}

    listed = [at("round", 1, True), at("players[0].total", 1, 1.0)]
    failure = {"case_id": "round:flip7/seed=0/game=0/players=2", "level": "round", "outcome": "fail", "step": 2,
               "where": "$.steps[2].observation.round", "expected": 1, "found": True, "clause": "F7-ROUND-END",
               "expected_observation": expected, "found_observation": found, "differences": listed}
    legal = {**failure, "case_id": "round:flip7/seed=0/game=1/players=2", "level": "legal",
             "differences": [*listed, at("pending.options[0]", "hit", "stay"), at("pending.options[1]", "stay", None)]}
    unlisted = {**failure, "case_id": "round:flip7/seed=0/game=2/players=2"}
    del unlisted["differences"]
    root = parse(render_report(report_from({"engine": "x", "results": [failure, legal, unlisted]})))
    article, at_legal, first_only = having(root, "article", "failure")
    panel = next(s for s in article.iter("section") if "panel" in classes(s))
    reference, engine = (next(f for f in panel.iter("figure") if side in classes(f)) for side in ("ref", "eng"))
    assert marks(reference) == ["1≠", "1≠"] and marks(engine) == ["true≠", "1.0≠"]
    assert marks(player_rows(engine)[0]) == ["1.0≠"] and not marks(player_rows(engine)[1])
    rows = next(t for t in panel.iter("table") if "diffs" in classes(t))
    assert [text(r[1]) for r in rows.find("tbody") or []] == ["round", "players[0].total"]
    assert "as the report lists them" in text(rows.find("caption"))
    assert "2 of the differing fields differ only in JSON type (1 against true)" in text(panel)
    # at the legal level the options are listed too: the pending decision is marked and listed
    rows = next(t for t in at_legal.iter("table") if "diffs" in classes(t))
    assert [text(r[1]) for r in rows.find("tbody") or []] == ["round", "players[0].total", "pending.options[0]",
                                                             "pending.options[1]"]
    engine = next(f for f in at_legal.iter("figure") if "eng" in classes(f))
    pending = next(p for p in engine.iter("p") if "pending" in classes(p))
    assert marks(pending), "the differing options are marked"
    # no list recorded: the first difference, where the result says, and no other mark
    rows = next(t for t in first_only.iter("table") if "diffs" in classes(t))
    assert [text(r[1]) for r in rows.find("tbody") or []] == ["round"]
    assert "the first difference only" in text(rows.find("caption"))
    engine = next(f for f in first_only.iter("figure") if "eng" in classes(f))
    assert marks(engine) == ["true≠"]
