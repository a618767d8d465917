"""Mutant: the discard pile is reshuffled at the start of a turn when the deck is empty, breaking V-RESHUFFLE.

When the deck runs out the discard pile is shuffled into a new deck when a card is needed (option
reshuffle_moment: or as soon as the last card is drawn). This engine checks the deck when it offers a player
Hit or Stay: an empty deck is replaced by the reshuffled discard pile there, before the player chooses, even
if they then Stay. (A card needed from an empty deck elsewhere, in the deal or a Flip Four, is still
reshuffled for first.) When the card that emptied the deck sent nothing to the discard pile, reshuffling as soon
as the last card is drawn (V-RESHUFFLE-EMPTIED) shows the same, and the diagnosis names both readings.
"""

from __future__ import annotations

from flip7_spec.events import Decision, DecisionKind
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-RESHUFFLE", "V-RESHUFFLE-EMPTIED"}
READINGS = {"reshuffle_at_turn_start"}


class TurnStartShuffleGame(VengeanceGame):
    """The reference game, reshuffling an empty deck before a Hit/Stay decision."""

    def _offer(self, decision: Decision, because: str) -> None:
        if decision.kind is DecisionKind.HIT_OR_STAY and not self.pile and self.discard:
            self._reshuffle("V-RESHUFFLE")  # the bug: no card is needed yet
        super()._offer(decision, because)


class Engine(VengeanceMutantAdapter):
    """The reference, reshuffling at the start of a turn."""

    game_class = TurnStartShuffleGame


if __name__ == "__main__":
    serve(Engine())
