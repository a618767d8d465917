"""What each game's scorer and hand check promise beyond the totals (their docstrings and RULES.md A.1#9-#17,
B.1#20, B.2#1-#4): the whole breakdown of a score, the flags it carries, the defaults of the scorers called
without a ``busted`` flag, and the hands the check must accept as well as those it must refuse.

Every expected figure is worked out from the rules in a comment next to it.
"""

from __future__ import annotations

import pytest

from flip7_spec.cards import cards
from flip7_spec.errors import CardError
from flip7_spec.games.flip7.scoring import check_flip7_hand, flip7_round_score, flip7_score
from flip7_spec.play import check_hand, round_score, score
from flip7_spec.rulesets import preset
from flip7_spec.scoring import Score

FLIP7 = preset("flip7")


# ---- Flip 7 -------------------------------------------------------------------------------------------------


@pytest.mark.clause("F7-SCORE", "F7-FLIP7-BONUS", "F7-FLIP7")
def test_a_flip7_score_carries_its_bonus_and_is_not_a_bust() -> None:
    # 1+2+...+7 = 28, no x2 (28), no +N (28), seven different Numbers: +15 = 43; a Flip 7, not busted
    assert flip7_score(FLIP7, cards("1 2 3 4 5 6 7")) == Score(28, 28, 28, 15, 43, flip7=True, busted=False)


@pytest.mark.clause("F7-SCORE")
def test_a_hand_of_fewer_than_seven_numbers_is_no_flip7() -> None:
    # 3+5 = 8, doubled 16, +4 = 20; two different Numbers: no bonus, no Flip 7
    assert flip7_score(FLIP7, cards("3 5 x2 +4")) == Score(8, 16, 20, 0, 20, flip7=False, busted=False)


@pytest.mark.clause("F7-FLIP7", "F7-FLIP7-BONUS", "F7-FLIP7-ZERO")
@pytest.mark.parametrize("bonus", [0, 1])
def test_seven_different_numbers_are_a_flip7_whatever_the_bonus(bonus: int) -> None:
    """A Flip 7 is the seven different Numbers (A.1#11); the 15 is what it earns, an option: with the bonus
    set to 0 or 1 the hand is still a Flip 7, and the bonus added is the option's."""
    result = flip7_score(FLIP7.with_options(flip7_bonus=bonus), cards("0 1 2 3 4 5 6"))
    # 0+1+...+6 = 21, plus the bonus
    assert (result.flip7, result.bonus, result.total) == (True, bonus, 21 + bonus)


@pytest.mark.clause("F7-SCORE", "F7-SCORE-BUST")
@pytest.mark.parametrize("hand", ["3 11 5 7 10", "3 11 5 7 10 x2", "3 11 5 7 10 +10", "3 11 5 7 10 9 4", "x2 +8"])
def test_the_round_score_alone_is_the_total_of_the_breakdown_and_not_busted_unless_told(hand: str) -> None:
    """``flip7_round_score`` follows the same rules as ``flip7_score``; called without ``busted`` it scores a
    player who did not bust (the printed examples: 36, 72, 46, 64; and +8 with x2 over no Number: 8)."""
    printed = {"3 11 5 7 10": 36, "3 11 5 7 10 x2": 72, "3 11 5 7 10 +10": 46, "3 11 5 7 10 9 4": 64, "x2 +8": 8}
    assert flip7_round_score(FLIP7, cards(hand)) == printed[hand] == flip7_score(FLIP7, cards(hand)).total
    assert flip7_round_score(FLIP7, cards(hand), busted=True) == 0


@pytest.mark.clause("F7-CHANCE-KEEP", "F7-FREEZE")
@pytest.mark.parametrize("hand", ["5 CHANCE", "CHANCE", "5 FREEZE", "5 9 FREEZE CHANCE", "0 1 2 3 4 5 6 CHANCE"])
def test_one_second_chance_and_one_freeze_are_possible_hands(hand: str) -> None:
    # A.1#15: a player keeps one Second Chance; A.1#13: the Freeze stays in front of the frozen player
    check_flip7_hand(FLIP7, cards(hand))


@pytest.mark.clause("F7-FREEZE")
@pytest.mark.parametrize("players", [3, 19])
def test_a_player_is_frozen_once(players: int) -> None:
    # the deck holds three Freezes (six with two decks), but a frozen player is out of the round: one Freeze
    with pytest.raises(CardError, match="holds one Freeze"):
        check_flip7_hand(FLIP7, cards("5 FREEZE FREEZE"), players=players)


# ---- Vengeance ----------------------------------------------------------------------------------------------


@pytest.mark.clause("V-SCORE")
def test_vengeance_the_official_example_is_a_flip7_and_not_a_bust() -> None:
    # 3+11+5+7+10+8+4 = 48; /2: 24; -4: 20; seven different values: +15 = 35
    assert score(preset("vengeance"), cards("3 11 5 7 10 8 4 /2 -4")) == Score(48, 24, 20, 15, 35, True, False)


