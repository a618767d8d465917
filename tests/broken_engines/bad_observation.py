"""A broken engine whose observations break the schema: each player's status is a number and ``round`` is
missing (the scores are right)."""

from __future__ import annotations

from typing import Any

from _loop import Reply, Request, dumps, serve_with


def rewrite(request: Request, reply: Reply) -> str:
    result = reply.get("result")
    if isinstance(result, dict) and isinstance(result.get("observation"), dict):
        observation: dict[str, Any] = dict(result["observation"])
        observation.pop("round", None)
        observation["players"] = [{**p, "status": 1} for p in observation["players"]]
        reply = {**reply, "result": {"observation": observation}}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
