"""Deprecated path: Whole games played by policies are now :mod:`flip7_spec.simulation.simulate`, re-exported here
with a ``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.simulation.simulate import *  # noqa: E402, F403
