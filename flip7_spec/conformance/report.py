"""Conformance reports: the per-level summary for people, JSON, and JUnit XML for CI systems."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flip7_spec.conformance import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED
from flip7_spec.conformance.runner import CaseResult
from flip7_spec.outputs import write_file
from flip7_spec.protocol import LEVELS


def counts_by_level(results: Sequence[CaseResult]) -> dict[str, dict[str, int]]:
    """For each level, how many results had each outcome."""
    table = {level: dict.fromkeys(OUTCOMES, 0) for level in LEVELS}
    for result in results:
        table.setdefault(result.level, dict.fromkeys(OUTCOMES, 0))[result.outcome] += 1
    return table


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 120 else text[:117] + "..."


def describe(result: CaseResult) -> list[str]:
    """The lines that explain a failed, errored or skipped result."""
    if result.outcome == FAIL:
        at = "" if result.step is None else f" at step {result.step}"
        decision = "" if result.decision is None else f" after {_short(result.decision)}"
        lines = [f"FAIL {result.case_id} [{result.level}]{at}{decision}",
                 f"     {result.where}: expected {_short(result.expected)}, found {_short(result.found)}"
                 f"  [clause {result.clause}]"]
        if result.label:
            lines.append(f"     catches: {result.label}")
        if result.shrunk:
            lines.append(f"     minimal failing trace: {result.shrunk}")
        return lines
    if result.outcome == ERRORED:
        lines = [f"ERROR {result.case_id} [{result.level}]: {result.message}"]
        if result.raw:
            lines.append(f"     raw reply: {result.raw[:300]}")
        if result.stderr:
            tail = result.stderr.strip().splitlines()[-5:]
            lines.extend(f"     stderr: {line}" for line in tail)
        return lines
    return [f"SKIP {result.case_id} [{result.level}]: {result.message}"]


def summary_lines(results: Sequence[CaseResult], engine: str, seconds: float, decisions: int) -> list[str]:
    """The closing table: one line per level, then a total line and the throughput."""
    table = counts_by_level(results)
    lines = [f"conformance of {engine}", f"{'level':<9}{'pass':>7}{'fail':>7}{'skipped':>9}{'errored':>9}"]
    for level, row in table.items():
        lines.append(f"{level:<9}{row[PASS]:>7}{row[FAIL]:>7}{row[SKIPPED]:>9}{row[ERRORED]:>9}")
    totals = {outcome: sum(row[outcome] for row in table.values()) for outcome in OUTCOMES}
    lines.append(f"{'total':<9}{totals[PASS]:>7}{totals[FAIL]:>7}{totals[SKIPPED]:>9}{totals[ERRORED]:>9}")
    in_cases = sum(r.seconds for r in results if r.level in ("round", "game"))
    rate = decisions / in_cases if in_cases > 0 else 0.0
    lines.append(f"{decisions} decisions in {seconds:.2f} s, {in_cases:.2f} s of it replaying games on the engine "
                 f"({rate:,.0f} decisions/s; the rest builds the corpus)")
    return lines


def json_report(results: Sequence[CaseResult], meta: dict[str, Any]) -> str:
    """The full report as JSON text: run metadata, counts per level, every result. Strict JSON: a value
    JSON cannot carry (NaN, an infinity) is written as its text, never as a bare ``NaN``."""
    document = {**meta, "counts": counts_by_level(results), "results": [r.to_json() for r in results]}
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
                ET.SubElement(case, "failure", message=xml_text(f"clause {result.clause}: {result.where}")
                              ).text = text
            elif result.outcome == ERRORED:
                ET.SubElement(case, "error", message=xml_text(result.message[:200])).text = text
            elif result.outcome == SKIPPED:
                ET.SubElement(case, "skipped", message=xml_text(result.message[:200]))
    return "<?xml version='1.0' encoding='utf-8'?>\n" + ET.tostring(root, encoding="unicode") + "\n"


def write_json(path: Path, results: Sequence[CaseResult], meta: dict[str, Any]) -> None:
    """Write :func:`json_report` to ``path``, whole or not at all."""
    write_file(path, json_report(results, meta), "JSON report")


def write_junit(path: Path, results: Sequence[CaseResult], engine: str) -> None:
    """Write :func:`junit_report` to ``path``, whole or not at all."""
    write_file(path, junit_report(results, engine), "JUnit XML report")
