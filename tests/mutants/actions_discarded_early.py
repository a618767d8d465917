"""Mutant: a Freeze or Flip Three goes to the discard pile as soon as it is revealed, breaking
F7-FLIP3-DISCARDED.

A revealed Action stays in play while it is resolved: a Flip Three card goes to the discard pile once its
three cards are done, a set-aside card once it is resolved or dropped, and a Freeze stays with the player it
froze (F7-FREEZE-KEEPS-CARDS). This engine throws every Freeze and Flip Three on the discard pile the moment it
is revealed and resolves it from there.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.flip7.cards import FLIP_THREE, FREEZE
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.machine import FROZEN
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP3-DISCARDED", "F7-FREEZE-KEEPS-CARDS"}
READINGS = {"actions_discarded_when_revealed"}

TOSSED = (FREEZE, FLIP_THREE)


class TossFirstGame(Flip7Game):
    """The reference game, discarding Freezes and Flip Threes before resolving them."""

    def _put_in_play(self, card: Card) -> int:
        entry = super()._put_in_play(card)
        if card.kind in TOSSED:
            self.in_play.pop()  # the bug: straight to the discard pile
            self._play_entries.pop()
            self.discard.append(card)
        return entry

    def _take_from_play(self, card: Card, entry: int | None = None) -> None:
        if card.kind not in TOSSED:  # a Freeze or Flip Three is never in play here
            super()._take_from_play(card, entry)

    def _discard_in_play(self, card: Card, reason: str, clause: str, entry: int | None = None) -> None:
        if card.kind not in TOSSED:  # already discarded
            super()._discard_in_play(card, reason, clause, entry)

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        if action.kind is FREEZE:
            self._set_status(seat, FROZEN)  # the card itself is on the discard pile
            self._emit("freeze", "F7-FREEZE", seat, action.text)
            return
        super()._take_effect(action, seat, entry)


class Engine(MutantAdapter):
    """The reference, discarding Actions when they are revealed."""

    game_class = TossFirstGame


if __name__ == "__main__":
    serve(Engine())
