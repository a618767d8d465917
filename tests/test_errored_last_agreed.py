"""An errored case keeps the last observation the engine and the reference agreed on before the error
(``last_agreed``), and the HTML pages draw it as a table, the way a failure's tables are drawn.

Expected places and tables are read from the traces: the k-th decision of a game is the k-th step of its trace
that holds a decision, and an engine that plays as the reference shows the trace's own observations.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.conformance import ERRORED
from flip7_spec.conformance.engines import finish
from flip7_spec.htmlreport import render_report, report_from
from flip7_spec.htmlreport.page import render_trace
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import CaseResult, run_case
from flip7_spec.protocol.process import ProcessEngine
from tests.htmltree import card_text, having, parse, text
from tests.test_conform import QUICK, conform, engine, read_json
from tests.test_errored import FAILING, RaisesAtDecision, decision_steps, game_case, only

__all__ = ["game_case"]  # the fixture, shared


def raising_at(decision: int) -> RaisesAtDecision:
    """The in-process engine of tests/test_errored.py, raising at ``decision`` (counted from 1)."""

    class Raises(RaisesAtDecision):
        def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> dict[str, Any]:
            self.decisions += 1
            if self.decisions == decision:
                raise ZeroDivisionError("the engine divided by its patience")
            return super(RaisesAtDecision, self).decide(choice, player, kind)

    return Raises()


def errored(engine_: Any, case: Case) -> CaseResult:
    result = only(run_case(engine_, case, engine_.hello()))
    assert result.outcome == ERRORED
    return result


def test_an_error_keeps_the_observation_after_the_decision_before_it(game_case: Case) -> None:
    assert game_case.trace is not None
    before = decision_steps(game_case.trace)[FAILING - 2]
    result = errored(RaisesAtDecision(), game_case)
    assert result.last_agreed is not None
    assert result.last_agreed.to_json() == {"step": before, "where": f"$.steps[{before}].observation",
                                            "observation": game_case.trace["steps"][before]["observation"]}
    assert result.to_json()["last_agreed"]["step"] == before  # in the JSON report


def test_an_error_at_the_first_decision_keeps_the_start(game_case: Case) -> None:
    assert game_case.trace is not None
    result = errored(raising_at(1), game_case)
    assert result.last_agreed is not None
    assert result.last_agreed.to_json() == {"step": None, "where": "$.start.observation",
                                            "observation": game_case.trace["start"]["observation"]}


def test_an_error_at_the_start_has_nothing_agreed(game_case: Case) -> None:
    engine_ = RaisesAtDecision()
    engine_.at_start = True
    assert errored(engine_, game_case).last_agreed is None


@pytest.mark.parametrize("how", ["errored", "observation"])
def test_a_process_engine_error_keeps_the_last_observation_before_it(game_case: Case, how: str) -> None:
    """Refused, or answered with an observation that breaks the schema: either way the last observation
    compared is the one of the decision before."""
    assert game_case.trace is not None
    before = decision_steps(game_case.trace)[FAILING - 2]
    process = ProcessEngine(engine("error_at_decision", str(FAILING), how))
    try:
        result = errored(process, game_case)
    finally:
        process.close()
    assert result.last_agreed is not None and result.last_agreed.step == before
    assert result.last_agreed.observation == game_case.trace["steps"][before]["observation"]


# ---- drawn ----------------------------------------------------------------------------------------------


def agreed_section(root: ET.Element) -> ET.Element:
    (error,) = having(root, "article", "error")
    (section,) = having(error, "section", "agreed")
    return section


def heading_of(section: ET.Element) -> str:
    (heading,) = (e for e in section.iter() if "panel-h" in (e.get("class") or "").split())
    return text(heading)


def table_rows(section: ET.Element) -> list[tuple[list[str], str]]:
    """Each player's row of the drawn table: the cards' texts and the total."""
    (players,) = having(section, "table", "players")
    rows = []
    for row in players.iter("tr"):
        cells = list(row.iter("td"))
        if cells:
            rows.append(([card_text(c) for c in having(row, "span", "card")], text(cells[-1])))
    return rows


def expected_rows(observation: dict[str, Any]) -> list[tuple[list[str], str]]:
    return [([str(c) for c in p["cards"]], str(p["total"])) for p in observation["players"]]


def test_the_report_draws_the_last_agreeing_table_with_its_decision(game_case: Case) -> None:
    assert game_case.trace is not None
    result = errored(RaisesAtDecision(), game_case)
    steps = decision_steps(game_case.trace)
    before, failing = steps[FAILING - 2], steps[FAILING - 1]
    decision = game_case.trace["steps"][before]["decision"]
    document = {"engine": "x", "results": [result.to_json()]}

    section = agreed_section(parse(render_report(report_from(document, {game_case.id: game_case.trace}))))
    heading = heading_of(section)
    assert heading.startswith(f"The last step where both agreed: step {before}: seat {decision['player']}")
    assert f"at the next request (step {failing}:" in text(section)
    assert table_rows(section) == expected_rows(game_case.trace["steps"][before]["observation"])

    # without the trace (a report read back from JSON alone): the step, and the same table
    section = agreed_section(parse(render_report(report_from(document))))
    assert heading_of(section) == f"The last step where both agreed: step {before}"
    assert table_rows(section) == expected_rows(game_case.trace["steps"][before]["observation"])


def test_a_report_without_last_agreed_draws_the_error_alone() -> None:
    document = {"engine": "x", "results": [{"case_id": "round:flip7/seed=0/game=1/players=3", "level": "round",
                                            "outcome": "errored", "where": "$.start", "message": "no deck"}]}
    (error,) = having(parse(render_report(report_from(document))), "article", "error")
    assert not having(error, "section", "agreed") and "no deck" in text(error)


def test_a_saved_error_page_draws_the_last_agreeing_table(game_case: Case, tmp_path: Path) -> None:
    outcome = finish(RaisesAtDecision(), RaisesAtDecision().hello(), game_case, tmp_path)
    path = only(outcome.results).shrunk
    assert path is not None
    saved = json.loads(Path(path).read_text(encoding="utf-8"))
    before = decision_steps(saved)[-2]  # the saved game is cut just after the failing decision
    assert saved["header"]["provenance"]["failure"]["last_agreed"]["step"] == before
    section = agreed_section(parse(render_trace(saved, "saved.json")))
    assert f"step {before}:" in heading_of(section)
    assert table_rows(section) == expected_rows(saved["steps"][before]["observation"])


def test_conform_html_draws_an_errored_case_with_its_last_agreeing_table(tmp_path: Path) -> None:
    report_path, html_path = tmp_path / "report.json", tmp_path / "report.html"
    ran = conform("--engine", engine("error_at_decision", str(FAILING)), "--games", "1", "-p", "3", *QUICK,
                  "--json", str(report_path), "--html", str(html_path))
    assert ran.code == 1, ran.output
    results = [r for r in read_json(report_path)["results"] if r["outcome"] == ERRORED]
    assert results and all(r["last_agreed"] is not None for r in results)
    root = parse(html_path.read_text(encoding="utf-8"))
    errors = having(root, "article", "error")
    assert len(errors) == len(results)
    for error, result in zip(errors, results, strict=True):
        (section,) = having(error, "section", "agreed")
        agreed = result["last_agreed"]
        heading = heading_of(section)
        # the run kept the case's trace: the decision that led to the table is named
        assert heading.startswith(f"The last step where both agreed: step {agreed['step']}: seat ")
        assert table_rows(section) == expected_rows(agreed["observation"])
