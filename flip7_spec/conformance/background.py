"""Generating the corpus's games in a second process while the engine plays.

Recording a game on the reference takes about as long as an engine replaying it. The runner spends that
time waiting for the engine's replies, so one helper process records the next games meanwhile (on another
core; a thread would only contend for the GIL), and generation and replay overlap instead of adding up.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from queue import Empty
from typing import Any

from flip7_spec.errors import Flip7Error
from flip7_spec.interrupts import forking
from flip7_spec.judge.case import Case
from flip7_spec.ordered_pool import leave_interrupts_to_parent

AHEAD = 128
"""How many games the helper may record ahead of the runner (bounds the memory they hold: a game's cases
take some tens of kilobytes). Enough for the helper to finish the generated games of a default run early and
aim games while the runner still plays them."""


_DONE = "done"

POLL = 1.0
"""Seconds between looks at whether the helper still lives, while its next game is awaited."""


def _produce(queue: Any, make: Callable[[], Iterator[Case]]) -> None:
    leave_interrupts_to_parent()  # the runner reports a Ctrl-C; the helper stops when told to (SIGTERM)
    try:
        for case in make():
            queue.put(case)
        queue.put(_DONE)
    except BaseException as error:  # hand the failure to the runner, which raises it
        queue.put(error)


def in_background(make: Callable[[], Iterator[Case]]) -> Iterator[Case]:
    """The cases ``make()`` gives, in the same order, produced by a helper process (``make`` runs there: it
    may be a whole pipeline, generation and aiming). The helper is stopped when the iterator finishes, is
    closed, or fails."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue(maxsize=AHEAD * 2)
    helper = context.Process(target=_produce, args=(queue, make), daemon=True)
    with forking():
        helper.start()
    try:
        while True:
            try:
                item = queue.get(timeout=POLL)
            except Empty:
                if helper.is_alive():
                    continue
                try:  # it may have put its last item just before it ended
                    item = queue.get(timeout=POLL)
                except Empty:
                    raise Flip7Error(f"the process generating the games ended without a word (exit code "
                                       f"{helper.exitcode})") from None
            if isinstance(item, str) and item == _DONE:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        if helper.is_alive():
            helper.terminate()
        helper.join()
