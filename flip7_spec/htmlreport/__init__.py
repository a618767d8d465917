"""HTML pages for people: a conformance report (``conform --html``) and a trace or saved failure
(``show --html``), each one self-contained file drawn with the package's Jinja2 templates.

- :mod:`.model`: the input, read from a report's JSON and from traces (every field optional)
- :mod:`.differences`: JSON paths, every differing field of two observations, what a cell touches
- :mod:`.cards`, :mod:`.tables`, :mod:`.steps`: card faces, an observation as a table, a trace as steps
- :mod:`.failures`: one failure drawn in full (the divergence panel, the game up to it), which ones, bounded
- :mod:`.views`: what the templates draw: the report (summary, causes, coverage, skips, failures) and a trace
- :mod:`.page`: rendering and writing
"""

from flip7_spec.htmlreport.failures import Limits, TraceKeeper
from flip7_spec.htmlreport.model import FailureInput, ReportInput, failure_from, report_from, saved_failure
from flip7_spec.htmlreport.page import render_report, render_trace, write_html

__all__ = ["FailureInput", "Limits", "ReportInput", "TraceKeeper", "failure_from", "render_report", "render_trace",
           "report_from", "saved_failure", "write_html"]
