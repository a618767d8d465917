"""A broken engine that never replies, not even to ``hello``, and ignores SIGTERM (it must be killed)."""

from __future__ import annotations

import signal
import time

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    while True:
        time.sleep(3600)
