"""A protocol loop around the reference engine, for the broken engines to break one thing each.

Not a package module: the broken engines run as scripts (``python tests/broken_engines/NAME.py``), and
the script's folder is on ``sys.path``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.protocol.server import handle

Request = dict[str, Any]
Reply = dict[str, Any]


def dumps(message: Any) -> str:
    """One protocol line, without the newline."""
    return json.dumps(message, separators=(",", ":"))


def serve_with(rewrite: Callable[[Request, Reply], str]) -> None:
    """Answer every request as the reference would, then let ``rewrite`` turn the reply into the line
    actually written. Stops after ``quit`` or at the end of input."""
    adapter = ReferenceAdapter()
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        reply, stop = handle(adapter, request)
        sys.stdout.write(rewrite(request, reply) + "\n")
        sys.stdout.flush()
        if stop:
            return
