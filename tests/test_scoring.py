"""Round scoring (clause F7-SCORE and neighbours): the official worked examples and impossible hands."""

from __future__ import annotations

import pytest

from flip7_spec import cards, preset, round_score
from flip7_spec.errors import CardError
from flip7_spec.play import check_hand, score
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.scoring import Score

FLIP7 = preset("flip7")


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-MOD-ADD", "F7-FLIP7-BONUS")
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("3 11 5 7 10", 36),  # 3+11+5+7+10
        ("3 11 5 7 10 x2", 72),  # 36 doubled
        ("3 11 5 7 10 +10", 46),  # 36 + 10
        ("3 11 5 7 10 9 4", 64),  # 49 + 15 for seven different Numbers
    ],
)
def test_official_worked_examples(hand: str, expected: int) -> None:
    assert round_score(FLIP7, cards(hand)) == expected


@pytest.mark.clause("F7-MOD-X2")
def test_x2_never_doubles_plus_cards_or_the_bonus() -> None:
    # numbers 0..6 sum to 21, doubled 42, +4 -> 46, Flip 7 -> 61
    result = score(FLIP7, cards("0 1 2 3 4 5 6 x2 +4"))
    assert (result.number_sum, result.after_multiplier, result.after_modifiers, result.total) == (21, 42, 46, 61)


@pytest.mark.clause("F7-MOD-ONLY")
def test_modifiers_only() -> None:
    assert round_score(FLIP7, cards("+4 +6")) == 10
    assert round_score(FLIP7, cards("x2")) == 0
    assert round_score(FLIP7, cards("x2 +8")) == 8


@pytest.mark.clause("F7-SCORE-BUST")
def test_busted_scores_zero() -> None:
    assert round_score(FLIP7, cards("12 11 +10 x2"), busted=True) == 0


@pytest.mark.clause("F7-FLIP7-ZERO")
def test_zero_counts_toward_flip7_and_is_worth_nothing() -> None:
    # 0+1+2+3+4+5+6 = 21, + 15
    assert round_score(FLIP7, cards("0 1 2 3 4 5 6")) == 36


@pytest.mark.clause("F7-FLIP7-BONUS")
def test_bonus_is_an_option() -> None:
    assert round_score(FLIP7.with_options(flip7_bonus=20), cards("0 1 2 3 4 5 6")) == 41


@pytest.mark.clause("F7-CUSTOM-DECK")
def test_custom_deck_modifiers() -> None:
    seed003 = ruleset_from_json({"name": "seed-003", "deck": {**dict(FLIP7.deck), "+2": 0, "+4": 0, "+6": 0,
                                                             "+8": 0, "+5": 1, "+15": 1}})
    assert round_score(seed003, cards("12 +15 +5")) == 32
    with pytest.raises(CardError, match=r"\+2 appears 1 times but the deck has 0"):
        check_hand(seed003, cards("12 +2"))


@pytest.mark.clause("F7-BUST", "F7-FLIP7", "F7-DECK")
@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("3 3", "Number 3 appears twice"),
        ("0 1 2 3 4 5 6 7", "different Numbers"),
        ("x2 x2", "appears 2 times but the deck has 1"),
        ("FLIP3", "never stays in front of a player"),
        ("CHANCE CHANCE", "at most one Second Chance"),
        ("1 1", "appears 2 times but the deck has 1"),
    ],
)
def test_impossible_hands_are_errors(hand: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        check_hand(FLIP7, cards(hand))


@pytest.mark.clause("F7-TWO-DECKS-EFFECTS")
def test_two_decks_allow_two_x2_each_applied() -> None:
    hand = cards("10 x2 x2")
    check_hand(FLIP7, hand, players=19)
    assert round_score(FLIP7, hand) == 40  # 10 doubled twice


@pytest.mark.clause("F7-BUST", "F7-SCORE")
def test_the_game_scorer_reads_a_hand_as_not_busted_unless_told_and_a_bust_is_zero_at_every_step() -> None:
    """``flip7_score(ruleset, hand)`` is the score of a player who did not bust; a busted player scores 0 at
    every step of the breakdown, with no Flip 7 (F7-BUST: "scores 0 for the round")."""
    from flip7_spec.games.flip7.scoring import flip7_score

    flip7 = preset("flip7")
    hand = cards("1 2 3 4 5 6 7 x2 +4")
    assert flip7_score(flip7, hand) == flip7_score(flip7, hand, busted=False)
    assert flip7_score(flip7, hand).total == (28 * 2) + 4 + 15  # numbers doubled, plus 4, plus the bonus
    assert flip7_score(flip7, hand, busted=True) == Score(0, 0, 0, 0, 0, flip7=False, busted=True)

