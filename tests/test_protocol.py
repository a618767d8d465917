"""The protocol server (``flip7-spec serve``) and the process engine that talks to it.

The server is driven in-process through ``serve`` with string streams and through ``handle``: every reply
echoes the request's ``seq``, validates against ``schemas/protocol-v1.json``, and turns every problem (bad
JSON, unknown command, illegal decision, bad card) into an ``errored`` reply. Then a
:class:`~flip7_spec.protocol.process.ProcessEngine` plays whole games against ``flip7-spec serve`` in a child
process, step for step the same as the in-process reference.
"""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cards import cards
from flip7_spec.conformance.cases import generated_game
from flip7_spec.games.flip7.play import WORKED_EXAMPLES
from flip7_spec.protocol import LEVELS
from flip7_spec.protocol import server as server_module
from flip7_spec.protocol.adapter import EngineFailure, ReferenceAdapter
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.protocol.schema import message_errors
from flip7_spec.protocol.server import handle, serve
from flip7_spec.rulesets import preset, preset_names
from flip7_spec.trace.record import trace_reshuffles

FLIP7 = preset("flip7").to_json()
RESULT_SCHEMA = {"hello": "hello_result", "start": "observation_result", "decide": "observation_result",
                 "score": "score_result"}


def deck_of(seed: int = 0, players: int = 3, ruleset: str = "flip7") -> dict[str, Any]:
    """The header and decisions of a generated game, as protocol requests need them."""
    trace = generated_game(preset(ruleset), players, f"protocol-{seed}", seed)
    return trace


def start_request(seq: int, trace: dict[str, Any]) -> dict[str, Any]:
    header = trace["header"]
    return {"seq": seq, "cmd": "start", "ruleset": header["ruleset"], "players": header["players"],
            "dealer": header["dealer"], "deck": header["deck"], "reshuffles": trace_reshuffles(trace)}


def decisions(trace: dict[str, Any]) -> list[dict[str, Any]]:
    return [step["decision"] for step in trace["steps"] if "decision" in step]


def checked(request: Any, reply: dict[str, Any]) -> dict[str, Any]:
    """``reply``, after checking it against the schema (and its result against the command's result)."""
    assert message_errors(reply, "reply") == [], reply
    cmd = request.get("cmd") if isinstance(request, dict) else None
    if "result" in reply and cmd in RESULT_SCHEMA:
        assert message_errors(reply["result"], RESULT_SCHEMA[cmd]) == [], reply
    return reply


