"""``conform``'s command line read once into :class:`ConformOptions`: every click parameter is a field (a
parameter without one fails at once), and each report of ``REPORT_FORMATS`` is an option of the command,
whose file the options hold by that option."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import click
import pytest

from flip7_spec.cli.cmd_conform import REPORT_FORMATS, ConformOptions, command


def parameters() -> dict[str, click.Parameter]:
    return {p.name: p for p in command.params if p.name is not None}


def test_every_parameter_is_a_field_and_every_report_an_option() -> None:
    reports = {report.parameter: report.option for report in REPORT_FORMATS}
    given = parameters()
    assert {name: given[name].opts for name in reports} == {name: [option] for name, option in reports.items()}
    assert {f.name for f in fields(ConformOptions)} == (set(given) - set(reports)) | {"reports"}


def test_the_options_hold_each_report_by_its_option() -> None:
    values = {name: None for name in parameters()}
    values.update(json_path=Path("r.json"), html_path=Path("r.html"), command="node engine.js", timeout=10.0)
    options = ConformOptions.of(values)
    assert options.reports == {"--json": Path("r.json"), "--junit-xml": None, "--html": Path("r.html")}
    assert options.keeps_traces(), "the JSON report and the page carry the games of the failures drawn in full"
    junit_only = ConformOptions.of({**values, "json_path": None, "html_path": None, "junit_xml": Path("r.xml")})
    assert not junit_only.keeps_traces()
    assert options.engine().command == "node engine.js"


def test_a_parameter_without_a_field_is_refused() -> None:
    values: dict[str, object] = {name: None for name in parameters()}
    with pytest.raises(TypeError):
        ConformOptions.of({**values, "an_option_nobody_declared": 1})


def test_exactly_one_engine_is_asked_for() -> None:
    values: dict[str, object] = {name: None for name in parameters()}
    with pytest.raises(click.UsageError, match="exactly one"):
        ConformOptions.of({**values, "command": "node e.js", "python": "m:E", "timeout": 1.0}).engine()
    with pytest.raises(click.UsageError, match="exactly one"):
        ConformOptions.of(values).engine()
