"""``flip7-spec fixtures``: compile the golden fixture sources into traces, check them, list their coverage."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import click

from flip7_spec.clauses import clauses_for
from flip7_spec.cli.common import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_OK, fail, say
from flip7_spec.conformance.scoring_hands import regenerate_shipped
from flip7_spec.errors import Flip7Error
from flip7_spec.fixtures import (
    Report,
    compiled_paths,
    default_fixtures_dir,
    regenerate,
    shipped_fixtures_dir,
)
from flip7_spec.inputs import read_document
from flip7_spec.limits import TRACE_FILE
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.trace.document import TraceDocument

HANDS = "scoring-hands"
_DIR_HELP = "the fixtures directory (default: ./fixtures if it has sources, else the checkout's fixtures)"


def _root(directory: Path | None) -> Path:
    root = directory if directory is not None else default_fixtures_dir()
    if not (root / "src").is_dir():
        fail(f"{root}: not a fixtures directory (no src/ subdirectory with fixture sources)")
    return root


@click.group("fixtures")
def command() -> None:
    """The golden fixtures: hand-written sources (fixtures/src/GAME/NAME.toml) compiled on the reference
    into traces (fixtures/GAME/NAME.json), each naming the rule clauses it exercises."""


@command.command("regenerate")
@click.option("--check", is_flag=True,
              help="write nothing; exit 1 listing the fixtures whose file differs from what compiling gives")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), help=_DIR_HELP)
@click.argument("names", nargs=-1)
def regenerate_command(check: bool, directory: Path | None, names: tuple[str, ...]) -> None:
    """Compile every fixture source (or only NAMES, e.g. flip7/bust-basic) and write its trace.

    This is the one command that regenerates the expected parts of the fixtures from the reference.
    Hand-derived expectations in a source (expect_round_scores, [[expect]], ...) are checked while
    compiling; a fixture whose expectation the reference contradicts is not written.

    With no NAMES on the shipped fixtures (or with the name scoring-hands) it also searches, with z3, the
    presets' distinguishing scoring hands that conform runs, and writes (or, with --check, compares) the
    file that ships them.

    \b
    Exit codes: 0 done (or, with --check, all up to date); 1 an expectation failed or, with --check,
    some compiled file is out of date or has no source; 2 a source is unusable.
    """
    root = _root(directory)
    # The shipped hands go with the shipped fixtures: another fixtures folder (a test's copy) leaves them be.
    hands = HANDS in names or (not names and root.resolve() == shipped_fixtures_dir().resolve())
    traces = tuple(n for n in names if n != HANDS)
    report = regenerate(root, check=check, only=traces) if traces or not names else Report()
    if hands:
        path, changed = regenerate_shipped(check=check)
        if changed and check:
            report.outdated.append(f"{path.name} (the presets' scoring hands)")
        elif changed:
            report.written.append(f"{path.name} (the presets' scoring hands)")
        else:
            report.unchanged.append(path.name)
    for shown in report.written:
        say(f"wrote {shown}")
    for shown in report.outdated:
        say(f"out of date: {shown} (run `flip7-spec fixtures regenerate`)")
    for orphan in report.orphans:
        say(f"{'no source' if check else 'warning: no source (not removed)'}: {orphan}")
    for failure in report.failures:
        say(f"EXPECTATION FAILED: {failure}", err=True)
    for error in report.errors:
        say(f"error: {error}", err=True)
    total = len(report.written) + len(report.unchanged) + len(report.outdated)
    say(f"{total} fixture{'s' if total != 1 else ''} compiled: {len(report.written)} written, "
               f"{len(report.unchanged)} unchanged, {len(report.outdated)} out of date; "
               f"{len(report.failures)} failed expectation(s), {len(report.errors)} error(s)")
    if report.errors:
        raise click.exceptions.Exit(EXIT_BAD_INPUT)
    if report.failures or report.outdated or (check and report.orphans):
        raise click.exceptions.Exit(EXIT_CHECK_FAILED)
    raise click.exceptions.Exit(EXIT_OK)


@command.command("list")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), help=_DIR_HELP)
def list_command(directory: Path | None) -> None:
    """List the compiled fixtures (name, clauses, description) and, per game, the clauses no fixture names.

    Exit code 1 when some clause of a game that has fixtures is named by no fixture.
    """
    root = _root(directory)
    named: dict[str, set[str]] = defaultdict(set)
    for path in compiled_paths(root):
        try:
            document = TraceDocument.of(read_document(path, TRACE_FILE))
            game = ruleset_from_json(document.ruleset_json).game
        except (Flip7Error, KeyError, TypeError) as error:
            fail(f"{path}: not a readable fixture ({error})")
        clauses = document.clauses
        named[game].update(clauses)
        name = path.relative_to(root).with_suffix("").as_posix()
        say(f"{name}  [{len(clauses)} clauses]  {document.description or ''}")
    missing_any = False
    for game in sorted(named):
        registry = [c.id for c in clauses_for(game)]
        missing = [c for c in registry if c not in named[game]]
        missing_any = missing_any or bool(missing)
        say(f"{game}: {len(registry) - len(missing)} of {len(registry)} clauses named by a fixture"
                   + (f"; missing: {' '.join(missing)}" if missing else ""))
    raise click.exceptions.Exit(EXIT_CHECK_FAILED if missing_any else EXIT_OK)
