"""Plausible misreadings of the scoring rules, and the smallest hands that tell each from the specification.

A misreading is a scoring rule that some engine, score counter or rules summary could plausibly implement
instead of the official one (x2 doubling the +N cards, the 0 not counting toward a Flip 7, ...). Each is
written twice: as a Python scorer with the signature of :func:`flip7_spec.scoring.round_score`, and as a z3
term over the scoring model. For each, z3 finds a hand with the fewest cards on which the misreading's
score differs from the specification's (and, among those, one on which the misreading's score also differs
from as many other misreadings' as possible, so that a wrong score names its misreading). The result is
data, :class:`ScoringCase`, that the conformance runner sends to engines at the ``scoring`` level.

Nothing is cached: the cases are computed at run time, in well under a second per misreading.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Card, Kind
from flip7_spec.errors import CardError
from flip7_spec.play import check_hand, round_score
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS
from flip7_spec.symbolic.model import (
    FLIP7_NUMBERS,
    Expr,
    Scorer,
    SymbolicError,
    SymbolicHand,
    domain_of,
    total,
)
from flip7_spec.symbolic.plugin import plugin_of


@dataclass(frozen=True)
class Misreading:
    """A wrong scoring rule: ``score`` computes it in Python, ``symbolic`` builds it as a z3 term.

    ``clause`` is the id of the clause it breaks; ``source`` says where the reading comes from.
    """

    id: str
    misreading: str
    clause: str
    source: str
    score: Scorer
    symbolic: Callable[[SymbolicHand], Expr]


@dataclass(frozen=True)
class ScoringCase:
    """A hand on which a misreading scores differently from the specification.

    ``cards`` are canonical card texts (a busted hand ends with its duplicate Number); ``expected`` is the
    specification's score, computed by :func:`flip7_spec.scoring.round_score`; ``misreading_score`` is what
    the misreading gives. ``players`` is a player count for which the hand is possible (more than
    ``players_per_deck`` when it needs a second deck).
    """

    id: str
    misreading: str
    clause: str
    cards: list[str]
    busted: bool
    expected: int
    misreading_score: int
    players: int

    def to_json(self) -> dict[str, Any]:
        """The case as a JSON value."""
        return {"id": self.id, "misreading": self.misreading, "clause": self.clause, "cards": self.cards,
                "busted": self.busted, "expected": self.expected, "misreading_score": self.misreading_score,
                "players": self.players}


@dataclass(frozen=True)
class CaseSearch:
    """The outcome of the search for one misreading: its case, or ``None`` when no hand of the ruleset
    tells it from the specification (for example an x2 misreading with a deck that has no x2)."""

    misreading: Misreading
    case: ScoringCase | None
    seconds: float


# ---------------------------------------------------------------------------------------------------------
# The misreadings of the base game, in Python
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
        frozen=any(c.kind is Kind.FREEZE for c in hand),
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


FLIP7_MISREADINGS: Final[tuple[Misreading, ...]] = (
    Misreading(
        "MR-X2-DOUBLES-ADDS", "x2 doubles the +N cards too: (Numbers + N) x 2, i.e. +N added before x2",
        "F7-MOD-X2", "rules summaries giving ((Numbers + modifiers) x multiplier) + bonus",
        _scorer(lambda p: (p.number_sum + p.adds) * p.multiplier + p.official_bonus),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum + h.adds) + h.bonus)),
    Misreading(
        "MR-X2-DOUBLES-BONUS", "x2 also doubles the Flip 7 bonus (but not the +N cards)",
        "F7-MOD-X2", "a question the official FAQ and the seed summaries answer (RULES.md A.1#17)",
        _scorer(lambda p: p.number_sum * p.multiplier + p.adds + p.official_bonus * p.multiplier),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum) + h.adds + h.times_multiplier(h.bonus))),
    Misreading(
        "MR-X2-DOUBLES-TOTAL", "x2 doubles the whole round total: Numbers, +N cards and bonus",
        "F7-MOD-X2", "the Dized step 'double your score for the round' read literally",
        _scorer(lambda p: (p.number_sum + p.adds + p.official_bonus) * p.multiplier),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum + h.adds + h.bonus))),
    Misreading(
        "MR-X2-AS-ADD", "an xN card is added like a +N card (x2 counts as +2)",
        "F7-MOD-X2", "engines that sum every modifier's value",
        _scorer(lambda p: p.number_sum + p.adds + p.multiplier_as_adds + p.official_bonus),
        _unless_busted(lambda h: h.number_sum + h.adds + _multipliers_as_adds(h) + h.bonus)),
    Misreading(
        "MR-X2-NO-STACK", "two copies of x2 (two decks) double only once",
        "F7-TWO-DECKS-EFFECTS", "sources silent on two x2 cards (RULES.md A.2#16)",
        _scorer(lambda p: p.number_sum * p.multiplier_once + p.adds + p.official_bonus),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum, stacking=False) + h.adds + h.bonus)),
    Misreading(
        "MR-BONUS-ANY-7-CARDS", "the Flip 7 bonus goes to any 7 Number and modifier cards",
        "F7-MOD-NO-BUST", "a question the seed 003 FAQ answers ('Les cartes Bonus permettent-elles un Flip 7 ?')",
        _scorer(lambda p: p.number_sum * p.multiplier + p.adds
                + p.flip7_bonus(p.distinct + p.modifiers >= FLIP7_NUMBERS)),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum) + h.adds
                       + _bonus_when(h, h.distinct + h.modifier_count >= FLIP7_NUMBERS))),
    Misreading(
        "MR-ZERO-NOT-COUNTED", "a Flip 7 needs seven non-zero Numbers: the 0 does not count",
        "F7-FLIP7-ZERO", "a question the rules answer explicitly (RULES.md A.2#11)",
        _scorer(lambda p: p.number_sum * p.multiplier + p.adds + p.flip7_bonus(p.nonzero_distinct >= FLIP7_NUMBERS)),
        _unless_busted(lambda h: h.times_multiplier(h.number_sum) + h.adds
                       + _bonus_when(h, h.nonzero_distinct >= FLIP7_NUMBERS))),
    Misreading(
        "MR-BUST-KEEPS-ADDS", "a busted player still scores their +N cards",
        "F7-SCORE-BUST", "summaries saying modifiers 'score as long as you do not bust' read backwards",
        _scorer(lambda p: p.official, lambda p: p.adds),
        lambda h: z3.If(h.busted, h.adds, _official(h))),
    Misreading(
        "MR-MOD-ONLY-ZERO", "a hand without a Number scores 0: the +N cards need a Number",
        "F7-MOD-ONLY", "an edge case the rules settle (RULES.md A.2#14)",
        _scorer(lambda p: p.official if p.distinct else 0),
        lambda h: z3.If(z3.Or(h.busted, h.distinct == 0), _zero(h), _official(h))),
    Misreading(
        "MR-FREEZE-IGNORES-MODS", "a frozen player banks only their Numbers: modifiers are ignored on a Freeze",
        "F7-FREEZE", "a reading of 'bank the points' as the Number points only",
        _scorer(lambda p: p.number_sum + p.official_bonus if p.frozen else p.official),
        _unless_busted(lambda h: z3.If(h.frozen, h.number_sum + h.bonus, _official(h)))),
    Misreading(
        "MR-FREEZE-AS-BUST", "a frozen player scores 0, as if busted",
        "F7-FREEZE", "summaries saying a Freeze puts a player 'out of the round'",
        _scorer(lambda p: 0 if p.frozen else p.official),
        lambda h: z3.If(z3.Or(h.busted, h.frozen), _zero(h), _official(h))),
)
"""The misreadings of base-game scoring."""


def misreadings_for(ruleset: Ruleset) -> list[Misreading]:
    """The misreadings of ``ruleset``'s game. Raises :class:`SymbolicError` for a game without any."""
    plugin = plugin_of(ruleset)
    if plugin is None:
        raise SymbolicError(f"no scoring misreadings exist for the game {ruleset.game} (ruleset {ruleset.name})")
    return list(plugin.misreadings(ruleset))


