"""Mutant: a Swap must give one of the resolver's own cards, breaking V-SWAP.

Swap exchanges two face-up cards of two different rows: one of the resolver's with another player's, or two
cards of two other players. This engine only offers the first kind, and discards the Swap with no effect
when the resolver has no card to give.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import Decision, DecisionKind
from flip7_spec.games.vengeance.cards import SWAP
from flip7_spec.games.vengeance.engine import Swap, VengeanceGame
from flip7_spec.games.vengeance.rows import row_refs
from flip7_spec.protocol.server import serve
from tests.mutants._support import VengeanceMutantAdapter

CLAUSES = {"V-SWAP", "V-SWAP-LIMITS"}
READINGS = {"swap_needs_own_card"}


class OwnCardSwap(Swap):
    """A Swap between the resolver's row and another row only."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        refs = row_refs(game.players, game._not_busted())
        # the bug: every pair holds one of the resolver's cards (listed as the reference lists pairs)
        pairs = [[a, b] for i, a in enumerate(refs) for b in refs[i + 1:]
                 if a["player"] != b["player"] and self.resolver in (a["player"], b["player"])]
        if not pairs:
            game._no_target(self.action)
            return
        game._offer(Decision(self.resolver, DecisionKind.SWAP, tuple(pairs), self.action.text), "V-SWAP-LIMITS")


class OwnCardSwapGame(VengeanceGame):
    """The reference game with :class:`OwnCardSwap` for every Swap."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is SWAP:
            self._stack.append(OwnCardSwap(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


class Engine(VengeanceMutantAdapter):
    """The reference, never swapping two other players' cards."""

    game_class = OwnCardSwapGame


if __name__ == "__main__":
    serve(Engine())
