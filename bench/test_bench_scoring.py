"""Round scoring: hands per second over a fixed list of random possible hands.

Baseline: ``floor_score``, the same arithmetic written inline in plain Python (no ruleset dispatch, no
``Score`` record); every hand must get the same score from both.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bench.support import SEED, report, timed
from flip7_spec.cards import Card, Kind, card
from flip7_spec.play import check_hand, round_score, score
from flip7_spec.rulesets import Ruleset

HANDS = 20_000
ROUNDS = 7

Hand = tuple[list[Card], bool]


def random_hands(ruleset: Ruleset, count: int, seed: str = SEED) -> list[Hand]:
    """``count`` random hands a player could hold at a round's end, with whether the player busted.

    A live hand has 0 to 7 different Numbers, up to three different modifiers, and maybe a kept Second
    Chance and (with fewer than seven Numbers) a received Freeze; a busted hand (one in five) also holds a
    duplicate Number.
    """
    rng = random.Random(seed)
    faces = {c.text: c for c in ruleset.deck_cards(3)}.values()
    numbers = sorted((c for c in faces if c.is_number), key=lambda c: c.value)
    modifiers = [c for c in faces if c.is_modifier]
    hands: list[Hand] = []
    for _ in range(count):
        hand = rng.sample(numbers, rng.randint(0, 7)) + rng.sample(modifiers, rng.randint(0, 3))
        if rng.random() < 0.2:
            hand.append(card("CHANCE"))
        if rng.random() < 0.1 and sum(c.is_number for c in hand) < 7:  # a Flip 7 ends the round first
            hand.append(card("FREEZE"))
        busted = rng.random() < 0.2
        if busted:
            hand.append(rng.choice(numbers))
        rng.shuffle(hand)
        hands.append((hand, busted))
    return hands


def floor_score(hand: Sequence[Card], busted: bool, bonus: int = 15) -> int:
    """The base-game round score, inline."""
    if busted:
        return 0
    total = 0
    multiplier = 1
    adds = 0
    distinct = 0
    for c in hand:
        kind = c.kind
        if kind is Kind.NUMBER:
            total += c.value
            distinct += 1
        elif kind is Kind.MULTIPLY:
            multiplier *= c.value
        elif kind is Kind.ADD:
            adds += c.value
    return total * multiplier + adds + (bonus if distinct >= 7 else 0)


@pytest.fixture(scope="module")
def hands(ruleset: Ruleset) -> list[Hand]:
    """The fixed list of hands, each checked to be possible."""
    out = random_hands(ruleset, HANDS)
    for hand, busted in out:
        if not busted:
            check_hand(ruleset, hand)
    return out


def test_floor_scoring(benchmark: Any, hands: list[Hand]) -> None:
    """Baseline: the inline scorer."""
    durations, total = timed(benchmark, lambda: sum(floor_score(h, b) for h, b in hands), ROUNDS)
    assert total > 0
    report(benchmark, "floor scoring", "hands", len(hands), durations)


def test_round_score(benchmark: Any, ruleset: Ruleset, hands: list[Hand]) -> None:
    """``round_score(ruleset, hand, busted)``: the score as a number, as the engine uses it."""
    expected = [floor_score(h, b) for h, b in hands]
    durations, found = timed(benchmark, lambda: [round_score(ruleset, h, b) for h, b in hands], ROUNDS)
    assert found == expected
    report(benchmark, "round_score", "hands", len(hands), durations, baseline="floor scoring",
           busted_share=round(sum(b for _, b in hands) / len(hands), 3))


def test_score_steps(benchmark: Any, ruleset: Ruleset, hands: list[Hand]) -> None:
    """``score(ruleset, hand, busted)``: the full ``Score`` record (as ``flip7-spec score`` shows it)."""
    durations, found = timed(benchmark, lambda: [score(ruleset, h, b) for h, b in hands], ROUNDS)
    assert [s.total for s in found] == [floor_score(h, b) for h, b in hands]
    report(benchmark, "score (with steps)", "hands", len(hands), durations, baseline="floor scoring")
