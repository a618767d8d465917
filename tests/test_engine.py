"""The reference state machine: random play, conservation, termination, purity, typed errors."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from flip7_spec import IllegalDecision, new_game, preset, round_score
from flip7_spec.errors import ChanceError, SetupError
from flip7_spec.machine import Game
from flip7_spec.simulation.policies import random_policy, threshold_policy
from flip7_spec.simulation.simulate import Stats, game_rng, play_game

FLIP7 = preset("flip7")


def conserved(game: Game) -> bool:
    """Draw pile + discard pile + table + in play is the whole deck."""
    held = game.pile + game.discard + [c for p in game.players for c in p.cards] + game.in_play
    return Counter(c.text for c in held) == Counter(c.text for c in game.ruleset.deck_cards(game.n))


@pytest.mark.clause("F7-RESHUFFLE", "F7-RESHUFFLE-TABLE-STAYS", "F7-DISCARD-PILE", "F7-ROUND-END", "F7-GAME-END")
@pytest.mark.parametrize("ruleset_name", ["flip7", "flip7-no-deal"])
def test_random_play_conserves_cards_and_ends(ruleset_name: str) -> None:
    ruleset = preset(ruleset_name)
    for index in range(60):
        rng = game_rng("engine-test", index)
        players = [3, 4, 6, 19][index % 4]
        deck = ruleset.deck_cards(players)
        rng.shuffle(deck)
        game, _ = new_game(ruleset, players, deck, dealer=index % players,
                           reshuffler=lambda discard, r=rng: r.sample(discard, len(discard)))  # type: ignore[misc]
        steps = 0
        while not game.over:
            assert game.pending is not None and game.legal()
            game.apply(random_policy(game, game.pending, rng))
            assert conserved(game)
            for seat, player in enumerate(game.players):  # the running tally agrees with the scorer
                assert game.round_score(seat) == round_score(ruleset, player.cards, player.status == "busted")
            steps += 1
            assert steps < 20_000, "game did not end"
        assert game.legal() == [] and game.winners
        assert max(game.totals) >= ruleset.target_score


@pytest.mark.clause("F7-GAME-END", "F7-WINNER")
def test_thousands_of_threshold_games_end_with_a_winner() -> None:
    stats = Stats(4)
    policy = threshold_policy(20)
    for index in range(2000):
        game = play_game(FLIP7, 4, policy, game_rng("many", index), stats=stats)
        assert game.over
        assert len(game.winners) == 1
    assert stats.games == 2000 and stats.rounds > 2000


@pytest.mark.clause("F7-HIT-STAY")
def test_illegal_decision_names_the_legal_choices() -> None:
    game, _ = new_game(FLIP7, 3, FLIP7.deck_cards(3))
    assert game.pending is not None
    before = game.observation()
    with pytest.raises(IllegalDecision, match="legal choices: hit, stay") as raised:
        game.apply("fold")
    assert raised.value.legal == ["hit", "stay"]
    with pytest.raises(IllegalDecision):
        game.apply(True)  # not a seat, not "hit"
    assert game.observation() == before


def test_after_is_pure_and_copy_is_independent() -> None:
    deck = FLIP7.deck_cards(3)
    random.Random(7).shuffle(deck)
    game, _ = new_game(FLIP7, 3, deck)
    before = game.observation()
    successor, events = game.after(game.legal()[0])
    assert game.observation() == before
    assert events and successor.observation() != before
    twin = game.copy()
    twin.apply(twin.legal()[0])
    assert game.observation() == before


@pytest.mark.clause("F7-DECK", "F7-PLAYERS")
def test_setup_errors() -> None:
    with pytest.raises(SetupError, match="at least 3 players"):
        new_game(FLIP7, 2, FLIP7.deck_cards(2))
    with pytest.raises(SetupError, match=r"93 cards, expected 94\): missing FLIP3"):
        new_game(FLIP7, 3, FLIP7.deck_cards(3)[:-4] + FLIP7.deck_cards(3)[-3:])
    with pytest.raises(SetupError, match="dealer"):
        new_game(FLIP7, 3, FLIP7.deck_cards(3), dealer=3)


@pytest.mark.clause("F7-TWO-DECKS")
def test_more_than_18_players_use_two_decks() -> None:
    assert len(FLIP7.deck_cards(18)) == 94
    assert len(FLIP7.deck_cards(19)) == 188


@pytest.mark.clause("F7-RESHUFFLE")
def test_reshuffle_order_must_be_a_permutation_of_the_discard_pile() -> None:
    deck = FLIP7.deck_cards(3)
    random.Random(3).shuffle(deck)
    game, _ = new_game(FLIP7, 3, deck, reshuffles=[[deck[0]]])
    with pytest.raises(ChanceError, match="not a permutation of the discard pile"):
        while not game.over:
            game.apply("hit" if "hit" in game.legal() else game.legal()[0])


@pytest.mark.clause("F7-RESHUFFLE")
def test_missing_reshuffle_order_is_a_chance_error() -> None:
    deck = FLIP7.deck_cards(3)
    random.Random(4).shuffle(deck)
    game, _ = new_game(FLIP7, 3, deck)
    with pytest.raises(ChanceError, match="no reshuffle order was supplied"):
        while not game.over:
            game.apply("hit" if "hit" in game.legal() else game.legal()[0])
