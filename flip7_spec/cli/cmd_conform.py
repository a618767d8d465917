"""``flip7-spec conform``: run the conformance corpus against another engine."""

from __future__ import annotations

import contextlib
import json
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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
from flip7_spec.conformance.aimed import DEFAULT_CAP, RUN_BUDGET
from flip7_spec.conformance.cases import part_of
from flip7_spec.conformance.coverage import coverage_lines, summarise
from flip7_spec.conformance.fingerprint import cause_lines, fingerprint_lines, fingerprints, write_fingerprints
from flip7_spec.conformance.progress import Progress
from flip7_spec.conformance.report import (
    corpus_lines,
    empty_part_warnings,
    engine_seconds,
    json_report,
    junit_report,
    summary_lines,
)
from flip7_spec.conformance.session import Corpus, EngineSpec, EngineUnusable, FinishedCase, handshake, run
from flip7_spec.conformance.smoke import smoke
from flip7_spec.conformance.verdict import broken_promise_lines, skip_reason_lines, unchecked_lines
from flip7_spec.errors import Flip7Error, InputError, OutputError
from flip7_spec.fixtures import shipped_fixtures_dir
from flip7_spec.htmlreport import TraceKeeper, render_report, report_from
from flip7_spec.interrupts import interruption, signals_held
from flip7_spec.judge.case import Case
from flip7_spec.judge.describe import describe
from flip7_spec.limits import COVERAGE_AIM, GAMES, PLAYERS, WORKERS, check_game_size
from flip7_spec.outputs import Output, check_distinct, check_target, reserve_folder
from flip7_spec.play import check_reachable
from flip7_spec.protocol import CHECKED_LEVELS, TRACE_LEVELS, Level, traffic
from flip7_spec.results import CaseResult
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


def _smoke_logged(spec: EngineSpec, log_path: Path | None, inputs: list[Path]) -> int:
    """:func:`_smoke`, with its lines written to ``log_path`` (``--log-protocol``) when given."""
    if log_path is None:
        return _smoke(spec)
    check_distinct([(_ProtocolLog.WHAT, log_path)], inputs)
    log = _ProtocolLog.reserve(log_path)
    try:
        log.start()
        code = _smoke(spec)
    except BaseException:
        log.discard()
        raise
    log.commit()
    return code


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


class _ProtocolLog:
    """The ``--log-protocol`` file (docs/protocol.md, "Seeing the traffic"), reserved before the run like the
    reports. While the run goes on, each of its processes records its lines in a part of its own, in a hidden
    folder beside the file (:mod:`flip7_spec.protocol.traffic`); at the end the parts are merged in time order
    into the file, which is committed whole. It is kept when the engine cannot be used and when the run is
    interrupted too: the lines exchanged until then are what it is for."""

    WHAT = "--log-protocol"

    def __init__(self, output: Output) -> None:
        self.output = output
        self.parts: Path | None = None

    @classmethod
    def reserve(cls, path: Path) -> _ProtocolLog:
        """Reserve the file and make the folder of its parts (:class:`OutputError` if either cannot be)."""
        log = cls(Output.reserve(path, cls.WHAT))
        try:
            log.parts = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name[:100]}.", suffix=".parts"))
        except OSError as error:
            log.output.discard()
            raise OutputError(f"cannot write {cls.WHAT} {path}: {(error.strerror or str(error)).lower()}") from None
        return log

    def start(self) -> None:
        """Record this process's lines from now on (the workers it starts record theirs)."""
        assert self.parts is not None
        traffic.record_in(self.parts)

    def commit(self) -> None:
        """Stop recording, merge the parts into the file and commit it."""
        traffic.stop()
        try:
            if self.parts is not None:
                for line in traffic.merged(self.parts):
                    self.output.write(line)
            self.output.commit()
        finally:
            self.discard()

    def discard(self) -> None:
        """Stop recording and give the file up (nothing if it was committed); remove the parts."""
        traffic.stop()
        self.output.discard()
        if self.parts is not None:
            shutil.rmtree(self.parts, ignore_errors=True)
            self.parts = None


@dataclass(frozen=True, slots=True)
class ReportFormat:
    """One report conform writes at the end of a run: its option (the file it is written to), the option's
    help, and its text from the results, the run's metadata, the engine's name and the JSON report's text
    (every report is drawn from the same run)."""

    option: str
    parameter: str
    """The name of the option's value among click's parameters (a campaign names it too)."""
    help: str
    text: Callable[[list[CaseResult], dict[str, Any], str, str], str]
    reads_json: bool = True
    """Whether its text is made from the JSON report's (which is then made once for every report)."""


