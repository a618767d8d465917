"""Fewer passes of Python's cyclic garbage collector during bulk work: simulating games, replaying traces.

Playing and checking games allocates many small containers (events, observations, parsed steps) that
reference counting frees as soon as they are done with. The cyclic collector still runs a pass every 700
container allocations not yet freed (CPython's default), which cost about a tenth of the time of writing
traces with observations and of replaying a file (docs/performance.md). :func:`fewer_collections` raises
that count for the work inside it and puts it back afterwards; nothing is left uncollected, only collected
in fewer, larger passes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BULK_THRESHOLD = 10_000
"""Container allocations between two passes over the youngest generation during bulk work (measured best
of 700, 2,000, 10,000 and 50,000 on simulating and replaying)."""


@contextmanager
def fewer_collections(threshold: int = BULK_THRESHOLD) -> Iterator[None]:
    """Run the body with the collector's first threshold at least ``threshold``; the thresholds as they
    were are restored on the way out (an exception included)."""
    saved = gc.get_threshold()
    gc.set_threshold(max(saved[0], threshold), *saved[1:])
    try:
        yield
    finally:
        gc.set_threshold(*saved)
