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
