"""Deprecated path: The view of a game a policy sees are now :mod:`flip7_spec.simulation.policy_view`, re-exported here
with a ``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.simulation.policy_view import *  # noqa: E402, F403
