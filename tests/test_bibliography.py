"""The rules' sources ship with the package: every clause's citation resolves to an entry of the bibliography,
`flip7-spec rules --sources` prints it, and docs/rules.md holds the same entries and every location a clause
names (section A.1, item 14, and so on)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import flip7_spec  # noqa: F401  (registers the games, and with them their clauses)
from flip7_spec.bibliography import cited, sources, unresolved
from flip7_spec.clauses import CLAUSES
from flip7_spec.cli import cli

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
BASE_GAME = [f"S{n}" for n in range(1, 10)]
VENGEANCE = [f"V{n}" for n in range(1, 5)]


def test_every_clause_cites_sources_that_resolve() -> None:
    problems = {c.id: problem for c in CLAUSES.values() if (problem := unresolved(c.source)) is not None}
    assert problems == {}
    # the base game rests on S1..S9 and Vengeance on V2..V4 (V1, the rulebook, is read through V3)
    keys = {key for c in CLAUSES.values() for key in cited(c.source)}
    assert set(BASE_GAME) <= keys and {"V2", "V3", "V4"} <= keys


@pytest.mark.parametrize(("text", "keys"), [
    ("S2, S3, S6-C11/C12", ["S2", "S3", "S6"]),
    ("S5 via S6-O04, S9", ["S5", "S6", "S9"]),
    ("community cases 13a, 13b", ["S6"]),
    ("S6-O07, Dized FAQ, S9", ["S6", "S3", "S9"]),
    ("V3; seed 004", ["V3", "seed 004"]),
    ("base-game FAQ (GUESS)", ["S5"]),
])
def test_citations_are_read_as_their_entries(text: str, keys: list[str]) -> None:
    assert cited(text) == keys


@pytest.mark.parametrize(("text", "reason"), [
    ("S10", "S10, which the bibliography does not hold"),
    ("V7, V3", "V7, which the bibliography does not hold"),
    ("a forum thread", "cites no source of the bibliography"),
])
def test_a_citation_that_does_not_resolve_says_why(text: str, reason: str) -> None:
    problem = unresolved(text)
    assert problem is not None and reason in problem
    assert unresolved("sources silent (GUESS)") is None and unresolved("protocol convention") is None


def test_only_sources_read_through_another_are_left_uncited() -> None:
    keys = {key for c in CLAUSES.values() for key in cited(c.source)}
    for entry in sources().values():
        if entry.key not in keys:
            assert entry.read.startswith("not directly"), entry.key


def test_rules_sources_prints_the_bibliography() -> None:
    result = CliRunner().invoke(cli, ["rules", "--sources"])
    assert result.exit_code == 0, result.output
    listed = re.findall(r"^(\S+(?: \d{3})?)  ", result.output, re.MULTILINE)
    assert listed[:13] == [*BASE_GAME, *VENGEANCE]
    assert {"seed 000", "seed 003", "seed 004", "flop7"} <= set(listed)
    s2 = result.output.split("\nS2  ", 1)[1].split("\nS3  ", 1)[0]
    assert "Ruleset Edition 3.1" in s2 and "settles:" in s2 and "cited by:" in s2
    as_json = json.loads(CliRunner().invoke(cli, ["rules", "--sources", "--json"]).output)["sources"]
    citing = {s["key"]: set(s["cited_by"]) for s in as_json}
    # F7-DEAL-RESUME rests on the Dized FAQ alone (RULES A.2#2: the deal resumes after the player first dealt it)
    assert "F7-DEAL-RESUME" in citing["S3"] and "F7-DEAL-RESUME" not in citing["S2"]
    assert all(s["title"] and s["by"] and s["date"] and s["settles"] for s in as_json)


def _sections(text: str) -> dict[str, str]:
    """docs/rules.md by section: ``A.1`` -> its text, ``C`` -> its text, ``DESIGN`` -> its text."""
    out: dict[str, str] = {}
    for match in re.finditer(r"^#{2,3} ([A-Z][A-Z]*(?:\.\d)?|0)\.? (.*?)$\n(.*?)(?=^#{2,3} |\Z)", text,
                             re.MULTILINE | re.DOTALL):
        out[match.group(1)] = match.group(3)
    return out


def _items(section: str) -> set[int]:
    return {int(n) for n in re.findall(r"^(\d+)\. ", section, re.MULTILINE)}


def _resolves(location: str, sections: dict[str, str]) -> bool:
    """Whether a clause's location (``A.1#14``, ``C#1``, ``C.3``, ``D``, ``B.1 special Number cards``) names a
    section and item of docs/rules.md."""
    item = re.fullmatch(r"([A-Z]\.\d)#(\d+)", location) or re.fullmatch(r"([A-Z])#(\d+)", location)
    if item is not None:
        return int(item.group(2)) in _items(sections.get(item.group(1), ""))
    in_c = re.fullmatch(r"C\.(\d)", location)
    if in_c is not None:
        return int(in_c.group(1)) in _items(sections.get("C", ""))
    heading = re.fullmatch(r"([A-Z]\.\d) (.+)", location)
    if heading is not None:
        return heading.group(2).lower() in sections.get(heading.group(1), "").lower()
    return location in sections


def test_the_rules_document_holds_every_location_and_source() -> None:
    text = RULES.read_text(encoding="utf-8")
    sections = _sections(text)
    assert {"0", "A.1", "A.2", "A.3", "B.1", "B.2", "B.3", "C", "D", "E", "DESIGN"} <= set(sections)
    assert _items(sections["A.1"]) == set(range(1, 21)) and _items(sections["B.2"]) == set(range(1, 16))
    missing = {c.id: c.where for c in CLAUSES.values()
               if not all(_resolves(part.strip(), sections) for part in c.where.split(","))}
    assert missing == {}
    for entry in sources().values():
        assert f"**{entry.key}. {entry.title}.**" in sections["0"], entry.key
