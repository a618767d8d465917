"""``flip7-spec conform``: run the conformance corpus against another engine."""

from __future__ import annotations

import contextlib
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from flip7_spec.bundled import example
from flip7_spec.cli.campaigns import cluster_address, cluster_pool, open_campaign
from flip7_spec.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_CHECK_FAILED,
    EXIT_OK,
    EXIT_UNCHECKED,
    engine_command,
    say,
    seconds,
    seed_text,
    within,
)
from flip7_spec.conformance import ERRORED, FAIL, SKIPPED
from flip7_spec.conformance.cases import Case, part_of
from flip7_spec.conformance.coverage import coverage_lines, summarise
from flip7_spec.conformance.fingerprint import cause_lines, fingerprint_lines, fingerprints, write_fingerprints
from flip7_spec.conformance.progress import Progress
from flip7_spec.conformance.report import (
    corpus_lines,
    describe,
    empty_part_warnings,
    engine_seconds,
    json_report,
    junit_report,
    report_document,
    summary_lines,
)
from flip7_spec.conformance.runner import CaseResult
from flip7_spec.conformance.session import Corpus, EngineSpec, EngineUnusable, Outcome, handshake, run
from flip7_spec.conformance.smoke import smoke
from flip7_spec.conformance.steer import DEFAULT_CAP, RUN_BUDGET
from flip7_spec.conformance.verdict import broken_promise_lines, skip_reason_lines, unchecked_lines
from flip7_spec.errors import Flip7Error, InputError, OutputError
from flip7_spec.fixtures import shipped_fixtures_dir
from flip7_spec.htmlreport import TraceKeeper, render_report, report_from
from flip7_spec.interrupts import interruption
from flip7_spec.limits import COVERAGE_AIM, GAMES, PLAYERS, WORKERS, check_game_size
from flip7_spec.outputs import Output, check_distinct, check_target, reserve_folder
from flip7_spec.play import check_reachable
from flip7_spec.rulesets import Ruleset, load_ruleset, preset_names
from flip7_spec.trace.reader import read_traces
from flip7_spec.trace.replay import ReplayStatus, replay
from flip7_spec.user_modules import module_file


def _smoke(spec: EngineSpec) -> int:
    """Handshake and one whole short game: tells a broken adapter from a wrong engine."""

    def open_engine() -> tuple[Any, dict[str, Any]]:
        engine, hello = handshake(spec)
        say(f"smoke: handshake ok: {hello.get('name')} {hello.get('version', '')} "
            f"(rulesets {', '.join(map(str, hello.get('rulesets', [])))}; "
            f"levels {', '.join(map(str, hello.get('levels', [])))})")
        return engine, hello

    try:
        verdict = smoke(open_engine, say, describe)
    except EngineUnusable as error:
        say(f"smoke: handshake FAILED: {error}")
        for line in error.details:
            say(f"  {line}")
        return EXIT_BAD_INPUT
    if verdict is None:
        return EXIT_UNCHECKED
    return EXIT_CHECK_FAILED if verdict is False else EXIT_OK


def _rulesets(names: tuple[str, ...], player_counts: tuple[int, ...]) -> list[Ruleset] | None:
    """The rulesets given with ``--ruleset`` (None: those the engine declares), each within the limits for
    every player count."""
    try:
        rulesets = [load_ruleset(n) for n in names]
    except Flip7Error as error:
        raise click.BadParameter(str(error), param_hint="--ruleset") from None
    for ruleset in rulesets:
        for players in player_counts:
            check_game_size(ruleset, players, "--players")
        check_reachable(ruleset)
    return rulesets or None


