"""Flip 7 round scoring as a pure function of one player's final cards (clause F7-SCORE and its neighbours)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from flip7_spec.cards import Card, Kind
from flip7_spec.errors import CardError
from flip7_spec.games.flip7.cards import FREEZE, SECOND_CHANCE
from flip7_spec.rulesets import Ruleset
from flip7_spec.scoring import FLIP7_SIZE, Score


def flip7_score(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> Score:
    """The round score of a player holding ``hand`` at the end of a round.

    The sum of the Number cards, multiplied by each x2 held, plus the +N cards, plus the Flip 7 bonus; a
    busted player scores 0. Does not check that the hand is possible: see :func:`check_flip7_hand`.
    """
    if busted:
        return Score(0, 0, 0, 0, 0, False, True)
    number_sum, multiplier, adds, distinct = _tally(hand)
    multiplied, with_modifiers, bonus, total = combine(ruleset, number_sum, multiplier, adds, distinct)
    return Score(number_sum, multiplied, with_modifiers, bonus, total, bonus > 0 or distinct >= FLIP7_SIZE, False)


def combine(ruleset: Ruleset, number_sum: int, multiplier: int, adds: int, distinct: int
            ) -> tuple[int, int, int, int]:
    """The base game's scoring steps after the tally of a hand (sum of Numbers, product of multipliers, sum
    of +N cards, different Numbers): multiplied, plus modifiers, the bonus, and the total."""
    # [F7-SCORE] in this order: numbers, multiplied, plus modifiers, plus the bonus
    multiplied = number_sum * multiplier
    with_modifiers = multiplied + adds
    bonus = ruleset.flip7_bonus if distinct >= FLIP7_SIZE else 0
    return multiplied, with_modifiers, bonus, with_modifiers + bonus


def _tally(hand: Sequence[Card]) -> tuple[int, int, int, int]:
    """Sum of Numbers, product of multipliers, sum of +N cards, and how many different Numbers."""
    number_sum = 0
    multiplier = 1
    adds = 0
    values: set[int] = set()
    for c in hand:
        kind = c.kind
        if kind is Kind.NUMBER:
            number_sum += c.value
            values.add(c.value)
        elif kind is Kind.MULTIPLY:
            multiplier *= c.value  # [F7-MOD-X2] numbers only; [F7-TWO-DECKS-EFFECTS] each x2 applies
        elif kind is Kind.ADD:
            adds += c.value  # [F7-MOD-ADD] [F7-MOD-ONLY] + cards score even without Numbers
    return number_sum, multiplier, adds, len(values)


def flip7_round_score(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> int:
    """The round score as a number: the same rules as :func:`flip7_score`, without building the breakdown."""
    if busted:
        return 0
    return combine(ruleset, *_tally(hand))[3]


def check_flip7_hand(ruleset: Ruleset, hand: Sequence[Card], players: int = 3) -> None:
    """Raise :class:`CardError` unless ``hand`` could be a non-busted player's cards at a round's end.

    A possible hand uses only cards of the ruleset's deck, no more copies than the deck holds, no Number
    value twice, at most seven different Numbers, at most one Second Chance, at most one Freeze, and no card
    that never stays in front of a player (an Action other than a kept Second Chance or a received Freeze).
    """
    available = Counter(c.text for c in ruleset.deck_cards(players))
    held = Counter(c.text for c in hand)
    for text, count in held.items():
        if count > available[text]:
            have = available[text]
            raise CardError(f"card {text} appears {count} times but the deck has {have}")
    values = [c.value for c in hand if c.is_number]
    duplicates = sorted({v for v in values if values.count(v) > 1})
    if duplicates:
        raise CardError(f"Number {duplicates[0]} appears twice: that player would have busted")
    if len(values) > FLIP7_SIZE:
        raise CardError(f"{len(values)} different Numbers: the round ends at seven (Flip 7)")
    for c in hand:
        if c.is_action and c.kind not in (SECOND_CHANCE, FREEZE):
            raise CardError(f"card {c.text} never stays in front of a player")
    if held["CHANCE"] > 1:
        raise CardError("a player holds at most one Second Chance")
    if held["FREEZE"] > 1:
        raise CardError("a frozen player holds one Freeze")
    if held["FREEZE"] and len(values) >= FLIP7_SIZE:
        raise CardError("a frozen player cannot hold seven different Numbers: the Flip 7 would have ended the round")
