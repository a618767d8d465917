"""``flip7-spec conform``: run the conformance corpus against another engine."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from flip7_spec.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_CHECK_FAILED,
    EXIT_OK,
    engine_command,
    say,
    seconds,
    seed_text,
    within,
)
from flip7_spec.conformance import ERRORED, FAIL, PASS, SKIPPED
from flip7_spec.conformance.cases import default_rulesets, generated_cases
from flip7_spec.conformance.report import describe, json_report, junit_report, summary_lines
from flip7_spec.conformance.runner import CaseResult, run_case
from flip7_spec.conformance.session import Corpus, EngineSpec, EngineUnusable, Outcome, handshake, run
from flip7_spec.errors import OutputError
from flip7_spec.interrupts import interruption
from flip7_spec.limits import GAMES, PLAYERS, WORKERS, check_game_size
from flip7_spec.outputs import Output, check_distinct, reserve_folder
from flip7_spec.rulesets import Ruleset, load_ruleset, preset_names


def _smoke(spec: EngineSpec) -> int:
    """Handshake and one short game: tells a broken adapter from a wrong engine."""
    try:
        engine, hello = handshake(spec)
    except EngineUnusable as error:
        say(f"smoke: handshake FAILED: {error}")
        return EXIT_BAD_INPUT
    try:
        say(f"smoke: handshake ok: {hello.get('name')} {hello.get('version', '')} "
            f"(rulesets {', '.join(map(str, hello.get('rulesets', [])))}; "
            f"levels {', '.join(map(str, hello.get('levels', [])))})")
        rulesets = [r for r in default_rulesets() if r.name in hello.get("rulesets", [])][:1]
        if not rulesets:
            say("smoke: the engine implements none of the presets; nothing to play")
            return EXIT_CHECK_FAILED
        case = next(c for c in generated_cases(rulesets, [3], 1, "smoke") if c.level == "round")
        if "round" not in hello.get("levels", []):
            say("smoke: the engine does not support the round level; handshake only")
            return EXIT_OK
        result = run_case(engine, case, hello)[0]
    finally:
        engine.close()
    if result.outcome == PASS:
        say(f"smoke: one round played, {result.decisions} decisions: ok")
        return EXIT_OK
    say("smoke: the adapter works, but the game differs:" if result.outcome == FAIL
        else "smoke: the first game did not run:")
    for line in describe(result):
        say(line)
    return EXIT_CHECK_FAILED


@dataclass
class _Reports:
    """The outputs of a run, reserved before it starts (see :mod:`flip7_spec.outputs`)."""

    json: Output | None = None
    junit: Output | None = None

    @classmethod
    def reserve(cls, json_path: Path | None, junit_xml: Path | None, save_failures: Path | None,
                inputs: list[Path]) -> _Reports:
        outputs = [(what, path) for what, path in (("--json", json_path), ("--junit-xml", junit_xml)) if path]
        check_distinct(outputs, inputs)
        if save_failures is not None:
            reserve_folder(save_failures, "--save-failures")
        reports = cls()
        try:
            reports.json = Output.reserve(json_path, "--json") if json_path is not None else None
            reports.junit = Output.reserve(junit_xml, "--junit-xml") if junit_xml is not None else None
        except OutputError:
            reports.discard()
            raise
        return reports

    def write(self, results: list[CaseResult], meta: dict[str, Any], engine: str) -> None:
        """Write and commit both reports (each whole or not at all)."""
        try:
            if self.json is not None:
                self.json.write(json_report(results, meta))
                self.json.commit()
            if self.junit is not None:
                self.junit.write(junit_report(results, engine))
                self.junit.commit()
        finally:
            self.discard()

    def discard(self) -> None:
        for output in (self.json, self.junit):
            if output is not None:
                output.discard()


def _inputs(ruleset_names: tuple[str, ...], fixtures: Path | None) -> list[Path]:
    """The files a run reads: ruleset files and fixture traces (a report must not overwrite one)."""
    files = [Path(name) for name in ruleset_names if name not in preset_names()]
    if fixtures is not None and fixtures.is_dir():
        files.extend(p for p in fixtures.rglob("*") if p.suffix in (".json", ".jsonl"))
    return files


@click.command("conform")
@click.option("--engine", "-e", "command", metavar="CMD", callback=engine_command,
              help='the engine command, run as a child process speaking docs/protocol.md (e.g. "node engine.js"); '
                   "split into arguments like a shell would, and run without a shell")
@click.option("--python", "python", metavar="MODULE:ATTR",
              help="an in-process engine: a class or factory building a flip7_spec.protocol.adapter.EngineAdapter")
@click.option("--games", "-g", type=click.IntRange(0), default=40, show_default=True, callback=within(GAMES),
              help="generated games (each gives a round case and a game case)")
@click.option("--seed", "-s", default="0", show_default=True, callback=seed_text, help="seed of the generated games")
@click.option("--ruleset", "-r", "ruleset_names", multiple=True, metavar="NAME|FILE",
              help="ruleset of generated games (repeatable; default: every preset, skipped where unsupported)")
@click.option("--players", "-p", "player_counts", multiple=True, type=click.IntRange(1), callback=within(PLAYERS),
              help="player counts generated games cycle through (repeatable; default 3 4 5 6)")
@click.option("--fixtures", type=click.Path(file_okay=False, path_type=Path), default=Path("fixtures"),
              show_default=True, help="directory of golden traces to run (ignored if missing)")
@click.option("--no-fixtures", is_flag=True, help="do not run the fixtures")
@click.option("--no-scoring", is_flag=True, help="do not run the scoring cases")
@click.option("--level", "levels", multiple=True, type=click.Choice(["scoring", "round", "game"]),
              help="run only these levels (repeatable); legal is checked with round and game")
@click.option("--timeout", type=click.FloatRange(0.1), default=10.0, show_default=True, callback=seconds,
              help="seconds to wait for each reply")
@click.option("--workers", "-j", type=click.IntRange(1), default=1, show_default=True, callback=within(WORKERS),
              help="cases run in parallel, each worker with its own engine process")
@click.option("--save-failures", type=click.Path(file_okay=False, path_type=Path),
              help="write a shrunk trace of every failing generated case here")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="write a JSON report")
@click.option("--junit-xml", type=click.Path(dir_okay=False, path_type=Path), help="write a JUnit XML report")
@click.option("--smoke", is_flag=True, help="only the handshake and one short game")
@click.option("--quiet", "-q", is_flag=True, help="print only failures and the summary, not skipped cases")
@click.option("--progress/--no-progress", default=None, help="show a progress bar (default: on a terminal)")
def command(command: str | None, python: str | None, games: int, seed: str, ruleset_names: tuple[str, ...],
            player_counts: tuple[int, ...], fixtures: Path, no_fixtures: bool, no_scoring: bool,
            levels: tuple[str, ...], timeout: float, workers: int, save_failures: Path | None,
            json_path: Path | None, junit_xml: Path | None, smoke: bool, quiet: bool,
            progress: bool | None) -> None:
    """Run the conformance corpus against an engine and report where it breaks the rules.

    The corpus: scoring cases (official examples and hands z3 found to catch known misreadings), the
    golden fixtures, and generated games. Each case passes, fails (first divergence: step, decision, JSON
    path, expected vs found, rule clause), is skipped (the engine does not support its ruleset, option or
    level) or errors (crash, timeout, bad reply; with the engine's stderr tail).

    \b
    Exit codes: 0 everything ran passed (or was skipped); 1 a case failed or errored;
    2 the engine cannot be used at all, or an input or output is unusable (checked before the run);
    130 interrupted (Ctrl-C), 143 terminated (SIGTERM): the engines are stopped and the reports hold
    the cases that finished.
    """
    if (command is None) == (python is None):
        raise click.UsageError("give exactly one of --engine CMD or --python MODULE:ATTR")
    spec = EngineSpec(command=command, python=python, timeout=timeout)
    if smoke:
        raise click.exceptions.Exit(_smoke(spec))
    rulesets: list[Ruleset] = [load_ruleset(n) for n in ruleset_names] or default_rulesets()
    counts = player_counts or (3, 4, 5, 6)
    for ruleset in rulesets:
        for players in counts:
            check_game_size(ruleset, players, "--players")
    corpus = Corpus(rulesets=rulesets, games=games, seed=seed, players=counts,
                    fixtures=None if no_fixtures else fixtures, scoring=not no_scoring,
                    levels=frozenset(levels) if levels else frozenset({"scoring", "round", "game"}))
    reports = _Reports.reserve(json_path, junit_xml, save_failures, _inputs(ruleset_names, corpus.fixtures))
    show_bar = sys.stderr.isatty() if progress is None else progress
    collected: list[CaseResult] = []
    done = 0
    total_estimate = corpus.size()

    def on_outcome(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        collected.extend(outcome.results)
        for result in outcome.results:
            if result.outcome in (FAIL, ERRORED) or (result.outcome == SKIPPED and not quiet):
                if show_bar:
                    click.echo("\r\033[K", nl=False, err=True)
                for line in describe(result):
                    say(line)
        if show_bar:
            click.echo(f"\r\033[Kcases {done}/~{total_estimate}", nl=False, err=True)

    started = time.perf_counter()
    stopped: KeyboardInterrupt | None = None
    hello: dict[str, Any] = {}
    decisions = 0
    try:
        hello, _, decisions = run(spec, corpus, workers=workers, save=save_failures, on_outcome=on_outcome)
    except EngineUnusable as error:
        reports.discard()
        say(f"flip7-spec: error: {error}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
    except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM: the engines are stopped already
        stopped = interrupt
        decisions = sum(r.decisions for r in collected if r.level != "legal")
    elapsed = time.perf_counter() - started
    if show_bar:
        click.echo("\r\033[K", nl=False, err=True)
    for line in summary_lines(collected, spec.name, elapsed, decisions):
        say(line)
    meta = {"engine": spec.name, "hello": hello, "seed": seed, "games": games, "interrupted": stopped is not None,
            "seconds": round(elapsed, 3), "decisions": decisions}
    reports.write(collected, meta, spec.name)
    if stopped is not None:
        say("interrupted: the reports hold the cases that finished", err=True)
        raise click.exceptions.Exit(interruption(stopped))
    failed = any(r.outcome in (FAIL, ERRORED) for r in collected)
    raise click.exceptions.Exit(EXIT_CHECK_FAILED if failed else EXIT_OK)