REPORT_FORMATS: tuple[ReportFormat, ...] = (
    ReportFormat("--json", "json_path", "write a JSON report", lambda results, meta, engine, json_text: json_text),
    ReportFormat("--junit-xml", "junit_xml", "write a JUnit XML report",
                 lambda results, meta, engine, json_text: junit_report(results, engine), False),
    # The page is drawn from the records the JSON report holds (CaseResult.from_json), as `show --html` draws it
    # from the saved report: the same page, byte for byte, whatever values an engine sent (the JSON text
    # writes a non-finite number or an unknown type as text).
    ReportFormat("--html", "html_path",
                 "write an HTML report: one self-contained file with each failure's table, both sides",
                 lambda results, meta, engine, json_text: render_report(report_from(json.loads(json_text)))),
)
"""The reports, in the order they are written and listed: a new format is one entry here (its option is made
from it, :class:`ConformOptions` reads it, and a resumed campaign may change it)."""


def reads_json(asked: Iterable[str]) -> bool:
    """Whether a report drawn from the JSON report's text is among the ``asked`` options (the JSON report then
    carries the games of the failures the page draws in full)."""
    asked = set(asked)
    return any(report.reads_json and report.option in asked for report in REPORT_FORMATS)


def report_options(function: Callable[..., None]) -> Callable[..., None]:
    """The option of every report of :data:`REPORT_FORMATS`, in the table's order."""
    for report in reversed(REPORT_FORMATS):
        function = click.option(report.option, report.parameter, type=click.Path(dir_okay=False, path_type=Path),
                                help=report.help)(function)
    return function


@dataclass(frozen=True, slots=True)
class ConformOptions:
    """The ``conform`` command line, read once (:meth:`of`): each option's value as click gave it, after its
    checks. A new option is a field here and its ``click.option``; a new report, an entry of
    :data:`REPORT_FORMATS`."""

    command: str | None
    """The engine command (``--engine``; an ``--example``'s command line once :meth:`engine` is read)."""
    python: str | None
    example_name: str | None
    games: int
    seed: str
    ruleset_names: tuple[str, ...]
    player_counts: tuple[int, ...]
    fixtures: Path | None
    no_fixtures: bool
    no_scoring: bool
    traces: tuple[Path, ...]
    only: tuple[str, ...]
    levels: tuple[str, ...]
    timeout: float
    workers: int
    cluster: str | None
    campaign: Path | None
    save_failures: Path | None
    fingerprint_path: Path | None
    min_coverage: int | None
    log_path: Path | None
    smoke: bool
    no_cache: bool
    verbose: bool
    quiet: bool
    progress: bool | None
    reports: dict[str, Path | None]
    """Each report's file by its option (None: not asked for), for every entry of :data:`REPORT_FORMATS`."""

    @classmethod
    def of(cls, parameters: dict[str, Any]) -> ConformOptions:
        """The options from click's parameters by name (a parameter with no field is a TypeError: the field
        was forgotten)."""
        given = dict(parameters)
        reports = {report.option: given.pop(report.parameter) for report in REPORT_FORMATS}
        return cls(reports=reports, **given)

    def engine(self) -> EngineSpec:
        """The engine to run: exactly one of ``--engine``, ``--python`` and ``--example`` (UsageError
        otherwise), an example by its command line."""
        if sum(given is not None for given in (self.command, self.python, self.example_name)) != 1:
            raise click.UsageError("give exactly one of --engine CMD, --python MODULE:ATTR or --example NAME")
        command = self.command if self.example_name is None else example(self.example_name).command()
        return EngineSpec(command=command, python=self.python, timeout=self.timeout)

    def keeps_traces(self) -> bool:
        """Whether a report drawn from the JSON report is asked for (it carries the games of the failures the
        page draws in full)."""
        return reads_json(option for option, path in self.reports.items() if path is not None)


