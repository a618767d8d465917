"""The reference, declaring only the ``flip7`` preset in its handshake (as most engines do)."""

from __future__ import annotations

from _loop import Reply, Request, dumps, serve_with


def rewrite(request: Request, reply: Reply) -> str:
    if request.get("cmd") == "hello" and isinstance(reply.get("result"), dict):
        reply = {**reply, "result": {**reply["result"], "rulesets": ["flip7"]}}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
