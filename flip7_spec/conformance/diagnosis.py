"""Deprecated path: The diagnosis of a divergence is now :mod:`flip7_spec.judge.diagnosis`, re-exported here with a
``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.judge.diagnosis import *  # noqa: E402, F403
