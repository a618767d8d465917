"""Misreadings of what every game on the machine shares: the Dealer, the turn order, the tie, the reshuffle.

Each class here is a mixin for a game's reference class (see :mod:`flip7_spec.misreadings`); a game lists the
ones that apply to it in its own catalogue, with its own clause ids.
"""

from __future__ import annotations

from flip7_spec.machine import Game


class DealerFixed(Game):
    """The Dealer never changes: the deck is not passed to the left after a round."""

    def _start_round(self) -> None:
        if self.round:
            self.dealer = (self.dealer - 1) % self.n  # the reference passed it on in _end_round
        super()._start_round()


class TurnsReversed(Game):
    """Play goes to the right: from the Dealer's right, the Dealer last."""

    def _turn_order(self) -> list[int]:
        n = self.n
        if self.ruleset.deal_start == "dealer":
            return [(self.dealer - i) % n for i in range(n)]
        return [(self.dealer - 1 - i) % n for i in range(n)]


class TieToFirstSeat(Game):
    """A tie for the highest total at the target goes to the tied player in the lowest seat."""

    def _winners_at_target(self, leaders: list[int]) -> list[int] | None:
        return [min(leaders)]


class ReshuffleEveryRound(Game):
    """The discard pile and what is left of the deck are reshuffled together before every round after the
    first (the reshuffle order comes from the trace, as any other)."""

    def _start_round(self) -> None:
        if self.round and self.discard:
            self.discard.extend(reversed(self.pile))
            self.pile.clear()
            self._reshuffle(self.CLAUSES.reshuffle)
        super()._start_round()


class DiscardBackEachRound(Game):
    """The discard pile goes back under the deck, unshuffled, before every round after the first."""

    def _start_round(self) -> None:
        if self.round:
            self.pile[:0] = self.discard  # the top of the pile is its last element
            self.discard.clear()
        super()._start_round()


class ReshuffleTakesTableCards(Game):
    """A reshuffle adds the cards in front of the players to the new deck too (under the reshuffled
    discards), though they also stay in their rows."""

    def _reshuffle(self, clause: str) -> None:
        super()._reshuffle(clause)
        table = [c for p in self.players for c in p.cards]
        self.pile[:0] = reversed(table)