@dataclass
class _Reports:
    """The outputs of a run, reserved before it starts (see :mod:`flip7_spec.outputs`)."""

    json: Output | None = None
    junit: Output | None = None
    html: Output | None = None

    @classmethod
    def reserve(cls, json_path: Path | None, junit_xml: Path | None, html_path: Path | None,
                save_failures: Path | None, inputs: list[Path], fingerprint: Path | None = None) -> _Reports:
        named = (("--json", json_path), ("--junit-xml", junit_xml), ("--html", html_path))
        outputs = [(what, path) for what, path in named if path is not None]
        if fingerprint is not None:  # written after the run, so checked now: every name it may be written to
            outputs.extend(("--fingerprint", path) for path in _fingerprint_names(fingerprint))
            for path in _fingerprint_names(fingerprint):
                check_target(path, "--fingerprint")
        check_distinct(outputs, inputs)
        if save_failures is not None:
            reserve_folder(save_failures, "--save-failures")
        reports = cls()
        try:
            reports.json = Output.reserve(json_path, "--json") if json_path is not None else None
            reports.junit = Output.reserve(junit_xml, "--junit-xml") if junit_xml is not None else None
            reports.html = Output.reserve(html_path, "--html") if html_path is not None else None
        except OutputError:
            reports.discard()
            raise
        return reports

    def write(self, results: list[CaseResult], meta: dict[str, Any], engine: str, keeper: TraceKeeper) -> None:
        """Write and commit every report (each whole or not at all)."""
        try:
            if self.json is not None:
                self.json.write(json_report(results, meta))
                self.json.commit()
            if self.junit is not None:
                self.junit.write(junit_report(results, engine))
                self.junit.commit()
            if self.html is not None:
                self.html.write(render_report(report_from(report_document(results, meta), keeper.traces)))
                self.html.commit()
        finally:
            self.discard()

    def discard(self) -> None:
        for output in (self.json, self.junit, self.html):
            if output is not None:
                output.discard()


def _check_traces(traces: tuple[Path, ...]) -> None:
    """Refuse a ``--trace`` file that cannot be run, with the reader's (or replay's) message: one that cannot
    be read, a line or document that is not JSON, or a trace that is no game (``flip7-spec replay`` calls
    it invalid). Such a file would otherwise give no case, and a run of nothing would pass."""
    for path in traces:
        count = 0
        try:
            for source in read_traces(path):
                count += 1
                if source.error is not None:
                    raise click.BadParameter(f"{source.location}: {source.error}", param_hint="--trace")
                result = replay(source.trace)
                if result.status is ReplayStatus.INVALID:
                    raise click.BadParameter(f"{source.location}: not a trace of a game: {result.error}",
                                             param_hint="--trace")
        except InputError as error:
            raise click.BadParameter(str(error), param_hint="--trace") from None
        if count == 0:
            raise click.BadParameter(f"{path}: holds no trace", param_hint="--trace")


def _fingerprint_names(path: Path) -> list[Path]:
    """Every file ``--fingerprint PATH`` may write: PATH itself, or ``STEM-BASE.SUFFIX`` per base preset
    (:func:`flip7_spec.conformance.fingerprint.fingerprint_paths`)."""
    return [path, *(path.with_name(f"{path.stem}-{base}{path.suffix}") for base in preset_names())]


def _inputs(ruleset_names: tuple[str, ...], fixtures: Path | None, traces: tuple[Path, ...],
            command: str | None = None, python: str | None = None) -> list[Path]:
    """The files a run reads: ruleset files, fixture traces, saved traces, the files the engine command
    names (its script) and the ``--python`` module's source (a report must not overwrite one)."""
    files = [Path(name) for name in ruleset_names if name not in preset_names()]
    if fixtures is not None and fixtures.is_dir():
        files.extend(p for p in fixtures.rglob("*") if p.suffix in (".json", ".jsonl"))
    files.extend(traces)
    if command is not None:
        files.extend(Path(word) for word in shlex.split(command) if Path(word).is_file())
    if python is not None:
        source = module_file(python.partition(":")[0])
        if source is not None:
            files.append(source)
    return files


@click.command("conform")
@click.option("--engine", "-e", "command", metavar="CMD", callback=engine_command,
              help='the engine command, run as a child process speaking docs/protocol.md (e.g. "node engine.js"); '
                   "split into arguments like a shell would, and run without a shell")
@click.option("--python", "python", metavar="MODULE:ATTR",
              help="an in-process engine: a class or factory building a flip7_spec.protocol.adapter.EngineAdapter")
@click.option("--example", "example_name", metavar="NAME",
              help="run an example engine shipped with flip7-spec, from any folder: js (JavaScript, needs Node.js "
                   "18 or later) or flop7 (a third-party Python engine, needs pip install flop7==1.0.2); "
                   "`flip7-spec examples` shows their command lines")
@click.option("--games", "-g", type=click.IntRange(0), default=40, show_default=True, callback=within(GAMES),
              help="generated games (each gives a round case and a game case)")
