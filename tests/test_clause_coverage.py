"""Every rule clause is implemented in one cited place and exercised by a fixture or a test."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flip7_spec.clauses import CLAUSES

ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r"\[([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\]")
MARKER = re.compile(r"clause\(([^)]*)\)")
QUOTED = re.compile(r"[\"']([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)[\"']")


def cited_in_code() -> dict[str, set[str]]:
    """Clause id -> the spec modules that cite it as ``[ID]``."""
    where: dict[str, set[str]] = {}
    for path in (ROOT / "flip7_spec").rglob("*.py"):
        if path.name == "clauses.py" or path.parent.name in ("cli", "conformance", "symbolic"):
            continue
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            where.setdefault(match.group(1), set()).add(str(path.relative_to(ROOT)))
    return where


def exercised() -> set[str]:
    """Clause ids named by a fixture header or a ``clause(...)`` test marker."""
    found: set[str] = set()
    for path in (ROOT / "fixtures").rglob("*.json"):
        header = json.loads(path.read_text(encoding="utf-8")).get("header", {})
        found.update(header.get("clauses", []))
    for folder in ("tests", "properties"):
        for path in (ROOT / folder).rglob("*.py"):
            for marker in MARKER.finditer(path.read_text(encoding="utf-8")):
                found.update(QUOTED.findall(marker.group(0)))
    return found


def test_every_clause_is_cited_in_the_engine() -> None:
    cited = cited_in_code()
    missing = sorted(set(CLAUSES) - set(cited))
    assert not missing, f"clauses with no [ID] citation in the spec code: {missing}"


def test_every_citation_names_a_real_clause() -> None:
    unknown = sorted(set(cited_in_code()) - set(CLAUSES))
    assert not unknown, f"citations of clause ids that are not in the registry: {unknown}"


def test_every_clause_is_exercised_by_a_fixture_or_a_test() -> None:
    missing = sorted(set(CLAUSES) - exercised())
    assert not missing, f"clauses that no fixture or test exercises: {missing}"
