"""Deprecated path: following a case past its first divergence is now :mod:`flip7_spec.judge.follow`,
re-exported here with a ``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.judge.follow import *  # noqa: E402, F403
