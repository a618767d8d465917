"""A broken engine that reshuffles at another moment than its ruleset says (always as soon as the draw pile
is emptied, F7-RESHUFFLE-EMPTIED), so that the reshuffle orders it is given do not fit its discard pile, and
says so in one of three ways (argument 1):

- ``structured``: an ``errored`` reply with the structured ``reshuffle`` field and a message that does not
  start with ``reshuffle:``;
- ``prefix``: the older convention, a message starting ``reshuffle:`` and no field;
- ``plain``: neither (a message conform cannot read as a reshuffle problem).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from _loop import dumps

from flip7_spec.machine import Game
from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.protocol.server import handle

MODE = sys.argv[1] if len(sys.argv) > 1 else "structured"


class ReshufflesWhenEmptied(ReferenceAdapter):
    def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]]) -> Game:
        forced = {**ruleset, "options": {**ruleset.get("options", {}), "reshuffle_moment": "when_emptied"}}
        return super().make_game(forced, players, dealer, deck, reshuffles)


def rewrite(reply: dict[str, Any]) -> dict[str, Any]:
    errored = reply.get("errored")
    if not isinstance(errored, dict) or "reshuffle" not in errored:
        return reply
    message = errored["message"].removeprefix("reshuffle: ")
    if MODE == "structured":
        errored = {"message": f"cannot reshuffle: {message}", "reshuffle": errored["reshuffle"]}
    elif MODE == "prefix":
        errored = {"message": f"reshuffle: {message}"}
    else:
        errored = {"message": f"cannot reshuffle: {message}"}
    return {**reply, "errored": errored}


def main() -> None:
    adapter = ReshufflesWhenEmptied()
    for line in sys.stdin:
        if not line.strip():
            continue
        reply, stop = handle(adapter, json.loads(line))
        sys.stdout.write(dumps(rewrite(reply)) + "\n")
        sys.stdout.flush()
        if stop:
            return


if __name__ == "__main__":
    main()
