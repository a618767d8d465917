"""The ``flip7-spec`` command.

Each subcommand lives in its own module of this package (``cmd_NAME``) and exposes a click command named
``command``; the group lists them by module name and imports only the one that runs (a command's heavy
dependencies, z3 or the HTML templates, cost nothing to the others). Exit codes: 0 success, 1 a check
failed (a divergence, a failed proof, a failing engine), 2 unusable input (bad arguments, files, rulesets,
cards, outputs, or an engine that cannot be used at all), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from flip7_spec import __version__
from flip7_spec.cli.common import run_main


class _Commands(click.Group):
    """The subcommands, found by module name and imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(m.name[4:] for m in pkgutil.iter_modules(__path__) if m.name.startswith("cmd_"))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.list_commands(ctx):
            return None
        command: click.Command = importlib.import_module(f"{__name__}.cmd_{cmd_name}").command
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="flip7-spec")
def cli() -> None:
    """The referee for Flip 7 and Flip 7: With a Vengeance.

    An executable specification of the rules, a trace format that records a game exactly, and a
    conformance suite that finds where another engine breaks the rules.

    \b
    Exit codes: 0 success, 1 a check failed, 2 unusable input, 130 interrupted, 143 terminated.
    Run `flip7-spec COMMAND --help` for each command.
    """


def main() -> None:
    """Entry point of the console script."""
    sys.exit(run_main(cli))
