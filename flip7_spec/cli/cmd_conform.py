"""``flip7-spec conform``: run the conformance corpus against another engine."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from flip7_spec.cli.common import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_INTERRUPTED, EXIT_OK, fail
from flip7_spec.conformance import ERRORED, FAIL, SKIPPED
from flip7_spec.conformance.coverage import coverage_lines, summarise
from flip7_spec.conformance.progress import Progress
from flip7_spec.conformance.report import (
    corpus_lines,
    describe,
    empty_part_warnings,
    engine_seconds,
    report_document,
    skip_lines,
    summary_lines,
    write_json,
    write_junit,
)
from flip7_spec.conformance.runner import CaseResult
from flip7_spec.conformance.session import Corpus, EngineSpec, EngineUnusable, Outcome, handshake, run
from flip7_spec.conformance.smoke import smoke
from flip7_spec.conformance.steer import DEFAULT_CAP
from flip7_spec.errors import Flip7Error
from flip7_spec.fixtures import shipped_fixtures_dir
from flip7_spec.htmlreport import TraceKeeper, render_report, report_from, write_html
from flip7_spec.rulesets import Ruleset, load_ruleset


def _smoke(spec: EngineSpec) -> int:
    """Handshake and one whole short game: tells a broken adapter from a wrong engine."""

    def open_engine() -> tuple[Any, dict[str, Any]]:
        engine, hello = handshake(spec)
        click.echo(f"smoke: handshake ok: {hello.get('name')} {hello.get('version', '')} "
                   f"(rulesets {', '.join(map(str, hello.get('rulesets', [])))}; "
                   f"levels {', '.join(map(str, hello.get('levels', [])))})")
        return engine, hello

    try:
        verdict = smoke(open_engine, click.echo, describe)
    except EngineUnusable as error:
        click.echo(f"smoke: handshake FAILED: {error}")
        return EXIT_BAD_INPUT
    return EXIT_CHECK_FAILED if verdict is False else EXIT_OK


def _rulesets(names: tuple[str, ...]) -> list[Ruleset] | None:
    try:
        return [load_ruleset(n) for n in names] or None
    except Flip7Error as error:
        raise click.BadParameter(str(error), param_hint="--ruleset") from None


@click.command("conform")
@click.option("--engine", "-e", "command", metavar="CMD",
              help='the engine command, run as a child process speaking docs/protocol.md (e.g. "node engine.js")')
@click.option("--python", "python", metavar="MODULE:ATTR",
              help="an in-process engine: a class or factory building a flip7_spec.protocol.adapter.EngineAdapter")
@click.option("--games", "-g", type=click.IntRange(0), default=40, show_default=True,
              help="generated games (each gives a round case and a game case)")
@click.option("--seed", "-s", default="0", show_default=True, help="seed of the generated games")
@click.option("--ruleset", "-r", "ruleset_names", multiple=True, metavar="NAME|FILE",
              help="ruleset of generated games and scoring cases (repeatable; default: the presets the engine "
                   "declares in its handshake)")
@click.option("--players", "-p", "player_counts", multiple=True, type=click.IntRange(1),
              help="player counts generated games cycle through (repeatable; default 3 4 5 6)")
@click.option("--fixtures", type=click.Path(file_okay=False, path_type=Path),
              help="directory of golden traces to run (default: the fixtures shipped with flip7-spec)")
@click.option("--no-fixtures", is_flag=True, help="do not run the fixtures")
@click.option("--no-scoring", is_flag=True, help="do not run the scoring cases")
@click.option("--trace", "traces", multiple=True, type=click.Path(dir_okay=False, exists=True, path_type=Path),
              metavar="FILE", help="run only these saved traces (.json or .jsonl; repeatable), e.g. a failure "
                                   "saved by --save-failures")
@click.option("--level", "levels", multiple=True, type=click.Choice(["scoring", "round", "game"]),
              help="run only these levels (repeatable); legal is checked with round and game")
@click.option("--timeout", type=click.FloatRange(0.1), default=10.0, show_default=True,
              help="seconds to wait for each reply")
@click.option("--workers", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="cases run in parallel, each worker with its own engine process")
@click.option("--save-failures", type=click.Path(file_okay=False, path_type=Path),
              help="write a shrunk trace of every failing generated case here (its header says how to re-run it)")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="write a JSON report")
@click.option("--junit-xml", type=click.Path(dir_okay=False, path_type=Path), help="write a JUnit XML report")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="write an HTML report: one self-contained file with each failure's table, both sides")
@click.option("--min-coverage", type=click.IntRange(0), default=None, metavar="K",
              help="aim generated games until every expected clause of every ruleset is exercised by K generated "
                   f"cases (at most {DEFAULT_CAP} aimed candidate games per ruleset; default: aim for 3 with at "
                   "most 16; 0: no aimed games)")
@click.option("--smoke", is_flag=True, help="only the handshake and one whole short game (is the adapter right?)")
@click.option("--no-cache", is_flag=True,
              help="search the scoring hands with z3 again instead of reading the shipped or cached results")
@click.option("--verbose", "-v", is_flag=True, help="also list every skipped case")
@click.option("--quiet", "-q", is_flag=True, help="print only failures and the summary; no progress bar")
@click.option("--progress/--no-progress", default=None,
              help="show a progress bar (default: on a terminal, unless --quiet)")
def command(command: str | None, python: str | None, games: int, seed: str, ruleset_names: tuple[str, ...],
            player_counts: tuple[int, ...], fixtures: Path | None, no_fixtures: bool, no_scoring: bool,
            traces: tuple[Path, ...], levels: tuple[str, ...], timeout: float, workers: int,
            save_failures: Path | None, json_path: Path | None, junit_xml: Path | None, smoke: bool,
            html_path: Path | None, no_cache: bool, verbose: bool, quiet: bool, progress: bool | None,
            min_coverage: int | None) -> None:
    """Run the conformance corpus against an engine and report where it breaks the rules.

    The corpus: scoring cases (official examples and hands z3 found to catch known misreadings), the
    golden fixtures shipped with flip7-spec, and generated games, for the rulesets the engine declares.
    Each case passes, fails (first divergence: step, decision, JSON path, expected vs found, rule clause),
    is skipped (the engine does not support its ruleset, option or level; counted by reason, -v lists
    them) or errors (crash, timeout, bad reply; with the engine's stderr tail).

    With --trace FILE only those traces run: `conform --engine CMD --trace failures/x.json` re-runs a saved
    failure against the engine.

    \b
    Exit codes: 0 everything ran passed (or was skipped); 1 a case failed or errored;
    2 the engine cannot be used at all; 130 interrupted (reports are still written).
    """
    if (command is None) == (python is None):
        raise click.UsageError("give exactly one of --engine CMD or --python MODULE:ATTR")
    spec = EngineSpec(command=command, python=python, timeout=timeout)
    if smoke:
        raise click.exceptions.Exit(_smoke(spec))
    fixtures_dir = None if no_fixtures or traces else (fixtures or shipped_fixtures_dir())
    if fixtures is not None and not fixtures.is_dir():
        raise click.BadParameter(f"{fixtures}: no such directory", param_hint="--fixtures")
    corpus = Corpus(rulesets=_rulesets(ruleset_names), games=0 if traces else games, seed=seed,
                    players=player_counts or (3, 4, 5, 6), fixtures=fixtures_dir,
                    scoring=not (no_scoring or traces), traces=traces, fresh_hands=no_cache,
                    levels=frozenset(levels) if levels else frozenset({"scoring", "round", "game"}))
    if min_coverage is not None:
        corpus.min_coverage, corpus.aim_cap = min_coverage, DEFAULT_CAP
    asked = _asked_parts(corpus)
    bar = Progress(sys.stderr.isatty() and not quiet if progress is None else progress)
    collected: list[CaseResult] = []

    handshake_seconds = 0.0
    settled_corpus = corpus

    def on_start(hello: dict[str, Any], settled: Corpus) -> None:
        nonlocal handshake_seconds, settled_corpus
        handshake_seconds = time.perf_counter() - started
        settled_corpus = settled
        bar.start(settled.size())

    keeper = TraceKeeper()

    def on_outcome(outcome: Outcome) -> None:
        collected.extend(outcome.results)
        if html_path is not None and outcome.case is not None:
            keeper.offer([r.to_json() for r in outcome.results if r.outcome == FAIL], outcome.case.trace)
        for result in outcome.results:
            if result.outcome in (FAIL, ERRORED) or (result.outcome == SKIPPED and verbose):
                for line in describe(result):
                    bar.echo(line)
        bar.advance()

    started = time.perf_counter()
    interrupted = False
    hello: dict[str, Any] = {}
    decisions = 0
    try:
        hello, _, decisions = run(spec, corpus, workers=workers, save=save_failures, on_outcome=on_outcome,
                                  on_start=on_start)
    except EngineUnusable as error:
        bar.close()
        click.echo(f"flip7-spec: error: {error}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
    except KeyboardInterrupt:
        interrupted = True
        decisions = sum(r.decisions for r in collected if r.level != "legal")
    finally:
        bar.close()
    elapsed = time.perf_counter() - started
    shown_from = None if fixtures_dir is None else ("flip7-spec's shipped fixtures" if fixtures is None
                                                   else str(fixtures))
    summary = summary_lines(collected, spec.name, elapsed, decisions, handshake_seconds)
    covered = summarise(settled_corpus.coverage, settled_corpus.variants, settled_corpus.ruleset_list)
    for line in [*summary, *corpus_lines(collected, shown_from), *coverage_lines(covered, verbose),
                 *skip_lines(collected)]:
        click.echo(line)
    if not interrupted:
        for line in empty_part_warnings(collected, asked):
            click.echo(line, err=True)
    meta = {"engine": spec.name, "hello": hello, "seed": seed, "games": games, "interrupted": interrupted,
            "seconds": round(elapsed, 3), "decisions": decisions,
            "engine_seconds": round(engine_seconds(collected, handshake_seconds), 3),
            "coverage": [c.to_json() for c in covered]}
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


def _asked_parts(corpus: Corpus) -> list[str]:
    """The parts of the corpus this run asked for (an empty one is warned about)."""
    asked = []
    if corpus.scoring and "scoring" in corpus.levels:
        asked.append("scoring")
    if corpus.traces and {"round", "game"} & corpus.levels:
        asked.append("trace")
    if corpus.fixtures is not None and {"round", "game"} & corpus.levels:
        asked.append("fixture")
    if corpus.games > 0 and {"round", "game"} & corpus.levels:
        asked.append("generated")
    return asked
