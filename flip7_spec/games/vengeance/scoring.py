"""Vengeance round scoring and the check that a final hand can exist (RULES.md B.1#20, B.2#1-#4, C.3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from flip7_spec.cards import Card, Kind
from flip7_spec.errors import CardError
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.ruleset import VengeanceRuleset
from flip7_spec.scoring import FLIP7_SIZE, Score

THIRTEEN = 13


def is_special(ruleset: VengeanceRuleset, c: Card, special: Special) -> bool:
    """Whether ``c`` is the special Number ``special`` and the ruleset gives special Numbers their effect."""
    # [V-SPECIAL-NUMBERS] with special_numbers off, ZERO, U7 and L13 are plain Numbers 0, 7 and 13
    return c.special is special and ruleset.special_numbers


def flip7_count(ruleset: VengeanceRuleset, hand: Sequence[Card]) -> int:
    """How many values ``hand`` holds toward the seven different Numbers of a Flip 7.

    Two 13s (a Lucky 13 pair) count once, or twice under ``flip7_two_13s = "count_both"``.
    """
    values = {c.value for c in hand if c.is_number}
    if ruleset.flip7_two_13s == "count_both":
        # [V-LUCKY13-FLIP7] V4's reading: both 13s of a Lucky 13 pair count toward the seven
        thirteens = sum(1 for c in hand if c.is_number and c.value == THIRTEEN)
        return len(values) + (1 if thirteens > 1 else 0)
    return len(values)


def floors_at_zero(ruleset: VengeanceRuleset) -> bool:
    """Whether a round score is floored at 0 (standard rules) rather than allowed below it."""
    # [V-BRUTAL-NEGATIVE] Brutal Mode lets round scores go below 0, as does the option negative_scores
    return not (ruleset.negative_scores or ruleset.brutal_mode)


def vengeance_score(ruleset: VengeanceRuleset, hand: Sequence[Card], busted: bool = False) -> Score:
    """The round score of a player holding ``hand`` when a Vengeance round ends.

    In the order of the rules: the sum of the Number values; halved and rounded down by each /2 held; minus
    the -N cards; floored at 0 unless negative scores are allowed; plus the Flip 7 bonus; and 0 for a player
    holding The Zero without a Flip 7. A busted player scores 0. Does not check that the hand is possible
    (see :func:`check_vengeance_hand`).
    """
    if busted:
        if ruleset.brutal_mode and ruleset.brutal_busted_modifier == "from_zero" and any(c.is_modifier for c in hand):
            # [V-BRUTAL-MOD-BUSTED] the row's Modifiers apply to a base of 0 (no floor in Brutal Mode, no bonus)
            total = _modified(ruleset, 0, hand, 0)
            return Score(0, 0, total, 0, total, False, True)
        # [V-SCORE-BUST] [V-BRUTAL-MOD-BUSTED-NO-EFFECT]
        return Score(0, 0, 0, 0, 0, False, True)
    # [V-SCORE] sum of Numbers (The Zero adds 0, Lucky 13 adds 13, Unlucky 7 adds 7)
    number_sum = sum(c.value for c in hand if c.is_number)
    flip7 = flip7_count(ruleset, hand) >= FLIP7_SIZE
    bonus = ruleset.flip7_bonus if flip7 else 0
    if ruleset.halve_order == "whole_total":
        # [V-HALVE-WHOLE-TOTAL] seed 004: the whole total halved, rounded down, then the floor
        after_modifiers = number_sum - _malus(hand)
        total = _modified(ruleset, number_sum, hand, bonus)
        halved = number_sum
    else:
        halved = _halved(number_sum, hand)
        after_modifiers = halved - _malus(hand)
        if floors_at_zero(ruleset):
            # [V-SCORE-FLOOR] not below 0, and before the bonus is added
            after_modifiers = max(0, after_modifiers)
        total = after_modifiers + bonus
    if not flip7 and any(is_special(ruleset, c, Special.ZERO) for c in hand):
        # [V-ZERO-SCORE] [V-ZERO-FLIP7] The Zero makes the round 0, unless the player Flipped 7
        total = 0
    return Score(number_sum, halved, after_modifiers, bonus, total, flip7, False)


def _halved(value: int, hand: Sequence[Card]) -> int:
    """``value`` halved, rounded down (toward minus infinity), once per /2 in ``hand``."""
    for c in hand:
        if c.kind is Kind.HALVE:
            # [V-TWO-DECKS-EFFECTS] each /2 held halves again, rounding down every time
            value //= 2
    return value


def _malus(hand: Sequence[Card]) -> int:
    return sum(c.value for c in hand if c.kind is Kind.SUBTRACT)


def _modified(ruleset: VengeanceRuleset, number_sum: int, hand: Sequence[Card], bonus: int) -> int:
    """The total of ``number_sum`` with the row's Modifiers and ``bonus``, in the order of ``halve_order``, with
    the floor at 0 unless negative scores are allowed."""
    if ruleset.halve_order == "whole_total":
        total = _halved(number_sum - _malus(hand) + bonus, hand)
        return max(0, total) if floors_at_zero(ruleset) else total
    after = _halved(number_sum, hand) - _malus(hand)
    if floors_at_zero(ruleset):
        after = max(0, after)
    return after + bonus


def lucky_pair_allowed(ruleset: VengeanceRuleset, held: Sequence[Card], incoming: Card) -> bool:
    """Whether ``incoming``, a 13, may join ``held`` (which holds a 13) without a bust: exactly one 13 held,
    and a Lucky 13 among the two."""
    if incoming.value != THIRTEEN:
        return False
    thirteens = [c for c in held if c.is_number and c.value == THIRTEEN]
    # [V-LUCKY13-PAIR] one other 13, whichever came first; [V-LUCKY13-THIRD] never a third
    pair = (*thirteens, incoming)
    return len(thirteens) == 1 and any(is_special(ruleset, c, Special.LUCKY_13) for c in pair)


def check_vengeance_hand(ruleset: VengeanceRuleset, hand: Sequence[Card], players: int = 3) -> None:
    """Raise :class:`CardError` unless ``hand`` could be a non-busted player's cards when a round ends.

    A possible hand uses only cards of the ruleset's deck, no more copies than the deck holds, only Number
    and Modifier cards (every Action is discarded once resolved), no Number value twice except a Lucky 13
    pair, and fewer values toward Flip 7 than the round-ending seven allow (at most seven).
    """
    available = Counter(c.text for c in ruleset.deck_cards(players))
    held = Counter(c.text for c in hand)
    for text, count in held.items():
        if count > available[text]:
            raise CardError(f"card {text} appears {count} times but the deck has {available[text]}")
    for c in hand:
        if c.is_action:
            raise CardError(f"card {c.text} never stays in front of a player: Actions go once used")
    numbers: list[Card] = []
    for c in hand:
        if not c.is_number:
            continue
        if any(n.value == c.value for n in numbers) and not lucky_pair_allowed(ruleset, numbers, c):
            raise CardError(f"Number {c.value} appears twice: that player would have busted")
        numbers.append(c)
    count = flip7_count(ruleset, hand)
    if count > FLIP7_SIZE:
        raise CardError(f"{count} values toward Flip 7: the round ends at seven")