# ---------------------------------------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------------------------------------


class CaseHand(Protocol):
    """What the search needs of a symbolic hand (:class:`SymbolicHand` or a hand of another game's model)."""

    domain: Any
    score: Expr
    size: Expr

    def constraints(self) -> list[Expr]:
        """The conditions for the variables to describe a hand of the domain."""

    def canonical_weight(self) -> Expr:
        """A weight that differs between any two hands."""

    def point_in(self, model: Any) -> Any:
        """The hand a z3 model assigns to the variables."""


H = TypeVar("H", bound=CaseHand)
M = TypeVar("M", bound=Misreading)


def smallest_case(ruleset: Ruleset, players: int | None, misreading: M, rivals: Sequence[M], timeout_ms: int,
                  new_hand: Callable[[Any], H], term: Callable[[M, H], Expr]) -> CaseSearch:
    """Search a hand with the fewest cards on which ``misreading`` scores differently from the specification.

    ``new_hand`` builds the symbolic hand of the ruleset's model in a z3 context, and ``term`` gives a
    misreading's score of it.
    """
    started = time.perf_counter()
    ctx = z3.Context()
    hand = new_hand(ctx)
    domain = hand.domain
    wrong = term(misreading, hand)
    # the fewest cards, by iterative deepening: every smaller size is proved to have no distinguishing hand
    deepen = z3.Solver(ctx=ctx)
    deepen.set("timeout", timeout_ms)
    deepen.add(*hand.constraints(), wrong != hand.score)
    size = 0
    while True:
        answer = deepen.check(hand.size == size)
        if answer == z3.sat:
            break
        if answer != z3.unsat:
            raise SymbolicError(f"{misreading.id}: z3 gave no answer for hands of {size} cards in {timeout_ms} ms "
                                f"({deepen.reason_unknown()})")
        size += 1
        if size > domain.size_limit():
            return CaseSearch(misreading, None, time.perf_counter() - started)
    # among hands of that size: one that also tells this misreading from the most others, then a fixed one
    optimizer = z3.Optimize(ctx=ctx)
    optimizer.set(timeout=timeout_ms)
    optimizer.add(*hand.constraints(), wrong != hand.score, hand.size == size)
    others = [term(r, hand) for r in rivals if r.id != misreading.id]
    if others:
        one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
        optimizer.maximize(total(ctx, [z3.If(other != wrong, one, zero) for other in others]))
    optimizer.minimize(hand.canonical_weight())
    if optimizer.check() != z3.sat:
        raise SymbolicError(f"{misreading.id}: z3 found no best hand of {size} cards in {timeout_ms} ms "
                            f"({optimizer.reason_unknown()})")
    found = optimizer.model()
    point = hand.point_in(found)
    cards = domain.cards(point)
    count = players if players is not None else ruleset.min_players
    if not point.busted:
        try:
            check_hand(ruleset, cards, count)
        except CardError as error:
            raise SymbolicError(f"{misreading.id}: the hand found cannot occur: {error}") from None
    expected = round_score(ruleset, cards, point.busted)
    got = misreading.score(ruleset, cards, point.busted)
    modelled = int(found.eval(hand.score, model_completion=True).as_long())
    modelled_wrong = int(found.eval(wrong, model_completion=True).as_long())
    texts = " ".join(c.text for c in cards)
    if expected != modelled:
        raise SymbolicError(f"round_score gives {expected} for {texts}, the scoring model {modelled}")
    if got != modelled_wrong:
        raise SymbolicError(f"{misreading.id}: its Python rule gives {got} for {texts}, its z3 term {modelled_wrong}")
    case = ScoringCase(misreading.id, misreading.misreading, misreading.clause, [c.text for c in cards],
                       point.busted, expected, got, count)
    return CaseSearch(misreading, case, time.perf_counter() - started)


