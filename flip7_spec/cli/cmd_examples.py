"""``flip7-spec examples``: the example engines shipped with flip7-spec, and where they are."""

from __future__ import annotations

import shlex

import click

from flip7_spec.bundled import EXAMPLES, examples_dir
from flip7_spec.cli.common import say


@click.command("examples")
def command() -> None:
    """List the example engines shipped with flip7-spec: what each is, what it needs, and the command that runs
    it, with its files' place in this installation (copy one to start an engine of your own).

    `flip7-spec conform --example NAME` runs one of them; so does `flip7-spec conform --engine` with the
    command shown. The example ruleset files are in the same folder, under rulesets/.
    """
    say(f"# the example engines, in {examples_dir()}")
    for name, engine in EXAMPLES.items():
        problem = engine.missing()
        say(f"{name}: {engine.summary}")
        say(f"    needs: {engine.needs}" + (f" (cannot run here: {problem})" if problem else ""))
        say(f"    run:   flip7-spec conform --example {name}")
        say(f"    or:    flip7-spec conform --engine {shlex.quote(engine.command())}")
        say(f"    files: {engine.path().parent}")
