"""Mutant: a Discard may hit a busted player's cards, breaking V-BUST-OUT-OF-PLAY.

A busted player's cards are face down and out of play: no Steal, Swap or Discard reaches them. This
engine's Discard offers every row, busted ones included (so it is used, rather than discarded with no
effect, when only busted rows hold cards).
"""

from __future__ import annotations

from collections.abc import Iterable

from flip7_spec.cards import Card
from flip7_spec.games.vengeance.cards import DISCARD
from flip7_spec.games.vengeance.engine import Discard, VengeanceGame
from flip7_spec.games.vengeance.rows import CardRef, card_ref
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-BUST-OUT-OF-PLAY", "V-DISCARD"}
READINGS = {"busted_cards_discardable"}


class FaceDownDiscard(Discard):
    """A Discard that reaches busted rows too."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        assert isinstance(game, FaceDownDiscardGame)
        game.discarding = True
        try:
            super().step(game)
        finally:
            game.discarding = False


class FaceDownDiscardGame(VengeanceGame):
    """The reference game with :class:`FaceDownDiscard` for every Discard."""

    discarding = False

    def _not_busted(self) -> list[int]:
        return list(range(self.n)) if self.discarding else super()._not_busted()

    def _takeable_refs(self, seats: Iterable[int]) -> list[CardRef]:
        if not self.discarding:
            return super()._takeable_refs(seats)
        numbers_only = self.ruleset.steal_discard_cards == "numbers"
        # the bug: a busted row's cards are offered like any other
        return [card_ref(seat, i) for seat in sorted(seats) for i, c in enumerate(self.players[seat].cards)
                if c.is_number or not numbers_only]

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is DISCARD:
            self._stack.append(FaceDownDiscard(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


class Engine(VengeanceMutantAdapter):
    """The reference, discarding from busted rows too."""

    game_class = FaceDownDiscardGame


if __name__ == "__main__":
    serve(Engine())
