"""Conformance reports: the per-level summary for people, JSON, and JUnit XML for CI systems."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flip7_spec.conformance import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED
from flip7_spec.conformance.runner import CaseResult
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


def report_document(results: Sequence[CaseResult], meta: dict[str, Any]) -> dict[str, Any]:
    """The full report: run metadata, counts per level, every result (what the JSON and HTML reports hold)."""
    return {**meta, "counts": counts_by_level(results), "results": [r.to_json() for r in results]}


def write_json(path: Path, results: Sequence[CaseResult], meta: dict[str, Any]) -> None:
    """The full report as JSON: run metadata, counts per level, every result."""
    document = report_document(results, meta)
    temporary = path.with_name(path.name + ".partial")
    temporary.write_text(json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False, default=str) + "\n",
                         encoding="utf-8")
    temporary.replace(path)


def write_junit(path: Path, results: Sequence[CaseResult], engine: str) -> None:
    """A JUnit XML report: one test suite per level, one test case per result."""
    root = ET.Element("testsuites", name=f"flip7-spec conformance of {engine}")
    for level, row in counts_by_level(results).items():
        suite = ET.SubElement(root, "testsuite", name=level, tests=str(sum(row.values())),
                              failures=str(row[FAIL]), errors=str(row[ERRORED]), skipped=str(row[SKIPPED]))
        for result in (r for r in results if r.level == level):
            case = ET.SubElement(suite, "testcase", classname=f"flip7.{level}", name=result.case_id,
                                 time=f"{result.seconds:.4f}")
            text = "\n".join(describe(result))
            if result.outcome == FAIL:
                ET.SubElement(case, "failure", message=f"clause {result.clause}: {result.where}").text = text
            elif result.outcome == ERRORED:
                ET.SubElement(case, "error", message=result.message[:200]).text = text
            elif result.outcome == SKIPPED:
                ET.SubElement(case, "skipped", message=result.message[:200])
    temporary = path.with_name(path.name + ".partial")
    ET.ElementTree(root).write(temporary, encoding="utf-8", xml_declaration=True)
    temporary.replace(path)
