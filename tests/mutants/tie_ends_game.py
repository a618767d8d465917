"""Mutant: the game ends at the target score even when the top total is tied, breaking F7-TIE.

A tie for the highest total at the end means everyone plays another round. This engine ends the game and
names every tied player a winner (ruleset option ``tie_at_target = "shared_win"``, played whatever the
ruleset says).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-TIE", "F7-GAME-END"}
READINGS = {'tie_at_target="shared_win"'}


class Engine(MutantAdapter):
    """The reference, sharing the win on a tie at the top."""

    forced_options: ClassVar[Mapping[str, Any]] = {"tie_at_target": "shared_win"}


if __name__ == "__main__":
    serve(Engine())
