"""Every string that reaches an HTML page (docs/html-report.md) is text, never markup, and its control characters
are written as visible escapes: a report's engine name, case ids, messages, diagnoses, causes, cards, stderr and
the values it compares, and a trace's description, player names and file name. Checked on the pages as a browser
parses them (html5lib), without a browser.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from flip7_spec.htmlreport import render_report, render_trace, report_from
from flip7_spec.rulesets import preset
from flip7_spec.terminal import printable_text
from flip7_spec.trace.record import record_choices
from tests.htmltree import parse

# What a page must not hold in its text or attributes: the C0 and C1 controls but tab and line feed, the line
# and paragraph separators, the bidirectional overrides and isolates (flip7_spec.terminal).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
INJECTED = '<b class="injected">x</b><script>alert(1)</script>\x1b[31m\x07\u202e&amp;"\''

# text from outside: markup characters, quotes, controls, bidirectional overrides, ordinary letters
PIECES = [*"<>&\"'/=!- abx", "\x1b", "\x07", "\x00", "\x85", "\u202e", "\u2028", "\n", "\t", "<b>", "<script>",
          "</p>", "&lt;", "<!--"]
hostile = st.lists(st.sampled_from(PIECES), min_size=1, max_size=12).map("".join)


def report_document(value: str) -> dict[str, Any]:
    """A report in which every string field a failure, an error or a skip may carry is ``value``."""
    failure = {"case_id": f"game:flip7/{value}", "level": "game", "outcome": "fail", "step": 2,
               "where": "$.steps[2].observation.players[0].cards[0]", "expected": value, "found": value + "!",
               "clause": value, "message": value, "label": value, "cause": value,
               "diagnosis": {"text": value, "clause": value, "confidence": value},
               "differences": [{"where": "$.steps[2].observation.players[0].cards[0]", "expected": value,
                                "found": value + "!"}]}
    scoring = {"case_id": f"scoring:{value}", "level": "scoring", "outcome": "fail", "where": "$.score",
               "expected": 3, "found": value, "clause": "F7-SCORE", "hand": [value, "3"], "message": value}
    errored = {"case_id": f"round:flip7/{value}", "level": "round", "outcome": "errored", "message": value,
               "stderr": value, "raw": value, "decision": value}
    skipped = {"case_id": f"round:vengeance/{value}", "level": "round", "outcome": "skipped", "message": value}
    return {"engine": value, "hello": {"name": value, "version": value}, "seed": value,
            "results": [failure, scoring, errored, skipped], "coverage": {"clauses": {value: 1}}}


def trace_with(value: str) -> dict[str, Any]:
    """A short trace (three players stay on their first card) whose description and player names are ``value``."""
    ruleset = preset("flip7")
    deck = [c.text for c in ruleset.deck_cards(3)]
    trace = record_choices(ruleset, 3, 0, [*sorted(deck, key=lambda t: not t.isdigit())], ["stay"] * 3)
    header = {**trace["header"], "description": value, "names": [value, value + "2", value + "3"]}
    return {**trace, "header": header}


def pages(value: str) -> list[str]:
    """The report page and the trace page, each holding ``value`` between two letters (so that no strip of
    white space empties a field: a page may leave an empty field out)."""
    value = f"a{value}z"
    return [render_report(report_from(report_document(value))), render_trace(trace_with(value), value)]


def strings(root: ET.Element) -> list[str]:
    """Every text node and attribute value of a parsed page."""
    out = []
    for element in root.iter():
        out.extend(s for s in (element.text, element.tail) if s)
        out.extend(element.attrib.values())
    return out


def shape(root: ET.Element) -> Counter[tuple[str, str]]:
    """The page's elements, by tag and class: what a browser builds from its markup."""
    return Counter((str(e.tag), e.get("class") or "") for e in root.iter())


@cache
def plain_shapes() -> list[Counter[tuple[str, str]]]:
    return [shape(parse(html)) for html in pages("plain text")]


@example(INJECTED)
@given(hostile)
@settings(max_examples=12)
def test_text_from_a_report_or_trace_is_never_markup(value: str) -> None:
    """Whatever the strings hold, the pages have the elements they have with plain text in their place."""
    for html, expected in zip(pages(value), plain_shapes(), strict=True):
        root = parse(html)
        assert not [e for e in root.iter() if e.get("class") == "injected"]
        assert shape(root) == expected


@example(INJECTED)
@given(hostile)
@settings(max_examples=12)
def test_control_characters_reach_a_page_as_visible_escapes(value: str) -> None:
    for html in pages(value):
        root = parse(html)
        assert not [s for s in strings(root) if UNSAFE.search(s)], [s for s in strings(root) if UNSAFE.search(s)]
        shown = re.sub(r"\s+", " ", printable_text(f"a{value}z"))
        assert shown in re.sub(r"\s+", " ", "".join(root.itertext())), shown
