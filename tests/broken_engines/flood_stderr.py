"""An engine that plays correctly but writes about 64 KiB of logs to stderr for every request (a runner
that does not drain stderr deadlocks on it)."""

from __future__ import annotations

import sys

from _loop import Reply, Request, dumps, serve_with

NOISE = ("debug: " + "." * 1017 + "\n") * 64


def rewrite(request: Request, reply: Reply) -> str:
    sys.stderr.write(NOISE)
    sys.stderr.flush()
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
