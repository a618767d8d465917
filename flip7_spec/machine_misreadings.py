"""Misreadings of what every game on the machine shares: the Dealer, the turn order, the tie, the reshuffle, the
end of the game.

Each class here is a mixin for a game's reference class (see :mod:`flip7_spec.misreadings`); a game lists the
ones that apply to it in its own catalogue, with its own clause ids.
"""

from __future__ import annotations

from flip7_spec.cards import Card
from flip7_spec.events import DecisionKind
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


class ReshuffleAtTurnStart(Game):
    """The discard pile is reshuffled at the start of a player's turn: whenever a player is offered Hit or Stay
    while the draw pile is empty (and the discard pile could be reshuffled), before they choose, instead of
    when a card is needed. A card needed from an empty pile at any other moment (in a deal, an Action) is
    still reshuffled for first. The reshuffles take the supplied orders in turn, as the reference's do. It
    breaks the game's reshuffle clause (``CLAUSES.reshuffle``: when a card is needed and none is left)."""

    def _run(self) -> None:
        super()._run()
        pending = self.pending
        if pending is not None and pending.kind is DecisionKind.HIT_OR_STAY and not self.pile and self.discard \
                and self._stalled() is None:
            self._reshuffle(self.CLAUSES.reshuffle)


class EmptyPilesEndGame(Game):
    """When a card is needed and both the deck and the discard pile are empty, the round ends (it is scored as
    usual) and the game ends with it, the highest total winning (every player tied for it), instead of the next
    round being dealt from the reshuffled discards. It breaks the game's empty-deck clause
    (``CLAUSES.empty_deck``: only the round ends), which its ``game_end`` event names."""

    _out_of_cards = False

    def _draw(self) -> Card | None:
        drawn = super()._draw()
        if drawn is None and not self.pile and not self.discard and not self._stalled_game:
            self._stalled_game = True  # the machine's end of a game that cannot go on: the highest total wins
            self._out_of_cards = True
        return drawn

    def _end_game(self, winners: list[int], clause: str) -> None:
        if self._out_of_cards:
            clause = self.CLAUSES.empty_deck
        super()._end_game(winners, clause)
