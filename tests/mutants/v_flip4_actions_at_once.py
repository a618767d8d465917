"""Mutant: an Action or Modifier revealed during a Flip Four is resolved at once instead of being held
back, breaking V-FLIP4-HOLD.

The rules hold such cards back until the four cards are drawn, and resolve them only if the target neither
busted nor Flipped 7 (so none can save the target from a bust inside the Flip Four). This engine resolves
each one as soon as it is revealed, in the middle of the Flip Four.
"""

from __future__ import annotations

from flip7_spec.games.vengeance.engine import FlipFour, VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-FLIP4-HOLD", "V-FLIP4"}
READINGS = {"flip4_actions_at_once"}


class EagerFlipFourGame(VengeanceGame):
    """The reference game, never holding a card back."""

    def _deal_to(self, seat: int, via: str, clause: str, flip4: FlipFour | None = None) -> None:
        super()._deal_to(seat, via, clause, None)  # the bug: resolved as if revealed on a Hit


class Engine(VengeanceMutantAdapter):
    """The reference, resolving cards revealed during a Flip Four at once."""

    game_class = EagerFlipFourGame


if __name__ == "__main__":
    serve(Engine())