def _search(ruleset: Ruleset, players: int | None, misreading: Misreading, rivals: Sequence[Misreading],
            timeout_ms: int) -> CaseSearch:
    def new_hand(ctx: Any) -> SymbolicHand:
        return SymbolicHand(domain_of(ruleset, players), ctx, "H")

    return smallest_case(ruleset, players, misreading, rivals, timeout_ms, new_hand, lambda m, h: m.symbolic(h))


def search_cases(ruleset: Ruleset, players: int | None = None,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[CaseSearch]:
    """Search a distinguishing hand for every misreading of ``ruleset``'s game (see :func:`distinguishing_cases`).

    Raises :class:`SymbolicError` for a game without misreadings, a ruleset the model cannot represent, or a
    search z3 could not finish in ``timeout_ms``.
    """
    plugin = plugin_of(ruleset)
    if plugin is None:
        raise SymbolicError(f"no scoring misreadings exist for the game {ruleset.game} (ruleset {ruleset.name})")
    return plugin.search_cases(ruleset, players, timeout_ms)


def search_flip7_cases(ruleset: Ruleset, players: int | None = None,
                       timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[CaseSearch]:
    """Search a distinguishing hand for every base-game misreading, over the base-game model."""
    rivals = list(FLIP7_MISREADINGS)
    return [_search(ruleset, players, m, rivals, timeout_ms) for m in rivals]


def distinguishing_cases(ruleset: Ruleset, players: int | None = None,
                         timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[ScoringCase]:
    """For each misreading of the scoring rules that some hand of ``ruleset`` can expose, a hand with the
    fewest cards on which the misreading's score differs from the specification's.

    ``players`` sets how many decks are in play (``None``: one deck, so hands needing two x2 cards are not
    considered). Each case's ``expected`` comes from :func:`flip7_spec.scoring.round_score` and is checked
    against the z3 model; misreadings that no hand exposes are left out (see :func:`search_cases`).
    Raises :class:`SymbolicError` as :func:`search_cases` does.
    """
    return [s.case for s in search_cases(ruleset, players, timeout_ms) if s.case is not None]
