"""Mutant: using a Second Chance on a Hit does not end the turn: a replacement card is dealt at once,
breaking F7-CHANCE-ENDS-TURN.

This is the reading of one review (ruleset option ``second_chance_ends_turn = false``), played here
whatever the ruleset says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-CHANCE-ENDS-TURN", "F7-CHANCE-USE"}
READINGS = {"second_chance_ends_turn=false"}


class Engine(MutantAdapter):
    """The reference, dealing a replacement card after a Second Chance is used on a Hit."""

    forced_options: ClassVar[Mapping[str, Any]] = {"second_chance_ends_turn": False}


if __name__ == "__main__":
    serve(Engine())
