"""Mutant: the discard pile is reshuffled at the start of a turn when the deck is empty, breaking F7-RESHUFFLE.

When the deck runs out the discard pile is shuffled into a new deck when a card is needed (option
reshuffle_moment: or as soon as the last card is drawn). This engine checks the deck when it offers a player
Hit or Stay: an empty deck is replaced by the reshuffled discard pile there, before the player chooses, even
if they then Stay. (A card needed from an empty deck elsewhere, in the deal or a Flip Three, is still
reshuffled for first.) When the card that emptied the deck sent nothing to the discard pile, reshuffling as soon
as the last card is drawn (F7-RESHUFFLE-EMPTIED) shows the same, and the diagnosis names both readings.
"""

from __future__ import annotations

from flip7_spec.events import Decision, DecisionKind
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-RESHUFFLE", "F7-RESHUFFLE-EMPTIED"}
READINGS = {"reshuffle_at_turn_start"}


class TurnStartShuffleGame(Flip7Game):
    """The reference game, reshuffling an empty deck before a Hit/Stay decision."""

    def _ask(self, decision: Decision) -> None:
        if decision.kind is DecisionKind.HIT_OR_STAY and not self.pile and self.discard \
                and self._stalled() is None:
            self._reshuffle("F7-RESHUFFLE")  # the bug: no card is needed yet
        super()._ask(decision)


class Engine(MutantAdapter):
    """The reference, reshuffling at the start of a turn."""

    game_class = TurnStartShuffleGame


if __name__ == "__main__":
    serve(Engine())
