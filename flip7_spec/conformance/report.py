"""Conformance reports: the per-level summary for people, JSON, and JUnit XML for CI systems."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from flip7_spec.conformance import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED
from flip7_spec.conformance.cases import PARTS, part_of
from flip7_spec.judge.describe import describe
from flip7_spec.protocol import LEVELS, TRACE_LEVELS, Level
from flip7_spec.results import CaseResult


def counts_by_level(results: Sequence[CaseResult]) -> dict[str, dict[str, int]]:
    """For each level, how many results had each outcome."""
    table: dict[str, dict[str, int]] = {level: dict.fromkeys(OUTCOMES, 0) for level in LEVELS}
    for result in results:
        table.setdefault(result.level, dict.fromkeys(OUTCOMES, 0))[result.outcome] += 1
    return table


def summary_lines(results: Sequence[CaseResult], engine: str, seconds: float, decisions: int,
                  handshake: float = 0.0) -> list[str]:
    """The closing table: one line per level, then a total line and where the time went (``handshake``:
    the seconds the engine took to start and answer ``hello``)."""
    table = counts_by_level(results)
    lines = [f"conformance of {engine}", f"{'level':<9}{'pass':>7}{'fail':>7}{'skipped':>9}{'errored':>9}"]
    for level, row in table.items():
        lines.append(f"{level:<9}{row[PASS]:>7}{row[FAIL]:>7}{row[SKIPPED]:>9}{row[ERRORED]:>9}")
    totals = {outcome: sum(row[outcome] for row in table.values()) for outcome in OUTCOMES}
    lines.append(f"{'total':<9}{totals[PASS]:>7}{totals[FAIL]:>7}{totals[SKIPPED]:>9}{totals[ERRORED]:>9}")
    in_games = sum(r.seconds for r in results if r.level in TRACE_LEVELS)
    on_engine = engine_seconds(results, handshake)
    rate = decisions / in_games if in_games > 0 else 0.0
    share = f" ({on_engine / seconds:.0%})" if seconds > 0 else ""
    lines.append(f"{decisions} decisions in {seconds:.2f} s, {on_engine:.2f} s of it on the engine{share}: "
                 f"{in_games:.2f} s replaying games ({rate:,.0f} decisions/s); the rest builds the corpus")
    return lines


def engine_seconds(results: Sequence[CaseResult], handshake: float = 0.0) -> float:
    """The seconds spent running cases on the engine (a case and its legal check counted once), plus the
    handshake."""
    return handshake + sum(r.seconds for r in results if r.level != Level.LEGAL)


def corpus_lines(results: Sequence[CaseResult], fixtures_from: str | None) -> list[str]:
    """What the corpus held: cases by part (scoring, saved traces, fixtures, generated games) and how many of
    each part ran (were not skipped). ``fixtures_from`` says where the fixtures were read from."""
    cases: dict[str, set[str]] = {part: set() for part in PARTS}
    ran: dict[str, set[str]] = {part: set() for part in PARTS}
    for result in results:
        if result.level == Level.LEGAL:
            continue
        part = part_of(result.case_id)
        cases[part].add(result.case_id)
        if result.outcome != SKIPPED:
            ran[part].add(result.case_id)
    names = {"scoring": "scoring", "trace": "saved trace", "fixture": "fixture", "generated": "generated"}
    shown = []
    for part in PARTS:
        if part == "trace" and not cases[part]:
            continue
        where = f" from {fixtures_from}" if part == "fixture" and fixtures_from else ""
        shown.append(f"{len(cases[part])} {names[part]}{where} ({len(ran[part])} ran)")
    return ["corpus: " + ", ".join(shown)]


def empty_part_warnings(results: Sequence[CaseResult], asked: Sequence[str]) -> list[str]:
    """A warning for each part of the corpus that was asked for (``asked``, names of :data:`PARTS`) but has
    no case, or whose every case was skipped: the rules only that part checks went unchecked."""
    seen: dict[str, int] = dict.fromkeys(PARTS, 0)
    ran: dict[str, int] = dict.fromkeys(PARTS, 0)
    for result in results:
        if result.level == Level.LEGAL:
            continue
        part = part_of(result.case_id)
        seen[part] += 1
        ran[part] += result.outcome != SKIPPED
    names = {"scoring": "scoring cases", "trace": "saved traces", "fixture": "fixture cases",
             "generated": "generated games"}
    out = []
    for part in asked:
        if seen[part] == 0:
            out.append(f"warning: the corpus has no {names[part]}; the rules they check went unchecked")
        elif ran[part] == 0:
            out.append(f"warning: every one of the {seen[part]} {names[part]} was skipped; the rules they check "
                       f"went unchecked")
    return out


def report_document(results: Sequence[CaseResult], meta: dict[str, Any]) -> dict[str, Any]:
    """The full report: run metadata, counts per level, every result (what the JSON and HTML reports hold)."""
    return {**meta, "counts": counts_by_level(results), "results": [r.to_json() for r in results]}


def json_report(results: Sequence[CaseResult], meta: dict[str, Any]) -> str:
    """The full report as JSON text: run metadata, counts per level, every result. Strict JSON: a value
    JSON cannot carry (NaN, an infinity) is written as its text, never as a bare ``NaN``."""
    document = report_document(results, meta)
    return json.dumps(strict_json(document), indent=1, sort_keys=True, ensure_ascii=False, default=str,
                      allow_nan=False) + "\n"


def strict_json(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by its text (``"nan"``, ``"inf"``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: strict_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [strict_json(item) for item in value]
    return value


# XML 1.0 allows tab, line feed, carriage return and everything from U+0020 but surrogates, U+FFFE, U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` that XML 1.0 can hold: each character it cannot (a control character, a lone surrogate)
    written as a visible escape such as ``\\x07``."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


def junit_report(results: Sequence[CaseResult], engine: str) -> str:
    """A JUnit XML report: one test suite per level, one test case per result. Well-formed whatever the
    messages hold (see :func:`xml_text`)."""
    root = ET.Element("testsuites", name=xml_text(f"flip7-spec conformance of {engine}"))
    for level, row in counts_by_level(results).items():
        suite = ET.SubElement(root, "testsuite", name=xml_text(level), tests=str(sum(row.values())),
                              failures=str(row[FAIL]), errors=str(row[ERRORED]), skipped=str(row[SKIPPED]))
        for result in (r for r in results if r.level == level):
            case = ET.SubElement(suite, "testcase", classname=xml_text(f"flip7.{level}"),
                                 name=xml_text(result.case_id), time=f"{result.seconds:.4f}")
            text = xml_text("\n".join(describe(result)))
            if result.outcome == FAIL:
                ET.SubElement(case, "failure", message=xml_text(failure_message(result))).text = text
            elif result.outcome == ERRORED:
                ET.SubElement(case, "error", message=xml_text(result.message[:200])).text = text
            elif result.outcome == SKIPPED:
                ET.SubElement(case, "skipped", message=xml_text(result.message[:200]))
    return "<?xml version='1.0' encoding='utf-8'?>\n" + ET.tostring(root, encoding="unicode") + "\n"


def failure_message(result: CaseResult) -> str:
    """One line for a failure: its clause, where, and its causes (or that the clause is a guess)."""
    readings = [c.text for c in result.readings() if c.text]
    why = "; ".join(readings) if readings else "no known reading reproduces the engine (the clause is a guess)"
    return f"clause {result.clause}: {result.where}: {why}"
