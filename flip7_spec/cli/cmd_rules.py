"""``flip7-spec rules``: list the rule clauses of a ruleset."""

from __future__ import annotations

import json

import click

from flip7_spec.bibliography import cited, sources
from flip7_spec.clauses import CLAUSES, Clause, clauses_for
from flip7_spec.cli.common import ruleset_option, say, say_json
from flip7_spec.misreadings import catalogue
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset, preset


@click.command("rules")
@ruleset_option()
@click.option("--json", "as_json", is_flag=True, help="print the clauses and options as JSON")
@click.option("--options", "show_options", is_flag=True, help="also list the ruleset's options and values")
@click.option("--misreadings", "show_misreadings", is_flag=True,
              help="also list the game's catalogue of known misreadings (what the diagnosis tries)")
@click.option("--sources", "show_sources", is_flag=True,
              help="print the bibliography instead: every source the clauses cite (S1-S9, V1-V4, ...), with its "
                   "publisher or site, date, how it was read, what it settles and how many clauses cite it")
def command(ruleset: Ruleset, as_json: bool, show_options: bool, show_misreadings: bool, show_sources: bool) -> None:
    """List every rule clause: id, confidence, statement, source and where in the rules document
    (docs/rules.md, whose sections A.1#14 and so on the locations name).

    Confidence is H (official text), M (official source through a paraphrase or relayed ruling) or
    L (inference or a reasoned guess); [option] names the ruleset option that selects between readings.
    With --options, each option follows with its allowed values and the clause of each reading; with
    --misreadings, the known misreadings of the game that `conform` diagnoses (name, family, clause, what an
    engine that misreads does): a ruleset's `deviations` may name them. --sources prints the bibliography the
    clauses cite instead (S1-S9 for the base game, V1-V4 for Vengeance, ...).
    """
    if show_sources:
        _print_sources(as_json)
        return
    clauses = clauses_for(ruleset.game)
    if as_json:
        say_json(json.dumps({
            "ruleset": ruleset.to_json(),
            "clauses": [
                {"id": c.id, "statement": c.statement, "source": c.source, "confidence": c.confidence,
                 "where": c.where, "option": c.option}
                for c in clauses
            ],
            "misreadings": [
                {"name": m.name, "family": m.family, "clause": m.clause, "description": m.description}
                for m in catalogue(ruleset.game).values()
            ],
        }, indent=2, sort_keys=True, ensure_ascii=False))
        return
    say(f"# {ruleset.name}: {ruleset.description}")
    say(f"# {len(clauses)} clauses")
    for c in clauses:
        option = f" [option {c.option}]" if c.option else ""
        say(f"{c.id} ({c.confidence}) {c.statement}{option}")
        say(f"    source: {c.source}; docs/rules.md {c.where}")
    if show_options:
        say("# options (value in this ruleset; allowed values, each with the clause of its reading)")
        for line in option_lines(ruleset):
            say(line)
    if show_misreadings:
        known = catalogue(ruleset.game)
        say(f"# {len(known)} known misreadings (name, family, clause: what the engine does)")
        for m in known.values():
            say(f"{m.name} ({m.family}, {m.clause}): {m.description}")


def option_lines(ruleset: Ruleset) -> list[str]:
    """Each option of ``ruleset``: its value here and its help, then one line per allowed value with the
    clause that states that reading (``*`` marks the ruleset's value; whole-number options say so)."""
    official = preset(definition_of(ruleset).presets[0][0])
    lines: list[str] = []
    for name, option in ruleset.OPTIONS.items():
        value = getattr(ruleset, name)
        default = getattr(official, name)
        lines.append(f"{name} = {json.dumps(value)}    # {option.help} (official: {json.dumps(default)})")
        values = option.values()
        if values is None:
            clause = CLAUSES.get(option.clause)
            lines.append(f"    any whole number >= 0: {option.clause} {clause.statement if clause else ''}".rstrip())
            continue
        for allowed in values:
            mark = "*" if allowed == value and type(allowed) is type(value) else " "
            clause_id = option.clause_of(allowed)
            if clause_id == option.clause and not (allowed == default and type(allowed) is type(default)):
                # a reading without a clause of its own: the option's clause states the official one
                lines.append(f"  {mark} {json.dumps(allowed)}: the other reading of {clause_id} ({option.help})")
                continue
            clause = CLAUSES.get(clause_id)
            statement = clause.statement if clause else ""
            lines.append(f"  {mark} {json.dumps(allowed)}: {clause_id} {statement}".rstrip())
    return lines


def _citing(key: str) -> list[Clause]:
    """The clauses, of every registered game, whose source cites ``key``."""
    return [c for c in CLAUSES.values() if key in cited(c.source)]


def _print_sources(as_json: bool) -> None:
    """The bibliography: each entry, and the clauses that cite it (counted by game)."""
    entries = sources().values()
    if as_json:
        say_json(json.dumps({"sources": [{**s.to_json(), "cited_by": [c.id for c in _citing(s.key)]}
                                         for s in entries]}, indent=2, sort_keys=True, ensure_ascii=False))
        return
    say(f"# {len(entries)} sources; a clause cites them by key (`flip7-spec rules` shows each clause's source)")
    for entry in entries:
        for line in entry.lines():
            say(line)
        citing = _citing(entry.key)
        games: dict[str, int] = {}
        for c in citing:
            games[c.game] = games.get(c.game, 0) + 1
        by_game = ", ".join(f"{game} {count}" for game, count in games.items())
        say(f"    cited by: {len(citing)} clause{'s' if len(citing) != 1 else ''}"
            + (f" ({by_game})" if citing else " (read through another source)"))
