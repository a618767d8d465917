"""A bridge for engines that call their players back: the engine's own loop asks ``decide(state)``, the
protocol wants the engine to stop at each decision and wait for a ``decide`` request.

:class:`CallbackBridge` runs the engine's loop on a worker thread. Each callback becomes a call of ``ask``,
which parks the worker and hands the decision to the protocol side; the next choice wakes the worker up with
that choice as the callback's return value. Only one side runs at a time, so the protocol side may read
the engine's state while the worker is parked.

::

    def play(ask):                       # the engine's own loop, as it is
        engine.run(decide=lambda state: ask(Ask(state.player, "hit_or_stay", ["hit", "stay"])) == "hit")

    bridge = CallbackBridge(play)
    pending = bridge.start()             # the first decision (None: the game ended without one)
    pending = bridge.answer("hit")       # the next one
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.errors import ChanceError
from flip7_spec.protocol.adapter import EngineFailure


@dataclass(frozen=True)
class Ask:
    """One decision the engine's loop asks for: who decides, its ``kind`` and legal ``options`` as the
    protocol spells them, the ``card`` it is about (``pending.card``), and anything the adapter wants back
    when building the observation (``context``)."""

    player: int
    kind: str
    options: Sequence[Any]
    card: str | None = None
    context: Any = field(default=None, compare=False)

    def pending(self) -> dict[str, Any]:
        """The observation's ``pending`` object for this decision."""
        return {"player": self.player, "kind": self.kind, "card": self.card, "options": list(self.options)}


AskFunction = Callable[[Ask], Any]


class GameAbandoned(BaseException):
    """Raised inside the engine's loop, at its pending callback, when the game is abandoned (a new ``start``,
    or the adapter closing). A BaseException, so that an engine's ``except Exception`` does not swallow it."""


class CallbackBridge:
    """Runs ``play(ask)`` (the engine's loop) on a worker thread, parked at every ``ask``.

    ``ask_single``: a decision with exactly one option is answered by the bridge at once unless this is
    true (the protocol never asks such a decision; docs/protocol.md, Decisions).
    """

    def __init__(self, play: Callable[[AskFunction], None], ask_single: bool = False) -> None:
        self._play = play
        self._ask_single = ask_single
        self._turn = threading.Condition()
        self._engine_turn = False
        self._pending: Ask | None = None
        self._choice: Any = None
        self._abandoned = False
        self._finished = False
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    @property
    def finished(self) -> bool:
        """Whether the engine's loop has returned (the game is over)."""
        return self._finished

    @property
    def pending(self) -> Ask | None:
        """The decision the engine waits for (None before start and once the loop has returned)."""
        return self._pending

    def start(self) -> Ask | None:
        """Start the loop and run it to its first decision; None when it ended without asking any."""
        if self._thread is not None:
            raise EngineFailure("the bridge was started already")
        self._thread = threading.Thread(target=self._run, name="engine loop", daemon=True)
        with self._turn:
            self._engine_turn = True
            self._thread.start()
            return self._wait_for_engine()

    def answer(self, choice: Any) -> Ask | None:
        """Hand ``choice`` to the pending callback and run the loop to its next decision (None: it ended)."""
        with self._turn:
            if self._pending is None:
                raise EngineFailure("no decision is pending: the game is over" if self._finished
                                    else "no decision is pending")
            self._choice = choice
            self._pending = None
            self._engine_turn = True
            self._turn.notify_all()
            return self._wait_for_engine()

    def close(self, timeout: float = 5.0) -> None:
        """Abandon the game: the pending callback raises :class:`GameAbandoned` inside the loop, and the worker
        is waited for (``timeout`` seconds at most; it is a daemon thread either way)."""
        thread = self._thread
        with self._turn:
            self._abandoned = True
            self._turn.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    # ---- the worker side ------------------------------------------------------------------------

    def _ask(self, question: Ask) -> Any:
        if len(question.options) == 1 and not self._ask_single:
            return question.options[0]
        with self._turn:
            if self._abandoned:
                raise GameAbandoned
            self._pending = question
            self._engine_turn = False
            self._turn.notify_all()
            while not self._engine_turn and not self._abandoned:
                self._turn.wait()
            if self._abandoned:
                raise GameAbandoned
            return self._choice

    def _run(self) -> None:
        try:
            self._play(self._ask)
        except GameAbandoned:
            pass
        except BaseException as error:  # handed to the protocol side, which reports it
            self._error = error
        with self._turn:
            self._finished = True
            self._pending = None
            self._engine_turn = False
            self._turn.notify_all()

    def _wait_for_engine(self) -> Ask | None:
        while self._engine_turn:
            self._turn.wait()
        if self._error is not None:
            error, self._error = self._error, None
            if isinstance(error, ChanceError):  # kept as such: the protocol side reports the reshuffle problem
                raise ChanceError(f"the engine's loop raised ChanceError: {error}", error.reshuffle) from error
            raise EngineFailure(f"the engine's loop raised {type(error).__name__}: {error}") from error
        return self._pending
