"""HTML pages for people: a conformance report (``conform --html``) and a trace or saved failure
(``show --html``), each one self-contained file drawn with the package's Jinja2 templates.

- :mod:`.model`: the input: the run's results as recorded (``CaseResult``, read from a report's JSON or a saved
  failure's trace) and the traces they are drawn on
- :mod:`.differences`: JSON paths, where the recorded differences lie, what a cell touches
- :mod:`.cards`, :mod:`.tables`, :mod:`.steps`: card faces, an observation as a table, a trace as steps
- :mod:`.failures`: one failure drawn in full (the divergence panel, the game up to it), which ones, bounded
- :mod:`.views`: what the templates draw: the report (summary, causes, coverage, skips, failures) and a trace
- :mod:`.page`: rendering and writing
"""

from flip7_spec.htmlreport.failures import Limits, TraceKeeper
from flip7_spec.htmlreport.model import Failure, ReportInput, report_from, report_with_saved, saved_failure
from flip7_spec.htmlreport.page import render_report, render_trace, write_html

__all__ = ["Failure", "Limits", "ReportInput", "TraceKeeper", "render_report", "render_trace", "report_from",
           "report_with_saved", "saved_failure", "write_html"]
