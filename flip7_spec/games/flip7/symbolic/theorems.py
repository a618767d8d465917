"""Theorems about Flip 7 round scoring, proved with z3 and checked against a scorer.

Each theorem has an id, a one-line statement and the F7- clauses it covers. It is a property of one hand A,
or of two hands A and B where B is A with one more card (a :class:`Step`). It is proved of the model
(:mod:`flip7_spec.games.flip7.symbolic.model`) by showing its negation unsatisfiable, in a fresh
``z3.Context`` with a timeout; ``unknown`` is a failure.

The model is then compared with the scorer under test on every hand of the domain (it is finite). Where
they agree everywhere, every theorem proved of the model holds of the scorer. Where they differ, each
theorem is re-checked on the scorer at those hands (and the steps into and out of them): a violation is a
counterexample hand; if there is none the theorem still holds of the scorer; if the re-check would exceed
its budget the result is ``unknown``. The proving and the re-checking are the core's
(:mod:`flip7_spec.symbolic.theorems`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Kind
from flip7_spec.games.flip7.symbolic.model import (
    FLIP7_NUMBERS,
    MAX_HANDS,
    Agreement,
    Domain,
    Point,
    SymbolicHand,
    compare_with_scorer,
    compile_exprs,
    domain_of,
    score_function,
)
from flip7_spec.play import round_score
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS
from flip7_spec.symbolic.terms import Expr, Scorer, total
from flip7_spec.symbolic.theorems import (
    CHECK_BUDGET,
    COUNTEREXAMPLE,
    FORALL,
    PROVED,
    UNKNOWN,
    GameTheorems,
    HandClaim,
    HandScore,
    ModelProof,
    ProofReport,
    ProofStatus,
    TheoremResult,
    at_least,
    at_most,
    bust_zero,
    hand_score,
    modifier_steps,
    one_more_modifier,
    property_function,
    prove_with,
    scan_differences,
)


class Step(Enum):
    """How hand B is made from hand A in a theorem about two hands."""

    NUMBER = "one more Number value"
    PLUS = "one more +N card"
    TIMES = "one more xN card"
    UNFREEZE = "the same cards without the Freeze"


Claim = HandClaim[SymbolicHand]
"""A claim about hands of the Flip 7 model."""

Property = Callable[[Claim], Expr]
"""Builds a theorem's property (a z3 Boolean) from its :class:`Claim`."""


@dataclass(frozen=True)
class Theorem:
    """A property of round scores over every hand of a domain (or every step from one hand to another).

    ``optimum`` is ``"max"`` or ``"min"`` for a theorem about the exact bound of the round score: z3 finds
    the bound and a hand that reaches it, then the property ``score <= bound`` (or ``>=``) is proved.
    ``statement`` may then use ``{value}`` and ``{witness}``.
    """

    id: str
    statement: str
    clauses: tuple[str, ...]
    prop: Property
    step: Step | None = None
    optimum: str | None = None

    @property
    def kind(self) -> str:
        """``max`` or ``min`` for a theorem about an optimum, else ``forall``."""
        return self.optimum or FORALL


# ---------------------------------------------------------------------------------------------------------
# Steps between hands
# ---------------------------------------------------------------------------------------------------------


def step_relation(step: Step, a: SymbolicHand, b: SymbolicHand) -> list[Expr]:
    """Constraints saying that B is A changed by ``step``."""
    ctx = a.ctx
    same_numbers = [a.held[v] == b.held[v] for v in a.held]
    same_flags = [a.frozen == b.frozen, a.busted == b.busted]
    if step is Step.NUMBER:
        grown = [z3.If(a.held[v] != b.held[v], z3.IntVal(1, ctx), z3.IntVal(0, ctx)) for v in a.held]
        return ([z3.Implies(a.held[v], b.held[v]) for v in a.held] + [total(ctx, grown) == 1]
                + [x == y for x, y in zip(a.mods, b.mods, strict=True)] + same_flags)
    if step is Step.UNFREEZE:
        return same_numbers + [x == y for x, y in zip(a.mods, b.mods, strict=True)] + [
            a.frozen, z3.Not(b.frozen), a.busted == b.busted]
    kind = Kind.ADD if step is Step.PLUS else Kind.MULTIPLY
    return same_numbers + same_flags + one_more_modifier(ctx, a.mods, b.mods, a.domain.modifiers, kind)


