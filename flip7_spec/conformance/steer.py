"""Deprecated path: The choice of the aimed games is now :mod:`flip7_spec.conformance.aimed`, re-exported here with a
``DeprecationWarning``."""

from flip7_spec.moved import warn_moved

warn_moved(__name__)

from flip7_spec.conformance.aimed import *  # noqa: E402, F403
