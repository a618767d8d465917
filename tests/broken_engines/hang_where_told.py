"""An engine that plays correctly, except where the environment variable ``FLIP7_HANG_HERE`` is set (on one
worker of a cluster): there it never answers a request that plays a game (a hung engine on one machine).
Argument 1: seconds over every reply (default 0), so that a run lasts long enough to be interrupted."""

from __future__ import annotations

import os
import sys
import time

from _loop import Reply, Request, dumps, serve_with

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
HANG = bool(os.environ.get("FLIP7_HANG_HERE"))


def rewrite(request: Request, reply: Reply) -> str:
    if HANG and request.get("cmd") not in ("hello", "score", "quit"):
        time.sleep(3600)
    time.sleep(DELAY)
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
