"""Serving an adapter over the protocol: read one request line, write one reply line, until ``quit``."""

from __future__ import annotations

import io
import json
import select
import sys
from typing import IO, Any

from flip7_spec.errors import Flip7Error
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

MAX_REQUEST_BYTES = 16 * 1024 * 1024


def handle(adapter: EngineAdapter, request: Any) -> tuple[dict[str, Any], bool]:
    """The reply to one parsed request, and whether to stop after it. Never raises."""
    seq = request.get("seq") if isinstance(request, dict) else None
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    cmd = request.get("cmd") if isinstance(request, dict) else None
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
    except Flip7Error as error:
        return {"seq": seq, "errored": {"message": str(error)}}, False
    except Exception as error:  # an engine bug must become a reply, not a dead process
        return {"seq": seq, "errored": {"message": f"{type(error).__name__}: {error}"}}, False


def _more_input(source: IO[str]) -> bool:
    """Whether another request is already waiting (so this reply can be flushed with the next ones)."""
    try:
        ready, _, _ = select.select([source], [], [], 0)
    except (OSError, ValueError, io.UnsupportedOperation):
        return False  # not a pipe or file (a StringIO in tests): flush every reply
    return bool(ready)


def serve(adapter: EngineAdapter | None = None, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer protocol requests from ``stdin`` on ``stdout`` until ``quit`` or end of input; returns 0."""
    adapter = adapter if adapter is not None else ReferenceAdapter()
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    while True:
        line = source.readline(MAX_REQUEST_BYTES + 1)
        if not line:
            sink.flush()
            return 0
        if not line.strip():
            continue
        if len(line) > MAX_REQUEST_BYTES:
            while line and not line.endswith("\n"):  # skip the rest of the over-long line
                line = source.readline(MAX_REQUEST_BYTES + 1)
            reply: dict[str, Any] = {"seq": None, "errored": {"message": "request line too long"}}
            stop = False
        else:
            try:
                request = json.loads(line)
            except json.JSONDecodeError as error:
                message = f"not JSON: {error.msg} at column {error.colno}"
                reply, stop = {"seq": None, "errored": {"message": message}}, False
            else:
                reply, stop = handle(adapter, request)
        sink.write(json.dumps(reply, separators=(",", ":"), sort_keys=True) + "\n")
        if stop or not _more_input(source):
            sink.flush()  # a pipelining client gets its replies in batches; a lock-step one at once
        if stop:
            return 0
