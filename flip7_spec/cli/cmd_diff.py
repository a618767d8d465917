"""``flip7-spec diff``: the smallest game that tells two rulesets apart, or a bounded search that found none."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from flip7_spec.cli.common import (
    CheckFailed,
    fail,
    input_files,
    note_inputs,
    say,
    say_json,
    seed_text,
)
from flip7_spec.errors import Flip7Error
from flip7_spec.outputs import Output, check_distinct
from flip7_spec.rulesdiff.every import every_reading, rows_text, table_lines
from flip7_spec.rulesdiff.lockstep import LEVELS, OBSERVATIONS
from flip7_spec.rulesdiff.readings_doc import DOC_BUDGET, doc_settings, write_readings_doc
from flip7_spec.rulesdiff.report import result_json, result_lines, traces
from flip7_spec.rulesdiff.run import DEFAULT_BUDGET, Settings, default_bound, diff
from flip7_spec.rulesdiff.sides import Sides, label, with_readings
from flip7_spec.rulesets import Ruleset, load_ruleset, preset_names
from flip7_spec.trace.canonical import dumps_document


class _Progress:
    """One line of progress on stderr, written over itself (nothing when disabled)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.shown = False

    def __call__(self, line: str) -> None:
        if self.enabled:
            click.echo(f"\r\033[Kdiff: {line}", err=True, nl=False)
            self.shown = True

    def close(self) -> None:
        if self.shown:
            click.echo("\r\033[K", err=True, nl=False)
            self.shown = False


def _load(ctx: click.Context, spec: str) -> Ruleset:
    if spec not in preset_names():
        note_inputs(ctx, [Path(spec)])
    return load_ruleset(spec)


def _outputs(out: Path) -> tuple[Path, Path]:
    """The two trace files ``--out FILE`` names: FILE-left.json and FILE-right.json (the suffix kept)."""
    suffix = out.suffix or ".json"
    return out.with_name(f"{out.stem}-left{suffix}"), out.with_name(f"{out.stem}-right{suffix}")


@click.command("diff")
@click.argument("rulesets", nargs=-1, metavar="[A] [B]")
@click.option("--left", "-L", "left_readings", multiple=True, metavar="READING",
              help="a reading the left side plays too: OPTION=VALUE or a misreading's name (repeatable)")
@click.option("--right", "--right-option", "-R", "right_readings", multiple=True, metavar="READING",
              help="a reading the right side plays too (repeatable): `diff flip7 -R flip7_bonus=0`")
@click.option("--both", "-B", "both_readings", multiple=True, metavar="READING",
              help="a reading both sides play (repeatable)")
@click.option("--all", "every", is_flag=True,
              help="every option value and every misreading of A's game against A, one line each")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@click.option("--level", type=click.Choice(LEVELS), default=OBSERVATIONS, show_default=True,
              help="what is compared after every step: the observations, or the observations and the events")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="write the game found as each side plays it: FILE-left.json and FILE-right.json")
@click.option("--budget", type=click.IntRange(1, 100_000_000), default=None,
              help=f"games (each played on both sides) the search may play; shrinking may play half as many more "
                   f"[default: {DEFAULT_BUDGET:,}; with --readings-doc, {DOC_BUDGET:,} for each reading]")
@click.option("--seed", default="diff", show_default=True, callback=seed_text,
              help="the seed of the aimed and drawn games")
@click.option("--cards", type=click.IntRange(1, 12), default=4, show_default=True,
              help="the bound: decks of at most this many cards")
@click.option("--players", type=click.IntRange(1, 18), default=None,
              help="the bound: at most this many players  [default: the fewest both sides allow]")
@click.option("--decisions", type=click.IntRange(0, 50), default=4, show_default=True,
              help="the bound: at most this many decisions")
@click.option("--reshuffles", type=click.IntRange(0, 10), default=1, show_default=True,
              help="the bound: at most this many reshuffles")
@click.option("--rounds", type=click.IntRange(1, 10), default=1, show_default=True,
              help="the bound: at most this many rounds")
@click.option("--every-card-type", is_flag=True,
              help="the bound's decks take every card type of the deck (default: the Numbers cut to the three "
                   "lowest and the modifiers to the smallest of each kind)")
@click.option("--workers", "-j", type=click.IntRange(1, 64), default=1, show_default=True,
              help="with --all or --readings-doc: readings diffed at once, in as many processes")
@click.option("--step-numbers", is_flag=True, help="start every line of a step of the game with 'step N |'")
@click.option("--progress/--no-progress", default=None,
              help="show a line of progress on stderr (default: when stderr is a terminal)")
