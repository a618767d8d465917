"""A broken engine that exits at once, with a last word on stderr."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    sys.stderr.write("exit_at_once: missing configuration, giving up\n")
    sys.exit(3)
