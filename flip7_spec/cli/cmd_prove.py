"""``flip7-spec prove``: z3 proofs of the scoring rules, and the hands that expose each misreading."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

import click

from flip7_spec.cli.common import CheckFailed, fail, ruleset_option, say, say_json
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS

if TYPE_CHECKING:
    from flip7_spec.symbolic.misreadings import CaseSearch
    from flip7_spec.symbolic.theorems import ProofReport, TheoremResult


def _result_lines(result: TheoremResult) -> list[str]:
    lines = [f"{result.id:<24} {result.status:<14} {result.seconds:6.2f}s  {result.statement} "
             f"[{', '.join(result.clauses)}]"]
    if not result.proved or result.detail:
        for name, hand in zip("AB", result.hands, strict=False):
            label = "hand" if len(result.hands) == 1 else f"hand {name}"
            lines.append(f"    {label}: {hand}")
        if result.detail:
            lines.append(f"    {result.detail}")
    return lines


def _case_line(search: CaseSearch) -> str:
    m = search.misreading
    case = search.case
    if case is None:
        return f"{m.id:<24} (no hand of this ruleset tells it apart)  {m.misreading} [{m.clause}]"
    hand = " ".join(case.cards) + (" (busted)" if case.busted else "")
    return (f"{m.id:<24} {hand:<30} expected {case.expected:>3}, misreading {case.misreading_score:>3}  "
            f"{m.misreading} [{m.clause}]")


@click.command("prove")
@ruleset_option()
@click.option("--timeout-ms", type=click.IntRange(1), default=DEFAULT_TIMEOUT_MS, show_default=True,
              help="z3 timeout of each proof and each search (no answer in time is a failure)")
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
def command(ruleset: Ruleset, timeout_ms: int, as_json: bool) -> None:
    """Prove the scoring theorems of a ruleset with z3, and find the distinguishing cases.

    Each theorem (bust scores 0, x2 doubles the Numbers only, the exact highest and lowest round score, ...)
    is proved of a z3 model of round scoring by showing its negation unsatisfiable; the model is checked
    against the reference scorer on every hand. Then, for each plausible misreading of the scoring rules,
    z3 finds a hand with the fewest cards on which the misreading scores differently.

    \b
    Exit codes: 0 every theorem proved, 1 a theorem failed or z3 gave no answer, 2 bad input
    (including a ruleset whose game has no theorems yet).
    """
    # z3 is loaded only when this command runs
    from flip7_spec.symbolic.prover import search_cases, theorem_set
    from flip7_spec.symbolic.terms import SymbolicError

    try:
        theorems = theorem_set(ruleset)
    except SymbolicError as error:
        fail(str(error))
    started = time.perf_counter()
    report = theorems.prove(timeout_ms=timeout_ms)
    proved_in = time.perf_counter() - started
    searches: list[CaseSearch] = []
    cases_error = ""
    started = time.perf_counter()
    try:
        searches = search_cases(ruleset, None, timeout_ms)
    except SymbolicError as error:
        cases_error = str(error)
    searched_in = time.perf_counter() - started
    if as_json:
        data = report.to_json()
        data["cases"] = [s.case.to_json() for s in searches if s.case is not None]
        data["undistinguished"] = [s.misreading.id for s in searches if s.case is None]
        data["cases_error"] = cases_error or None
        say_json(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        _print_text(report, searches, cases_error, proved_in, searched_in, timeout_ms)
    if not report.ok or cases_error:
        raise CheckFailed()


def _print_text(report: ProofReport, searches: list[CaseSearch], cases_error: str, proved_in: float,
                searched_in: float, timeout_ms: int) -> None:
    say(f"# ruleset {report.ruleset} (game {report.game}): {report.domain}")
    say(f"# scorer {report.scorer}; z3 timeout {timeout_ms} ms per proof")
    for result in report.results:
        for line in _result_lines(result):
            say(line)
    proved = sum(r.proved for r in report.results)
    say(f"# {proved}/{len(report.results)} proved in {proved_in:.1f} s")
    say("# distinguishing cases: a smallest hand on which each misreading scores differently "
               "(expected = round_score)")
    for search in searches:
        say(_case_line(search))
    if cases_error:
        say(f"# search failed: {cases_error}")
    found = sum(s.case is not None for s in searches)
    say(f"# {found} distinguishing cases for {len(searches)} misreadings in {searched_in:.1f} s")
