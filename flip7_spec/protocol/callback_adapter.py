"""An :class:`~flip7_spec.protocol.adapter.EngineAdapter` for a Python engine whose loop calls its players
back: subclass :class:`CallbackAdapter`, say how to run the engine's loop (:meth:`~CallbackAdapter.play`)
and how to read its state (:meth:`~CallbackAdapter.observe`); the bridge does the rest.

::

    class Adapter(CallbackAdapter):
        def hello(self): ...                              # the handshake
        def play(self, setup, ask): ...                   # build the engine from setup, run its loop;
                                                          # every callback returns ask(Ask(...))
        def observe(self, pending): ...                   # the canonical observation, now
        def score(self, ruleset, hand, busted): ...

    if __name__ == "__main__":
        serve_main(Adapter)                               # flip7_spec.protocol.main
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure, Observation
from flip7_spec.protocol.bridge import Ask, AskFunction, CallbackBridge


@dataclass(frozen=True)
class StartRequest:
    """What a ``start`` request asks for: the ruleset (JSON), the player count, the Dealer's seat, the whole
    draw pile top card first, and the order of every reshuffle the game will need."""

    ruleset: dict[str, Any]
    players: int
    dealer: int
    deck: Sequence[str]
    reshuffles: Sequence[Sequence[str]]


GameSetup = StartRequest
"""The earlier name of :class:`StartRequest`, kept for adapters written against it (the game record's setup is
:class:`flip7_spec.trace.record.GameSetup`)."""


def _same(choice: Any, option: Any) -> bool:
    return type(choice) is type(option) and bool(choice == option)


class CallbackAdapter(EngineAdapter):
    """The protocol side of a callback-style engine: ``start`` runs :meth:`play` on a worker thread up to its
    first callback, ``decide`` answers the pending callback and runs to the next one, and each reply is
    :meth:`observe` of the engine's state at that moment (its loop parked, or returned)."""

    ask_single = False
    """Whether decisions with one option reach the protocol (the protocol never asks them: leave False)."""

    def __init__(self) -> None:
        self.bridge: CallbackBridge | None = None
        self.setup: StartRequest | None = None

    @abstractmethod
    def play(self, setup: StartRequest, ask: AskFunction) -> None:
        """Build the engine for ``setup`` and run its loop to the end of the game; each callback of the
        engine returns ``ask(Ask(player, kind, options, card))`` translated back into the engine's terms.
        Raise :class:`~flip7_spec.protocol.adapter.Skipped` for a setup the engine does not support."""

    @abstractmethod
    def observe(self, pending: Ask | None) -> Observation:
        """The canonical observation of the engine's state now; ``pending`` is the decision it waits for
        (None once its loop has returned: the game is over)."""

    def prepare(self, setup: StartRequest) -> None:
        """Check ``setup`` before the loop starts (raise ``Skipped`` here for what the engine lacks)."""

    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
              reshuffles: Sequence[Sequence[str]]) -> Observation:
        self.close()
        setup = StartRequest(ruleset, players, dealer, list(deck), [list(r) for r in reshuffles])
        self.prepare(setup)
        self.setup = setup
        self.bridge = CallbackBridge(lambda ask: self.play(setup, ask), ask_single=self.ask_single)
        return self.observe(self.bridge.start())

    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> Observation:
        bridge = self.bridge
        if bridge is None:
            raise EngineFailure("decide before start")
        pending = bridge.pending
        if pending is None:
            raise EngineFailure("no decision is pending: the game is over")
        if (player is not None and player != pending.player) or (kind is not None and kind != pending.kind):
            raise EngineFailure(f"the engine waits for {pending.kind} of player {pending.player}, "
                                f"not {kind} of player {player}")
        if not any(_same(choice, option) for option in pending.options):
            raise EngineFailure(f"{choice!r} is not among the engine's options {list(pending.options)!r}")
        return self.observe(bridge.answer(choice))

    def close(self) -> None:
        if self.bridge is not None:
            self.bridge.close()
            self.bridge = None

    def restart(self) -> None:
        self.close()
