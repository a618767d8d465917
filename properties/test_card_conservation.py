"""Card conservation: at every decision and at every reshuffle, draw pile + discard pile + every player's
cards + the cards in play are exactly the deck, as a multiset."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.cards import Card
from flip7_spec.games.flip7.engine import FlipThree
from flip7_spec.machine import Game
from flip7_spec.rulesets import preset
from flip7_spec.strategies import GameRecord, game_setups, playable_presets, played_games, rare_games, rulesets
from flip7_spec.testing import check_conservation, walk

VENGEANCE = any(preset(name).game == "vengeance" for name in playable_presets())


def at_reshuffle(game: Game, discard: list[Card]) -> None:
    assert not game.pile, "a reshuffle while the draw pile still holds cards"
    assert Counter(c.text for c in discard) == Counter(c.text for c in game.discard)
    check_conservation(game, " at a reshuffle")


def conserved_throughout(record: GameRecord) -> int:
    steps = 0
    for step in walk(record, at_reshuffle):
        check_conservation(step.game, f" after decision {steps - 1}" if steps else " after the start")
        steps += 1
    return steps


@pytest.mark.clause("F7-DECK", "F7-DISCARD-PILE", "F7-RESHUFFLE", "F7-RESHUFFLE-TABLE-STAYS", "F7-BUST-CARDS-STAY",
                    "F7-CHANCE-USE", "F7-FLIP3-DISCARDED")
@given(played_games())
def test_cards_are_conserved_at_every_step(record: GameRecord) -> None:
    assert conserved_throughout(record) == len(record.choices) + 1


@pytest.mark.clause("F7-RESHUFFLE-IN-FLIP3", "F7-RESHUFFLE-TABLE-STAYS")
@given(rare_games("reshuffle_in_flip3"))
def test_a_reshuffle_inside_a_flip_three_keeps_it_and_the_table_out(record: GameRecord) -> None:
    seen: list[bool] = []

    def check(game: Game, discard: list[Card]) -> None:
        at_reshuffle(game, discard)
        frames = [f for f in game._stack if isinstance(f, FlipThree)]
        if frames:
            seen.append(True)
            # the Flip Three being resolved and the cards it set aside are in play, so (the multiset being
            # conserved) not among the cards shuffled into the new deck
            held = Counter(f.action.text for f in frames) + Counter(c.text for f in frames for c in f.set_aside)
            missing = held - Counter(c.text for c in game.in_play)
            assert not missing, f"cards of a Flip Three in progress went into the reshuffle: {dict(missing)}"

    for step in walk(record, check):
        check_conservation(step.game)
    assert seen, "the scenario promised a reshuffle during a Flip Three"


@pytest.mark.clause("F7-TWO-DECKS", "F7-DECK")
@given(rare_games("two_decks"))
def test_two_decks_are_conserved(record: GameRecord) -> None:
    ruleset = record.setup.ruleset
    one_deck = sum(count for _, count in ruleset.deck)
    assert len(record.setup.deck) == one_deck * ruleset.decks_for(record.setup.players) >= 2 * one_deck
    conserved_throughout(record)


@pytest.mark.skipif(not VENGEANCE, reason="Vengeance cannot be played by the reference yet")
@pytest.mark.clause("V-DECK", "V-TWO-DECKS", "V-UNLUCKY7-WIPE", "V-STEAL", "V-SWAP", "V-DISCARD", "V-RESHUFFLE")
@given(played_games(game_setups(rulesets(games=("vengeance",)))) if VENGEANCE else st.nothing())
def test_vengeance_cards_are_conserved_at_every_step(record: GameRecord) -> None:
    conserved_throughout(record)
