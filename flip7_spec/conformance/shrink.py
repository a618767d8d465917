"""Shrinking a failing generated game to a small trace that still fails the same way.

Two passes, each kept only if the engine still fails with the same clause: cut the trace just after the
failing step (a partial trace), then, when the failure is inside round r > 1 and no reshuffle happened,
rebuild round r as the first round of a fresh game (its cards on top of the deck, the same Dealer and
decisions, totals at zero). Every candidate is recorded on the reference, so the saved trace is a valid
trace that ``flip7-spec replay`` accepts and the engine's own tests can load.

An errored case shrinks the same way, each pass kept only if the engine errors again at the candidate's
step of the same decision with the same message (its numbers aside: a ``seq`` or a decision count may
differ). A case the engine did not answer in time is not shrunk (each try would cost a timeout).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flip7_spec.conformance import ERRORED, FAIL
from flip7_spec.judge.case import Case
from flip7_spec.protocol.process import NO_REPLY
from flip7_spec.results import CaseResult
from flip7_spec.trace.document import ChanceStep, TraceDocument
from flip7_spec.trace.record import record_choices

Check = Callable[[Case], list[CaseResult]]


def _isolate_round(case: Case, document: TraceDocument, step: int) -> dict[str, Any] | None:
    """The failing round of ``document`` (its decisions up to its step ``step``) played again as the first
    round of a fresh game: its cards on top of the deck, the same Dealer and decisions. None when that cannot
    be done (a reshuffle happened, the failure is in the first round, the observations are missing)."""
    if any(isinstance(s, ChanceStep) and s.index <= step for s in document.steps):
        return None
    decisions = [d for d in document.decisions if d.index <= step]
    if not decisions or document.start_observation is None:
        return None
    failing_round = decisions[-1].round
    if not failing_round or failing_round <= 1:
        return None
    # The round's first observation is the one after the step that ended the previous round.
    first = next((i for i, d in enumerate(decisions) if d.round == failing_round), None)
    if first is None:
        return None
    before = decisions[first].observation
    used = sum(len(p["cards"]) for p in before["players"]) + len(before["in_play"])
    deck = list(document.table.deck)
    consumed = len(deck) - before["draw_pile"] - used
    round_cards = deck[consumed:]  # the round's deal and draws, in order, then the rest of the deck
    new_deck = round_cards + deck[:consumed]
    choices = [d.choice for d in decisions[first + 1:]]
    try:
        return record_choices(case.ruleset, document.table.players, before["dealer"], new_deck, choices,
                              generator="flip7-spec conform (shrunk)")
    except Exception:
        return None


def shrinkable(result: CaseResult) -> bool:
    """Whether :func:`shrink` may run ``result``'s case again: a failure, or an error whose place is known
    and to which the engine replied (each try at a request it never answered would cost a timeout)."""
    if result.outcome != ERRORED:
        return True
    return result.where is not None and not result.message.startswith(NO_REPLY)


def _gist(message: str) -> str:
    """An error message with its numbers blanked (a ``seq``, a decision count)."""
    return re.sub(r"\d+", "#", message)


def _alike(found: CaseResult, result: CaseResult, document: TraceDocument) -> bool:
    """Whether ``found`` (a result on the candidate trace ``document``) is ``result`` again: a failure with the same
    clause, or an error with the same message at the same place: the start, or else the candidate's last
    decision (the cut keeps the failing one last)."""
    if found.level != result.level or found.outcome != result.outcome:
        return False
    if result.outcome == FAIL:
        return found.clause == result.clause
    if result.step is None:
        at_same_place = found.step is None and found.where == result.where
    else:
        at_same_place = bool(document.decisions) and found.step == document.decisions[-1].index
    return at_same_place and _gist(found.message) == _gist(result.message)


def shrink(case: Case, result: CaseResult, check: Check) -> dict[str, Any]:
    """A small trace on which ``check`` still fails at ``result.level`` with ``result.clause``, or errors
    again as ``result`` did (the case's own trace at worst)."""
    best = case.document

    def still_fails(trace: dict[str, Any]) -> bool:
        candidate = Case(case.id + " (shrunk)", case.level, case.ruleset, trace=trace)
        return any(_alike(r, result, candidate.document) for r in check(candidate))

    cut = best.cut(result.step)
    if still_fails(cut):
        best = TraceDocument.of(cut)
    if result.step is not None:
        isolated = _isolate_round(case, best, len(best.steps) - 1)
        if isolated is not None and still_fails(isolated):
            best = TraceDocument.of(isolated)
    # Re-record so the saved trace is exactly what the reference says for these choices.
    table = best.table
    what = f"{result.where} [clause {result.clause}]" if result.outcome == FAIL else \
        f"the engine errored at {result.where or 'an unknown step'}: {result.message[:200]}"
    return record_choices(case.ruleset, table.players, table.dealer, table.deck, best.choices,
                          reshuffles=best.reshuffles, generator="flip7-spec conform (shrunk)",
                          description=f"shrunk from {case.id}: {what}",
                          clauses=[result.clause] if result.clause else None)
