"""A correct engine that first starts a helper in a session of its own, which keeps the engine's stderr (and
stdout) open for a minute after the engine is gone. Argument 1: a file to write the helper's pid to (so the
test can end it).

The helper is out of the engine's process group on purpose, as a daemon an engine might start would be:
conform cannot and need not end it, but must not wait for the pipes it holds either.
"""

from __future__ import annotations

import os
import sys
import time

from _loop import Reply, Request, dumps, serve_with


def start_helper(pid_file: str) -> None:
    if os.fork() == 0:  # the helper: its own session, the engine's pipes inherited
        os.setsid()
        with open(pid_file, "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))
        sys.stderr.write("helper: started\n")
        sys.stderr.flush()
        time.sleep(60)
        os._exit(0)


def rewrite(request: Request, reply: Reply) -> str:
    return dumps(reply)


if __name__ == "__main__":
    start_helper(sys.argv[1])
    serve_with(rewrite)
