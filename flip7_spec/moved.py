"""Old names that still work. An old module path is a small module re-exporting the public names of the
module that took its place, which warns once, on import, with a ``DeprecationWarning`` naming the new path; an
old class name of the documented API is looked up by its module's ``__getattr__``, which warns on every use.

The package's own code and tests use the new names only (``tests/test_moved.py``); the old ones are kept for
users whose code or policy files name them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, Final

MOVED: Final[dict[str, str]] = {
    "flip7_spec.policies": "flip7_spec.simulation.policies",
    "flip7_spec.policy_view": "flip7_spec.simulation.policy_view",
    "flip7_spec.simulate": "flip7_spec.simulation.simulate",
    "flip7_spec.conformance.runner": "flip7_spec.judge.runner",
    "flip7_spec.conformance.diagnosis": "flip7_spec.judge.diagnosis",
    "flip7_spec.conformance.follow": "flip7_spec.judge.follow",
    "flip7_spec.conformance.legality": "flip7_spec.judge.legality",
    "flip7_spec.conformance.steer": "flip7_spec.conformance.aimed",
}
"""Every old module path still importable, with the path of the module that replaced it."""


def warn_moved(old: str) -> None:
    """Warn (``DeprecationWarning``) that module ``old`` is now ``MOVED[old]``, attributed to the code that
    imported ``old`` (``warnings`` skips the import machinery's frames), so that Python's default filters show
    it to a script that names the old path itself."""
    warnings.warn(f"{old} is deprecated: import {MOVED[old]} instead", DeprecationWarning, stacklevel=3)


RENAMED: Final[dict[str, dict[str, str]]] = {
    "flip7_spec.analysis": {"Hand": "SolitaireHand"},
    "flip7_spec.analysis.solitaire": {"Hand": "SolitaireHand"},
    "flip7_spec.strategies": {"Hand": "FinalHand"},
}
"""For each module, its old public names still looked up, with the names that replaced them."""


def old_names(module: str, namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` (PEP 562) of ``module``, whose globals are ``namespace``: its old names of
    :data:`RENAMED`, each with a warning (:func:`renamed`)."""

    def lookup(name: str) -> Any:
        return renamed(module, name, namespace)

    return lookup


def renamed(module: str, name: str, namespace: dict[str, Any]) -> Any:
    """What the old name ``name`` of ``module`` (whose globals are ``namespace``) now is, with a
    ``DeprecationWarning`` naming the new name, attributed to the code that used it; for a PEP 562 module
    ``__getattr__``. Raises AttributeError, as a module does, for a name that never was."""
    new = RENAMED.get(module, {}).get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(f"{module}.{name} is deprecated: use {module}.{new}", DeprecationWarning, stacklevel=3)
    return namespace[new]


class RenamedAttribute:
    """A class attribute standing for an attribute's old public name: reading it on an instance gives the object
    under the new name and assigning it sets that one, each with a ``DeprecationWarning`` naming it (``why``
    says where to read more), attributed to the code that used the old name."""

    def __init__(self, new: str, why: str = "") -> None:
        self.new = new
        self.why = why
        self.old = new
        self.owner = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.old, self.owner = name, owner.__name__

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        self._warn()
        return getattr(instance, self.new)

    def __set__(self, instance: object, value: Any) -> None:
        self._warn()
        setattr(instance, self.new, value)

    def _warn(self) -> None:
        warnings.warn(f"{self.owner}.{self.old} is deprecated: {self.why}use {self.owner}.{self.new}",
                      DeprecationWarning, stacklevel=3)
