"""Scoring laws over every possible final hand (strategies.hands), for each playable ruleset."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.cards import card
from flip7_spec.play import check_hand, round_score, score
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.scoring import FLIP7_SIZE, distinct_numbers
from flip7_spec.strategies import FinalHand, hands, playable_presets, rulesets

BASE = rulesets(games=("flip7",))
VENGEANCE = any(preset(name).game == "vengeance" for name in playable_presets())
needs_vengeance = pytest.mark.skipif(not VENGEANCE, reason="Vengeance cannot be played by the reference yet")


def ruleset_and_hand(strategy: st.SearchStrategy[Ruleset] = BASE, busted: bool | None = False
                     ) -> st.SearchStrategy[tuple[Ruleset, FinalHand]]:
    return strategy.flatmap(lambda r: st.tuples(st.just(r), hands(r, busted=busted)))


@pytest.mark.clause("F7-SCORE-BUST", "V-SCORE-BUST", "V-BRUTAL-MOD-BUSTED", "V-BRUTAL-MOD-BUSTED-NO-EFFECT")
@given(ruleset_and_hand(rulesets(), busted=True))
def test_a_busted_hand_scores_zero(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    values = [c.value for c in hand.as_cards() if c.is_number]
    assert len(values) > len(set(values)), "a busted hand holds a Number twice"
    expected = 0
    if getattr(ruleset, "brutal_mode", False) and getattr(ruleset, "brutal_busted_modifier", "") == "from_zero":
        # [V-BRUTAL-MOD-BUSTED] the Modifiers on a base of 0, no bonus, no floor: the -N cards come off 0;
        # under whole_total that is then halved once per /2 (rounding toward minus infinity), otherwise each
        # /2 halves the base of 0
        expected = -sum(c.value for c in hand.as_cards() if c.text.startswith("-"))
        if ruleset.halve_order == "whole_total":  # type: ignore[attr-defined]
            for _ in range(sum(1 for c in hand.as_cards() if c.text == "/2")):
                expected //= 2
    assert round_score(ruleset, hand.as_cards(), busted=True) == expected


@pytest.mark.clause("F7-SCORE", "F7-ROW")
@given(ruleset_and_hand(rulesets()), st.randoms(use_true_random=False))
def test_the_order_of_the_cards_does_not_matter(case: tuple[Ruleset, FinalHand], rng: random.Random) -> None:
    ruleset, hand = case
    cards = hand.as_cards()
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert round_score(ruleset, shuffled) == round_score(ruleset, cards)


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2")
@given(ruleset_and_hand())
def test_x2_doubles_the_numbers_only(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    cards = [c for c in hand.as_cards() if c.text != "x2"]
    numbers = sum(c.value for c in cards if c.is_number)
    assert round_score(ruleset, [*cards, card("x2")]) - round_score(ruleset, cards) == numbers


@pytest.mark.clause("F7-MOD-ADD", "F7-MOD-NO-BUST")
@given(ruleset_and_hand(), st.sampled_from([2, 4, 6, 8, 10]))
def test_a_plus_card_adds_exactly_its_value(case: tuple[Ruleset, FinalHand], amount: int) -> None:
    ruleset, hand = case
    cards = hand.as_cards()
    plus = card(f"+{amount}")
    assert round_score(ruleset, [*cards, plus]) == round_score(ruleset, cards) + amount >= round_score(ruleset, cards)


@pytest.mark.clause("F7-FLIP7", "F7-FLIP7-BONUS", "F7-FLIP7-ZERO", "F7-MOD-NO-BUST")
@given(ruleset_and_hand())
def test_the_bonus_comes_exactly_with_seven_different_numbers(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    result = score(ruleset, hand.as_cards())
    seven = distinct_numbers(hand.as_cards()) == FLIP7_SIZE
    assert result.flip7 == seven
    assert result.bonus == (ruleset.flip7_bonus if seven else 0)
    assert result.total == result.after_modifiers + result.bonus


@pytest.mark.clause("F7-MOD-ONLY", "F7-STAY-MODIFIERS-ONLY")
@given(ruleset_and_hand())
def test_a_hand_of_modifiers_scores_its_plus_cards(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    modifiers = [c for c in hand.as_cards() if c.is_modifier]
    assert round_score(ruleset, modifiers) == sum(c.value for c in modifiers if c.text.startswith("+"))


@pytest.mark.clause("F7-CHANCE-KEEP", "F7-FREEZE-KEEPS-CARDS", "F7-SCORE")
@given(ruleset_and_hand())
def test_kept_actions_score_nothing_and_scores_are_never_negative(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    cards = hand.as_cards()
    without_actions = [c for c in cards if not c.is_action]
    assert round_score(ruleset, cards) == round_score(ruleset, without_actions) >= 0


@pytest.mark.clause("F7-SCORE", "F7-FLIP7")
@given(ruleset_and_hand(rulesets()))
def test_generated_hands_are_possible_hands(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    check_hand(ruleset, hand.as_cards())


VENGEANCE_RULESETS = rulesets(games=("vengeance",)) if VENGEANCE else st.nothing()


@needs_vengeance
@pytest.mark.clause("V-SCORE-FLOOR", "V-BRUTAL-NEGATIVE", "V-SCORE")
@given(ruleset_and_hand(VENGEANCE_RULESETS) if VENGEANCE else st.nothing())
def test_vengeance_scores_fall_below_zero_only_when_allowed(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    total = round_score(ruleset, hand.as_cards())
    if not (ruleset.negative_scores or ruleset.brutal_mode):
        assert total >= 0


@needs_vengeance
@pytest.mark.clause("V-SCORE", "V-TWO-DECKS-EFFECTS", "V-HALVE-WHOLE-TOTAL")
@given(ruleset_and_hand(VENGEANCE_RULESETS) if VENGEANCE else st.nothing())
def test_vengeance_halving_rounds_down_and_minus_cards_subtract(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    result = score(ruleset, hand.as_cards())
    halvings = sum(1 for c in hand.as_cards() if c.text == "/2")
    minus = sum(c.value for c in hand.as_cards() if c.text.startswith("-"))
    floor = not (ruleset.negative_scores or ruleset.brutal_mode)
    if ruleset.halve_order == "whole_total":
        # [V-HALVE-WHOLE-TOTAL] Numbers - N + bonus, halved k times rounding down (// 2^k: repeated floor
        # division by 2 is floor division by 2^k), then the floor; The Zero's 0 aside
        whole = (result.number_sum - minus + result.bonus) // (2 ** halvings)
        zeroed = ruleset.special_numbers and "ZERO" in hand.cards and not result.flip7
        assert result.total == (0 if zeroed else max(0, whole) if floor else whole)
        return
    assert result.after_multiplier == result.number_sum // (2 ** halvings)
    expected = result.after_multiplier - minus
    assert result.after_modifiers == (max(0, expected) if floor else expected)


@needs_vengeance
@pytest.mark.clause("V-ZERO-SCORE", "V-ZERO-FLIP7")
@given(ruleset_and_hand(VENGEANCE_RULESETS) if VENGEANCE else st.nothing())
def test_the_zero_makes_the_round_zero_unless_flip_7(case: tuple[Ruleset, FinalHand]) -> None:
    ruleset, hand = case
    result = score(ruleset, hand.as_cards())
    if ruleset.special_numbers and "ZERO" in hand.cards and not result.flip7:
        assert result.total == 0
    if result.flip7 and ruleset.halve_order == "numbers_then_minus":
        assert result.total == result.after_modifiers + ruleset.flip7_bonus