@dataclass
class _Reports:
    """The outputs of a run, reserved before it starts (see :mod:`flip7_spec.outputs`), by report option."""

    outputs: dict[str, Output] = field(default_factory=dict)
    log: _ProtocolLog | None = None

    @classmethod
    def reserve(cls, paths: dict[str, Path | None], save_failures: Path | None, inputs: list[Path],
                fingerprint: Path | None = None, log_path: Path | None = None) -> _Reports:
        """Reserve each report of ``paths`` (by option; None: not asked for), after checking every output name
        against the others and the run's inputs."""
        named = [*paths.items(), (_ProtocolLog.WHAT, log_path)]
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
            for option, target in paths.items():
                if target is not None:
                    reports.outputs[option] = Output.reserve(target, option)
            reports.log = _ProtocolLog.reserve(log_path) if log_path is not None else None
        except OutputError:
            reports.discard()
            raise
        return reports

    def write(self, results: list[CaseResult], meta: dict[str, Any], engine: str, keeper: TraceKeeper) -> None:
        """Write and commit every report and the protocol log (each whole or not at all)."""
        try:
            # The report carries the games of the failures its page draws in full, so that the page drawn
            # later from the JSON alone (show --html) is the page written now.
            json_text = ""
            if reads_json(self.outputs):
                json_text = json_report(results, {**meta, "traces": keeper.traces} if keeper.traces else meta)
            for report in REPORT_FORMATS:
                output = self.outputs.get(report.option)
                if output is not None:
                    output.write(report.text(results, meta, engine, json_text))
                    output.commit()
            self.commit_log()
        finally:
            self.discard()

    def commit_log(self) -> None:
        """Merge and commit the protocol log, if one was asked for."""
        if self.log is not None:
            self.log.commit()

    def discard(self) -> None:
        for output in self.outputs.values():
            output.discard()
        if self.log is not None:
            self.log.discard()


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
@report_options
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
@click.option("--log-protocol", "log_path", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="write every line sent to and received from the engine, and each line it writes to stderr, to "
                   "FILE: JSON Lines, one record a line, {t, worker, engine, case, dir, line} (t: UTC time; worker: "
                   "0 this process, N the N-th -j worker; engine: its pid; case: the case id, null for the handshake; "
                   "dir: send, recv or stderr); in time order, kept when the run stops early; also at DEBUG on the "
                   "Python logger flip7_spec.protocol (docs/protocol.md, \"Seeing the traffic\"); not with --python "
                   "or --cluster")
@click.option("--smoke", is_flag=True, help="only the handshake and one whole short game (is the adapter right?)")
@click.option("--no-cache", is_flag=True,
              help="search the scoring hands with z3 again instead of reading the shipped or cached results")
@click.option("--verbose", "-v", is_flag=True, help="also list every skipped case")
@click.option("--quiet", "-q", is_flag=True, help="print only failures and the summary; no progress bar")
@click.option("--progress/--no-progress", default=None,
              help="show a progress bar (default: on a terminal, unless --quiet)")
