"""``flip7-spec rules``: list the rule clauses of a ruleset."""

from __future__ import annotations

import json

import click

from flip7_spec.clauses import clauses_for
from flip7_spec.cli.common import ruleset_option, say, say_json
from flip7_spec.rulesets import OPTIONS, Ruleset


@click.command("rules")
@ruleset_option()
@click.option("--json", "as_json", is_flag=True, help="print the clauses and options as JSON")
@click.option("--options", "show_options", is_flag=True, help="also list the ruleset's options and values")
def command(ruleset: Ruleset, as_json: bool, show_options: bool) -> None:
    """List every rule clause: id, confidence, statement, source and where in RULES.md.

    Confidence is H (official text), M (official source through a paraphrase or relayed ruling) or
    L (inference or a reasoned guess); [option] names the ruleset option that selects between readings.
    """
    clauses = clauses_for(ruleset.game)
    if as_json:
        say_json(json.dumps({
            "ruleset": ruleset.to_json(),
            "clauses": [
                {"id": c.id, "statement": c.statement, "source": c.source, "confidence": c.confidence,
                 "where": c.where, "option": c.option}
                for c in clauses
            ],
        }, indent=2, sort_keys=True, ensure_ascii=False))
        return
    say(f"# {ruleset.name}: {ruleset.description}")
    say(f"# {len(clauses)} clauses")
    for c in clauses:
        option = f" [option {c.option}]" if c.option else ""
        say(f"{c.id} ({c.confidence}) {c.statement}{option}")
        say(f"    source: {c.source}; RULES.md {c.where}")
    if show_options:
        say("# options")
        for name, value in ruleset.options().items():
            spec = OPTIONS.get(name)
            say(f"{name} = {json.dumps(value)}" + (f"    # {spec.help}" if spec else ""))
