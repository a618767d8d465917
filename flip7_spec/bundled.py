"""The example engines shipped with flip7-spec (the checkout's ``examples/`` folder, installed as the package
``flip7_spec.examples``), found wherever flip7-spec is installed: ``flip7-spec conform --example js`` runs
the JavaScript engine from any folder, and ``flip7-spec examples`` says where each one is.
"""

from __future__ import annotations

import importlib.util
import shlex
import shutil
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from flip7_spec.errors import Flip7Error


@dataclass(frozen=True)
class Example:
    """One bundled engine: ``program`` runs ``script`` (a path inside the examples folder); ``needs`` says what
    must be installed for it to run, and ``missing`` checks it (a one-line reason, or None when it can run)."""

    name: str
    script: str
    program: str
    needs: str
    summary: str

    def path(self) -> Path:
        """Where the engine's script is, in this installation."""
        return examples_dir() / self.script

    def argv(self) -> list[str]:
        """The engine's command line as arguments: its program (the Python running flip7-spec for a Python
        engine) and the script's absolute path."""
        program = sys.executable if self.program == "python" else self.program
        return [program, str(self.path())]

    def command(self) -> str:
        """The engine's command line, quoted as ``--engine`` takes it."""
        return shlex.join(self.argv())

    def missing(self) -> str | None:
        """Why the engine cannot run here (one line), or None."""
        if not self.path().is_file():
            return f"the example engine {self.name} is not installed with flip7-spec ({self.path()} is missing)"
        if self.program == "node" and shutil.which("node") is None:
            return f"the example engine {self.name} needs {self.needs}: `node` is not on the PATH"
        if self.name == "flop7" and importlib.util.find_spec("flop7") is None:
            return f"the example engine {self.name} needs {self.needs}"
        return None


EXAMPLES: Final = {
    "js": Example("js", "js-engine/engine.js", "node", "Node.js 18 or later",
                  "an independent Flip 7 and Vengeance engine in plain JavaScript (examples/js-engine/README.md)"),
    "flop7": Example("flop7", "flop7/engine.py", "python", "the flop7 package: pip install flop7==1.0.2",
                     "the third-party Python engine flop7 behind an adapter; it plays some rules its own way "
                     "(examples/flop7/README.md)"),
}
"""The bundled example engines, by the name ``conform --example`` takes."""


def examples_dir() -> Path:
    """The examples folder: the checkout's ``examples/`` in an editable install, ``site-packages/flip7_spec/
    examples`` in a wheel install."""
    return Path(str(resources.files("flip7_spec.examples")))


def example(name: str) -> Example:
    """The bundled engine called ``name``; a :class:`~flip7_spec.errors.Flip7Error` naming the others if there
    is none, or saying what it needs if it cannot run here."""
    found = EXAMPLES.get(name)
    if found is None:
        raise Flip7Error(f"no example engine {name!r}; the examples are {', '.join(EXAMPLES)}")
    problem = found.missing()
    if problem is not None:
        raise Flip7Error(problem)
    return found
