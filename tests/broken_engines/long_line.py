"""A broken engine that shakes hands correctly, then answers ``start`` with a 2 MiB line."""

from __future__ import annotations

from _loop import Reply, Request, dumps, serve_with

PADDING = "x" * (2 * 1024 * 1024)


def rewrite(request: Request, reply: Reply) -> str:
    if request.get("cmd") == "start":
        reply = {**reply, "debug": PADDING}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
