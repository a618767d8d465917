"""What every subcommand shares: one-line errors, exit codes, ruleset and output options."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NoReturn

import click

from flip7_spec.errors import Flip7Error
from flip7_spec.rulesets import Ruleset, default_preset, load_ruleset, preset_names

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class CheckFailed(click.exceptions.Exit):
    """Leave with exit code 1 after the report has been printed."""

    def __init__(self) -> None:
        super().__init__(EXIT_CHECK_FAILED)


def fail(message: str) -> NoReturn:
    """Stop with one line on stderr and exit code 2 (unusable input)."""
    raise click.ClickException(message)


def run_main(group: click.Group) -> int:
    """Run the CLI; turn every library error into one line and exit code 2, Ctrl-C into 130."""
    try:
        returned = group.main(standalone_mode=False)
        if isinstance(returned, int):  # click returns Exit codes instead of raising without standalone mode
            return returned
    except click.exceptions.Exit as leave:
        return leave.exit_code
    except click.ClickException as error:
        click.echo(f"flip7-spec: error: {error.format_message()}", err=True)
        return EXIT_BAD_INPUT
    except click.exceptions.Abort:
        click.echo("flip7-spec: interrupted", err=True)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        click.echo("flip7-spec: interrupted", err=True)
        return EXIT_INTERRUPTED
    except Flip7Error as error:
        click.echo(f"flip7-spec: error: {error}", err=True)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    return EXIT_OK


def ruleset_option(required: bool = True) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--ruleset NAME|FILE`` option, converted to a :class:`Ruleset` (the default preset when not given,
    unless ``required`` is false: then None)."""
    default = default_preset() if required else None

    def convert(ctx: click.Context, param: click.Parameter, value: str | None) -> Ruleset | None:
        if value is None:
            return None
        try:
            return load_ruleset(value)
        except Flip7Error as error:
            raise click.BadParameter(str(error)) from None

    return click.option(
        "--ruleset", "-r", default=default, callback=convert, metavar="NAME|FILE", show_default=True,
        help=f"a preset ({', '.join(preset_names())}) or a .toml/.json ruleset file",
    )