def successors(domain: Domain, point: Point, step: Step) -> Iterator[Point]:
    """Every hand B of the domain that ``step`` makes from ``point`` (the concrete :func:`step_relation`)."""
    candidates: list[Point] = []
    if step is Step.NUMBER:
        candidates = [Point(point.numbers | {v}, point.mods, point.frozen, point.busted)
                      for v in domain.numbers if v not in point.numbers]
    elif step is Step.UNFREEZE:
        if point.frozen:
            candidates = [Point(point.numbers, point.mods, False, point.busted)]
    else:
        kind = Kind.ADD if step is Step.PLUS else Kind.MULTIPLY
        candidates = [Point(point.numbers, mods, point.frozen, point.busted)
                      for mods in modifier_steps(point.mods, domain.modifiers, kind, 1)]
    return (p for p in candidates if domain.valid(p))


def predecessors(domain: Domain, point: Point, step: Step) -> Iterator[Point]:
    """Every hand A of the domain from which ``step`` makes ``point``."""
    candidates: list[Point] = []
    if step is Step.NUMBER:
        candidates = [Point(point.numbers - {v}, point.mods, point.frozen, point.busted) for v in point.numbers]
    elif step is Step.UNFREEZE:
        if not point.frozen:
            candidates = [Point(point.numbers, point.mods, True, point.busted)]
    else:
        kind = Kind.ADD if step is Step.PLUS else Kind.MULTIPLY
        candidates = [Point(point.numbers, mods, point.frozen, point.busted)
                      for mods in modifier_steps(point.mods, domain.modifiers, kind, -1)]
    return (p for p in candidates if domain.valid(p))


def step_applies(domain: Domain, step: Step) -> bool:
    """Whether the deck has a card for ``step`` (a theorem about an impossible step would be vacuous)."""
    if step is Step.UNFREEZE:
        return domain.freeze
    if step is Step.NUMBER:
        return bool(domain.numbers)
    kind = Kind.ADD if step is Step.PLUS else Kind.MULTIPLY
    return any(m.kind is kind for m in domain.modifiers)


# ---------------------------------------------------------------------------------------------------------
# The theorems
# ---------------------------------------------------------------------------------------------------------


def _bank(c: Claim) -> Expr:
    # [F7-BANK] for every total t >= 0 the new total t + score is >= t; t cancels, leaving score >= 0
    return c.sa >= 0


def _modifiers_only(c: Claim) -> Expr:
    return z3.Implies(z3.And(z3.Not(c.a.busted), c.a.distinct == 0), c.sa == c.a.adds)


def _bonus_flat(c: Claim) -> Expr:
    a = c.a
    flip7 = z3.And(z3.Not(a.busted), a.distinct == FLIP7_NUMBERS)
    return z3.Implies(flip7, c.sa == a.times_multiplier(a.number_sum) + a.adds + a.domain.bonus)


def _seventh(c: Claim) -> Expr:
    a, (b, sb) = c.a, c.after()
    bonus = z3.If(b.distinct == FLIP7_NUMBERS, z3.IntVal(a.domain.bonus, a.ctx), z3.IntVal(0, a.ctx))
    return z3.Implies(z3.Not(a.busted), sb - c.sa == a.times_multiplier(b.number_sum - a.number_sum) + bonus)


def _times(c: Claim) -> Expr:
    a, (b, sb) = c.a, c.after()
    change = b.times_multiplier(a.number_sum) - a.times_multiplier(a.number_sum)
    return z3.Implies(z3.Not(a.busted), sb - c.sa == change)


def _plus_exact(c: Claim) -> Expr:
    a, (b, sb) = c.a, c.after()
    return z3.Implies(z3.Not(a.busted), sb - c.sa == b.adds - a.adds)


def _plus_monotone(c: Claim) -> Expr:
    _, sb = c.after()
    return sb >= c.sa


def _freeze_banks(c: Claim) -> Expr:
    _, sb = c.after()
    return c.sa == sb


