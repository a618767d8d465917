"""A broken engine whose observations carry the right values in the wrong JSON type: with ``float`` each
player's ``total`` is sent as a float (``0.0`` for ``0``), with ``bool`` the ``round`` is sent as ``true``
(for ``1``). The rules are played right; only the types differ."""

from __future__ import annotations

import sys
from typing import Any

from _loop import Reply, Request, dumps, serve_with

MODE = sys.argv[1] if len(sys.argv) > 1 else "float"


def retype(observation: dict[str, Any]) -> dict[str, Any]:
    if MODE == "bool":
        return {**observation, "round": True if observation["round"] == 1 else observation["round"]}
    return {**observation, "players": [{**p, "total": float(p["total"])} for p in observation["players"]]}


def rewrite(request: Request, reply: Reply) -> str:
    result = reply.get("result")
    if isinstance(result, dict) and isinstance(result.get("observation"), dict):
        reply = {**reply, "result": {"observation": retype(result["observation"])}}
    return dumps(reply)


if __name__ == "__main__":
    serve_with(rewrite)
