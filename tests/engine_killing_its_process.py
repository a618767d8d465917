"""An in-process engine (``--python tests.engine_killing_its_process:Engine``) that plays like the reference,
except that a game of six players ends the process running it at once (``os._exit``): the worker process of a
local pool or of a cluster dies mid-case, as it would on a crash in an engine's native code."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from flip7_spec.machine import Game
from flip7_spec.protocol.adapter import ReferenceAdapter


class Engine(ReferenceAdapter):
    """The reference, dying on every game of six players."""

    def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]]) -> Game:
        if players == 6:
            os._exit(70)
        return super().make_game(ruleset, players, dealer, deck, reshuffles)
