"""The Hypothesis profiles ``ci``, ``deep`` and ``fuzz`` (:func:`register_profiles`, :func:`load_profile`)."""

from __future__ import annotations

import os
from typing import Final

from hypothesis import HealthCheck, Phase, settings

PROFILE_ENV: Final = "FLIP7_HYPOTHESIS_PROFILE"
"""The environment variable that selects the Hypothesis profile (default ``ci``)."""

FUZZ_DATABASE_ENV: Final = "FLIP7_FUZZ_DATABASE"
"""The environment variable naming the example database folder the ``fuzz`` profile shares between
processes (default ``.hypothesis/fuzz``; see :mod:`flip7_spec.testing.fuzz`)."""


def register_profiles() -> None:
    """Register the Hypothesis profiles (idempotent).

    - ``ci``: 30 examples per test, derandomized (the same examples every run), no deadline, at most 40
      steps per stateful run, and no ``target`` or ``explain`` phase (rare states come from rigged decks
      there): the property suite runs in well under a minute on two cores.
    - ``deep``: 2 000 examples per test, random, no deadline, up to 100 steps per stateful run: long runs to
      look for new failures (minutes to hours).
    - ``fuzz``: ``deep`` with the example database in the folder ``$FLIP7_FUZZ_DATABASE`` (default
      ``.hypothesis/fuzz``), which every process of a fuzzing campaign shares: what one finds, the others
      and every later run replay first (:mod:`flip7_spec.testing.fuzz`).
    """
    slow = [HealthCheck.too_slow, HealthCheck.data_too_large]
    quick = tuple(p for p in Phase if p not in (Phase.target, Phase.explain))
    settings.register_profile("ci", max_examples=30, derandomize=True, deadline=None, print_blob=True,
                              stateful_step_count=40, suppress_health_check=slow, phases=quick)
    settings.register_profile("deep", max_examples=2_000, derandomize=False, deadline=None, print_blob=True,
                              stateful_step_count=100, suppress_health_check=slow)
    from hypothesis.database import DirectoryBasedExampleDatabase

    shared = DirectoryBasedExampleDatabase(os.environ.get(FUZZ_DATABASE_ENV) or os.path.join(".hypothesis", "fuzz"))
    settings.register_profile("fuzz", parent=settings.get_profile("deep"), database=shared)


def load_profile(name: str | None = None) -> str:
    """Register the profiles and load ``name`` (default: ``$FLIP7_HYPOTHESIS_PROFILE``, else ``ci``).
    Returns the profile loaded."""
    register_profiles()
    chosen = name or os.environ.get(PROFILE_ENV) or "ci"
    settings.load_profile(chosen)
    return chosen
