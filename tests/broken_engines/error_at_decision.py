"""A broken engine that plays correctly but fails the Nth decision of every game (argument 1, default 3,
counted from 1), and logs each request it reads to stderr before answering it, so that its stderr holds
lines about the requests sent after the failing one. Argument 2 says how it fails: ``errored`` (the
default) replies ``errored``; ``observation`` replies an observation that breaks the protocol's schema."""

from __future__ import annotations

import sys

from _loop import Reply, Request, dumps, serve_with

FAILING = int(sys.argv[1]) if len(sys.argv) > 1 else 3
HOW = sys.argv[2] if len(sys.argv) > 2 else "errored"
decisions = 0


def rewrite(request: Request, reply: Reply) -> str:
    global decisions
    if request.get("cmd") == "start":
        decisions = 0
        sys.stderr.write("log: start of a game\n")
    elif request.get("cmd") == "decide":
        decisions += 1
        sys.stderr.write(f"log: decision {decisions} of this game\n")
    sys.stderr.flush()
    if request.get("cmd") == "decide" and decisions == FAILING:
        if HOW == "observation":
            observation = reply["result"]["observation"]
            return dumps({**reply, "result": {"observation": {**observation, "dealer": "the one with the cards"}}})
        return dumps({"seq": request["seq"], "errored": {"message": f"refusing decision {decisions}"}})
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