def exchange(*requests: Any, adapter: ReferenceAdapter | None = None) -> list[dict[str, Any]]:
    """Send ``requests`` (objects are encoded, strings sent as they are) through ``serve``; the replies."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    out = io.StringIO()
    assert serve(adapter or ReferenceAdapter(), io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    for request, reply in zip(requests, replies, strict=False):
        parsed = request
        if isinstance(request, str):
            try:
                parsed = json.loads(request)
            except json.JSONDecodeError:
                parsed = None
        checked(parsed, reply)
    return replies


def error_of(reply: dict[str, Any]) -> str:
    assert "errored" in reply and "result" not in reply, reply
    return str(reply["errored"]["message"])


# ---- the commands ---------------------------------------------------------------------------------


def test_hello_says_what_the_reference_supports() -> None:
    (reply,) = exchange({"seq": 0, "cmd": "hello", "protocol": 1})
    assert reply["seq"] == 0
    hello = reply["result"]
    assert hello["protocol"] == 1 and hello["name"]
    assert hello["rulesets"] == preset_names()
    assert hello["levels"] == list(LEVELS)
    assert True in hello["options"]["second_chance_ends_turn"] and "dealer" in hello["options"]["deal_start"]


def test_hello_in_another_protocol_version_is_refused() -> None:
    (reply,) = exchange({"seq": 0, "cmd": "hello", "protocol": 2})
    assert reply["seq"] == 0
    assert "protocol 2 is not supported" in error_of(reply)


@pytest.mark.clause("F7-DEAL", "F7-HIT-STAY")
def test_start_and_decide_play_a_game_and_echo_seq() -> None:
    trace = deck_of(1)
    chosen = decisions(trace)
    requests = [start_request(10, trace)] + [
        {"seq": 11 + i, "cmd": "decide", "player": d["player"], "kind": d["kind"], "choice": d["choice"]}
        for i, d in enumerate(chosen)]
    replies = exchange(*requests, {"seq": 999, "cmd": "quit"})
    assert [r["seq"] for r in replies] == [r["seq"] for r in requests] + [999]
    observations = [r["result"]["observation"] for r in replies[:-1]]
    assert observations[0] == trace["start"]["observation"]
    steps = [s for s in trace["steps"] if "decision" in s]
    assert observations[1:] == [s["observation"] for s in steps]
    assert observations[-1]["over"] is True and observations[-1]["pending"] is None
    assert replies[-1]["result"] == {}


def test_quit_stops_the_server() -> None:
    replies = exchange({"seq": 1, "cmd": "quit"}, {"seq": 2, "cmd": "hello", "protocol": 1})
    assert replies == [{"seq": 1, "result": {}}]


def test_end_of_input_stops_the_server_and_blank_lines_are_ignored() -> None:
    replies = exchange("", "   ", {"seq": 5, "cmd": "hello", "protocol": 1}, "")
    assert [r["seq"] for r in replies] == [5]


# the figures the rule book prints (RULES.md A.1#17), written here, not read from the reference
@pytest.mark.parametrize(("example_id", "printed"), [
    ("official-sum", 36), ("official-x2", 72), ("official-plus10", 46), ("official-flip7", 64)])
def test_score_gives_the_printed_totals_of_the_official_examples(example_id: str, printed: int) -> None:
    (example,) = (e for e in WORKED_EXAMPLES if e.id == example_id)
    hand = [c.text for c in cards(example.hand)]
    (reply,) = exchange({"seq": 3, "cmd": "score", "ruleset": FLIP7, "cards": hand, "busted": False})
    assert reply == {"seq": 3, "result": {"score": printed}}


@pytest.mark.clause("F7-SCORE-BUST")
def test_score_of_a_busted_hand_is_zero() -> None:
    (reply,) = exchange({"seq": 4, "cmd": "score", "ruleset": FLIP7, "cards": ["3", "+4", "3"], "busted": True})
    assert reply["result"] == {"score": 0}


# ---- errors -------------------------------------------------------------------------------------------


def test_bad_json_is_an_error_with_no_seq() -> None:
    replies = exchange('{"seq": 1, "cmd": "hello", ', "not json at all", {"seq": 2, "cmd": "quit"})
    assert [r["seq"] for r in replies] == [None, None, 2]
    assert all(error_of(r).startswith("not JSON") for r in replies[:2])


@pytest.mark.parametrize("request_, seq, words", [
    ({"seq": 1, "cmd": "dance"}, 1, "bad request"),
    ({"seq": 1}, 1, "bad request"),
    ({"cmd": "hello", "protocol": 1}, None, "bad request"),
    ({"seq": True, "cmd": "hello", "protocol": 1}, None, "bad request"),
    ({"seq": 6, "cmd": "score", "ruleset": FLIP7, "cards": ["3"]}, 6, "bad request"),
    ([1, 2, 3], None, "bad request"),
    ("null", None, "bad request"),
], ids=["unknown-command", "no-command", "no-seq", "bool-seq", "missing-field", "array", "null"])
def test_malformed_requests_are_errors(request_: Any, seq: int | None, words: str) -> None:
    """An error reply, echoing ``seq`` whenever the request has a usable one; the server goes on."""
    replies = exchange(request_, {"seq": 9, "cmd": "quit"})
    assert replies[0]["seq"] == seq
    assert words in error_of(replies[0])
    assert replies[1] == {"seq": 9, "result": {}}


def test_unknown_command_names_the_problem() -> None:
    reply, stop = handle(ReferenceAdapter(), {"seq": 7, "cmd": "dance"})
    assert not stop
    assert "cmd" in error_of(checked({}, reply))


@pytest.mark.clause("F7-HIT-STAY")
def test_illegal_decision_names_the_legal_choices() -> None:
    trace = deck_of(2)
    replies = exchange(start_request(1, trace), {"seq": 2, "cmd": "decide", "choice": "fold"},
                       {"seq": 3, "cmd": "decide", "choice": 1})
    pending = replies[0]["result"]["observation"]["pending"]
    for reply in replies[1:]:
        message = error_of(reply)
        assert "not a legal choice" in message
        assert all(str(option) in message for option in pending["options"])
    assert [r["seq"] for r in replies] == [1, 2, 3]
    # the game is unharmed: the legal choice still works
    first = decisions(trace)[0]
    after = exchange(start_request(1, trace), {"seq": 2, "cmd": "decide", "choice": "fold"},
                     {"seq": 3, "cmd": "decide", "choice": first["choice"]})
    assert after[2]["result"]["observation"] == next(s for s in trace["steps"] if "decision" in s)["observation"]


def test_decide_before_start_is_an_error() -> None:
    (reply,) = exchange({"seq": 1, "cmd": "decide", "choice": "hit"})
    assert reply["seq"] == 1 and "start" in error_of(reply)


@pytest.mark.parametrize("hand", [["3", "banana"], ["7x"], ["+"], [""], ["FREEZER"], [3]])
def test_score_with_a_bad_card_is_an_error(hand: list[str]) -> None:
    (reply,) = exchange({"seq": 8, "cmd": "score", "ruleset": FLIP7, "cards": hand, "busted": False})
    assert reply["seq"] == 8
    error_of(reply)


@pytest.mark.clause("F7-DECK")
def test_start_with_a_bad_deck_is_an_error() -> None:
    trace = deck_of(3)
    bad_card = start_request(1, trace)
    bad_card["deck"] = ["banana", *bad_card["deck"][1:]]
    short = start_request(2, trace)
    short["deck"] = short["deck"][1:]
    bad_dealer = start_request(3, trace)
    bad_dealer["dealer"] = 7
    replies = exchange(bad_card, short, bad_dealer)
    assert [r["seq"] for r in replies] == [1, 2, 3]
    assert "banana" in error_of(replies[0])
    assert "permutation" in error_of(replies[1])
    assert "dealer" in error_of(replies[2])


def test_handle_never_raises() -> None:
    adapter = ReferenceAdapter()
    requests: list[Any] = [
        None, 3, "hello", [], {}, {"seq": 1, "cmd": None},
        {"seq": 1, "cmd": "start", "ruleset": 5, "players": "three", "dealer": 0, "deck": [], "reshuffles": []},
        {"seq": 1, "cmd": "start", "ruleset": FLIP7, "players": 3, "dealer": 0, "deck": None, "reshuffles": None},
        {"seq": 1, "cmd": "score", "ruleset": {"base": "nothing"}, "cards": [], "busted": False},
        {"seq": 1, "cmd": "decide", "choice": {"player": [], "index": None}},
    ]
    for request in requests:
        reply, stop = handle(adapter, request)
        assert not stop
        error_of(checked(request, reply))


def test_an_over_long_request_gets_exactly_one_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_module, "MAX_REQUEST_BYTES", 100)
    replies = exchange({"seq": 1, "cmd": "hello", "protocol": 1, "padding": "x" * 250}, {"seq": 2, "cmd": "quit"})
    assert "too long" in error_of(replies[0])
    assert replies[1:] == [{"seq": 2, "result": {}}]


# ---- a process engine against flip7-spec serve ------------------------------------------------------


def serve_command() -> str:
    """``flip7-spec serve`` of this environment (never a script found on PATH: it may be another install)."""
    script = Path(sys.executable).with_name("flip7-spec")
    return shlex.join([str(script), "serve"] if script.is_file() else [sys.executable, "-m", "flip7_spec", "serve"])


@pytest.mark.parametrize("seed, players, ruleset", [(4, 3, "flip7"), (5, 5, "flip7-no-deal"), (6, 4, "vengeance")])
def test_process_engine_plays_like_the_in_process_reference(seed: int, players: int, ruleset: str) -> None:
    trace = deck_of(seed, players, ruleset)
    header = trace["header"]
    args = (header["ruleset"], header["players"], header["dealer"], header["deck"], trace_reshuffles(trace))
    local = ReferenceAdapter()
    remote = ProcessEngine(serve_command(), timeout=20.0)
    try:
        assert remote.hello() == local.hello()
        assert remote.start(*args) == local.start(*args)
        for step, decision in enumerate(decisions(trace)):
            expected = local.decide(decision["choice"], decision["player"], decision["kind"])
            assert remote.decide(decision["choice"], decision["player"], decision["kind"]) == expected, step
        assert expected["over"] is True
        observations, failure = remote.decide_many([])
        assert observations == [] and failure is None
        hand = ["3", "11", "5", "7", "10", "x2"]
        assert remote.score(header["ruleset"], hand, False) == local.score(header["ruleset"], hand, False) == (
            72 if ruleset.startswith("flip7") else remote.score(header["ruleset"], hand, False))
    finally:
        process = remote.process
        remote.close()
    assert process is not None and process.poll() == 0


def test_process_engine_pipelines_a_whole_game() -> None:
    trace = deck_of(7, 6)
    header = trace["header"]
    remote = ProcessEngine(serve_command(), timeout=20.0)
    try:
        start = remote.start(header["ruleset"], header["players"], header["dealer"], header["deck"],
                             trace_reshuffles(trace))
        assert start == trace["start"]["observation"]
        observations, failure = remote.decide_many(decisions(trace))
        assert failure is None
        assert observations == [s["observation"] for s in trace["steps"] if "decision" in s]
    finally:
        remote.close()


def test_process_engine_reports_an_illegal_decision_as_an_engine_error() -> None:
    trace = deck_of(8)
    header = trace["header"]
    remote = ProcessEngine(serve_command(), timeout=20.0)
    try:
        remote.start(header["ruleset"], header["players"], header["dealer"], header["deck"], trace_reshuffles(trace))
        with pytest.raises(EngineFailure, match="not a legal choice") as raised:
            remote.decide("fold")
        assert raised.value.raw and json.loads(raised.value.raw)["errored"]
    finally:
        remote.close()
