"""A broken engine that takes a minute to answer the handshake and ignores SIGTERM (it must be killed).
Argument 1: a file it writes its pid to once it has read the ``hello`` (so a test knows the handshake is
under way)."""

from __future__ import annotations

import os
import signal
import sys
import time

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.stdin.readline()
    with open(sys.argv[1], "w", encoding="utf-8") as handle:
        handle.write(str(os.getpid()))
    time.sleep(60)
