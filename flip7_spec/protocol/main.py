"""The main loop of a Python engine's protocol front end: ``serve_main(Adapter)`` at the bottom of a script
makes ``python engine.py`` an engine that ``flip7-spec conform --engine "python engine.py"`` can drive.

The protocol owns standard output, so while the engine runs, ``print`` and anything else written to
``sys.stdout`` goes to standard error instead (a stray line would otherwise break the protocol); replies are
written to the real standard output, one line each.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import IO, NoReturn

from flip7_spec.protocol.adapter import EngineAdapter
from flip7_spec.protocol.server import serve


def run_adapter(adapter: EngineAdapter, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Serve ``adapter`` on ``stdin``/``stdout`` (the process's own by default) until ``quit`` or end of input,
    with ``sys.stdout`` sent to stderr meanwhile; the adapter is closed at the end. Returns the exit status:
    0, or 130 when interrupted."""
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    try:
        with contextlib.redirect_stdout(sys.stderr):
            return serve(adapter, source, sink)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the runner went away: nothing left to answer
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sink.fileno())
        return 0
    finally:
        adapter.close()


def serve_main(make_adapter: Callable[[], EngineAdapter]) -> NoReturn:
    """Build the adapter and serve it over this process's stdin/stdout, then exit with its status."""
    sys.exit(run_adapter(make_adapter()))
