"""The judge every room shares.

This module hands on a case's outcome (:class:`~flip7_spec.results.Outcome`, defined with the result that
carries it) and how two observations of one step are compared at each level (the projections, defined beside
the difference engine in :mod:`flip7_spec.trace.compare`: the legal choices only at the ``legal`` level, the
totals only at a round case's last step; exact JSON values, so ``1``, ``1.0`` and ``true`` differ). The
conformance runner, the testing library and the HTML report all judge with these functions, so that a
difference one of them finds is the difference the others show; the protocol's handshake checks, below the
judge, take them from where they are defined.

Its modules judge one case on an engine (the runner drives it through the protocol, so this module imports
none of them):
:mod:`~flip7_spec.judge.case` (a case), :mod:`~flip7_spec.judge.runner` (run it: compare, diagnose, follow,
explain), :mod:`~flip7_spec.judge.diagnosis`, :mod:`~flip7_spec.judge.follow`,
:mod:`~flip7_spec.judge.legality` and :mod:`~flip7_spec.judge.describe`.
"""

from flip7_spec.results import ERRORED, FAIL, OUTCOMES, PASS, SKIPPED, Outcome
from flip7_spec.trace.compare import compared_differences, same_value, strip_options, totals_only

__all__ = ["ERRORED", "FAIL", "OUTCOMES", "PASS", "SKIPPED", "Outcome", "compared_differences", "same_value",
           "strip_options", "totals_only"]
