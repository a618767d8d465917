"""The JSON report as a record, both ways: what ``conform --json`` writes validates against the shipped schema
(flip7_spec/schemas/report-v1.json), and each result reads back (``CaseResult.from_json``) into a record that
writes the same JSON; a campaign journal of an earlier release (extra fields listed under ``extra``) reads
the same."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from flip7_spec.conformance.campaign import result_from_json
from flip7_spec.conformance.cases import generated_cases
from flip7_spec.conformance.report import report_document
from flip7_spec.judge.runner import run_case
from flip7_spec.results import CaseResult
from flip7_spec.rulesets import preset
from flip7_spec.trace.schema import load_schema

REPO = Path(__file__).resolve().parent.parent


@cache
def report() -> dict[str, Any]:
    """The report of a small run against an engine with a Dealer for life (failures diagnosed and followed,
    passes) and one that raises at its third decision (errors with the last agreed observation)."""
    from tests.mutants.dealer_fixed import Engine as DealerFixed
    from tests.test_errored import RaisesAtDecision

    results: list[CaseResult] = []
    cases = list(generated_cases([preset("flip7")], [3], 3, "record"))
    for make in (DealerFixed, RaisesAtDecision):
        for case in cases:
            engine = make()  # a fresh one each case: the raising engine raises once in its life
            results.extend(run_case(engine, case, engine.hello()))
    return json.loads(json.dumps(report_document(results, {"engine": "test", "seed": "record"})))


def test_the_json_report_validates_against_its_shipped_schema() -> None:
    schema = load_schema("report-v1.json")
    Draft202012Validator.check_schema(schema)
    document = report()
    outcomes = {r["outcome"] for r in document["results"]}
    assert {"pass", "fail", "errored"} <= outcomes, outcomes
    errors = [f"{e.json_path}: {e.message}" for e in Draft202012Validator(schema).iter_errors(document)]
    assert errors == []


def test_the_schema_refuses_a_result_it_does_not_describe() -> None:
    schema = load_schema("report-v1.json")
    result = dict(report()["results"][0])
    result["outcome"] = "passed"
    assert list(Draft202012Validator(schema).iter_errors({"counts": {}, "results": [result]}))


def test_every_result_reads_back_into_a_record_that_writes_the_same_json() -> None:
    for written in report()["results"]:
        record = CaseResult.from_json(written)
        assert record.to_json() == written
    failed = [CaseResult.from_json(r) for r in report()["results"] if r["outcome"] == "fail"]
    assert failed and all(r.differences and r.readings() and r.blame for r in failed)
    errored = [CaseResult.from_json(r) for r in report()["results"] if r["outcome"] == "errored"]
    assert errored and any(r.last_agreed is not None for r in errored)


def test_a_journal_line_of_an_earlier_release_reads_the_same() -> None:
    """Earlier campaign journals wrote each result as the report does, plus ``extra``: the names of the fields
    that rode in the result's extra dictionary."""
    written = next(r for r in report()["results"] if r["outcome"] == "fail")
    typed = [k for k in ("differences", "expected_observation", "found_observation", "diagnosis", "causes",
                         "blame", "base", "deviations") if k in written]
    older = {**written, "extra": typed}
    assert result_from_json(older).to_json() == written


@pytest.mark.parametrize("saving", [False, True], ids=["alone", "with-saved-failures"])
def test_the_page_drawn_from_a_saved_json_report_is_the_page_the_run_wrote(tmp_path: Path, saving: bool) -> None:
    """The JSON report carries the games of the failures its page draws in full, so ``show --html`` on it
    alone draws, byte for byte, the page ``conform --html`` wrote; with ``--save-failures`` too, both drawing
    each failure as the run found it (the saved, shrunk traces are not swapped in)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    command = [sys.executable, "-m", "flip7_spec", "conform", "--python", "tests.mutants.dealer_fixed:Engine", "-g",
               "2", "--no-progress", "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "run.html"),
               *(["--save-failures", str(tmp_path / "saved")] if saving else [])]
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr  # the engine fails: a page with failures drawn in full
    document = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert document["traces"], "the report carries the games its page draws"
    if saving:
        assert any(r.get("shrunk") for r in document["results"]), "a failure was saved shrunk"
    shown = subprocess.run([sys.executable, "-m", "flip7_spec", "show", str(tmp_path / "r.json"), "--html",
                            str(tmp_path / "later.html")], cwd=tmp_path, env=env, capture_output=True, text=True,
                           timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert (tmp_path / "later.html").read_bytes() == (tmp_path / "run.html").read_bytes()
