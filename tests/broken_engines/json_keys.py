"""A broken engine whose observations have one key too many or too few, the values being right: with
``extra`` each player's row carries a ``"name"`` key, with ``drop`` the pending decision leaves out its
``"card"`` when it is null (the reference sends ``"card": null``)."""

from __future__ import annotations

import sys
from typing import Any

from _loop import Reply, Request, dumps, serve_with

MODE = sys.argv[1] if len(sys.argv) > 1 else "extra"


def rekey(observation: dict[str, Any]) -> dict[str, Any]:
    if MODE == "drop":
        pending = observation.get("pending")
        if isinstance(pending, dict) and pending.get("card") is None:
            pending = {k: v for k, v in pending.items() if k != "card"}
        return {**observation, "pending": pending}
    return {**observation, "players": [{**p, "name": f"player {seat}"}
                                       for seat, p in enumerate(observation["players"])]}


def rewrite(request: Request, reply: Reply) -> str:
    result = reply.get("result")
    if isinstance(result, dict) and isinstance(result.get("observation"), dict):
        reply = {**reply, "result": {"observation": rekey(result["observation"])}}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