@click.option("--readings-doc", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="write docs/readings.md: every reading of every game's official preset, diffed against it")
@click.pass_context
def command(ctx: click.Context, rulesets: tuple[str, ...], left_readings: tuple[str, ...],
            right_readings: tuple[str, ...], both_readings: tuple[str, ...], every: bool, as_json: bool,
            level: str, out: Path | None, budget: int | None, seed: str, cards: int, players: int | None,
            decisions: int, reshuffles: int, rounds: int, every_card_type: bool, workers: int, step_numbers: bool,
            progress: bool | None, readings_doc: Path | None) -> None:
    """The smallest game on which A and B first differ, or a bounded search that found none.

    A and B are presets, ruleset files or fingerprints (`conform --fingerprint`) of the same game; B is A
    when left out, so that `diff flip7 -R flip7_bonus=0` compares flip7 with flip7 at a bonus of 0. A game
    is a setup (players, Dealer, a deck top first: a custom deck of the rulesets' cards when both play the
    same deck; a target score when both play the same one), its decisions and its reshuffle orders. The
    reference plays it under A and under B side by side and compares them after the start and after every
    decision.

    \b
    The search: every game within a bound (--cards, --players, --decisions, --reshuffles, --rounds), fewest
    decisions first, then fewest players, then smallest deck; then aimed games (the coverage hunts: rigged
    and tiny decks, steered choices, low targets) and games drawn by Hypothesis, within --budget; a game
    found there is shrunk to the smallest in the same order. The game is shown as `show` shows a trace, up
    to its first difference, with the fields that differ on each side and the clauses involved. When none
    is found, the bound is stated: a bound, not a proof for all games.

    \b
    With --all: every option value and every misreading of A's game against A, one line each.
    Exit codes: 0 no difference found; 1 the two differ (a game was found); 2 unusable input.
    """
    show_progress = sys.stderr.isatty() if progress is None else progress
    line = _Progress(show_progress)
    if readings_doc is not None:
        if rulesets or every or out is not None or left_readings or right_readings or both_readings:
            fail("--readings-doc writes the readings of every game's official preset: give it alone")
        check_distinct([("--readings-doc", readings_doc)], input_files())
        output = Output.reserve(readings_doc, "--readings-doc")
        try:
            output.write(write_readings_doc(doc_settings(budget, seed), workers, done=lambda text: line(text)))
            output.commit()
        finally:
            output.discard()
            line.close()
        return
    if not rulesets:
        fail("give a ruleset A (a preset, a ruleset file or a fingerprint), and B to compare it with")
    if len(rulesets) > 2:
        fail(f"diff compares two rulesets, A and B; got {len(rulesets)}: {' '.join(rulesets)}")
    left = _load(ctx, rulesets[0])
    right = _load(ctx, rulesets[1]) if len(rulesets) == 2 else left
    left = with_readings(with_readings(left, both_readings, "--both"), left_readings, "--left")
    base_right = with_readings(right, both_readings, "--both")
    right = with_readings(base_right, right_readings, "--right")
    if every:
        if len(rulesets) == 2 or out is not None or right_readings or left_readings:
            fail("--all diffs every reading against A alone: give no B, --out, --left or --right")
        settings = Settings(level=level, budget=budget or DEFAULT_BUDGET, seed=seed)
        rows = every_reading(left, settings, workers, done=lambda row: line(f"{row.reading.text} done"))
        line.close()
        if as_json:
            say_json(rows_text(left, rows))
            return
        for text in table_lines(left, rows):
            say(text)
        return
    sides = Sides.of(left, right, label(left) if not left_readings else label(left, _load(ctx, rulesets[0])),
                     label(right, base_right) if right_readings else right.name)
    bound = default_bound(sides, cards, players, decisions, reshuffles, rounds, every_card_type)
    settings = Settings(level=level, bound=bound, budget=budget or DEFAULT_BUDGET, seed=seed)
    files: list[Output] = []
    if out is not None:
        paths = _outputs(out)
        check_distinct([("--out (left)", paths[0]), ("--out (right)", paths[1])], input_files())
        try:
            for path in paths:
                files.append(Output.reserve(path, "--out"))
        except BaseException:
            for output in files:
                output.discard()
            raise
    try:
        try:
            result = diff(sides, settings, report=line)
        finally:
            line.close()
        left_trace, right_trace = traces(result)
        if as_json:
            import json

            say_json(json.dumps(result_json(result, left_trace), indent=2, sort_keys=True))
        else:
            for text in result_lines(result, left_trace, step_numbers):
                say(text)
        if files and result.game is not None:
            for output, trace, path in zip(files, (left_trace, right_trace), paths, strict=True):
                if trace is None:
                    continue
                output.write(dumps_document(trace))
                output.commit()
                if not as_json:
                    say(f"wrote {path}")
    except Flip7Error as error:
        fail(str(error))
    finally:
        for output in files:
            output.discard()
    if result.game is not None:
        raise CheckFailed()
