"""Old module paths that still import: each is a small module re-exporting the public names of the module that
took its place, and warns once, on import, with a ``DeprecationWarning`` naming the new path.

The package's own code and tests import the new paths only (``tests/test_moved.py``); the old ones are kept for
users whose code or policy files name them.
"""

from __future__ import annotations

import warnings
from typing import Final

MOVED: Final[dict[str, str]] = {
    "flip7_spec.policies": "flip7_spec.simulation.policies",
    "flip7_spec.policy_view": "flip7_spec.simulation.policy_view",
    "flip7_spec.simulate": "flip7_spec.simulation.simulate",
}
"""Every old module path still importable, with the path of the module that replaced it."""


def warn_moved(old: str) -> None:
    """Warn (``DeprecationWarning``) that module ``old`` is now ``MOVED[old]``, attributed to the code that
    imported ``old`` (``warnings`` skips the import machinery's frames), so that Python's default filters show
    it to a script that names the old path itself."""
    warnings.warn(f"{old} is deprecated: import {MOVED[old]} instead", DeprecationWarning, stacklevel=3)
