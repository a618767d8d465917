"""An engine that plays correctly but takes a few milliseconds over every reply (argument 1: seconds,
default 0.005), so that a run against it lasts long enough to be interrupted."""

from __future__ import annotations

import sys
import time

from _loop import Reply, Request, dumps, serve_with

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.005


def rewrite(request: Request, reply: Reply) -> str:
    time.sleep(DELAY)
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
