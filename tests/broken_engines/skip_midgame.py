"""A broken engine that plays correctly but answers ``skipped`` to the third decision of every game, which the
protocol forbids (``skipped`` answers ``start`` or ``score`` only): each game case must error, not pass."""

from __future__ import annotations

from _loop import Reply, Request, dumps, serve_with

decisions = 0


def rewrite(request: Request, reply: Reply) -> str:
    global decisions
    if request.get("cmd") == "start":
        decisions = 0
    if request.get("cmd") == "decide":
        decisions += 1
        if decisions == 3:
            return dumps({"seq": request["seq"], "skipped": {"reason": "skip_midgame: not this one"}})
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