def flip7_theorems(domain: Domain) -> list[Theorem]:
    """The theorems of base-game scoring for ``domain``; statements carry the ruleset's values.

    A theorem about a step the deck cannot make (no xN card, no Freeze) is left out rather than proved
    vacuously.
    """
    bonus = domain.bonus
    mults = " ".join(m.text for m in domain.modifiers if m.kind is Kind.MULTIPLY)
    # [F7-TWO-DECKS-EFFECTS] each xN held applies: a theorem about it when a hand can hold two
    stacking = ("F7-TWO-DECKS-EFFECTS",) if sum(m.copies for m in domain.modifiers
                                               if m.kind is Kind.MULTIPLY) > 1 else ()
    theorems = [
        Theorem("T-BUST-ZERO", "A busted hand scores 0, whatever else it holds.",
                ("F7-SCORE-BUST", "F7-BUST"), bust_zero),
        Theorem("T-BANK-NEVER-DECREASES", "Banking a round never lowers a total: total + round score >= total "
                "for every hand, i.e. no round score is negative.", ("F7-BANK", "F7-SCORE"), _bank),
        Theorem("T-MOD-ONLY", "A hand without a Number that did not bust scores the sum of its +N cards "
                "(an xN card alone scores 0).", ("F7-MOD-ONLY", "F7-STAY-MODIFIERS-ONLY"), _modifiers_only),
        Theorem("T-FLIP7-SEVENTH", f"A new Number adds its value times the xN cards held, plus the {bonus}-point "
                "bonus exactly when it is the seventh different Number (the 0 counts, modifiers never do).",
                ("F7-FLIP7", "F7-FLIP7-BONUS", "F7-FLIP7-ZERO", "F7-MOD-NO-BUST", "F7-SCORE"), _seventh,
                Step.NUMBER),
        Theorem("T-BONUS-NOT-MULTIPLIED", f"A Flip 7 scores its multiplied Number sum plus its +N cards plus "
                f"exactly {bonus}: the bonus is never multiplied.", ("F7-FLIP7-BONUS", "F7-MOD-X2"), _bonus_flat),
        Theorem("T-X2-NUMBERS-ONLY", f"Adding an xN card ({mults}) to a hand that did not bust changes its score "
                "by exactly the change of its multiplied Number sum: the +N cards and the bonus are never "
                "multiplied.", ("F7-MOD-X2", "F7-SCORE", *stacking), _times, Step.TIMES),
        Theorem("T-ADD-NOT-MULTIPLIED", "A +N card adds exactly N to a hand that did not bust, whatever xN cards "
                "it holds.", ("F7-MOD-ADD", "F7-MOD-X2"), _plus_exact, Step.PLUS),
        Theorem("T-ADD-NEVER-LOWERS", "Adding a +N card never lowers a round score (busted hands included).",
                ("F7-MOD-ADD", "F7-MOD-NO-BUST"), _plus_monotone, Step.PLUS),
        Theorem("T-FREEZE-BANKS", "A frozen player scores what the same cards score without the Freeze: they "
                "bank their points, modifiers included.", ("F7-FREEZE", "F7-FREEZE-KEEPS-CARDS"), _freeze_banks,
                Step.UNFREEZE),
        Theorem("T-MAX", "The highest round score is exactly {value}, reached by {witness}.",
                ("F7-SCORE", "F7-MOD-X2", "F7-MOD-ADD", "F7-FLIP7-BONUS"), at_most, optimum="max"),
        Theorem("T-MIN", "The lowest round score is exactly {value}, reached by {witness}.",
                ("F7-SCORE", "F7-SCORE-BUST"), at_least, optimum="min"),
    ]
    return [t for t in theorems if t.step is None or step_applies(domain, t.step)]


# ---------------------------------------------------------------------------------------------------------
# Proving
# ---------------------------------------------------------------------------------------------------------


def prove_on_model(theorem: Theorem, domain: Domain, timeout_ms: int) -> ModelProof[Point]:
    """Prove ``theorem`` of the model: negation unsatisfiable, in a fresh context with a timeout."""
    proof: ModelProof[Point] = prove_with(theorem, domain, timeout_ms, SymbolicHand, step_relation, "optimum")
    return proof


