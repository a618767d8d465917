"""``flip7-spec replay``: replay trace files against the reference and report the first divergence of each."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from flip7_spec.cli.common import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_OK, say
from flip7_spec.collector import fewer_collections
from flip7_spec.conformance.report import strict_json
from flip7_spec.outputs import Output, check_distinct
from flip7_spec.trace.reader import TraceFileError, TraceSource, read_traces
from flip7_spec.trace.replay import CONFORM, DIVERGE, INVALID, ReplayResult, replay


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= 160 else text[:157] + "..."


def describe(source: TraceSource, result: ReplayResult) -> str:
    """One line for a trace that did not conform: location, step, decision, JSON path, expected, found, clause."""
    if result.status == INVALID:
        return f"{source.location}: INVALID: {result.error}"
    d = result.divergence
    assert d is not None
    at = "before the first decision" if d.step is None else ("in the footer" if d.step == "footer"
                                                              else f"at step {d.step}")
    decision = ""
    if d.decision is not None:
        who = f"player {d.decision['player']} " if "player" in d.decision else ""
        kind = f"{d.decision['kind']} " if "kind" in d.decision else ""
        decision = f" ({who}{kind}{_short(d.decision['choice'])})"
    return (f"{source.location}: DIVERGES {at}{decision}: {d.where}: expected {_short(d.expected)}, "
            f"found {_short(d.found)} [clause {d.clause}] ({d.message}; level {result.level})")


@click.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--verbose", "-v", is_flag=True, help="also print a line for every conforming trace")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="write every trace's result to this JSON file")
@click.option("--progress/--no-progress", default=None, help="show a progress bar (default: on a terminal)")
def command(files: tuple[Path, ...], verbose: bool, json_out: Path | None, progress: bool | None) -> None:
    """Replay every trace in FILES (.json documents, .jsonl corpora) against the reference.

    For each trace that does not conform, prints one line: file (and line in a corpus), the step, the
    decision, the JSON path that differs, expected (reference) vs found (trace), and the rule clause.
    A bad trace in a corpus is reported and the rest go on. The last line counts conforming, divergent
    and invalid traces.

    \b
    Exit codes: 0 all conform; 1 some diverge; 2 some trace (or file) is unusable.
    """
    output = None
    if json_out is not None:  # checked and reserved before the first trace is replayed
        check_distinct([("--json", json_out)], files)
        output = Output.reserve(json_out, "--json")
    try:
        with fewer_collections():
            _replay_files(files, verbose, output, progress)
    finally:
        if output is not None:
            output.discard()  # committed already unless the run stopped early


def _replay_files(files: tuple[Path, ...], verbose: bool, output: Output | None, progress: bool | None) -> None:
    counts = {CONFORM: 0, DIVERGE: 0, INVALID: 0}
    levels: dict[str, int] = {}
    records: list[dict[str, Any]] = []
    show_bar = sys.stderr.isatty() if progress is None else progress
    for path in files:
        try:
            sources = read_traces(path)
            for source in sources:
                result = ReplayResult(INVALID, error=source.error) if source.error else replay(source.trace)
                counts[result.status] += 1
                if result.status != INVALID:
                    levels[result.level] = levels.get(result.level, 0) + 1
                if result.status != CONFORM:
                    say(describe(source, result))
                elif verbose:
                    state = "complete game" if result.complete else "partial"
                    say(f"{source.location}: conforms ({result.steps} decisions, {state}, level "
                               f"{result.level})")
                if output is not None:
                    records.append({"location": source.location, "status": result.status, "level": result.level,
                                    "steps": result.steps, "complete": result.complete, "error": result.error,
                                    "divergence": result.divergence.to_json() if result.divergence else None})
                if show_bar and sum(counts.values()) % 100 == 0:
                    click.echo(f"\r{sum(counts.values())} traces replayed", nl=False, err=True)
        except TraceFileError as error:
            counts[INVALID] += 1
            say(f"{error}", err=True)
    if show_bar:
        click.echo("", err=True)
    total = sum(counts.values())
    level_text = ", ".join(f"{n} at level {level}" for level, n in sorted(levels.items()))
    say(f"replayed {total} trace{'s' if total != 1 else ''}: {counts[CONFORM]} conform, "
               f"{counts[DIVERGE]} diverge, {counts[INVALID]} invalid" + (f" ({level_text})" if level_text else ""))
    if output is not None:
        output.write(json.dumps(strict_json({"counts": counts, "traces": records}), indent=1, sort_keys=True,
                                allow_nan=False) + "\n")
        output.commit()
    if counts[INVALID]:
        raise click.exceptions.Exit(EXIT_BAD_INPUT)
    raise click.exceptions.Exit(EXIT_CHECK_FAILED if counts[DIVERGE] else EXIT_OK)
