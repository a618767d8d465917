"""Deprecated path: The runner of one case is now :mod:`flip7_spec.judge.runner`, re-exported here with a
``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.judge.runner import *  # noqa: E402, F403