def check_against_scorer(theorem: Theorem, proof: ModelProof[Point], agreement: Agreement,
                         budget: int) -> tuple[ProofStatus, list[HandScore], str]:
    """Re-check a theorem proved of the model on a scorer that differs from the model at some hands.

    Only a hand where the scorer differs (or a step into or out of one) can break the theorem, so those are
    checked, hands with fewer cards first. Returns the status, the counterexample hands and a detail line.
    """
    domain = agreement.domain
    differences = agreement.differences
    a, holds = property_function(theorem, proof.bound, domain, SymbolicHand, compile_exprs)
    model_score = score_function(domain)
    memo: dict[Point, tuple[tuple[Any, ...], int]] = {}

    def known(point: Point) -> tuple[tuple[Any, ...], int]:
        found = memo.get(point)
        if found is None:
            score = differences.get(point)
            found = memo[point] = (a.values(point), model_score(point) if score is None else score)
        return found

    return scan_differences(theorem, proof, domain, agreement.ordered(), len(differences), holds,
                            lambda p: known(p)[0], lambda p: known(p)[1], successors, predecessors, budget)


class Flip7Theorems(GameTheorems[Domain]):
    """The base-game theorems for a ruleset whose game is ``flip7`` (custom decks and options included)."""

    def __init__(self, ruleset: Ruleset, players: int | None = None) -> None:
        super().__init__(ruleset, domain_of(ruleset, players))

    def theorems(self) -> list[Theorem]:
        """The theorems, in the order they are proved."""
        return flip7_theorems(self.domain)

    def prove_one(self, theorem: Theorem, timeout_ms: int) -> ModelProof[Point]:
        """Prove ``theorem`` of the model."""
        return prove_on_model(theorem, self.domain, timeout_ms)

    def compare(self, scorer: Scorer, name: str, limit: int) -> tuple[Agreement, TheoremResult]:
        """Compare ``scorer`` with the model on every hand, unless the domain holds more than ``limit``."""
        agreement = compare_with_scorer(self.domain, self.ruleset, scorer, limit)
        return agreement, _agreement_result(agreement, name, limit)

    def recheck(self, theorem: Theorem, proof: ModelProof[Point], agreement: Agreement, scorer: Scorer,
                budget: int) -> tuple[ProofStatus, list[HandScore], str]:
        """Re-check ``theorem`` at the hands where the scorer differs (see :func:`check_against_scorer`)."""
        if not agreement.complete:
            return UNKNOWN, [], "proved of the model; the scorer could not be compared with it"
        return check_against_scorer(theorem, proof, agreement, budget)

    def prove(self, scorer: Scorer | None = round_score, timeout_ms: int = DEFAULT_TIMEOUT_MS,
              max_hands: int = MAX_HANDS, budget: int = CHECK_BUDGET) -> ProofReport:
        """Compare ``scorer`` with the model on the whole domain, then prove every theorem.

        A theorem is ``proved`` when z3 proves it of the model and it holds of the scorer; ``counterexample``
        when the model or the scorer breaks it (the hands are given); ``unknown`` when z3 gave no answer in
        ``timeout_ms``, the domain exceeds ``max_hands`` or the re-check exceeds ``budget``. With ``scorer``
        ``None`` the theorems are proved of the model only and no scorer is compared.
        """
        return self.prove_all(scorer, timeout_ms, max_hands, budget)


def _agreement_result(agreement: Agreement, name: str, max_hands: int) -> TheoremResult:
    """The comparison of the scorer with the model, as a result row."""
    if not agreement.complete:
        return TheoremResult("C-MODEL-MATCHES-SCORER", f"{name} gives the model's score on every hand.",
                             ("F7-SCORE",), UNKNOWN, agreement.seconds, method="enumeration",
                             detail=f"the domain has {agreement.hands} hands, more than {max_hands}")
    smallest = agreement.smallest()
    statement = f"{name} gives the model's score on all {agreement.hands} hands."
    if smallest is None:
        return TheoremResult("C-MODEL-MATCHES-SCORER", statement, ("F7-SCORE",), PROVED, agreement.seconds,
                             method="enumeration")
    modelled = score_function(agreement.domain)(smallest)
    return TheoremResult("C-MODEL-MATCHES-SCORER", statement, ("F7-SCORE",), COUNTEREXAMPLE, agreement.seconds,
                         [hand_score(agreement.domain, smallest, agreement.differences[smallest])],
                         f"differs at {len(agreement.differences)} hands; the model scores this hand {modelled}",
                         method="enumeration")
