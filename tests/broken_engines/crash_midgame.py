"""A broken engine that plays correctly, then dies in the middle of a game after N decisions (argument 1,
default 5), with a message on stderr."""

from __future__ import annotations

import os
import sys

from _loop import Reply, Request, dumps, serve_with

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 5
decisions = 0


def rewrite(request: Request, reply: Reply) -> str:
    global decisions
    if request.get("cmd") == "decide":
        decisions += 1
        if decisions > LIMIT:
            sys.stderr.write(f"crash_midgame: segmentation fault after {LIMIT} decisions\n")
            sys.stderr.flush()
            os._exit(70)
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
