"""The rare states the strategies steer into (strategies.SCENARIOS), each reached, and the rules that
govern it checked there."""

from __future__ import annotations

import pytest
from hypothesis import given

from flip7_spec.cards import Card, Kind, card
from flip7_spec.machine import ACTIVE
from flip7_spec.play import round_score
from flip7_spec.strategies import GameRecord, rare_games
from flip7_spec.testing import check_conservation, walk


@pytest.mark.clause("F7-FLIP7-IN-FLIP3", "F7-FLIP7", "F7-FLIP7-BONUS", "F7-FLIP3-SETASIDE-BUST")
@given(rare_games("flip7_in_flip3"))
def test_a_flip_7_inside_a_flip_three_ends_the_round_at_once(record: GameRecord) -> None:
    found = False
    for step in walk(record):
        events = step.events
        for index, event in enumerate(events):
            if event.kind != "flip7":
                continue
            previous = [e for e in events[:index] if e.kind == "draw"]
            if not previous or previous[-1].get("via") != "flip3":
                continue
            found = True
            rest = events[index + 1:]
            end = next(i for i, e in enumerate(rest) if e.kind == "round_end")
            assert not [e for e in rest[:end] if e.kind in ("draw", "reshuffle")], \
                "a card was drawn after the Flip 7 ended the round"
            seat = event.player
            assert seat is not None
            scores = rest[end].get("scores")
            assert scores[seat] >= sum(range(7)) + step.game.ruleset.flip7_bonus
        check_conservation(step.game)
    assert found


@pytest.mark.clause("F7-MOD-X2", "F7-FLIP7-BONUS", "F7-SCORE", "V-SCORE", "V-FLIP7", "V-BRUTAL-FLIP7")
@given(rare_games("flip7_scaled"))
def test_a_flip_7_with_a_scaling_modifier_banks_the_bonus_unscaled(record: GameRecord) -> None:
    ruleset = record.setup.ruleset
    rows: list[list[Card]] = []
    flip7: tuple[int, list[Card]] | None = None  # the seat and the row of a Flip 7 on a Hit, until scored
    bonus_kept = True
    scaled_flip7s = 0
    for step in walk(record):
        for index, event in enumerate(step.events):
            if event.kind == "flip7" and step.decision is not None and step.decision.kind == "hit_or_stay" \
                    and step.decision.player == event.player:
                seat = event.player
                drawn = [e for e in step.events[:index] if e.kind == "draw"]
                assert len(drawn) == 1 and drawn[0].player == seat and drawn[0].card is not None  # one Hit
                flip7 = (seat, [*rows[seat], card(drawn[0].card)])
            elif event.kind == "brutal_flip7":
                bonus_kept = bool(event.get("bonus"))
            elif event.kind == "round_end":
                if flip7 is not None and any(c.kind in (Kind.MULTIPLY, Kind.HALVE) for c in flip7[1]):
                    scaled_flip7s += 1
                    seat, hand = flip7
                    banked = event.get("scores")[seat]
                    bonus = ruleset.flip7_bonus if bonus_kept else 0
                    numbers = sum(c.value for c in hand if c.is_number)
                    if ruleset.game == "flip7":
                        adds = sum(c.value for c in hand if c.kind is Kind.ADD)
                        doublings = sum(1 for c in hand if c.kind is Kind.MULTIPLY)
                        assert banked == numbers * 2 ** doublings + adds + bonus
                    elif getattr(ruleset, "halve_order", None) == "numbers_then_minus":
                        # the Numbers halved (rounded down), the -N cards off, the floor, then the bonus
                        after = numbers // 2 ** sum(1 for c in hand if c.kind is Kind.HALVE)
                        after -= sum(c.value for c in hand if c.kind is Kind.SUBTRACT)
                        if not (getattr(ruleset, "negative_scores", False) or getattr(ruleset, "brutal_mode", False)):
                            after = max(0, after)
                        assert banked == after + bonus
                    else:  # [V-HALVE-WHOLE-TOTAL] the variant that halves the whole total, the bonus with it
                        assert banked == round_score(ruleset, hand) - ruleset.flip7_bonus + bonus
                flip7, bonus_kept = None, True
        rows = [list(p.cards) for p in step.game.players]
    assert scaled_flip7s


