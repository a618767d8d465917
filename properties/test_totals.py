"""Totals: the sum of the banked round scores, never falling in the base game (nor in Vengeance unless
round scores may be negative), and what a player banks is what they stayed or froze with."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.cards import cards
from flip7_spec.machine import FROZEN, STAYED
from flip7_spec.play import round_score
from flip7_spec.rulesets import preset
from flip7_spec.strategies import GameRecord, game_setups, playable_presets, played_games, rare_games, rulesets
from flip7_spec.testing import check_totals, totals_may_fall, walk

VENGEANCE = any(preset(name).game == "vengeance" for name in playable_presets())


@pytest.mark.clause("F7-BANK", "F7-SCORE", "V-SCORE-FLOOR", "V-BRUTAL-NEGATIVE")
@given(st.one_of(played_games(), rare_games("all_bust"), rare_games("tie_at_target")))
def test_totals_never_fall_where_round_scores_cannot_be_negative(record: GameRecord) -> None:
    previous = [0] * record.setup.players
    for step in walk(record):
        check_totals(step.game.ruleset, previous, step.game.totals)
        previous = list(step.game.totals)


@pytest.mark.clause("F7-BANK", "F7-ROUND-END", "F7-ALL-BUST")
@given(st.one_of(played_games(), rare_games("all_bust")))
def test_totals_are_the_sums_of_the_round_scores(record: GameRecord) -> None:
    sums = [0] * record.setup.players
    for step in walk(record):
        for event in step.events:
            if event.kind == "round_end":
                scores = event.get("scores")
                sums = [a + b for a, b in zip(sums, scores, strict=True)]
                assert event.get("totals") == sums
                if not totals_may_fall(step.game.ruleset):
                    assert min(scores) >= 0, f"a negative round score {scores}"
        assert step.game.totals == sums


@pytest.mark.clause("F7-HIT-STAY", "F7-FREEZE", "F7-BANK", "F7-ACTION-TARGET")
@given(st.one_of(played_games(game_setups(rulesets(games=("flip7",)))), rare_games("tie_at_target")))
def test_a_player_banks_what_they_stayed_or_froze_with(record: GameRecord) -> None:
    banked: dict[int, int] = {}
    for step in walk(record):
        game = step.game
        for event in step.events:
            if event.kind == "round_end":
                for seat, value in banked.items():
                    assert event.get("scores")[seat] == value, (
                        f"seat {seat} stayed or froze with {value} points and banked {event.get('scores')[seat]}")
                banked = {}
        for seat, player in enumerate(game.players):
            if player.status in (STAYED, FROZEN):
                value = game.round_score(seat)
                assert banked.setdefault(seat, value) == value, f"seat {seat}'s score changed after leaving"


VENGEANCE_GAMES = played_games(game_setups(rulesets(games=("vengeance",)))) if VENGEANCE else st.nothing()


@pytest.mark.skipif(not VENGEANCE, reason="Vengeance cannot be played by the reference yet")
@pytest.mark.clause("V-STAY-NO-BANK", "V-BANK", "V-SCORE-FLOOR")
@given(VENGEANCE_GAMES)
def test_vengeance_totals_fall_only_under_negative_scores(record: GameRecord) -> None:
    previous = [0] * record.setup.players
    ruleset = record.setup.ruleset
    for step in walk(record):
        fallen = [s for s, (a, b) in enumerate(zip(previous, step.game.totals, strict=True)) if b < a]
        assert not fallen or ruleset.brutal_mode or ruleset.negative_scores, f"totals fell for {fallen}"
        previous = list(step.game.totals)


@pytest.mark.clause("F7-SCORE", "F7-SCORE-BUST", "F7-CHANCE-USE", "V-SCORE")
@given(st.one_of(played_games(), rare_games("flip7_in_flip3"), rare_games("chance_passed")))
def test_the_round_score_shown_is_the_score_of_the_cards_shown(record: GameRecord) -> None:
    ruleset = record.setup.ruleset
    for step in walk(record):
        for seat, player in enumerate(step.game.observation()["players"]):
            busted = player["status"] == "busted"
            expected = round_score(ruleset, cards(player["cards"]), busted)
            assert player["round_score"] == expected, (
                f"seat {seat} holds {' '.join(player['cards'])} ({player['status']}) and shows "
                f"{player['round_score']}, not {expected}")
