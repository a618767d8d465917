"""Promises of the Vengeance game class that its rules tests do not reach: what it keeps of a game."""

from __future__ import annotations

import random

from flip7_spec.play import new_game
from flip7_spec.rulesets import preset


def test_a_vengeance_game_made_not_to_record_keeps_no_events_and_no_history() -> None:
    # Game.apply: "an empty list when the game was created with record=False"; Game.history is "kept only when
    # recording". A recording game of the same deck tells events, so the two differ only in what they keep.
    ruleset = preset("vengeance")
    deck = [c.text for c in ruleset.deck_cards(3)]
    random.Random(7).shuffle(deck)
    for record in (True, False):
        game, started = new_game(ruleset, 3, deck, dealer=2, record=record)
        assert game.recording is record
        told = [started]
        for _ in range(20):
            if game.pending is None:
                break
            told.append(game.apply(game.legal()[0]))
        assert any(told) is record
        assert bool(game.history) is record
