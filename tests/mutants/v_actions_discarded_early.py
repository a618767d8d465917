"""Mutant: an Action card goes to the discard pile as soon as it is revealed, breaking V-ACTION-AT-ONCE.

An Action is resolved as soon as it is revealed and discarded after use: it is in play meanwhile (a Flip Four
while its four cards are drawn, a Steal while its card is chosen, an Action held back in a Flip Four until it
is resolved). This engine puts every Action on the discard pile the moment it is revealed and resolves it
from there.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.cards import DISCARD, FLIP_FOUR, JUST_ONE_MORE, STEAL, SWAP
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-ACTION-AT-ONCE"}
READINGS = {"actions_discarded_when_revealed"}

ACTIONS = (JUST_ONE_MORE, FLIP_FOUR, STEAL, SWAP, DISCARD)


class TossFirstGame(VengeanceGame):
    """The reference game, discarding Actions before resolving them."""

    def _put_in_play(self, card: Card) -> int:
        entry = super()._put_in_play(card)
        if card.kind in ACTIONS:
            self.in_play.pop()  # the bug: straight to the discard pile
            self._play_entries.pop()
            self.discard.append(card)
        return entry

    def _take_from_play(self, card: Card, entry: int | None = None) -> None:
        if card.kind not in ACTIONS:  # an Action is never in play here
            super()._take_from_play(card, entry)

    def _discard_in_play(self, card: Card, reason: str, clause: str, entry: int | None = None) -> None:
        if card.kind not in ACTIONS:  # already discarded
            super()._discard_in_play(card, reason, clause, entry)


class Engine(VengeanceMutantAdapter):
    """The reference, discarding Actions when they are revealed."""

    game_class = TossFirstGame


if __name__ == "__main__":
    serve(Engine())
