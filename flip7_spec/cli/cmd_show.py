"""``flip7-spec show``: a trace rendered for people, step by step."""

from __future__ import annotations

from pathlib import Path

import click

from flip7_spec.cli.common import fail, say
from flip7_spec.htmlreport import render_report, render_trace, report_with_saved
from flip7_spec.htmlreport.model import ReportError, is_report
from flip7_spec.outputs import Output, check_distinct
from flip7_spec.trace.diffview import NoSavedFailure, render_diff
from flip7_spec.trace.reader import TraceSource, is_corpus, read_traces
from flip7_spec.trace.replay import ReplayStatus, replay
from flip7_spec.trace.show import ShowError, check_trace, lines_of


def _pick(path: Path, line: int) -> TraceSource:
    """The trace of ``path`` (a ``.json`` document) or of line ``line`` of a ``.jsonl`` corpus."""
    for source in read_traces(path):
        if source.line is None or source.line == line:
            return source
        if source.line > line:
            break
    fail(f"{path}: line {line} holds no trace")


def _html(source: TraceSource, output: Output | None) -> None:
    """Write the HTML page of a trace, a saved failure or a ``conform --json`` report to ``output`` (None:
    stdout)."""
    document = source.trace
    if is_report(document):
        try:
            report = report_with_saved(document)
        except ReportError as error:
            fail(f"{source.location}: {error}")
        html = render_report(report)
    else:
        try:
            check_trace(document)
        except ShowError as error:
            fail(f"{source.location}: {error}")
        html = render_trace(document, source.location)
    if output is None:
        click.echo(html, nl=False)
        return
    output.write(html)
    output.commit()


def _check_replayable(source: TraceSource) -> None:
    """Refuse what ``flip7-spec replay`` calls invalid (no game at all), with its message: a trace is shown
    as it is recorded, diverging or not, but only when it is a game. What show itself refuses is left to it
    (its messages stay as they are)."""
    try:
        check_trace(source.trace)
    except ShowError:
        return
    result = replay(source.trace)
    if result.status is ReplayStatus.INVALID:
        fail(f"{source.location}: not a trace of a game: {result.error}")


@click.command("show")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--line", "-l", type=click.IntRange(1), default=1, show_default=True,
              help="for a .jsonl corpus, the line of the trace to show (as replay reports it: FILE:LINE)")
@click.option("--step-numbers", is_flag=True,
              help="start every line of a step with 'step N |' (its first line with 'step N:'), so that "
                   "searching for a step number finds all of it")
@click.option("--diff", "diff", is_flag=True,
              help="for a failure saved by `conform --save-failures`: the reference's table and the engine's side "
                   "by side at the divergence, differing fields marked <>, then the causes")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), metavar="OUT",
              help="write one self-contained HTML page to OUT ('-': stdout) instead: the trace round by round "
                   "as tables of cards, a saved failure's two tables side by side, or a conform --json report")
def command(file: Path, line: int, step_numbers: bool, diff: bool, html_out: Path | None) -> None:
    """Show the trace in FILE (.json, or one line of a .jsonl corpus) for a person.

    The header (ruleset, players, Dealer, description), then round by round each step, numbered as
    `flip7-spec replay` numbers them (chance steps included): the decision, what happened (draws, busts,
    freezes, Flip Three, Second Chance used or given, set-aside cards, reshuffles, forced choices), each
    player's row of cards after the step when the trace records observations, round scores and totals,
    and the winner. With --html, a page for a browser instead; FILE may then also be the JSON report of
    `flip7-spec conform --json` (its saved failures are read from their paths).

    \b
    Exit codes: 0 shown; 2 the file or the trace is unusable (one line on stderr).
    """
    if line != 1 and not is_corpus(file):
        fail(f"{file}: --line applies to a .jsonl corpus only")
    output = None
    if html_out is not None and str(html_out) != "-":  # checked and reserved before the trace is read
        check_distinct([("--html", html_out)], [file])
        output = Output.reserve(html_out, "--html")
    try:
        source = _pick(file, line)
        if source.error is not None:
            fail(f"{source.location}: {source.error}")
        if not is_report(source.trace):
            _check_replayable(source)
        if html_out is not None:
            _html(source, output)
            return
    finally:
        if output is not None:
            output.discard()  # committed already unless the page could not be made
    if diff:
        try:
            lines = render_diff(source.trace)
        except NoSavedFailure as error:
            fail(f"{source.location}: {error}")
        for text in lines:
            say(text)
        return
    for text in lines_of(source.trace, step_numbers=step_numbers):  # printed as made: a long trace streams
        say(text)
