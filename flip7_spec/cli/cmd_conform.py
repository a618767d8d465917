"""``flip7-spec conform``: run the conformance corpus against another engine."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from flip7_spec.cli.common import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_INTERRUPTED, EXIT_OK, fail
from flip7_spec.conformance import ERRORED, FAIL, PASS, SKIPPED
from flip7_spec.conformance.cases import default_rulesets, generated_cases
from flip7_spec.conformance.report import describe, report_document, summary_lines, write_json, write_junit
from flip7_spec.conformance.runner import CaseResult, run_case
from flip7_spec.conformance.session import Corpus, EngineSpec, EngineUnusable, Outcome, handshake, run
from flip7_spec.htmlreport import TraceKeeper, render_report, report_from, write_html
from flip7_spec.rulesets import Ruleset, load_ruleset


def _smoke(spec: EngineSpec) -> int:
    """Handshake and one short game: tells a broken adapter from a wrong engine."""
    try:
        engine, hello = handshake(spec)
    except EngineUnusable as error:
        click.echo(f"smoke: handshake FAILED: {error}")
        return EXIT_BAD_INPUT
    click.echo(f"smoke: handshake ok: {hello.get('name')} {hello.get('version', '')} "
               f"(rulesets {', '.join(hello.get('rulesets', []))}; levels {', '.join(hello.get('levels', []))})")
    try:
        rulesets = [r for r in default_rulesets() if r.name in hello.get("rulesets", [])][:1]
        if not rulesets:
            click.echo("smoke: the engine implements none of the presets; nothing to play")
            return EXIT_CHECK_FAILED
        case = next(c for c in generated_cases(rulesets, [3], 1, "smoke") if c.level == "round")
        if "round" not in hello.get("levels", []):
            click.echo("smoke: the engine does not support the round level; handshake only")
            return EXIT_OK
        result = run_case(engine, case, hello)[0]
    finally:
        engine.close()
    if result.outcome == PASS:
        click.echo(f"smoke: one round played, {result.decisions} decisions: ok")
        return EXIT_OK
    click.echo("smoke: the adapter works, but the game differs:" if result.outcome == FAIL
               else "smoke: the first game did not run:")
    for line in describe(result):
        click.echo(line)
    return EXIT_CHECK_FAILED


@click.command("conform")
@click.option("--engine", "-e", "command", metavar="CMD",
              help='the engine command, run as a child process speaking docs/protocol.md (e.g. "node engine.js")')
@click.option("--python", "python", metavar="MODULE:ATTR",
              help="an in-process engine: a class or factory building a flip7_spec.protocol.adapter.EngineAdapter")
@click.option("--games", "-g", type=click.IntRange(0), default=40, show_default=True,
              help="generated games (each gives a round case and a game case)")
@click.option("--seed", "-s", default="0", show_default=True, help="seed of the generated games")
@click.option("--ruleset", "-r", "ruleset_names", multiple=True, metavar="NAME|FILE",
              help="ruleset of generated games (repeatable; default: every preset, skipped where unsupported)")
@click.option("--players", "-p", "player_counts", multiple=True, type=click.IntRange(1),
              help="player counts generated games cycle through (repeatable; default 3 4 5 6)")
@click.option("--fixtures", type=click.Path(file_okay=False, path_type=Path), default=Path("fixtures"),
              show_default=True, help="directory of golden traces to run (ignored if missing)")
@click.option("--no-fixtures", is_flag=True, help="do not run the fixtures")
@click.option("--no-scoring", is_flag=True, help="do not run the scoring cases")
@click.option("--level", "levels", multiple=True, type=click.Choice(["scoring", "round", "game"]),
              help="run only these levels (repeatable); legal is checked with round and game")
@click.option("--timeout", type=click.FloatRange(0.1), default=10.0, show_default=True,
              help="seconds to wait for each reply")
@click.option("--workers", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="cases run in parallel, each worker with its own engine process")
@click.option("--save-failures", type=click.Path(file_okay=False, path_type=Path),
              help="write a shrunk trace of every failing generated case here")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="write a JSON report")
@click.option("--junit-xml", type=click.Path(dir_okay=False, path_type=Path), help="write a JUnit XML report")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="write an HTML report: one self-contained file with each failure's table, both sides")
@click.option("--smoke", is_flag=True, help="only the handshake and one short game")
@click.option("--quiet", "-q", is_flag=True, help="print only failures and the summary, not skipped cases")
@click.option("--progress/--no-progress", default=None, help="show a progress bar (default: on a terminal)")
def command(command: str | None, python: str | None, games: int, seed: str, ruleset_names: tuple[str, ...],
            player_counts: tuple[int, ...], fixtures: Path, no_fixtures: bool, no_scoring: bool,
            levels: tuple[str, ...], timeout: float, workers: int, save_failures: Path | None,
            json_path: Path | None, junit_xml: Path | None, html_path: Path | None, smoke: bool, quiet: bool,
            progress: bool | None) -> None:
    """Run the conformance corpus against an engine and report where it breaks the rules.

    The corpus: scoring cases (official examples and hands z3 found to catch known misreadings), the
    golden fixtures, and generated games. Each case passes, fails (first divergence: step, decision, JSON
    path, expected vs found, rule clause), is skipped (the engine does not support its ruleset, option or
    level) or errors (crash, timeout, bad reply; with the engine's stderr tail).

    \b
    Exit codes: 0 everything ran passed (or was skipped); 1 a case failed or errored;
    2 the engine cannot be used at all; 130 interrupted (reports are still written).
    """
    if (command is None) == (python is None):
        raise click.UsageError("give exactly one of --engine CMD or --python MODULE:ATTR")
    spec = EngineSpec(command=command, python=python, timeout=timeout)
    if smoke:
        raise click.exceptions.Exit(_smoke(spec))
    rulesets: list[Ruleset] = [load_ruleset(n) for n in ruleset_names] or default_rulesets()
    corpus = Corpus(rulesets=rulesets, games=games, seed=seed, players=player_counts or (3, 4, 5, 6),
                    fixtures=None if no_fixtures else fixtures, scoring=not no_scoring,
                    levels=frozenset(levels) if levels else frozenset({"scoring", "round", "game"}))
    show_bar = sys.stderr.isatty() if progress is None else progress
    collected: list[CaseResult] = []
    done = 0
    total_estimate = corpus.size()
    keeper = TraceKeeper()

    def on_outcome(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        collected.extend(outcome.results)
        if html_path is not None and outcome.case is not None:
            keeper.offer([r.to_json() for r in outcome.results if r.outcome == FAIL], outcome.case.trace)
        for result in outcome.results:
            if result.outcome in (FAIL, ERRORED) or (result.outcome == SKIPPED and not quiet):
                if show_bar:
                    click.echo("\r\033[K", nl=False, err=True)
                for line in describe(result):
                    click.echo(line)
        if show_bar:
            click.echo(f"\r\033[Kcases {done}/~{total_estimate}", nl=False, err=True)

    started = time.perf_counter()
    interrupted = False
    hello: dict[str, Any] = {}
    decisions = 0
    try:
        hello, _, decisions = run(spec, corpus, workers=workers, save=save_failures, on_outcome=on_outcome)
    except EngineUnusable as error:
        click.echo(f"flip7-spec: error: {error}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
    except KeyboardInterrupt:
        interrupted = True
        decisions = sum(r.decisions for r in collected if r.level != "legal")
    elapsed = time.perf_counter() - started
    if show_bar:
        click.echo("\r\033[K", nl=False, err=True)
    for line in summary_lines(collected, spec.name, elapsed, decisions):
        click.echo(line)
    meta = {"engine": spec.name, "hello": hello, "seed": seed, "games": games, "interrupted": interrupted,
            "seconds": round(elapsed, 3), "decisions": decisions}
    if json_path is not None:
        write_json(json_path, collected, meta)
    if junit_xml is not None:
        write_junit(junit_xml, collected, spec.name)
    if html_path is not None:
        try:
            write_html(html_path, render_report(report_from(report_document(collected, meta), keeper.traces)))
        except OSError as error:
            fail(f"{html_path}: cannot write the HTML report: {error.strerror or error}")
    if interrupted:
        click.echo("interrupted: the reports hold the cases that finished", err=True)
        raise click.exceptions.Exit(EXIT_INTERRUPTED)
    failed = any(r.outcome in (FAIL, ERRORED) for r in collected)
    raise click.exceptions.Exit(EXIT_CHECK_FAILED if failed else EXIT_OK)