@pytest.mark.clause("V-HALVE-WHOLE-TOTAL")
def test_vengeance_halving_the_whole_total_halves_the_bonus_too() -> None:
    # docs/vengeance.md: (48 - 4 + 15) / 2 = 29.5, rounded down 29; the steps in the order they apply: the
    # Numbers (48), nothing halved before the total (48), minus the -4 (44), the bonus (15), the halved total
    result = score(preset("vengeance").with_options(halve_order="whole_total"), cards("3 11 5 7 10 8 4 /2 -4"))
    assert result == Score(48, 48, 44, 15, 29, True, False)


@pytest.mark.clause("V-HALVE-WHOLE-TOTAL", "V-SCORE-FLOOR", "V-BASIC")
@pytest.mark.parametrize(("options", "expected"), [
    ({}, 0),  # 1 + 2 - 10 = -7, halved -4 (rounded down), floored at 0
    ({"negative_scores": True}, -4),  # no floor
    ({"brutal_mode": True}, -4),  # V-BRUTAL-NEGATIVE: no floor in Brutal Mode either
])
def test_vengeance_a_negative_whole_total_halves_down_then_meets_the_floor(options: dict[str, object],
                                                                           expected: int) -> None:
    ruleset = preset("vengeance").with_options(halve_order="whole_total", **options)
    assert round_score(ruleset, cards("1 2 -10 /2")) == expected


@pytest.mark.clause("V-HALVE-WHOLE-TOTAL", "V-BASIC")
def test_vengeance_basic_halves_the_whole_total_below_zero() -> None:
    # seed 004: 9 + 2 - 5 - 10 = -4, halved -2; no floor (negative scores allowed)
    assert round_score(preset("vengeance-basic"), cards("9 2 -5 -10 /2")) == -2


@pytest.mark.clause("V-BRUTAL-MOD-BUSTED", "V-BRUTAL-MOD-BUSTED-NO-EFFECT", "V-SCORE-BUST")
@pytest.mark.parametrize(("options", "hand", "expected"), [
    ({"brutal_mode": True}, "5 5 -10", -10),  # the Modifiers from a base of 0: 0 - 10
    ({"brutal_mode": True}, "5 5 -10 /2", -10),  # halving the base of 0 gives 0, then -10
    ({"brutal_mode": True, "halve_order": "whole_total"}, "5 5 -10 /2", -5),  # (0 - 10) / 2
    ({"brutal_mode": True}, "5 5", 0),  # no Modifier: 0
    ({"brutal_mode": True, "brutal_busted_modifier": "no_effect"}, "5 5 -10", 0),
    ({}, "5 5 -10", 0),  # outside Brutal Mode a bust scores 0
])
def test_vengeance_a_busted_row_scores_its_modifiers_only_in_brutal_mode(options: dict[str, object], hand: str,
                                                                         expected: int) -> None:
    result = score(preset("vengeance").with_options(**options), cards(hand), busted=True)
    # a bust is never a Flip 7 and earns no bonus; the row's total is all it scores
    assert result == Score(0, 0, expected, 0, expected, False, True)


@pytest.mark.clause("V-BUST")
@pytest.mark.parametrize("hand", ["/2 5 5", "-2 8 3 8", "5 -4 5"])
def test_vengeance_a_number_twice_is_found_past_the_modifiers(hand: str) -> None:
    with pytest.raises(CardError, match="appears twice"):
        check_hand(preset("vengeance"), cards(hand))


@pytest.mark.clause("V-LUCKY13-PAIR")
@pytest.mark.parametrize("hand", ["5 L13 13", "9 2 13 L13", "-4 L13 13 1"])
def test_vengeance_a_lucky_13_pair_is_possible_after_other_numbers(hand: str) -> None:
    # B.1#11: a Lucky 13 allows one other 13, whichever came first, whatever else the row holds
    check_hand(preset("vengeance"), cards(hand))


@pytest.mark.clause("V-LUCKY13-FLIP7")
@pytest.mark.parametrize("hand", ["1 2 3 4 5 13", "1 2 3 4 5 L13", "1 2 3 4 5 6", "1 2 3 4 5 6 -2"])
def test_vengeance_counting_both_13s_adds_nothing_without_a_pair(hand: str) -> None:
    # count_both counts the two 13s of a Lucky 13 pair twice; a single 13 (or none) is one value as ever:
    # six different values here, no Flip 7 and no bonus
    both = preset("vengeance").with_options(flip7_two_13s="count_both")
    result = score(both, cards(hand))
    assert (result.flip7, result.bonus) == (False, 0)


@pytest.mark.clause("V-SCORE", "V-SCORE-BUST")
def test_vengeance_the_game_scorer_reads_a_hand_as_not_busted_unless_told() -> None:
    from flip7_spec.games.vengeance.scoring import vengeance_score

    official = preset("vengeance")
    # 3+5 = 8, halved 4, minus 2: 2
    assert vengeance_score(official, cards("3 5 /2 -2")) == Score(8, 4, 2, 0, 2, False, False)
    assert vengeance_score(official, cards("3 5 /2 -2"), busted=True).total == 0
