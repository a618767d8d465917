"""A broken engine that shakes hands correctly, then replies to every other request with a wrong ``seq``."""

from __future__ import annotations

from _loop import Reply, Request, dumps, serve_with


def rewrite(request: Request, reply: Reply) -> str:
    if request.get("cmd") != "hello" and isinstance(reply.get("seq"), int):
        reply = {**reply, "seq": reply["seq"] + 1000}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