@pytest.mark.clause("F7-CHANCE-GIVE", "F7-CHANCE-KEEP", "F7-FLIP3-CHANCE-AT-ONCE")
@given(rare_games("chance_passed"))
def test_a_second_chance_is_passed_to_an_active_player_without_one(record: GameRecord) -> None:
    passed = 0
    statuses_before: list[str] = []
    chances_before: list[bool] = []
    for step in walk(record):
        game = step.game
        for event in step.events:
            is_give = event.kind == "give" or (event.kind == "forced" and event.get("kind") == "give")
            if not is_give:
                continue
            giver = event.player
            receiver = event.get("target") if event.kind == "give" else event.get("choice")
            assert receiver != giver
            if step.decision is not None and step.decision.kind == "give":
                assert statuses_before[receiver] == ACTIVE and not chances_before[receiver]
            passed += 1
        for player in game.players:
            assert sum(1 for c in player.cards if c.text == "CHANCE") <= 1, "a player holds two Second Chances"
        statuses_before = [p.status for p in game.players]
        chances_before = [p.has_chance for p in game.players]
    assert passed


@pytest.mark.clause("F7-ALL-BUST", "F7-ROUND-END", "F7-SCORE-BUST", "F7-DEALER-ROTATION")
@given(rare_games("all_bust"))
def test_when_everyone_busts_the_round_ends_and_scores_zero(record: GameRecord) -> None:
    n = record.setup.players
    dealer = record.setup.dealer
    busted: set[int] = set()
    for step in walk(record):
        for index, event in enumerate(step.events):
            if event.kind == "bust" and event.player is not None:
                busted.add(event.player)
            if event.kind == "round_end":
                # the scenario busts every player in the first round
                assert busted == set(range(n))
                assert event.get("scores") == [0] * n and event.get("totals") == [0] * n
                later = step.events[index + 1:]
                start = next(e for e in later if e.kind == "round_start")
                assert start.get("round") == 2 and start.get("dealer") == (dealer + 1) % n
                return
        assert len(busted) < n, "every player busted but the round did not end"
    raise AssertionError("the first round did not end")


@pytest.mark.clause("F7-TIE", "F7-GAME-END", "F7-WINNER")
@given(rare_games("tie_at_target"))
def test_a_tie_at_the_target_plays_another_round_or_is_shared(record: GameRecord) -> None:
    ruleset = record.setup.ruleset
    tied = False
    for step in walk(record):
        game = step.game
        for event in step.events:
            if event.kind == "tie":
                tied = True
                assert ruleset.tie_at_target == "play_another_round"
                leaders = event.get("leaders")
                assert len(leaders) >= 2 and len({game.totals[s] for s in leaders}) == 1
                assert game.totals[leaders[0]] >= ruleset.target_score
        if game.over and len(game.winners) > 1:
            tied = True
            # shared, or the rounds are up (round_limit: whoever reached the target has won)
            assert ruleset.tie_at_target == "shared_win" or (ruleset.round_limit and game.round >= ruleset.round_limit)
    assert tied
    if ruleset.tie_at_target == "play_another_round" and record.over:
        final, _ = record.new_game(record=False)
        for choice in record.choices:
            final.apply(choice)
        assert final.round >= 2
        # a round limit may end the game on a tie the rule would otherwise break
        if not (ruleset.round_limit and final.round >= ruleset.round_limit):
            assert len(final.winners) == 1


@pytest.mark.clause("F7-TWO-DECKS", "F7-TWO-DECKS-EFFECTS", "F7-PLAYERS")
@given(rare_games("two_decks"))
def test_more_players_than_a_deck_serves_play_with_two_decks(record: GameRecord) -> None:
    setup = record.setup
    assert setup.players > setup.ruleset.players_per_deck
    for step in walk(record):
        check_conservation(step.game)
        for player in step.game.players:
            assert sum(1 for c in player.cards if c.text == "CHANCE") <= 1
