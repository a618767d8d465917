"""Serving an adapter over the protocol: read one request line, write one reply line, until ``quit``."""

from __future__ import annotations

import io
import json
import select
import sys
from collections.abc import Iterator
from typing import IO, Any

from flip7_spec.errors import ChanceError, Flip7Error, InputError
from flip7_spec.inputs import decode
from flip7_spec.jsontext import parse_json
from flip7_spec.limits import REQUEST_LINE, show_bytes
from flip7_spec.protocol import PROTOCOL_VERSION
from flip7_spec.protocol.adapter import EngineAdapter, ReferenceAdapter, Skipped
from flip7_spec.protocol.schema import request_errors

_REQUIRED = {
    "hello": ("protocol",),
    "start": ("ruleset", "players", "dealer", "deck", "reshuffles"),
    "decide": ("choice",),
    "score": ("ruleset", "cards", "busted"),
    "quit": (),
}

MAX_REQUEST_BYTES = REQUEST_LINE.value


def handle(adapter: EngineAdapter, request: Any) -> tuple[dict[str, Any], bool]:
    """The reply to one parsed request, and whether to stop after it. Never raises."""
    seq = request.get("seq") if isinstance(request, dict) else None
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    cmd = request.get("cmd") if isinstance(request, dict) else None
    if not isinstance(cmd, str):  # an object or a list is no command (and could not be looked up)
        cmd = None
    if seq is None or cmd not in _REQUIRED or any(key not in request for key in _REQUIRED[cmd]):
        # The cheap check failed: let the schema say exactly what is wrong.
        problems = request_errors(request) or ["$.cmd: unknown command"]
        return {"seq": seq, "errored": {"message": f"bad request: {problems[0]}"}}, False
    try:
        if cmd == "hello":
            if request["protocol"] != PROTOCOL_VERSION:
                return {"seq": seq, "errored": {"message": f"protocol {request['protocol']} is not supported; "
                                                           f"this engine speaks {PROTOCOL_VERSION}"}}, False
            return {"seq": seq, "result": adapter.hello()}, False
        if cmd == "start":
            observation = adapter.start(request["ruleset"], request["players"], request["dealer"],
                                        request["deck"], request["reshuffles"])
            return {"seq": seq, "result": {"observation": observation}}, False
        if cmd == "decide":
            observation = adapter.decide(request["choice"], request.get("player"), request.get("kind"))
            return {"seq": seq, "result": {"observation": observation}}, False
        if cmd == "score":
            value = adapter.score(request["ruleset"], request["cards"], request["busted"])
            return {"seq": seq, "result": {"score": value}}, False
        return {"seq": seq, "result": {}}, True  # quit
    except Skipped as skipped:
        return {"seq": seq, "skipped": {"reason": str(skipped)}}, False
    except ChanceError as error:  # the orders do not fit this engine's reshuffles: say so as the protocol asks
        errored: dict[str, Any] = {"message": f"reshuffle: {error}"}
        if error.reshuffle is not None:
            errored["reshuffle"] = error.reshuffle
        return {"seq": seq, "errored": errored}, False
    except Flip7Error as error:
        return {"seq": seq, "errored": {"message": str(error)}}, False
    except Exception as error:  # an engine bug must become a reply, not a dead process
        return {"seq": seq, "errored": {"message": f"{type(error).__name__}: {error}"}}, False


def _more_input(source: IO[Any]) -> bool:
    """Whether another request is already waiting (so this reply can be flushed with the next ones)."""
    try:
        ready, _, _ = select.select([source], [], [], 0)
    except (OSError, ValueError, io.UnsupportedOperation):
        return False  # not a pipe or file (a StringIO in tests): flush every reply
    return bool(ready)


def _lines(source: IO[Any]) -> Iterator[bytes | str | None]:
    """The request lines of ``source`` (bytes from a binary stream, text from a text one), each within
    ``MAX_REQUEST_BYTES``; None for a line over it (which is skipped, not held)."""
    while True:
        line = source.readline(MAX_REQUEST_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_REQUEST_BYTES:
            ending = b"\n" if isinstance(line, bytes) else "\n"
            while line and not line.endswith(ending):  # skip the rest of the over-long line
                line = source.readline(MAX_REQUEST_BYTES + 1)
            yield None
            continue
        yield line


def _reply_to(adapter: EngineAdapter, line: bytes | str | None) -> tuple[dict[str, Any], bool]:
    """The reply to one request line, and whether to stop. Never raises: a bad line gets an error reply."""
    if line is None:
        return {"seq": None, "errored": {"message": f"request line too long (the limit is "
                                                    f"{show_bytes(MAX_REQUEST_BYTES)})"}}, False
    try:
        text = decode(line) if isinstance(line, bytes) else line
        request = parse_json(text)
    except InputError as error:
        return {"seq": None, "errored": {"message": f"not JSON: {error}"}}, False
    return handle(adapter, request)


def serve(adapter: EngineAdapter | None = None, stdin: IO[Any] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer protocol requests from ``stdin`` on ``stdout`` until ``quit`` or end of input; returns 0.

    Requests are read as bytes (the standard input's binary stream unless ``stdin`` is given), so a line
    that is not UTF-8, not JSON, too deep or too long gets an ``errored`` reply and the next line is read.
    """
    adapter = adapter if adapter is not None else ReferenceAdapter()
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout
    for line in _lines(source):
        if line is not None and not line.strip():
            continue
        reply, stop = _reply_to(adapter, line)
        sink.write(json.dumps(reply, separators=(",", ":"), sort_keys=True, default=str) + "\n")
        if stop or not _more_input(source):
            sink.flush()  # a pipelining client gets its replies in batches; a lock-step one at once
        if stop:
            return 0
    sink.flush()
    return 0