@click.option("--seed", "-s", default="0", show_default=True, callback=seed_text, help="seed of the generated games")
@click.option("--ruleset", "-r", "ruleset_names", multiple=True, metavar="NAME|FILE",
              help="ruleset of generated games and scoring cases (repeatable; default: the presets the engine "
                   "declares in its handshake)")
@click.option("--players", "-p", "player_counts", multiple=True, type=click.IntRange(1), callback=within(PLAYERS),
              help="player counts generated games cycle through (repeatable; default 3 4 5 6)")
@click.option("--fixtures", type=click.Path(file_okay=False, path_type=Path),
              help="directory of golden traces to run (default: the fixtures shipped with flip7-spec)")
@click.option("--no-fixtures", is_flag=True, help="do not run the fixtures")
@click.option("--no-scoring", is_flag=True, help="do not run the scoring cases")
@click.option("--trace", "traces", multiple=True, type=click.Path(dir_okay=False, exists=True, path_type=Path),
              metavar="FILE", help="run only these saved traces (.json or .jsonl; repeatable), e.g. a failure "
                                   "saved by --save-failures")
@click.option("--only", "only", multiple=True, metavar="PATTERN",
              help="run only the cases whose id matches PATTERN (shell-style * ? [..]; repeatable), e.g. "
                   "'fixture:flip7/tie-*' or 'scoring:*': the ids reports print after FAIL, ERROR and SKIP")
@click.option("--level", "levels", multiple=True, type=click.Choice(["scoring", "round", "game"]),
              help="run only these levels (repeatable); legal is checked with round and game")
@click.option("--timeout", type=click.FloatRange(0.1), default=10.0, show_default=True, callback=seconds,
              help="seconds to wait for each reply")
@click.option("--workers", "-j", type=click.IntRange(1), default=1, show_default=True, callback=within(WORKERS),
              help="cases run in parallel, each worker with its own engine process")
@click.option("--cluster", metavar="ADDRESS|local:N", callback=cluster_address,
              help="run the cases on a Dask cluster: a scheduler's address (tcp://HOST:PORT) whose workers can run "
                   "the engine command, or local:N for N worker processes on this machine; the results are those "
                   "of a local run (needs the cluster extra; docs/campaigns.md)")
@click.option("--campaign", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="record each finished case in DIR as it finishes; run again with the same arguments, only the "
                   "cases not yet recorded run (docs/campaigns.md)")
@click.option("--save-failures", type=click.Path(file_okay=False, path_type=Path),
              help="write the trace of every failing generated case (shrunk) and fixture here (its header says "
                   "how to re-run it)")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), help="write a JSON report")
@click.option("--junit-xml", type=click.Path(dir_okay=False, path_type=Path), help="write a JUnit XML report")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path),
              help="write an HTML report: one self-contained file with each failure's table, both sides")
@click.option("--fingerprint", "fingerprint_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="write the engine's fingerprint (the preset plus the readings that explain its failures) as a "
                   "ruleset file (.json or .toml); `conform --ruleset FILE` then runs against a reference that "
                   "deviates the same way")
@click.option("--min-coverage", type=click.IntRange(0), default=None, metavar="K", callback=within(COVERAGE_AIM),
              help="aim generated games until every expected clause of every ruleset is exercised by K generated "
                   f"cases (a budget of {DEFAULT_CAP} aimed candidate games per ruleset), and list each clause left "
                   "short with the reason (set aside after the candidates aimed at it missed it, or the budget "
                   f"spent); default: aim for 3 with a budget of {RUN_BUDGET} candidates split among the "
                   "rulesets, counting the short clauses; "
                   "0: no aimed games")
@click.option("--smoke", is_flag=True, help="only the handshake and one whole short game (is the adapter right?)")
@click.option("--no-cache", is_flag=True,
              help="search the scoring hands with z3 again instead of reading the shipped or cached results")
@click.option("--verbose", "-v", is_flag=True, help="also list every skipped case")
@click.option("--quiet", "-q", is_flag=True, help="print only failures and the summary; no progress bar")
@click.option("--progress/--no-progress", default=None,
              help="show a progress bar (default: on a terminal, unless --quiet)")