def command(**parameters: Any) -> None:
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
    options = ConformOptions.of(parameters)
    spec = options.engine()
    fingerprint = options.fingerprint_path
    if fingerprint is not None and fingerprint.suffix.lower() not in (".json", ".toml"):
        raise click.BadParameter(f"{fingerprint}: a fingerprint is a ruleset file: give a .json or .toml name",
                                 param_hint="--fingerprint")
    if options.log_path is not None and (options.python is not None or options.cluster is not None):
        elsewhere = "--python runs the engine in this process" if options.python is not None else \
            "--cluster runs the engines on the cluster's machines"
        raise click.UsageError(f"--log-protocol records the lines exchanged with engine processes on this machine: "
                               f"{elsewhere}")
    if options.smoke:
        raise click.exceptions.Exit(_smoke_logged(spec, options.log_path,
                                                  _inputs((), None, (), spec.command, options.python)))
    if options.cluster is not None and options.workers > 1:
        raise click.UsageError("--workers runs engines on this machine and --cluster on the cluster's workers: "
                               "choose one")
    _check_traces(options.traces)
    fixtures_dir = None if options.no_fixtures or options.traces else (options.fixtures or shipped_fixtures_dir())
    if options.fixtures is not None and not options.fixtures.is_dir():
        raise click.BadParameter(f"{options.fixtures}: no such directory", param_hint="--fixtures")
    counts = options.player_counts or (3, 4, 5, 6)
    corpus = Corpus(rulesets=_rulesets(options.ruleset_names, counts), games=0 if options.traces else options.games,
                    seed=options.seed, players=counts, fixtures=fixtures_dir,
                    scoring=not (options.no_scoring or options.traces), traces=options.traces,
                    fresh_hands=options.no_cache, only=options.only,
                    levels=frozenset(Level(name) for name in options.levels) if options.levels else CHECKED_LEVELS)
    if options.min_coverage is not None:
        corpus.min_coverage, corpus.aim_cap = options.min_coverage, DEFAULT_CAP
    asked = _asked_parts(corpus)
    inputs = _inputs(options.ruleset_names, fixtures_dir, options.traces, spec.command, options.python)
    stack = contextlib.ExitStack()
    opened = None
    if options.campaign is not None:
        opened = open_campaign(click.get_current_context(), options.campaign,
                               frozenset(f.parameter for f in REPORT_FORMATS))
        stack.callback(opened.close)
    try:
        reports = _Reports.reserve(options.reports, options.save_failures, inputs, options.fingerprint_path,
                                   options.log_path)
    except BaseException:
        stack.close()
        raise
    bar = Progress(sys.stderr.isatty() and not options.quiet if options.progress is None else options.progress)
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

    def on_outcome(outcome: FinishedCase) -> None:
        collected.extend(outcome.results)
        if options.keeps_traces() and outcome.case is not None:
            keeper.offer([r for r in outcome.results if r.outcome in (FAIL, ERRORED)], outcome.case.trace)
        for result in outcome.results:
            if result.outcome in (FAIL, ERRORED) or (result.outcome == SKIPPED and options.verbose):
                for line in describe(result):
                    bar.echo(line)
        bar.advance(failed=any(r.outcome in (FAIL, ERRORED) for r in outcome.results))

    started = time.perf_counter()
    stopped: KeyboardInterrupt | None = None
    hello: dict[str, Any] = {}
    decisions = 0
    try:
        if reports.log is not None:
            reports.log.start()
        with stack:
            pool = None
            if options.cluster is not None:
                pool = stack.enter_context(cluster_pool(options.cluster, spec, options.save_failures))
            hello, _, decisions = run(spec, corpus, workers=options.workers, save=options.save_failures,
                                      on_outcome=on_outcome, on_start=on_start, passed=passed, pool=pool,
                                      campaign=opened, isolated=options.python is not None)
    except EngineUnusable as error:
        bar.close()
        reports.commit_log()  # the handshake's lines: what shows why the engine cannot be used
        reports.discard()
        say(f"flip7-spec: error: {error}", err=True)
        for line in error.details:
            say(f"  {line}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
    except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM: the engines are stopped already
        stopped = interrupt
        decisions = sum(r.decisions for r in collected if r.level != Level.LEGAL)
    except BaseException:  # any other stop: no report, and no .partial file left behind
        reports.discard()
        raise
    finally:
        bar.close()
    # The cases are done: a signal from here on must not cut the reports short. They are written whole,
    # then the signal stops the command (its exit status says so; the reports say the run was complete).
    with signals_held():
        elapsed = time.perf_counter() - started
        shown_from = None if fixtures_dir is None else ("flip7-spec's shipped fixtures" if options.fixtures is None
                                                       else str(options.fixtures))
        summary = summary_lines(collected, spec.name, elapsed, decisions, handshake_seconds)
        covered = summarise(settled_corpus.coverage, settled_corpus.variants, settled_corpus.ruleset_list)
        aimed = settled_corpus.min_coverage if settled_corpus.games else 0
        chosen = bool(options.only) or not settled_corpus.games  # saved traces or a folder of fixtures: few clauses
        if options.only:  # a part none of whose cases matched was not asked for
            asked = [part for part in asked if any(part_of(r.case_id) == part for r in collected)]
        prints = fingerprints(collected, passed)
        for line in [*skip_reason_lines(collected, settled_corpus.coverage), *summary,
                     *corpus_lines(collected, shown_from),
                     *coverage_lines(covered, options.verbose, aimed, explain=options.min_coverage is not None,
                                     chosen=chosen),
                     *cause_lines(collected), *fingerprint_lines(prints, collected)]:
            say(line)
        unchecked: list[str] = []
        if stopped is None:
            for line in [*empty_part_warnings(collected, asked), *broken_promise_lines(collected)]:
                say(line, err=True)
            unchecked = unchecked_lines(collected, asked)
            if options.only and not collected:
                unchecked = [f"unchecked: no case matched --only {' '.join(options.only)}; nothing was checked"]
            for line in unchecked:
                say(line, err=True)
        meta = {"engine": spec.name, "hello": hello, "seed": options.seed, "games": options.games,
                "interrupted": stopped is not None, "seconds": round(elapsed, 3), "decisions": decisions,
                "engine_seconds": round(engine_seconds(collected, handshake_seconds), 3),
                "fingerprint": {base: list(f.readings) for base, f in prints.items()},
                "fingerprint_evidence": {base: {"kept": {e.reading: e.to_json() for e in f.entries},
                                                "dropped": {e.reading: e.to_json() for e in f.dropped}}
                                         for base, f in prints.items()},
                "coverage": [c.to_json() for c in covered], "unchecked": unchecked}
        reports.write(collected, meta, spec.name, keeper)
        if options.fingerprint_path is not None:
            for written in write_fingerprints(options.fingerprint_path, prints):
                say(f"fingerprint written to {written}")
    if stopped is not None:
        say("interrupted: the reports hold the cases that finished", err=True)
        raise click.exceptions.Exit(interruption(stopped))
    failed = any(r.outcome in (FAIL, ERRORED) for r in collected)
    raise click.exceptions.Exit(EXIT_CHECK_FAILED if failed else EXIT_UNCHECKED if unchecked else EXIT_OK)


def _asked_parts(corpus: Corpus) -> list[str]:
    """The parts of the corpus this run asked for (an empty one is warned about)."""
    asked = []
    if corpus.scoring and Level.SCORING in corpus.levels:
        asked.append("scoring")
    if corpus.traces and TRACE_LEVELS & corpus.levels:
        asked.append("trace")
    if corpus.fixtures is not None and TRACE_LEVELS & corpus.levels:
        asked.append("fixture")
    if corpus.games > 0 and TRACE_LEVELS & corpus.levels:
        asked.append("generated")
    return asked
