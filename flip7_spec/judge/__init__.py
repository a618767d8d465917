"""The judge every room shares.

This module names a case's outcome and says how two observations of one step are compared at each level
(the projections: the legal choices only at the ``legal`` level, the totals only at a round case's last step;
exact JSON values, so ``1``, ``1.0`` and ``true`` differ). The conformance runner, the testing library and the
HTML report all judge with these functions, so that a difference one of them finds is the difference the
others show. It imports only :mod:`flip7_spec.trace`, so that the protocol's handshake checks can use it.

Its modules judge one case on an engine (the runner drives it through the protocol, so this module imports
none of them):
:mod:`~flip7_spec.judge.case` (a case), :mod:`~flip7_spec.judge.runner` (run it: compare, diagnose, follow,
explain), :mod:`~flip7_spec.judge.diagnosis`, :mod:`~flip7_spec.judge.follow`,
:mod:`~flip7_spec.judge.legality` and :mod:`~flip7_spec.judge.describe`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from flip7_spec.trace.compare import Difference, differences


class Outcome(StrEnum):
    """The outcome of one case at one level (its value is what the reports write)."""

    PASS = "pass"
    """The engine did what the reference does."""
    FAIL = "fail"
    """The engine broke a rule (the first divergence is given, with its clause)."""
    SKIPPED = "skipped"
    """The engine does not declare what the case needs (a level, a ruleset, an option value)."""
    ERRORED = "errored"
    """The engine crashed, hung, or answered outside the protocol."""


PASS = Outcome.PASS
FAIL = Outcome.FAIL
SKIPPED = Outcome.SKIPPED
ERRORED = Outcome.ERRORED
OUTCOMES = tuple(Outcome)
"""Every outcome, in the order the reports list them."""


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values of the same type (``true`` is not ``1``, ``1.0`` is not ``1``)."""
    return type(a) is type(b) and bool(a == b)


def strip_options(observation: Any) -> Any:
    """The observation without its pending decision's legal choices (compared only at the legal level)."""
    if isinstance(observation, dict) and isinstance(observation.get("pending"), dict):
        pending = {k: v for k, v in observation["pending"].items() if k != "options"}
        return {**observation, "pending": pending}
    return observation


def totals_only(observation: Any) -> Any:
    """Only the players' totals (what a round case checks after its round has ended)."""
    if isinstance(observation, dict) and isinstance(observation.get("players"), list):
        return {"players": [{"total": p.get("total")} if isinstance(p, dict) else p
                            for p in observation["players"]]}
    return observation


def compared_differences(expected: Any, found: Any, legal: bool = False, totals: bool = False) -> list[Difference]:
    """Every field (as :func:`flip7_spec.trace.compare.differences` lists them, exact JSON: ``1``, ``1.0`` and
    ``true`` differ) where two observations of one step differ as a case compares them: the legal choices only
    at the ``legal`` level, the players' totals only when ``totals`` (a round case's last step). Empty exactly
    when the case's comparison of that step passes."""
    if totals:
        expected, found = totals_only(expected), totals_only(found)
    if not legal:
        expected, found = strip_options(expected), strip_options(found)
    return differences(expected, found)
