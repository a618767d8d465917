"""A broken adapter around a right engine: in the final observation (``over`` true) it reports the Dealer
rotated once more, as an engine that passes the deck on after every round, the last one too, would have
it. The rules are played right; only the end-of-game convention of docs/protocol.md is broken."""

from __future__ import annotations

from typing import Any

from _loop import Reply, Request, dumps, serve_with


def rewrite(request: Request, reply: Reply) -> str:
    result = reply.get("result")
    if isinstance(result, dict) and isinstance(result.get("observation"), dict) and result["observation"]["over"]:
        observation: dict[str, Any] = dict(result["observation"])
        observation["dealer"] = (observation["dealer"] + 1) % len(observation["players"])
        reply = {**reply, "result": {"observation": observation}}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
