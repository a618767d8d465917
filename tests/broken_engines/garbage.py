"""A broken engine that answers every request with a line that is not JSON."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    for _line in sys.stdin:
        sys.stdout.write("Welcome to Flip 7! Type 'help' for commands.\n")
        sys.stdout.flush()
