"""Importing a user's own module (``--python MODULE:ATTR``, ``--policy MODULE:CALLABLE``) from the current
folder without letting that folder shadow the modules flip7-spec itself depends on.

A dotted name is found as ``python -m`` would find it, in the current folder, but that folder is searched
*after* every installed location (it is appended to ``sys.path``, never put first), so a file such as
``z3.py`` or ``click.py`` lying in it can never replace an installed package that flip7-spec imports later.
A module of the current folder whose top-level name is also an installed module's is refused with
:class:`~flip7_spec.errors.ModuleClash` rather than silently loading the other one.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
from pathlib import Path
from types import ModuleType

from flip7_spec.errors import ModuleClash

_added: set[str] = set()
"""The folders :func:`import_user_module` put on ``sys.path`` (a user's earlier folder is no installed module)."""


def _folder_of(entry: str) -> str:
    try:
        return os.path.realpath(entry or os.curdir)
    except (OSError, ValueError):
        return entry


def _in_folder(folder: str, top: str) -> Path | None:
    """Where ``top`` lies in ``folder`` (a ``.py`` file or a package folder), if it does."""
    for candidate in (Path(folder) / f"{top}.py", Path(folder) / top):
        if candidate.is_file() or (candidate.is_dir() and candidate.suffix == ""):
            return candidate
    return None


def module_file(name: str) -> Path | None:
    """The file that importing the dotted ``name`` would run, found without running anything (the current
    folder included, last); None when it is not a plain source file on the path."""
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    for entry in [*sys.path, os.getcwd()]:
        base = Path(entry or os.curdir).joinpath(*parts)
        for candidate in (base.with_name(base.name + ".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def import_user_module(name: str) -> ModuleType:
    """Import the dotted module ``name`` as a user's module: from an installed location or, after those,
    from the current folder. Raises :class:`ModuleClash` when the current folder holds a module of the same
    top-level name as an installed one (loading either would surprise someone), and what importing raises
    otherwise (``ModuleNotFoundError``, or the module's own error)."""
    top = name.partition(".")[0]
    folder = os.path.realpath(os.getcwd())
    if top not in sys.modules:
        here = _in_folder(folder, top)
        if here is not None:
            elsewhere = [entry for entry in sys.path if _folder_of(entry) != folder and entry not in _added]
            installed = importlib.machinery.PathFinder.find_spec(top, elsewhere)
            if installed is not None:
                where = installed.origin or ", ".join(installed.submodule_search_locations or []) or "?"
                raise ModuleClash(f"{here.name} in the current folder has the name of the installed module "
                                  f"{top} ({where}); rename it (a user's module never shadows an installed one)")
    if all(_folder_of(entry) != folder for entry in sys.path):
        sys.path.append(folder)  # last: every installed module is found first
        _added.add(folder)
    importlib.invalidate_caches()
    return importlib.import_module(name)
