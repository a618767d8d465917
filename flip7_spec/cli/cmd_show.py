"""``flip7-spec show``: a trace rendered for people, step by step."""

from __future__ import annotations

from pathlib import Path

import click

from flip7_spec.cli.common import fail, say
from flip7_spec.trace.reader import TraceSource, is_corpus, read_traces
from flip7_spec.trace.show import lines_of


def _pick(path: Path, line: int) -> TraceSource:
    """The trace of ``path`` (a ``.json`` document) or of line ``line`` of a ``.jsonl`` corpus."""
    for source in read_traces(path):
        if source.line is None or source.line == line:
            return source
        if source.line > line:
            break
    fail(f"{path}: line {line} holds no trace")


@click.command("show")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--line", "-l", type=click.IntRange(1), default=1, show_default=True,
              help="for a .jsonl corpus, the line of the trace to show (as replay reports it: FILE:LINE)")
@click.option("--step-numbers", is_flag=True,
              help="start every line of a step with 'step N |' (its first line with 'step N:'), so that "
                   "searching for a step number finds all of it")
def command(file: Path, line: int, step_numbers: bool) -> None:
    """Show the trace in FILE (.json, or one line of a .jsonl corpus) for a person.

    The header (ruleset, players, Dealer, description), then round by round each step, numbered as
    `flip7-spec replay` numbers them (chance steps included): the decision, what happened (draws, busts,
    freezes, Flip Three, Second Chance used or given, set-aside cards, reshuffles, forced choices), each
    player's row of cards after the step when the trace records observations, round scores and totals,
    and the winner.

    \b
    Exit codes: 0 shown; 2 the file or the trace is unusable (one line on stderr).
    """
    if line != 1 and not is_corpus(file):
        fail(f"{file}: --line applies to a .jsonl corpus only")
    source = _pick(file, line)
    if source.error is not None:
        fail(f"{source.location}: {source.error}")
    for text in lines_of(source.trace, step_numbers=step_numbers):  # printed as made: a long trace streams
        say(text)
