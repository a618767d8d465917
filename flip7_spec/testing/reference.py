"""The reference under Hypothesis-chosen decisions and reshuffle orders, its invariants checked after every step."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from flip7_spec.cards import Card, card
from flip7_spec.events import Choice
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.strategies import (
    Draw,
    GameSetup,
    game_setups,
    reshuffle_orders,
)
from flip7_spec.testing.invariants import (
    check_canonical,
    check_conservation,
    check_consistency,
    check_totals,
    fingerprint,
    sorted_reshuffle,
)


def option_index(draw: Draw, options: Sequence[Choice]) -> int:
    """An index into ``options`` drawn with ``draw`` (shrinking towards the first option)."""
    return int(draw(st.integers(0, len(options) - 1)))


class ReferenceMachine(RuleBasedStateMachine):
    """The reference under Hypothesis-chosen decisions and reshuffle orders.

    Rules: make a legal decision (on a copy, which becomes the game); check that :meth:`Game.after` leaves
    its game unchanged and equals copy-then-apply; copy the game and check the copy is equal and
    independent. Invariants after every step: card conservation (also checked at every reshuffle, when the
    pile is empty), decision/over consistency and statuses (:func:`check_consistency`), totals that never
    fall where the ruleset forbids it, and a canonical observation. The start rule plays up to 120 decisions
    at once (checking the invariants after each), so that short runs reach late rounds, reshuffles and the
    end of the game.
    """

    setups: ClassVar[st.SearchStrategy[GameSetup] | None] = None
    """The setups games start from (None: :func:`~flip7_spec.strategies.game_setups`)."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.draw: Draw | None = None
        self.totals: list[int] = []

    def _reshuffle(self, discard: list[Card]) -> list[Card]:
        game = self.game
        assert game is not None and self.draw is not None
        assert not game.pile, "a reshuffle while the draw pile still holds cards"
        check_conservation(game, " at a reshuffle")
        texts = [c.text for c in discard]
        return [card(t) for t in self.draw(reshuffle_orders(texts))]

    def _play(self, choice: Choice) -> None:
        game = self.game
        assert game is not None
        self.game = game.copy()  # the reshuffler checks the game being played: the copy
        self.game.apply(choice)

    def _check_all(self) -> None:
        self.cards_are_conserved()
        self.decision_state_is_consistent()
        self.totals_never_fall()
        self.observation_is_canonical()

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self.draw = data.draw
        setup = data.draw(self.setups if self.setups is not None else game_setups(), label="setup")

        def reshuffler(discard: list[Card]) -> list[Card]:
            return self._reshuffle(discard)

        self.game = make_game(setup.ruleset, setup.players, setup.cards(), setup.dealer, reshuffler)
        self.game.start()
        self.totals = list(self.game.totals)
        for _ in range(data.draw(st.integers(0, 120), label="decisions played at once")):
            if self.game.pending is None:
                break
            self._check_all()
            options = self.game.legal()
            self._play(options[option_index(data.draw, options)])

    @precondition(lambda self: self.game is not None and self.game.pending is not None)
    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """Make one legal decision chosen by Hypothesis."""
        assert self.game is not None
        self.draw = data.draw
        options = self.game.legal()
        self._play(options[option_index(data.draw, options)])

    @precondition(lambda self: self.game is not None and self.game.pending is not None)
    @rule(data=st.data())
    def after_is_pure(self, data: st.DataObject) -> None:
        """``Game.after`` returns the successor and leaves the game it was called on unchanged."""
        game = self.game
        assert game is not None
        options = game.legal()
        choice = options[option_index(data.draw, options)]
        reshuffler = game.reshuffler
        game.reshuffler = sorted_reshuffle  # a reshuffle in the successor needs no draw from Hypothesis
        try:
            before = fingerprint(game)
            successor, _ = game.after(choice)
            assert fingerprint(game) == before, "Game.after changed the game it was called on"
            twin = game.copy()
            twin.apply(choice)
            assert fingerprint(twin) == fingerprint(successor), "Game.after differs from copy-then-apply"
        finally:
            game.reshuffler = reshuffler

    @precondition(lambda self: self.game is not None)
    @rule()
    def copy_is_independent(self) -> None:
        """A copy is equal to the game, and playing or changing it leaves the game as it was."""
        game = self.game
        assert game is not None
        before = fingerprint(game)
        twin = game.copy()
        assert fingerprint(twin) == before, "a copy differs from the original"
        twin.reshuffler = sorted_reshuffle
        if twin.pending is not None:
            twin.apply(twin.legal()[-1])
        twin.players[0].cards.append(card(game.ruleset.deck[0][0]))
        twin.totals[0] += 1
        twin.pile.clear()
        twin.discard.append(card(game.ruleset.deck[0][0]))
        assert fingerprint(game) == before, "changing a copy changed the original"

    @invariant()
    def cards_are_conserved(self) -> None:
        """Draw pile + discard pile + rows + cards in play are the deck (:func:`check_conservation`)."""
        if self.game is not None:
            check_conservation(self.game)

    @invariant()
    def decision_state_is_consistent(self) -> None:
        """Pending decision, legal choices, over, statuses and winners agree (:func:`check_consistency`)."""
        if self.game is not None:
            check_consistency(self.game)

    @invariant()
    def totals_never_fall(self) -> None:
        """No total is lower than at the previous step, unless the ruleset allows negative round scores."""
        if self.game is not None:
            check_totals(self.game.ruleset, self.totals, self.game.totals)
            self.totals = list(self.game.totals)

    @invariant()
    def observation_is_canonical(self) -> None:
        """The observation survives a canonical JSON round trip unchanged (only JSON types, string keys)."""
        if self.game is not None:
            check_canonical(self.game.observation())
