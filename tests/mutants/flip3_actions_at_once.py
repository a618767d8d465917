"""Mutant: a Freeze or Flip Three revealed during a Flip Three is resolved at once instead of being set
aside, breaking F7-FLIP3-SETASIDE.

The rules set such a card aside until the three cards are drawn, and resolve it only if the target neither
busted nor Flipped 7. This engine asks for its target as soon as it is revealed, in the middle of the Flip
Three.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import FLIP_THREE, FREEZE
from flip7_spec.games.flip7.engine import Flip7Game, FlipThree
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP3-SETASIDE", "F7-FLIP3"}
READINGS = {"flip3_actions_at_once"}


class EagerGame(Flip7Game):
    """The reference game, never setting an Action aside."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        if drawn.kind in (FREEZE, FLIP_THREE):
            flip3 = None  # the bug: resolved as if revealed on a Hit
        super()._receive(seat, drawn, flip3, via)


class Engine(MutantAdapter):
    """The reference, resolving Actions revealed during a Flip Three at once."""

    game_class = EagerGame


if __name__ == "__main__":
    serve(Engine())
