"""Rendering the pages with the package's Jinja2 templates, and writing them as one self-contained file."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

from flip7_spec.htmlreport.failures import DEFAULT_LIMITS, Limits
from flip7_spec.htmlreport.model import ReportInput
from flip7_spec.htmlreport.views import report_page, trace_page
from flip7_spec.outputs import write_file
from flip7_spec.terminal import printable_text


@cache
def environment() -> jinja2.Environment:
    """The template environment: autoescaped, control characters escaped, strict about undefined names,
    without surrounding blank lines."""
    return jinja2.Environment(loader=jinja2.PackageLoader("flip7_spec.htmlreport", "templates"),
                              autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, finalize=_shown)


def _shown(value: Any) -> Any:
    """A value as the page shows it: text from traces and engines with its control characters written as
    visible escapes (HTML cannot hold most of them, and the page may be printed on a terminal)."""
    if isinstance(value, markupsafe.Markup):  # already HTML: escaping a control character adds no markup
        return markupsafe.Markup(printable_text(str(value)))
    return printable_text(value) if isinstance(value, str) else value


def _version() -> str:
    from flip7_spec import __version__

    return __version__


def render_report(report: ReportInput, limits: Limits = DEFAULT_LIMITS) -> str:
    """The HTML of a conformance report."""
    page = report_page(report, limits)
    return environment().get_template("report.html.j2").render(page=page, version=_version())


def render_trace(trace: dict[str, Any], source: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """The HTML of a trace (``trace`` already checked), with its saved failure when it records one."""
    page = trace_page(trace, source, limits)
    return environment().get_template("trace.html.j2").render(page=page, version=_version())


def write_html(path: Path, html: str) -> None:
    """Write ``html`` to ``path`` whole or not at all (see :func:`flip7_spec.outputs.write_file`)."""
    write_file(path, html, "HTML page")
