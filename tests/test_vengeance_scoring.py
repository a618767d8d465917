"""Vengeance round scoring and final-hand checks (RULES.md B.1#20, B.2#1-#4, B.2#14, C.3), with the arithmetic
of every expected value written out from the rules."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from flip7_spec.cards import cards
from flip7_spec.cli import cli
from flip7_spec.errors import CardError
from flip7_spec.play import check_hand, round_score, score
from flip7_spec.rulesets import preset

V = preset("vengeance")
BASIC = preset("vengeance-basic")


def total(hand: str, ruleset=V, busted: bool = False) -> int:
    return round_score(ruleset, cards(hand), busted)


@pytest.mark.clause("V-SCORE")
def test_official_example() -> None:
    # 3+11+5+7+10+8+4 = 48; /2 gives 24; -4 gives 20; seven different values: +15 = 35
    result = score(V, cards("3 11 5 7 10 8 4 /2 -4"))
    assert (result.number_sum, result.after_multiplier, result.after_modifiers) == (48, 24, 20)
    assert (result.flip7, result.bonus, result.total) == (True, 15, 35)


@pytest.mark.clause("V-SCORE")
def test_halving_rounds_down_and_applies_to_numbers_only() -> None:
    assert total("3 5 /2") == 4  # 8 / 2
    assert total("7 /2") == 3  # 7 / 2 = 3.5, rounded down
    assert total("9 /2 -2") == 2  # 9 // 2 = 4, then -2: the -N cards are not halved


@pytest.mark.clause("V-SCORE-FLOOR")
def test_round_score_floors_at_zero_before_the_bonus() -> None:
    assert total("1 2 -10") == 0  # 3 - 10 = -7, floored
    # 1+2+3+4+5+6+8 = 29, minus 2+4+6+8+10 = 30 gives -1, floored to 0, then +15
    assert total("1 2 3 4 5 6 8 -2 -4 -6 -8 -10") == 15


@pytest.mark.clause("V-SCORE-FLOOR", "V-BASIC")
def test_negative_scores_option() -> None:
    allowed = V.with_options(negative_scores=True)
    assert total("1 2 -10", allowed) == -7  # 3 - 10
    assert total("1 2 3 4 5 6 8 -2 -4 -6 -8 -10", allowed) == 14  # 29 - 30 + 15
    assert total("1 2 -10 -5", BASIC) == -12  # seed 004: 3 - 10 - 5


@pytest.mark.clause("V-BRUTAL", "V-BRUTAL-NEGATIVE")
def test_brutal_mode_allows_negative_round_scores() -> None:
    assert total("1 2 -10", V.with_options(brutal_mode=True)) == -7  # 3 - 10


@pytest.mark.clause("V-SCORE-BUST")
def test_busted_scores_zero() -> None:
    assert total("3 11 5 3", busted=True) == 0
    assert score(V, cards("12 -2"), busted=True).busted


@pytest.mark.clause("V-ZERO-SCORE")
def test_the_zero_makes_the_round_zero() -> None:
    assert total("ZERO 5 9") == 0  # would be 14
    # the Zero wins over a negative total too: 5 - 10 = -5 becomes 0
    assert total("ZERO 5 -10", V.with_options(negative_scores=True)) == 0


@pytest.mark.clause("V-ZERO-FLIP7")
def test_the_zero_with_a_flip7_scores_normally() -> None:
    # ZERO counts as one of seven values: 0+1+2+3+4+5+6 = 21, +15
    assert total("ZERO 1 2 3 4 5 6") == 36


@pytest.mark.clause("V-SPECIAL-NUMBERS")
def test_special_numbers_off_makes_them_plain() -> None:
    plain = V.with_options(special_numbers=False)
    assert total("ZERO 5 9", plain) == 14  # 0 + 5 + 9, no Zero effect
    assert total("ZERO 5 9", V) == 0
    with pytest.raises(CardError, match="13 appears twice"):
        check_hand(plain, cards("L13 13"))


@pytest.mark.clause("V-LUCKY13-PAIR")
def test_lucky_13_pair_both_score() -> None:
    assert total("L13 13 5") == 31  # 13 + 13 + 5
    assert total("13 L13 5") == 31
    check_hand(V, cards("13 L13 5"))


@pytest.mark.clause("V-LUCKY13-FLIP7")
def test_two_13s_count_once_or_twice_toward_flip7() -> None:
    hand = cards("L13 13 1 2 3 4 5")  # 13+13+1+2+3+4+5 = 41
    assert score(V, hand).flip7 is False  # six different values
    assert round_score(V, hand) == 41
    both = V.with_options(flip7_two_13s="count_both")
    assert score(both, hand).flip7 is True  # 13 counted twice: seven
    assert round_score(both, hand) == 56  # 41 + 15


@pytest.mark.clause("V-UNLUCKY7-WIPE")
def test_unlucky_7_scores_seven() -> None:
    assert total("U7 3 -2") == 8  # 7 + 3 - 2


@pytest.mark.clause("V-MOD-NO-BUST")
def test_modifiers_do_not_count_toward_flip7() -> None:
    result = score(V, cards("1 2 3 4 5 6 -2 /2"))
    assert result.flip7 is False
    assert result.total == 8  # 21 // 2 = 10, - 2


@pytest.mark.clause("V-TWO-DECKS-EFFECTS")
def test_two_decks_each_halving_applies_and_two_lucky_13s_pair() -> None:
    assert total("9 8 /2 /2") == 4  # 17 // 2 = 8, 8 // 2 = 4
    check_hand(V, cards("9 8 /2 /2"), players=19)
    with pytest.raises(CardError, match="/2 appears 2 times but the deck has 1"):
        check_hand(V, cards("9 8 /2 /2"), players=18)
    check_hand(V, cards("L13 L13"), players=19)  # a Lucky 13 allows one other 13, even the other Lucky 13
    with pytest.raises(CardError, match="13 appears twice"):
        check_hand(V, cards("L13 L13 13"), players=19)


@pytest.mark.clause("V-BUST", "V-UNLUCKY7-LATER-7", "V-LUCKY13-THIRD")
@pytest.mark.parametrize(("hand", "message"), [
    ("5 5", "5 appears twice"),
    ("U7 7", "7 appears twice"),
    ("13 13", "13 appears twice"),
    ("L13 13 13", "13 appears twice"),
])
def test_impossible_duplicates(hand: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        check_hand(V, cards(hand))


@pytest.mark.clause("V-ACTION-AT-ONCE", "V-NO-BASE-CARDS", "V-FLIP7", "V-LUCKY13-FLIP7")
@pytest.mark.parametrize(("ruleset", "hand", "message"), [
    (V, "5 STEAL", "STEAL never stays in front of a player"),
    (V, "5 x2", "x2 appears 1 times but the deck has 0"),
    (V, "-2 -2", "-2 appears 2 times but the deck has 1"),
    (V, "1 2 3 4 5 6 8 9", "8 values toward Flip 7"),
    (V.with_options(flip7_two_13s="count_both"), "L13 13 1 2 3 4 5 6", "8 values toward Flip 7"),
    (BASIC, "-4", "-4 appears 1 times but the deck has 0"),
    (BASIC, "ZERO", "ZERO appears 1 times but the deck has 0"),
])
def test_impossible_hands(ruleset, hand: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        check_hand(ruleset, cards(hand))


@pytest.mark.clause("V-SCORE")
def test_cli_score_prints_the_official_example() -> None:
    # "--" keeps click from reading -4 as an option
    result = CliRunner().invoke(cli, ["score", "--ruleset", "vengeance", "--", "3", "11", "5", "7", "10", "8",
                                      "4", "/2", "-4"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "35"
