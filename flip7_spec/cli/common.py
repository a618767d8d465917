"""What every subcommand shares: one-line errors, exit codes, escaped output, signals, checked options."""

from __future__ import annotations

import math
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from flip7_spec.errors import Flip7Error
from flip7_spec.interrupts import interruption, stop_on_signals
from flip7_spec.limits import SEED_LENGTH, TIMEOUT, Limit, show_number
from flip7_spec.rulesets import Ruleset, default_preset, load_ruleset, preset_names
from flip7_spec.terminal import echo, printable, printable_json

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_UNCHECKED = 3
"""conform: the run checked nothing, or left unchecked a part of the corpus the engine promised to run."""
EXIT_INTERRUPTED = 130


class CheckFailed(click.exceptions.Exit):
    """Leave with exit code 1 after the report has been printed."""

    def __init__(self) -> None:
        super().__init__(EXIT_CHECK_FAILED)


def fail(message: str) -> NoReturn:
    """Stop with one line on stderr and exit code 2 (unusable input)."""
    raise click.ClickException(message)


def say(text: str, err: bool = False) -> None:
    """Print ``text`` as one line, every character that could act on the terminal escaped (a line break
    too): names, cards, messages and stderr lines from traces and engines are shown, never obeyed."""
    echo(printable(text), err=err)


def say_json(text: str) -> None:
    """Print JSON text, with the characters :func:`say` escapes written as JSON escapes (still valid JSON)."""
    click.echo(printable_json(text))


def run_main(group: click.Group) -> int:
    """Run the CLI; turn every library error into one line and exit code 2, Ctrl-C into 130 and SIGTERM
    into 143 (the first of them stops the command; it cleans up undisturbed by a second)."""
    try:
        with stop_on_signals():
            returned = group.main(standalone_mode=False)
        if isinstance(returned, int):  # click returns Exit codes instead of raising without standalone mode
            return returned
    except click.exceptions.Exit as leave:
        return leave.exit_code
    except click.ClickException as error:
        say(f"flip7-spec: error: {error.format_message()}", err=True)
        return EXIT_BAD_INPUT
    except click.exceptions.Abort as aborted:  # click's form of an interrupt (the signal is its cause)
        click.echo("flip7-spec: interrupted", err=True)
        cause = aborted.__cause__
        return interruption(cause) if isinstance(cause, KeyboardInterrupt) else EXIT_INTERRUPTED
    except KeyboardInterrupt as stopped:
        click.echo("flip7-spec: interrupted", err=True)
        return interruption(stopped)
    except Flip7Error as error:
        say(f"flip7-spec: error: {error}", err=True)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    return EXIT_OK


def within(limit: Limit) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback that refuses a number (or each of several) over ``limit``, naming the limit."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        for number in value if isinstance(value, tuple) else (value,):
            if isinstance(number, int) and number > limit.value:
                raise click.BadParameter(f"{show_number(number)} is over the limit of {limit.text} ({limit.name})")
        return value

    return check


def engine_command(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Check that ``--engine`` splits into arguments (it is split like a shell would, never run by one)."""
    if value is None:
        return None
    try:
        argv = shlex.split(value)
    except ValueError as error:
        raise click.BadParameter(f"cannot split {value!r} into arguments: {str(error).lower()} (the command is "
                                 "split like a shell would split it, and run without a shell)") from None
    if not argv:
        raise click.BadParameter("the engine command is empty")
    return value


def seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """Refuse a duration that is not a finite number of seconds within :data:`~flip7_spec.limits.TIMEOUT`."""
    if value is None:
        return None
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds")
    if value > TIMEOUT.value:
        raise click.BadParameter(f"{value:g} is over the limit of {TIMEOUT.text} ({TIMEOUT.name})")
    return value


def seed_text(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Refuse a seed that is not UTF-8 text (bytes a terminal let through) or is over the seed length limit."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise click.BadParameter(f"{value!r} is not UTF-8 text") from None
    if len(value) > SEED_LENGTH.value:
        raise click.BadParameter(f"{len(value):,} characters is over the limit of {SEED_LENGTH.text} "
                                 f"({SEED_LENGTH.name})")
    return value


INPUTS_KEY = "flip7_spec.input_files"


def input_files(ctx: click.Context | None = None) -> list[Path]:
    """The files the command's options read (ruleset files): an output must not overwrite one of them."""
    context = ctx or click.get_current_context()
    files: list[Path] = context.meta.get(INPUTS_KEY, [])
    return files


def note_inputs(ctx: click.Context, paths: Sequence[Path]) -> None:
    """Record ``paths`` as files this command reads (see :func:`input_files`)."""
    ctx.meta.setdefault(INPUTS_KEY, []).extend(paths)


def ruleset_option(required: bool = True) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--ruleset NAME|FILE`` option, converted to a :class:`Ruleset` (the default preset when not given,
    unless ``required`` is false: then None)."""
    default = default_preset() if required else None

    def convert(ctx: click.Context, param: click.Parameter, value: str | None) -> Ruleset | None:
        if value is None:
            return None
        if value not in preset_names():
            note_inputs(ctx, [Path(value)])
        try:
            return load_ruleset(value)
        except Flip7Error as error:
            raise click.BadParameter(str(error)) from None

    return click.option(
        "--ruleset", "-r", default=default, callback=convert, metavar="NAME|FILE", show_default=True,
        help=f"a preset ({', '.join(preset_names())}) or a .toml/.json ruleset file",
    )