def command(command: str | None, python: str | None, example_name: str | None, games: int, seed: str,
            ruleset_names: tuple[str, ...], player_counts: tuple[int, ...], fixtures: Path | None,
            no_fixtures: bool, no_scoring: bool, traces: tuple[Path, ...], only: tuple[str, ...],
            levels: tuple[str, ...], timeout: float,
            workers: int, save_failures: Path | None, json_path: Path | None, junit_xml: Path | None, smoke: bool,
            html_path: Path | None, fingerprint_path: Path | None, no_cache: bool, verbose: bool, quiet: bool,
            progress: bool | None, min_coverage: int | None, cluster: str | None = None,
            campaign: Path | None = None) -> None:
    """Run the conformance corpus against an engine and report where it breaks the rules.

    The corpus: scoring cases (official examples and hands z3 found to catch known misreadings), the
    golden fixtures shipped with flip7-spec, and generated games, for the rulesets the engine declares.
    Each case passes, fails (first divergence: step, decision, JSON path, expected vs found, rule clause),
    is skipped (the engine does not support its ruleset, option or level; counted by reason, -v lists
    them) or errors (crash, timeout, bad reply; with the engine's stderr tail).

    A failure is diagnosed: the reference plays the game again under every other option value and every
    known misreading (`flip7-spec rules --misreadings`) and names those that reproduce the engine; the case
    then goes on under that reading to find the next independent deviation. The summary groups failures by
    cause and ends with the engine's fingerprint (--fingerprint FILE writes it as a ruleset file; `conform
    --ruleset FILE` then runs against a reference that deviates the same way).

    With --trace FILE only those traces run: `conform --engine CMD --trace failures/x.json` re-runs a saved
    failure against the engine.

    `conform --example js` runs the JavaScript engine shipped with flip7-spec, from any folder: a run to see
    what a passing engine's report looks like (`flip7-spec examples` lists the example engines).

    \b
    Exit codes: 0 every case that ran passed (the others were skipped as the handshake declares);
    1 a case failed or errored; 2 the engine cannot be used at all, or an input or output is unusable
    (checked before the run); 3 unchecked: no case ran, or every case of a part of the corpus was skipped
    by the engine although its handshake declares them (also --smoke when its game was skipped);
    130 interrupted (Ctrl-C), 143 terminated (SIGTERM): the engines are stopped and the reports hold
    the cases that finished.
    """
    if sum(given is not None for given in (command, python, example_name)) != 1:
        raise click.UsageError("give exactly one of --engine CMD, --python MODULE:ATTR or --example NAME")
    if example_name is not None:
        command = example(example_name).command()
    spec = EngineSpec(command=command, python=python, timeout=timeout)
    if fingerprint_path is not None and fingerprint_path.suffix.lower() not in (".json", ".toml"):
        raise click.BadParameter(f"{fingerprint_path}: a fingerprint is a ruleset file: give a .json or .toml name",
                                 param_hint="--fingerprint")
    if smoke:
        raise click.exceptions.Exit(_smoke(spec))
    if cluster is not None and workers > 1:
        raise click.UsageError("--workers runs engines on this machine and --cluster on the cluster's workers: "
                               "choose one")
    _check_traces(traces)
    fixtures_dir = None if no_fixtures or traces else (fixtures or shipped_fixtures_dir())
    if fixtures is not None and not fixtures.is_dir():
        raise click.BadParameter(f"{fixtures}: no such directory", param_hint="--fixtures")
    counts = player_counts or (3, 4, 5, 6)
    corpus = Corpus(rulesets=_rulesets(ruleset_names, counts), games=0 if traces else games, seed=seed,
                    players=counts, fixtures=fixtures_dir,
                    scoring=not (no_scoring or traces), traces=traces, fresh_hands=no_cache, only=only,
                    levels=frozenset(levels) if levels else frozenset({"scoring", "round", "game"}))
    if min_coverage is not None:
        corpus.min_coverage, corpus.aim_cap = min_coverage, DEFAULT_CAP
    asked = _asked_parts(corpus)
    inputs = _inputs(ruleset_names, fixtures_dir, traces, command, python)
    stack = contextlib.ExitStack()
    opened = None
    if campaign is not None:
        opened = open_campaign(click.get_current_context(), campaign)
        stack.callback(opened.close)
    try:
        reports = _Reports.reserve(json_path, junit_xml, html_path, save_failures, inputs, fingerprint_path)
    except BaseException:
        stack.close()
        raise
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
    passed: list[Case] = []  # the fingerprint's readings are checked against them

    def on_outcome(outcome: Outcome) -> None:
        collected.extend(outcome.results)
        if html_path is not None and outcome.case is not None:
            keeper.offer([r.to_json() for r in outcome.results if r.outcome == FAIL], outcome.case.trace)
        for result in outcome.results:
            if result.outcome in (FAIL, ERRORED) or (result.outcome == SKIPPED and verbose):
                for line in describe(result):
                    bar.echo(line)
        bar.advance(failed=any(r.outcome in (FAIL, ERRORED) for r in outcome.results))

    started = time.perf_counter()
    stopped: KeyboardInterrupt | None = None
    hello: dict[str, Any] = {}
    decisions = 0
    try:
        with stack:
            pool = None
            if cluster is not None:
                pool = stack.enter_context(cluster_pool(cluster, spec, save_failures))
            hello, _, decisions = run(spec, corpus, workers=workers, save=save_failures, on_outcome=on_outcome,
                                      on_start=on_start, passed=passed, pool=pool, campaign=opened,
                                      isolated=python is not None)
    except EngineUnusable as error:
        bar.close()
        reports.discard()
        say(f"flip7-spec: error: {error}", err=True)
        for line in error.details:
            say(f"  {line}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
    except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM: the engines are stopped already
        stopped = interrupt
        decisions = sum(r.decisions for r in collected if r.level != "legal")
    except BaseException:  # any other stop: no report, and no .partial file left behind
        reports.discard()
        raise
    finally:
        bar.close()
    elapsed = time.perf_counter() - started
    shown_from = None if fixtures_dir is None else ("flip7-spec's shipped fixtures" if fixtures is None
                                                   else str(fixtures))
    summary = summary_lines(collected, spec.name, elapsed, decisions, handshake_seconds)
    covered = summarise(settled_corpus.coverage, settled_corpus.variants, settled_corpus.ruleset_list)
    aimed = settled_corpus.min_coverage if settled_corpus.games else 0
    chosen = bool(only) or not settled_corpus.games  # saved traces or a folder of fixtures: few clauses by design
    if only:  # a part none of whose cases matched was not asked for
        asked = [part for part in asked if any(part_of(r.case_id) == part for r in collected)]
    prints = fingerprints(collected, passed)
    for line in [*skip_reason_lines(collected, settled_corpus.coverage), *summary,
                 *corpus_lines(collected, shown_from),
                 *coverage_lines(covered, verbose, aimed, explain=min_coverage is not None, chosen=chosen),
                 *cause_lines(collected), *fingerprint_lines(prints, collected)]:
        say(line)
    unchecked: list[str] = []
    if stopped is None:
        for line in [*empty_part_warnings(collected, asked), *broken_promise_lines(collected)]:
            say(line, err=True)
        unchecked = unchecked_lines(collected, asked)
        if only and not collected:
            unchecked = [f"unchecked: no case matched --only {' '.join(only)}; nothing was checked"]
        for line in unchecked:
            say(line, err=True)
    meta = {"engine": spec.name, "hello": hello, "seed": seed, "games": games, "interrupted": stopped is not None,
            "seconds": round(elapsed, 3), "decisions": decisions,
            "engine_seconds": round(engine_seconds(collected, handshake_seconds), 3),
            "fingerprint": {base: list(f.readings) for base, f in prints.items()},
            "fingerprint_evidence": {base: {"kept": {e.reading: e.to_json() for e in f.entries},
                                            "dropped": {e.reading: e.to_json() for e in f.dropped}}
                                     for base, f in prints.items()},
            "coverage": [c.to_json() for c in covered], "unchecked": unchecked}
    reports.write(collected, meta, spec.name, keeper)
    if fingerprint_path is not None:
        for written in write_fingerprints(fingerprint_path, prints):
            say(f"fingerprint written to {written}")
    if stopped is not None:
        say("interrupted: the reports hold the cases that finished", err=True)
        raise click.exceptions.Exit(interruption(stopped))
    failed = any(r.outcome in (FAIL, ERRORED) for r in collected)
    raise click.exceptions.Exit(EXIT_CHECK_FAILED if failed else EXIT_UNCHECKED if unchecked else EXIT_OK)


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
