"""The Hypothesis profiles ``ci``, ``deep`` and ``fuzz`` (:func:`register_profiles`, :func:`load_profile`), the
profile a differential machine runs (:func:`machine_profile`), and the time its shrinking may take
(:func:`shrink_budget`)."""

from __future__ import annotations

import math
import os
from typing import Final

from hypothesis import HealthCheck, Phase, settings

PROFILE_ENV: Final = "FLIP7_HYPOTHESIS_PROFILE"
"""The environment variable that selects the Hypothesis profile (default ``ci``)."""
SHRINK_ENV: Final = "FLIP7_SHRINK_SECONDS"
"""The environment variable that sets how long a differential machine may shrink a failure (seconds)."""
DEFAULT_SHRINK_SECONDS: Final = 30.0
"""How long a differential machine shrinks a failure at most, unless told otherwise."""

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


def loaded_profile() -> str | None:
    """The Hypothesis profile loaded in this process (by ``--hypothesis-profile``, a ``conftest.py`` or
    :func:`load_profile`), or None when it is Hypothesis's own ``default``."""
    name = getattr(settings, "_current_profile", None)
    return str(name) if name and name != "default" else None


def machine_profile(name: str | None = None) -> str:
    """The profile a differential machine runs under: ``name``, else ``$FLIP7_HYPOTHESIS_PROFILE``, else the
    profile this process loaded (``--hypothesis-profile NAME``, or a project's own), else ``ci``. So the
    documented two-line test runs the bounded ``ci`` profile unless its project says otherwise."""
    return name or os.environ.get(PROFILE_ENV) or loaded_profile() or "ci"


def machine_settings(name: str | None = None) -> settings:
    """The settings of :func:`machine_profile` for a stateful test: the profile's, with every health check
    off (as Hypothesis's own state-machine test cases have them: an engine may skip setups or be slow)."""
    register_profiles()
    return settings(settings.get_profile(machine_profile(name)), suppress_health_check=list(HealthCheck))


def shrink_budget(seconds: float | None = None) -> float:
    """How many seconds a differential machine may spend shrinking a failure: ``seconds``, else
    ``$FLIP7_SHRINK_SECONDS``, else :data:`DEFAULT_SHRINK_SECONDS`. Raises ``ValueError`` for a value that
    is not a positive number."""
    if seconds is None:
        text = os.environ.get(SHRINK_ENV, "").strip()
        if not text:
            return DEFAULT_SHRINK_SECONDS
        try:
            seconds = float(text)
        except ValueError:
            raise ValueError(f"${SHRINK_ENV}={text!r}: expected a number of seconds, for example 30") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"a shrink budget must be a positive number of seconds, got {seconds!r}")
    return float(seconds)


def describe_profile(name: str | None = None, seconds: float | None = None) -> str:
    """What a differential machine runs, in one phrase: the profile, its examples and steps, whether it is
    derandomized, and the shrink budget (for the plugin's header line)."""
    profile = machine_profile(name)
    chosen = machine_settings(name)
    random = "derandomized" if chosen.derandomize else "random"
    return (f"Hypothesis profile {profile} ({chosen.max_examples} examples, {random}, up to "
            f"{chosen.stateful_step_count} steps a run; shrinking stops after {shrink_budget(seconds):g} s)")
