"""An in-process engine (``conform --python``) held to what a process engine is held to: each call answers
within the reply timeout, and none may end the run's process.

A process engine that hangs is timed out by the process client, and one that exits is a dead process, an
errored case. An in-process engine runs in the run's own process (or a worker's): without this guard, one
that loops for ever would hang the run, and one that calls ``sys.exit`` would end it, with whatever exit
code it chose. Each call is bounded by :func:`flip7_spec.interrupts.time_limit` (in the main thread), and
``SystemExit`` becomes an :class:`~flip7_spec.protocol.adapter.EngineFailure`, which errors the case. An
engine that ends its process with ``os._exit`` or crashes it cannot be caught in-process: ``conform``
runs an in-process engine in a worker process (also with one worker), whose death errors the case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from flip7_spec.interrupts import TookTooLong, time_limit
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure, Observation

T = TypeVar("T")


class GuardedEngine(EngineAdapter):
    """``inner``, each call bounded by ``timeout`` seconds and kept from ending the process."""

    def __init__(self, inner: EngineAdapter, timeout: float) -> None:
        self.inner = inner
        self.timeout = timeout

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)  # what the runner reads of a particular engine, if anything

    def _call(self, what: str, call: Callable[[], T]) -> T:
        try:
            with time_limit(self.timeout):
                return call()
        except TookTooLong:
            raise EngineFailure(f"no answer to {what} within {self.timeout:g} s (the in-process engine was "
                                "stopped)") from None
        except SystemExit as error:
            raise EngineFailure(f"the in-process engine tried to end the process at {what} (SystemExit "
                                f"{_shown(error.code)})") from None

    def hello(self) -> dict[str, Any]:
        return self._call("hello", self.inner.hello)

    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
              reshuffles: Sequence[Sequence[str]]) -> Observation:
        return self._call("start", lambda: self.inner.start(ruleset, players, dealer, deck, reshuffles))

    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> Observation:
        return self._call("decide", lambda: self.inner.decide(choice, player, kind))

    def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
        return self._call("score", lambda: self.inner.score(ruleset, hand, busted))

    def close(self) -> None:
        self._call("close", self.inner.close)

    def restart(self) -> None:
        self._call("restart", self.inner.restart)


def _shown(value: object) -> str:
    try:
        return repr(value)[:100]
    except Exception:
        return type(value).__name__
