"""SIGINT (Ctrl-C) and SIGTERM as one exception, raised once, so that a run can stop, clean up and report.

Inside :func:`stop_on_signals` the first SIGINT or SIGTERM raises :class:`Interrupted` in the main thread;
any later one is ignored until the block ends, so the cleanup that follows (ending engine processes,
writing the partial reports) runs to its end instead of being cut short by a second Ctrl-C. The cleanup
itself is bounded: every wait in it has a timeout.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal (a ``KeyboardInterrupt``, so code that handles Ctrl-C handles it)."""

    def __init__(self, signal_number: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signal_number).name)
        self.signal_number = signal_number

    @property
    def exit_code(self) -> int:
        """The conventional exit status: 128 + the signal number (130 for SIGINT, 143 for SIGTERM)."""
        return 128 + self.signal_number


def _raise_once(number: int, frame: FrameType | None) -> None:
    for other in SIGNALS:
        signal.signal(other, signal.SIG_IGN)  # the cleanup after this one must not be interrupted
    raise Interrupted(number)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, the first SIGINT or SIGTERM raises :class:`Interrupted`; the handlers in place
    before are restored at its end. Outside the main thread (where handlers cannot be set) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in SIGNALS}
    for number in SIGNALS:
        signal.signal(number, _raise_once)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def signals_held() -> Iterator[None]:
    """Within the block a SIGINT or SIGTERM is noted instead of raised, so that what the block writes (a
    run's reports, once its cases are done) is written whole; at the block's end the first one noted is
    raised as :class:`Interrupted`, and later ones are ignored as inside :func:`stop_on_signals`. A signal
    ignored when the block starts (the cleanup after an earlier one) stays ignored. Outside the main thread
    it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in SIGNALS}
    noted: list[int] = []

    def note(number: int, frame: FrameType | None) -> None:
        noted.append(number)

    for number, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(number, note)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_IGN if noted else handler)
    if noted:
        raise Interrupted(noted[0])


@contextmanager
def forking() -> Iterator[None]:
    """Around the start of a forked process: SIGINT and SIGTERM are held back in this thread (blocked, so
    they wait, and arrive once the block ends), and the child starts with them held back too. The child lets
    them through with :func:`let_interrupts_through` once its own handlers are set, so a stop sent to it
    right after its start ends it as its own handlers say, never by the handlers it was forked with, run in
    the middle of its start (where they raised into the interpreter's fork hooks, and were lost)."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def let_interrupts_through() -> None:
    """What a process started under :func:`forking` does once its handlers are set: let SIGINT and SIGTERM
    reach it (one that came meanwhile arrives now)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, SIGNALS)


def interruption(error: KeyboardInterrupt) -> int:
    """The exit status for ``error``: its own for :class:`Interrupted`, 130 for a plain Ctrl-C."""
    return error.exit_code if isinstance(error, Interrupted) else 128 + signal.SIGINT


class TookTooLong(BaseException):
    """Raised by :func:`time_limit` in the block that ran past its time (a BaseException, so user code that
    catches ``Exception`` cannot swallow it)."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TookTooLong` in the block once ``seconds`` have passed (SIGALRM). Only in the main
    thread, and only when no other timer is running (a signal cannot reach another thread; an outer timer
    is kept): elsewhere the block runs unbounded."""
    if threading.current_thread() is not threading.main_thread() or signal.getitimer(signal.ITIMER_REAL)[0]:
        yield
        return

    def alarm(number: int, frame: FrameType | None) -> None:
        raise TookTooLong

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
