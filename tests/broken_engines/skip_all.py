"""An engine that shakes hands (claiming the base game) and replies ``skipped`` to every ``start`` and
``score``."""

from __future__ import annotations

from _loop import Reply, Request, dumps, serve_with


def rewrite(request: Request, reply: Reply) -> str:
    if request.get("cmd") == "hello" and "result" in reply:
        reply = {**reply, "result": {**reply["result"], "rulesets": ["flip7", "flip7-no-deal"]}}
    elif request.get("cmd") in ("start", "score"):
        reply = {"seq": reply.get("seq"), "skipped": {"reason": "skip_all: this engine supports nothing yet"}}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
