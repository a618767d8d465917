"""The helpers for Python engines: the callback bridge, the card census and the protocol main loop."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

from flip7_spec.errors import ChanceError
from flip7_spec.protocol.adapter import EngineFailure, ReferenceAdapter
from flip7_spec.protocol.bridge import Ask, AskFunction, CallbackBridge
from flip7_spec.protocol.callback_adapter import CallbackAdapter, StartRequest
from flip7_spec.protocol.census import Census
from flip7_spec.protocol.main import run_adapter
from flip7_spec.protocol.schema import message_errors
from flip7_spec.protocol.server import handle

# ---- the bridge ------------------------------------------------------------------------------------


def counting_game(log: list[str], rounds: int = 3) -> Callable[[Callable[[Ask], Any]], None]:
    """A loop in the hobby-engine shape: it asks player i each round and records the answers."""

    def play(ask: Callable[[Ask], Any]) -> None:
        for index in range(rounds):
            log.append(str(ask(Ask(index % 2, "hit_or_stay", ["hit", "stay"]))))
        log.append("end")

    return play


def test_each_callback_becomes_a_pending_decision_in_order() -> None:
    log: list[str] = []
    bridge = CallbackBridge(counting_game(log))
    first = bridge.start()
    assert first is not None and first.player == 0 and log == []  # the loop is parked at its first callback
    second = bridge.answer("hit")
    assert second is not None and second.player == 1 and log == ["hit"]
    assert bridge.answer("stay") is not None
    assert bridge.answer("hit") is None and bridge.finished
    assert log == ["hit", "stay", "hit", "end"]
    with pytest.raises(EngineFailure, match="game is over"):
        bridge.answer("hit")


def test_a_decision_with_one_option_is_answered_by_the_bridge() -> None:
    asked: list[Any] = []

    def play(ask: Callable[[Ask], Any]) -> None:
        asked.append(ask(Ask(0, "target", [2], "FREEZE")))  # the protocol never asks a one-choice decision
        asked.append(ask(Ask(0, "target", [1, 2], "FREEZE")))

    bridge = CallbackBridge(play)
    pending = bridge.start()
    assert pending is not None and list(pending.options) == [1, 2] and asked == [2]
    assert pending.pending() == {"player": 0, "kind": "target", "card": "FREEZE", "options": [1, 2]}
    assert bridge.answer(1) is None and asked == [2, 1]


def test_an_exception_in_the_loop_becomes_an_engine_failure() -> None:
    def play(ask: Callable[[Ask], Any]) -> None:
        ask(Ask(0, "hit_or_stay", ["hit", "stay"]))
        raise IndexError("Cannot deal from an empty draw pile.")

    bridge = CallbackBridge(play)
    bridge.start()
    with pytest.raises(EngineFailure, match="IndexError: Cannot deal from an empty draw pile"):
        bridge.answer("hit")


def test_a_reshuffle_problem_in_the_loop_reaches_the_reply_as_its_structured_field() -> None:
    """An adapter whose engine finds the reshuffle orders do not fit raises ChanceError with the protocol's
    ``reshuffle`` field; through the bridge and the server it becomes the ``errored`` reply's field."""
    problem = {"problem": "no_order", "discard_pile": ["4", "9"], "index": 1}

    class Adapter(CallbackAdapter):
        def hello(self) -> dict[str, Any]:
            return {}

        def score(self, ruleset: dict[str, Any], hand: Any, busted: bool) -> int:
            return 0

        def play(self, setup: StartRequest, ask: AskFunction) -> None:
            ask(Ask(0, "hit_or_stay", ["hit", "stay"]))
            raise ChanceError("a reshuffle is needed and no order is left", reshuffle=problem)

        def observe(self, pending: Ask | None) -> dict[str, Any]:
            return {"pending": None if pending is None else pending.pending()}

    adapter = Adapter()
    started, _ = handle(adapter, {"seq": 1, "cmd": "start", "ruleset": {}, "players": 2, "dealer": 0, "deck": [],
                                  "reshuffles": []})
    assert started["result"]["observation"]["pending"]["player"] == 0
    reply, _ = handle(adapter, {"seq": 2, "cmd": "decide", "choice": "hit"})
    assert reply["errored"]["reshuffle"] == problem
    assert reply["errored"]["message"].startswith("reshuffle: ")
    assert message_errors(reply, "reply") == []


def test_closing_unwinds_a_parked_loop_even_through_except_exception() -> None:
    unwound = threading.Event()

    def play(ask: Callable[[Ask], Any]) -> None:
        try:
            while True:
                try:
                    ask(Ask(0, "hit_or_stay", ["hit", "stay"]))
                except Exception:  # a hobby engine's catch-all must not keep an abandoned game alive
                    continue
        finally:
            unwound.set()

    bridge = CallbackBridge(play)
    bridge.start()
    bridge.close()
    assert unwound.wait(5.0)


# ---- the census ------------------------------------------------------------------------------------


def test_in_play_is_what_no_pile_or_row_holds_in_reveal_order() -> None:
    census = Census(["7", "FLIP3", "5", "FREEZE", "7", "9"])
    for revealed in ("7", "FLIP3", "5", "FREEZE"):
        census.revealed(revealed)
    # Player 0 holds 7 and 5; the Flip Three and the Freeze set aside in it are in play, in reveal order.
    assert census.in_play([["7", "5"], []], draw_pile=["7", "9"], discard_pile=[]) == ["FLIP3", "FREEZE"]
    # 6 cards, 2 in rows, 2 in play, 2 on the draw pile: the discard pile holds none.
    assert census.discard_size([["7", "5"], []], 2, in_play=["FLIP3", "FREEZE"]) == 0
    assert census.draw_size([["7", "5"], []], 0, in_play=["FLIP3", "FREEZE"]) == 2


def test_the_latest_reveal_of_a_card_text_gives_its_place() -> None:
    census = Census(["FLIP3", "3", "FLIP3", "4"])
    for revealed in ("FLIP3", "3", "FLIP3", "4"):
        census.revealed(revealed)
    # The first Flip Three was discarded; the one in play is the second reveal, after the 3.
    assert census.in_play([["3", "4"]], draw_pile=[], discard_pile=["FLIP3"]) == ["FLIP3"]
    census2 = Census(["FREEZE", "FLIP3", "3"])
    for revealed in ("FLIP3", "FREEZE"):
        census2.revealed(revealed)
    assert census2.in_play([], draw_pile=["3"], discard_pile=[]) == ["FLIP3", "FREEZE"]


def test_a_card_the_deck_lacks_is_an_engine_failure() -> None:
    census = Census(["1", "2"])
    with pytest.raises(EngineFailure, match=r"\['2'\]"):
        census.in_play([["2", "2"]], draw_pile=[], discard_pile=["1"])


# ---- the main loop ---------------------------------------------------------------------------------


def test_run_adapter_answers_each_line_and_keeps_prints_off_the_protocol(capsys: pytest.CaptureFixture[str]
                                                                         ) -> None:
    class Chatty(ReferenceAdapter):
        def hello(self) -> dict[str, Any]:
            print("hello from the engine")  # a hobby engine's debug print
            return super().hello()

    requests = [{"seq": 0, "cmd": "hello", "protocol": 1}, {"seq": 1, "cmd": "quit"}]
    source = io.StringIO("".join(json.dumps(r) + "\n" for r in requests))
    sink = io.StringIO()
    assert run_adapter(Chatty(), source, sink) == 0
    replies = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [r["seq"] for r in replies] == [0, 1]
    assert replies[0]["result"]["name"] == "flip7-spec reference"
    assert "hello from the engine" in capsys.readouterr().err
