"""Deprecated path: The built-in decision policies are now :mod:`flip7_spec.simulation.policies`, re-exported here
with a ``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.simulation.policies import *  # noqa: E402, F403
