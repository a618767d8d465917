"""Plausible misreadings of Flip 7 scoring, and the smallest hands that tell each from the specification.

Each misreading (x2 doubling the +N cards, the 0 not counting toward a Flip 7, ...) is written twice: as a
Python scorer with the signature of :func:`flip7_spec.play.round_score`, and as a z3 term over the Flip 7
scoring model (:class:`~flip7_spec.games.flip7.symbolic.model.SymbolicHand`); the tests check that the two
agree. The search for the smallest hand that tells each from the specification is the core's
(:func:`flip7_spec.symbolic.misreadings.smallest_case`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Card, Kind
from flip7_spec.games.flip7.cards import FREEZE
from flip7_spec.games.flip7.symbolic.model import FLIP7_NUMBERS, SymbolicHand, domain_of
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS
from flip7_spec.symbolic.misreadings import CaseSearch, SymbolicMisreading, smallest_case
from flip7_spec.symbolic.terms import Expr, Scorer, total

Flip7Misreading = SymbolicMisreading[SymbolicHand]
"""A misreading of Flip 7 scoring: its z3 term is over the Flip 7 model."""
# ---------------------------------------------------------------------------------------------------------
# The misreadings, in Python
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Parts:
    number_sum: int
    distinct: int
    nonzero_distinct: int
    multiplier: int
    multiplier_once: int
    multiplier_as_adds: int
    adds: int
    modifiers: int
    frozen: bool
    bonus: int

    def flip7_bonus(self, flip7: bool) -> int:
        return self.bonus if flip7 else 0

    @property
    def official_bonus(self) -> int:
        return self.flip7_bonus(self.distinct >= FLIP7_NUMBERS)

    @property
    def official(self) -> int:
        return self.number_sum * self.multiplier + self.adds + self.official_bonus


def _parts(ruleset: Ruleset, hand: Sequence[Card]) -> _Parts:
    values = {c.value for c in hand if c.is_number}
    mults = [c for c in hand if c.kind is Kind.MULTIPLY]
    return _Parts(
        number_sum=sum(values),
        distinct=len(values),
        nonzero_distinct=len(values - {0}),
        multiplier=math.prod(c.value for c in mults),
        multiplier_once=math.prod({c.text: c.value for c in mults}.values()),
        multiplier_as_adds=sum(c.value for c in mults),
        adds=sum(c.value for c in hand if c.kind is Kind.ADD),
        modifiers=sum(1 for c in hand if c.kind in (Kind.ADD, Kind.MULTIPLY)),
        frozen=any(c.kind is FREEZE for c in hand),
        bonus=ruleset.flip7_bonus,
    )


def _scorer(rule: Callable[[_Parts], int], busted_rule: Callable[[_Parts], int] | None = None) -> Scorer:
    def score(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> int:
        parts = _parts(ruleset, hand)
        if busted:
            return 0 if busted_rule is None else busted_rule(parts)
        return rule(parts)

    return score


# ---------------------------------------------------------------------------------------------------------
# The same misreadings as z3 terms
# ---------------------------------------------------------------------------------------------------------


def _zero(h: SymbolicHand) -> Expr:
    return z3.IntVal(0, h.ctx)


def _bonus_when(h: SymbolicHand, flip7: Expr) -> Expr:
    return z3.If(flip7, z3.IntVal(h.domain.bonus, h.ctx), _zero(h))


def _official(h: SymbolicHand) -> Expr:
    return h.times_multiplier(h.number_sum) + h.adds + h.bonus


def _unless_busted(term: Callable[[SymbolicHand], Expr]) -> Callable[[SymbolicHand], Expr]:
    def symbolic(h: SymbolicHand) -> Expr:
        return z3.If(h.busted, _zero(h), term(h))

    return symbolic


def _multipliers_as_adds(h: SymbolicHand) -> Expr:
    return total(h.ctx, [n * m.value for n, m in zip(h.mods, h.domain.modifiers, strict=True)
                         if m.kind is Kind.MULTIPLY])


FLIP7_MISREADINGS: Final[tuple[Flip7Misreading, ...]] = (
    SymbolicMisreading(
        "MR-X2-DOUBLES-ADDS", "x2 doubles the +N cards too: (Numbers + N) x 2, i.e. +N added before x2",
        "F7-MOD-X2", "rules summaries giving ((Numbers + modifiers) x multiplier) + bonus",
        _scorer(lambda p: (p.number_sum + p.adds) * p.multiplier + p.official_bonus),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum + h.adds) + h.bonus)),
    SymbolicMisreading(
        "MR-X2-DOUBLES-BONUS", "x2 also doubles the Flip 7 bonus (but not the +N cards)",
        "F7-MOD-X2", "a question the official FAQ and the seed summaries answer (RULES.md A.1#17)",
        _scorer(lambda p: p.number_sum * p.multiplier + p.adds + p.official_bonus * p.multiplier),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum) + h.adds + h.times_multiplier(h.bonus))),
    SymbolicMisreading(
        "MR-X2-DOUBLES-TOTAL", "x2 doubles the whole round total: Numbers, +N cards and bonus",
        "F7-MOD-X2", "the Dized step 'double your score for the round' read literally",
        _scorer(lambda p: (p.number_sum + p.adds + p.official_bonus) * p.multiplier),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum + h.adds + h.bonus))),
    SymbolicMisreading(
        "MR-X2-AS-ADD", "an xN card is added like a +N card (x2 counts as +2)",
        "F7-MOD-X2", "engines that sum every modifier's value",
        _scorer(lambda p: p.number_sum + p.adds + p.multiplier_as_adds + p.official_bonus),
        _unless_busted(lambda h: h.number_sum + h.adds + _multipliers_as_adds(h) + h.bonus)),
    SymbolicMisreading(
        "MR-X2-NO-STACK", "two copies of x2 (two decks) double only once",
        "F7-TWO-DECKS-EFFECTS", "sources silent on two x2 cards (RULES.md A.2#16)",
        _scorer(lambda p: p.number_sum * p.multiplier_once + p.adds + p.official_bonus),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum, stacking=False) + h.adds + h.bonus)),
    SymbolicMisreading(
        "MR-BONUS-ANY-7-CARDS", "the Flip 7 bonus goes to any 7 Number and modifier cards",
        "F7-MOD-NO-BUST", "a question the seed 003 FAQ answers ('Les cartes Bonus permettent-elles un Flip 7 ?')",
        _scorer(lambda p: p.number_sum * p.multiplier + p.adds
                + p.flip7_bonus(p.distinct + p.modifiers >= FLIP7_NUMBERS)),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum) + h.adds
                       + _bonus_when(h, h.distinct + h.modifier_count >= FLIP7_NUMBERS))),
    SymbolicMisreading(
        "MR-ZERO-NOT-COUNTED", "a Flip 7 needs seven non-zero Numbers: the 0 does not count",
        "F7-FLIP7-ZERO", "a question the rules answer explicitly (RULES.md A.2#11)",
        _scorer(lambda p: p.number_sum * p.multiplier + p.adds + p.flip7_bonus(p.nonzero_distinct >= FLIP7_NUMBERS)),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum) + h.adds
                       + _bonus_when(h, h.nonzero_distinct >= FLIP7_NUMBERS))),
    SymbolicMisreading(
        "MR-BUST-KEEPS-ADDS", "a busted player still scores their +N cards",
        "F7-SCORE-BUST", "summaries saying modifiers 'score as long as you do not bust' read backwards",
        _scorer(lambda p: p.official, lambda p: p.adds),
        lambda h: z3.If(h.busted, h.adds, _official(h))),
    SymbolicMisreading(
        "MR-MOD-ONLY-ZERO", "a hand without a Number scores 0: the +N cards need a Number",
        "F7-MOD-ONLY", "an edge case the rules settle (RULES.md A.2#14)",
        _scorer(lambda p: p.official if p.distinct else 0),
        lambda h: z3.If(z3.Or(h.busted, h.distinct == 0), _zero(h), _official(h))),
    SymbolicMisreading(
        "MR-FREEZE-IGNORES-MODS", "a frozen player banks only their Numbers: modifiers are ignored on a Freeze",
        "F7-FREEZE", "a reading of 'bank the points' as the Number points only",
        _scorer(lambda p: p.number_sum + p.official_bonus if p.frozen else p.official),
        _unless_busted(lambda h: z3.If(h.frozen, h.number_sum + h.bonus, _official(h)))),
    SymbolicMisreading(
        "MR-FREEZE-AS-BUST", "a frozen player scores 0, as if busted",
        "F7-FREEZE", "summaries saying a Freeze puts a player 'out of the round'",
        _scorer(lambda p: 0 if p.frozen else p.official),
        lambda h: z3.If(z3.Or(h.busted, h.frozen), _zero(h), _official(h))),
)
"""The misreadings of Flip 7 scoring."""


# ---------------------------------------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------------------------------------


def _search(ruleset: Ruleset, players: int | None, misreading: Flip7Misreading,
            rivals: Sequence[Flip7Misreading], timeout_ms: int) -> CaseSearch:
    def new_hand(ctx: Any) -> SymbolicHand:
        return SymbolicHand(domain_of(ruleset, players), ctx, "H")

    return smallest_case(ruleset, players, misreading, rivals, timeout_ms, new_hand)


def search_flip7_cases(ruleset: Ruleset, players: int | None = None,
                       timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[CaseSearch]:
    """Search a distinguishing hand for every Flip 7 misreading, over the Flip 7 model.

    Raises :class:`~flip7_spec.symbolic.terms.SymbolicError` for a ruleset the model cannot represent or a
    search z3 could not finish in ``timeout_ms``.
    """
    rivals = list(FLIP7_MISREADINGS)
    return [_search(ruleset, players, m, rivals, timeout_ms) for m in rivals]
