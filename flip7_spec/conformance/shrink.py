"""Shrinking a failing generated game to a small trace that still fails the same way.

Two passes, each kept only if the engine still fails with the same clause: cut the trace just after the
failing step (a partial trace), then, when the failure is inside round r > 1 and no reshuffle happened,
rebuild round r as the first round of a fresh game (its cards on top of the deck, the same Dealer and
decisions, totals at zero). Every candidate is recorded on the reference, so the saved trace is a valid
trace that ``flip7-spec replay`` accepts and the engine's own tests can load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.cases import Case
from flip7_spec.conformance.runner import CaseResult
from flip7_spec.trace.record import record_choices, trace_choices, trace_reshuffles

Check = Callable[[Case], list[CaseResult]]


def _cut(trace: dict[str, Any], step: int | None) -> dict[str, Any]:
    """The trace up to and including ``step`` (None: up to the first decision, exclusive)."""
    cut = dict(trace)
    if step is None:
        first = next((i for i, s in enumerate(trace["steps"]) if "decision" in s), len(trace["steps"]))
        cut["steps"] = trace["steps"][:first]
    else:
        cut["steps"] = trace["steps"][: step + 1]
    cut.pop("footer", None)
    return cut


def _isolate_round(case: Case, trace: dict[str, Any], step: int) -> dict[str, Any] | None:
    steps = trace["steps"][: step + 1]
    if any("reshuffle" in s for s in steps):
        return None
    decisions = [s for s in steps if "decision" in s]
    start_obs = trace.get("start", {}).get("observation")
    if not decisions or start_obs is None:
        return None
    failing_round = decisions[-1].get("observation", {}).get("round")
    if not failing_round or failing_round <= 1:
        return None
    # The round's first observation is the one after the step that ended the previous round.
    first = next((i for i, s in enumerate(decisions) if s.get("observation", {}).get("round") == failing_round), None)
    if first is None:
        return None
    before = decisions[first]["observation"]
    used = sum(len(p["cards"]) for p in before["players"]) + len(before["in_play"])
    header = trace["header"]
    deck = list(header["deck"])
    consumed = len(deck) - before["draw_pile"] - used
    round_cards = deck[consumed:]  # the round's deal and draws, in order, then the rest of the deck
    new_deck = round_cards + deck[:consumed]
    choices = [s["decision"]["choice"] for s in decisions[first + 1:]]
    try:
        return record_choices(case.ruleset, header["players"], before["dealer"], new_deck, choices,
                              generator="flip7-spec conform (shrunk)")
    except Exception:
        return None


def shrink(case: Case, result: CaseResult, check: Check) -> dict[str, Any]:
    """A small trace on which ``check`` still fails at ``result.level`` with ``result.clause`` (the case's own
    trace at worst)."""
    assert case.trace is not None
    best = case.trace

    def still_fails(trace: dict[str, Any]) -> bool:
        candidate = Case(case.id + " (shrunk)", case.level, case.ruleset, trace=trace)
        return any(r.outcome == FAIL and r.level == result.level and r.clause == result.clause
                   for r in check(candidate))

    cut = _cut(best, result.step)
    if still_fails(cut):
        best = cut
    if result.step is not None:
        isolated = _isolate_round(case, best, len(best["steps"]) - 1)
        if isolated is not None and still_fails(isolated):
            best = isolated
    # Re-record so the saved trace is exactly what the reference says for these choices.
    header = best["header"]
    return record_choices(case.ruleset, header["players"], header["dealer"], header["deck"], trace_choices(best),
                          reshuffles=trace_reshuffles(best), generator="flip7-spec conform (shrunk)",
                          description=f"shrunk from {case.id}: {result.where} [clause {result.clause}]",
                          clauses=[result.clause] if result.clause else None)
