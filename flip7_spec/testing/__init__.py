"""Stateful Hypothesis machines over the reference, and a differential machine for any other engine.

- :mod:`.invariants`: checks that hold for every game at every decision (:func:`check_conservation`,
  :func:`check_consistency`, :func:`check_totals`, :func:`check_canonical`); :func:`fingerprint`, the whole
  internal state of a game as a JSON value, to show that :meth:`~flip7_spec.machine.Game.after` is pure and
  :meth:`~flip7_spec.machine.Game.copy` independent; and :func:`walk`, a
  :class:`~flip7_spec.trace.record.GameRecord` played again, yielding the live game at each step.
- :mod:`.reference`: :class:`ReferenceMachine` plays the reference with decisions and reshuffle orders chosen
  by Hypothesis, checking the invariants after every step.
- :mod:`.differential`: :func:`differential_machine`, a machine that runs the reference and an engine under
  test (in-process or a command speaking docs/protocol.md) in lockstep, decision by decision, and compares
  their observations, legal choices included. An engine's own test suite can hold::

      from flip7_spec.testing import differential_machine

      TestMyEngine = differential_machine("node my_engine.js").TestCase

  A failing run is also written as a trace file (:mod:`.failures` says where), so a failure found once stays
  found without the Hypothesis example database; the failure's message leads with the command that runs that
  file again and conform's diagnosis of it.
- :mod:`.profiles`: the Hypothesis profiles ``ci`` and ``deep`` (:func:`register_profiles`, :func:`load_profile`),
  the profile a differential machine runs (:func:`machine_profile`, :func:`machine_settings`: ``ci`` unless told
  otherwise) and the time it may spend shrinking a failure (:func:`shrink_budget`).
"""

from flip7_spec.testing.differential import (
    DifferentialMachine,
    ShrinkBudgetSpent,
    differential_machine,
    supported_rulesets,
)
from flip7_spec.testing.failures import (
    DEFAULT_FAILURES_DIR,
    FAILURES_ENV,
    EngineDivergence,
    failures_dir_for,
    regressions_dir,
)
from flip7_spec.testing.invariants import (
    SEAT_KINDS,
    Step,
    cards_in_game,
    check_canonical,
    check_conservation,
    check_consistency,
    check_totals,
    deck_counts,
    fingerprint,
    sorted_reshuffle,
    totals_may_fall,
    walk,
)
from flip7_spec.testing.profiles import (
    DEFAULT_SHRINK_SECONDS,
    PROFILE_ENV,
    SHRINK_ENV,
    load_profile,
    machine_profile,
    machine_settings,
    register_profiles,
    shrink_budget,
)
from flip7_spec.testing.reference import ReferenceMachine

__all__ = [
    "DEFAULT_FAILURES_DIR",
    "DEFAULT_SHRINK_SECONDS",
    "FAILURES_ENV",
    "PROFILE_ENV",
    "SEAT_KINDS",
    "SHRINK_ENV",
    "DifferentialMachine",
    "EngineDivergence",
    "ReferenceMachine",
    "ShrinkBudgetSpent",
    "Step",
    "cards_in_game",
    "check_canonical",
    "check_conservation",
    "check_consistency",
    "check_totals",
    "deck_counts",
    "differential_machine",
    "failures_dir_for",
    "fingerprint",
    "load_profile",
    "machine_profile",
    "machine_settings",
    "register_profiles",
    "regressions_dir",
    "shrink_budget",
    "sorted_reshuffle",
    "supported_rulesets",
    "totals_may_fall",
    "walk",
]
