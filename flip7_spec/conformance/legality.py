"""Deprecated path: The legal level's judge is now :mod:`flip7_spec.judge.legality`, re-exported here with a
``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.judge.legality import *  # noqa: E402, F403
