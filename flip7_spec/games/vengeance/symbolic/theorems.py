"""Theorems about Flip 7: With a Vengeance round scoring, proved with z3 and checked against a scorer.

Each theorem has an id, a one-line statement and the V- clauses it covers. It is a property of one hand A,
or of two hands A and B where B is A changed by a step (one more -N card, one more /2, the Unlucky 7
replaced by a 7). A theorem about every hand is proved of the model
(:mod:`flip7_spec.games.vengeance.symbolic.model`) by showing its negation unsatisfiable; a theorem about an
optimum first finds the bound and a hand reaching it with z3 ``Optimize``; a theorem that a hand exists is
proved by a witness, the hand with the fewest cards. Each runs in a fresh ``z3.Context`` with a timeout, and
``unknown`` is a failure.

The statements follow the ruleset: a theorem about a card the deck lacks is left out rather than proved
vacuously, and the theorems about the floor at 0 are replaced by theorems about negative scores when the
ruleset allows them (``negative_scores`` or ``brutal_mode``).

The model is then compared with the scorer under test (see :func:`compare_with_scorer`). Where they differ,
each theorem is re-checked on the scorer at those hands and at the steps into and out of them, so a broken
scorer is reported with a counterexample hand and the score it gave.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Kind
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.ruleset import VengeanceRuleset
from flip7_spec.games.vengeance.symbolic.model import (
    FLIP7_VALUES,
    FULL_LIMIT,
    Agreement,
    VengeanceDomain,
    VengeanceHand,
    VPoint,
    compare_with_scorer,
    compile_terms,
    domain_of,
    score_function,
)
from flip7_spec.play import round_score
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS
from flip7_spec.symbolic.terms import Expr, Scorer, SymbolicError, total
from flip7_spec.symbolic.theorems import (
    CHECK_BUDGET,
    COUNTEREXAMPLE,
    EXISTS,
    FORALL,
    MAX,
    MIN,
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


class VStep(Enum):
    """How hand B is made from hand A in a theorem about two hands."""

    MINUS = "one more -N card"
    HALVE = "one more /2 card"
    UNLUCKY_TO_SEVEN = "the Unlucky 7 replaced by a regular 7"


VClaim = HandClaim[VengeanceHand]
"""What a theorem's property talks about: hand A and its score, hand B and its score for a step, and the
bound found for an optimum."""

VProperty = Callable[[VClaim], Expr]
"""Builds a theorem's property (a z3 Boolean) from its :class:`VClaim`."""


@dataclass(frozen=True)
class VTheorem:
    """A property of Vengeance round scores.

    ``kind`` is ``forall`` (the property holds of every hand, or every step), ``max`` or ``min`` (the exact
    bound of the round score: the property is ``score <= bound`` or ``>=``), or ``exists`` (some hand has the
    property). ``statement`` may use ``{value}`` (the bound, or the witness's score) and ``{witness}``.
    """

    id: str
    statement: str
    clauses: tuple[str, ...]
    prop: VProperty
    step: VStep | None = None
    kind: str = FORALL


# ---------------------------------------------------------------------------------------------------------
# Steps between hands
# ---------------------------------------------------------------------------------------------------------


def _step_cards(domain: VengeanceDomain, step: VStep) -> tuple[int | None, int | None]:
    """For the Unlucky 7 step, the indices of the Unlucky 7 and of the regular 7 in the Number cards."""
    if step is not VStep.UNLUCKY_TO_SEVEN:
        return None, None
    return domain.index("U7"), domain.index("7")


def step_applies(domain: VengeanceDomain, step: VStep) -> bool:
    """Whether the deck has the cards ``step`` needs (a theorem about an impossible step would be vacuous)."""
    if step is VStep.UNLUCKY_TO_SEVEN:
        u7, seven = _step_cards(domain, step)
        return u7 is not None and seven is not None
    kind = Kind.SUBTRACT if step is VStep.MINUS else Kind.HALVE
    return any(m.kind is kind for m in domain.modifiers)


def step_relation(step: VStep, a: VengeanceHand, b: VengeanceHand) -> list[Expr]:
    """Constraints saying that B is A changed by ``step``."""
    ctx, domain = a.ctx, a.domain
    if step is VStep.UNLUCKY_TO_SEVEN:
        u7, seven = _step_cards(domain, step)
        if u7 is None or seven is None:
            raise SymbolicError("the deck has no Unlucky 7 and regular 7 for this step")
        relation = [x == y for i, (x, y) in enumerate(zip(a.counts, b.counts, strict=True))
                    if i not in (u7, seven)]
        relation += [x == y for x, y in zip(a.mods, b.mods, strict=True)]
        return [*relation, a.busted == b.busted, a.counts[u7] == 1, b.counts[u7] == 0,
                b.counts[seven] == a.counts[seven] + 1]
    kind = Kind.SUBTRACT if step is VStep.MINUS else Kind.HALVE
    relation = [x == y for x, y in zip(a.counts, b.counts, strict=True)] + [a.busted == b.busted]
    return relation + one_more_modifier(ctx, a.mods, b.mods, domain.modifiers, kind)


def successors(domain: VengeanceDomain, point: VPoint, step: VStep) -> Iterator[VPoint]:
    """Every hand B of the domain that ``step`` makes from ``point`` (the concrete :func:`step_relation`)."""
    candidates: list[VPoint] = []
    if step is VStep.UNLUCKY_TO_SEVEN:
        u7, seven = _step_cards(domain, step)
        if u7 is not None and seven is not None and point.numbers[u7] == 1:
            numbers = list(point.numbers)
            numbers[u7] -= 1
            numbers[seven] += 1
            candidates.append(VPoint(tuple(numbers), point.mods, point.busted))
    else:
        kind = Kind.SUBTRACT if step is VStep.MINUS else Kind.HALVE
        candidates = [VPoint(point.numbers, mods, point.busted)
                      for mods in modifier_steps(point.mods, domain.modifiers, kind, 1)]
    return (p for p in candidates if domain.valid(p))


def predecessors(domain: VengeanceDomain, point: VPoint, step: VStep) -> Iterator[VPoint]:
    """Every hand A of the domain from which ``step`` makes ``point``."""
    candidates: list[VPoint] = []
    if step is VStep.UNLUCKY_TO_SEVEN:
        u7, seven = _step_cards(domain, step)
        if u7 is not None and seven is not None and point.numbers[seven] >= 1 and point.numbers[u7] == 0:
            numbers = list(point.numbers)
            numbers[u7] += 1
            numbers[seven] -= 1
            candidates.append(VPoint(tuple(numbers), point.mods, point.busted))
    else:
        kind = Kind.SUBTRACT if step is VStep.MINUS else Kind.HALVE
        candidates = [VPoint(point.numbers, mods, point.busted)
                      for mods in modifier_steps(point.mods, domain.modifiers, kind, -1)]
    return (p for p in candidates if domain.valid(p))


# ---------------------------------------------------------------------------------------------------------
# The properties
# ---------------------------------------------------------------------------------------------------------


def _floored(h: VengeanceHand, term: Expr) -> Expr:
    """``term`` floored at 0 when the ruleset floors round scores [V-SCORE-FLOOR]."""
    return z3.If(term < 0, z3.IntVal(0, h.ctx), term) if h.domain.floor else term


def _never_negative(c: VClaim) -> Expr:
    # [V-BANK] for every total t the new total t + score is >= t; t cancels, leaving score >= 0
    return c.sa >= 0


def _negative(c: VClaim) -> Expr:
    return c.sa < 0


def _halve_rounds_down(c: VClaim) -> Expr:
    a = c.a
    kept = c.sa - a.bonus
    most = sum(m.copies for m in a.domain.modifiers if m.kind is Kind.HALVE)
    # with k /2 cards the kept points h satisfy 2^k h <= S <= 2^k h + 2^k - 1: S / 2^k rounded down
    rounded = [z3.And(a.halves == k, 2 ** k * kept <= a.number_sum,
                      a.number_sum <= 2 ** k * kept + 2 ** k - 1) for k in range(most + 1)]
    return z3.Implies(z3.And(z3.Not(a.busted), z3.Not(a.zero_penalty), a.malus == 0), z3.Or(*rounded))


def _halve_whole_rounds_down(c: VClaim) -> Expr:
    a = c.a
    whole = a.number_sum - a.malus + a.bonus
    most = sum(m.copies for m in a.domain.modifiers if m.kind is Kind.HALVE)
    # with k /2 cards the score h satisfies 2^k h <= T <= 2^k h + 2^k - 1: T / 2^k rounded toward minus infinity
    rounded = [z3.And(a.halves == k, 2 ** k * c.sa <= whole, whole <= 2 ** k * c.sa + 2 ** k - 1)
               for k in range(most + 1)]
    reached = z3.And(z3.Not(a.busted), z3.Not(a.zero_penalty), whole >= 0 if a.domain.floor else True)
    return z3.Implies(reached, z3.Or(*rounded))


def _floor_last(c: VClaim) -> Expr:
    a = c.a
    whole = a.number_sum - a.malus + a.bonus
    return z3.Implies(z3.And(z3.Not(a.busted), a.flip7), z3.And(c.sa >= 0, z3.Implies(whole <= 0, c.sa == 0)))


def _flip7_whole_unfloored(c: VClaim) -> Expr:
    a = c.a
    return z3.Implies(z3.And(z3.Not(a.busted), a.flip7), c.sa == a.halve(a.number_sum - a.malus + a.domain.bonus))


def _bust_modifiers(c: VClaim) -> Expr:
    a = c.a
    base = a.halve(-a.malus) if a.domain.whole_total else -a.malus
    return z3.Implies(a.busted, c.sa == base)


def _halves_score(c: VClaim) -> Expr:
    _, sb = c.after()
    return sb == c.sa / 2


def _malus_before_halving(c: VClaim) -> Expr:
    a, (b, sb) = c.a, c.after()
    taken = b.malus - a.malus
    # the -N card comes off the whole total (Numbers - N + bonus) before it is halved; then the floor
    return z3.Implies(z3.And(z3.Not(a.busted), z3.Not(a.zero_penalty)),
                      sb == _floored(a, a.halve(a.number_sum - a.malus - taken + a.bonus)))


def _floor_before_bonus(c: VClaim) -> Expr:
    a = c.a
    bonus = a.domain.bonus
    return z3.Implies(z3.And(z3.Not(a.busted), a.flip7),
                      z3.And(c.sa >= bonus, z3.Implies(a.halved <= a.malus, c.sa == bonus)))


def _flip7_unfloored(c: VClaim) -> Expr:
    a = c.a
    return z3.Implies(z3.And(z3.Not(a.busted), a.flip7), c.sa == a.halved - a.malus + a.domain.bonus)


def _zero_scores_zero(c: VClaim) -> Expr:
    a = c.a
    return z3.Implies(z3.And(z3.Not(a.busted), a.zero_held, z3.Not(a.flip7)), c.sa == 0)


def _zero_flip7(c: VClaim) -> Expr:
    a = c.a
    # the values held, The Zero's 0 among them, reach seven: the hand scores as if The Zero did nothing
    return z3.Implies(z3.And(z3.Not(a.busted), a.zero_held, a.flip7_count >= FLIP7_VALUES),
                      c.sa == a.arithmetic(a.number_sum, z3.BoolVal(True, a.ctx)))


def _zero_plain(c: VClaim) -> Expr:
    a = c.a
    zero = [n >= 1 for n, card in zip(a.counts, a.domain.number_cards, strict=True)
            if card.special is Special.ZERO]
    return z3.Implies(z3.And(z3.Not(a.busted), z3.Or(*zero)), c.sa == a.arithmetic(a.number_sum, a.flip7))


def _lucky_value(domain: VengeanceDomain) -> int | None:
    """The value of a Lucky 13 pair (13) when the deck makes one possible, else ``None``."""
    for v in domain.values:
        if any(sum(option) == 2 for option in domain.value_options(v)):
            return v
    return None


def _lucky_pair(c: VClaim) -> Expr:
    a = c.a
    ctx, domain = a.ctx, a.domain
    pair = _lucky_value(domain)
    if pair is None:
        raise SymbolicError("no Lucky 13 pair can be held with this deck")
    one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
    others = total(ctx, [n * card.value for n, card in zip(a.counts, domain.number_cards, strict=True)
                         if card.value != pair])
    other_values = total(ctx, [z3.If(held >= 1, one, zero) for v, held in a.held.items() if v != pair])
    # [V-LUCKY13-PAIR] both 13s score; [V-LUCKY13-FLIP7] the pair counts once, or twice under count_both
    toward = other_values + (2 if domain.count_both else 1)
    flip7 = toward >= FLIP7_VALUES
    expected = z3.If(z3.And(a.zero_held, z3.Not(flip7)), zero, a.arithmetic(others + 2 * pair, flip7))
    return z3.Implies(z3.And(z3.Not(a.busted), a.held[pair] == 2), c.sa == expected)


def _same_score(c: VClaim) -> Expr:
    _, sb = c.after()
    return c.sa == sb


def _never_raises(c: VClaim) -> Expr:
    _, sb = c.after()
    return sb <= c.sa


def _malus_exact(c: VClaim) -> Expr:
    a, (b, sb) = c.a, c.after()
    taken = b.malus - a.malus
    # the -N card comes off what the Numbers left, down to the floor; the bonus stays as it was
    return z3.Implies(z3.And(z3.Not(a.busted), z3.Not(a.zero_penalty)),
                      sb == _floored(a, c.sa - a.bonus - taken) + a.bonus)


def _halve_numbers_only(c: VClaim) -> Expr:
    a, (_, sb) = c.a, c.after()
    # one more /2 halves (rounding down) what the Numbers gave, never the -N cards nor the bonus
    return z3.Implies(z3.And(z3.Not(a.busted), z3.Not(a.zero_penalty)),
                      sb == _floored(a, a.halved / 2 - a.malus) + a.bonus)


def vengeance_theorems(domain: VengeanceDomain, brutal: bool = False) -> list[VTheorem]:
    """The theorems of Vengeance scoring for ``domain``; statements carry the ruleset's values.

    ``brutal`` names Brutal Mode as the reason round scores may go below 0 (otherwise the option
    ``negative_scores``). Theorems about cards the deck lacks (no /2, no -N, no The Zero, no Lucky 13 pair,
    no Unlucky 7 with a regular 7) are left out.
    """
    bonus = domain.bonus
    halves = sum(m.copies for m in domain.modifiers if m.kind is Kind.HALVE)
    stacking = ("V-TWO-DECKS-EFFECTS",) if halves > 1 else ()
    negative = "V-BRUTAL-NEGATIVE" if brutal else "V-SCORE-FLOOR"
    zero = any(c.special is Special.ZERO for c in domain.number_cards)
    special_zero = domain.has(Special.ZERO)
    pair = _lucky_value(domain)
    count = "twice" if domain.count_both else "once"
    floored = ", down to the floor at 0" if domain.floor else ""
    whole = domain.whole_total
    if domain.bust_modifiers:
        busted_rule = ("Modifiers from a base of 0, without a bonus: minus its -N cards, halved once per /2 "
                       "(rounded down)" if whole else "-N cards from a base of 0, without a bonus (a /2 halves "
                       "the 0)")
        theorems = [VTheorem("VT-BUST-MODIFIERS", f"In Brutal Mode a busted hand scores its {busted_rule}; "
                             "with no Modifier, 0.", ("V-BRUTAL-MOD-BUSTED", "V-BUST"), _bust_modifiers)]
    else:
        theorems = [VTheorem("VT-BUST-ZERO", "A busted hand scores 0, whatever else it holds.",
                             ("V-SCORE-BUST", "V-BUST", *(("V-BRUTAL-MOD-BUSTED-NO-EFFECT",) if brutal else ())),
                             bust_zero)]
    if domain.floor:
        theorems.append(VTheorem(
            "VT-NO-NEGATIVE-SCORE", "No round score is below 0, so banking a round never lowers a total "
            "(total + round score >= total).", ("V-SCORE-FLOOR", "V-BANK"), _never_negative))
    else:
        theorems.append(VTheorem(
            "VT-NEGATIVE-SCORE-EXISTS", "A round score can be below 0, so a total can fall: {witness} "
            "scores {value}.", (negative, "V-BANK"), _negative, kind=EXISTS))
    if halves and whole:
        theorems.append(VTheorem(
            "VT-HALVE-ROUNDS-DOWN", "Halving rounds the whole total down: a hand that did not bust and has no "
            "Zero penalty, holding k /2 cards, whose Numbers minus -N cards plus bonus make T"
            f"{' (T >= 0)' if domain.floor else ''}, scores h, where 2^k h <= T <= 2^k h + 2^k - 1 (toward "
            "minus infinity: a total of -7 with one /2 scores -4).",
            ("V-HALVE-WHOLE-TOTAL", *stacking), _halve_whole_rounds_down))
    elif halves:
        theorems.append(VTheorem(
            "VT-HALVE-ROUNDS-DOWN", "Halving rounds down: a hand that did not bust, with no -N card and no "
            "Zero penalty, holding k /2 cards and Numbers summing to S keeps h points plus its bonus, where "
            "2^k h <= S <= 2^k h + 2^k - 1 (an odd S with one /2 keeps (S - 1) / 2).",
            ("V-SCORE", *stacking), _halve_rounds_down))
    if domain.floor and whole:
        theorems.append(VTheorem(
            "VT-FLOOR-LAST", "The floor at 0 comes last, after the bonus and the halving: a Flip 7 scores at "
            f"least 0, exactly 0 when its -N cards reach its Number sum plus {bonus}.",
            ("V-HALVE-WHOLE-TOTAL", "V-SCORE-FLOOR", "V-FLIP7"), _floor_last))
    elif whole:
        theorems.append(VTheorem(
            "VT-FLIP7-UNFLOORED", f"With no floor a Flip 7 scores its Number sum minus its -N cards plus {bonus}, "
            "halved once per /2 (rounded down), which is below 0 when the -N cards outweigh the Numbers and the "
            "bonus.", (negative, "V-FLIP7", "V-HALVE-WHOLE-TOTAL"), _flip7_whole_unfloored))
    elif domain.floor:
        theorems.append(VTheorem(
            "VT-FLOOR-BEFORE-BONUS", f"The floor at 0 comes before the bonus: a Flip 7 scores at least "
            f"{bonus}, exactly {bonus} when its -N cards reach its halved Number sum.",
            ("V-SCORE-FLOOR", "V-FLIP7", "V-SCORE"), _floor_before_bonus))
    else:
        theorems.append(VTheorem(
            "VT-FLIP7-UNFLOORED", f"With no floor a Flip 7 scores its halved Number sum minus its -N cards "
            f"plus {bonus}, which is below {bonus} when the -N cards outweigh the halved sum.",
            (negative, "V-FLIP7", "V-SCORE"), _flip7_unfloored))
    if special_zero:
        theorems.append(VTheorem(
            "VT-ZERO-SCORES-ZERO", "A hand holding The Zero without a Flip 7 scores 0, whatever else it "
            "holds.", ("V-ZERO-SCORE", "V-SPECIAL-NUMBERS"), _zero_scores_zero))
        normally = (f"its Number sum minus its -N cards plus {bonus}, halved once per /2"
                    f"{' and floored at 0' if domain.floor else ''}" if whole else
                    f"its halved Number sum minus its -N cards{' (floored at 0)' if domain.floor else ''} "
                    f"plus {bonus}")
        theorems.append(VTheorem(
            "VT-ZERO-FLIP7", f"The Zero counts as one of the seven values, and a Flip 7 holding it scores "
            f"normally: {normally}.", ("V-ZERO-FLIP7", "V-FLIP7"), _zero_flip7))
    elif zero:
        theorems.append(VTheorem(
            "VT-ZERO-PLAIN", "With special Numbers off, The Zero is a plain 0: a hand holding it scores like "
            "any other hand with its Numbers.", ("V-SPECIAL-NUMBERS", "V-SCORE"), _zero_plain))
    if pair is not None:
        theorems.append(VTheorem(
            "VT-LUCKY13-PAIR", f"A Lucky 13 pair scores both 13s ({2 * pair}) and counts {count} toward the "
            "seven values.", ("V-LUCKY13-PAIR", "V-LUCKY13-FLIP7", "V-SCORE"), _lucky_pair))
    most = ("V-SCORE", "V-FLIP7", *(("V-LUCKY13-PAIR",) if pair is not None else ()))
    busts = "V-BRUTAL-MOD-BUSTED" if domain.bust_modifiers else "V-SCORE-BUST"
    least = ("V-SCORE", busts, "V-SCORE-FLOOR" if domain.floor else negative)
    order = ("V-HALVE-WHOLE-TOTAL",) if whole else ()
    theorems += [
        VTheorem("VT-UNLUCKY7-IS-SEVEN", "The Unlucky 7 scores and counts as a 7: a hand scores the same "
                 "with a regular 7 in its place.", ("V-SPECIAL-NUMBERS", "V-UNLUCKY7-WIPE", "V-SCORE"),
                 _same_score, VStep.UNLUCKY_TO_SEVEN),
        VTheorem("VT-MALUS-NEVER-RAISES", "Adding a -N card never raises a round score (busted hands "
                 "included).", ("V-SCORE", *order, "V-MOD-NO-BUST"), _never_raises, VStep.MINUS),
    ]
    if whole:
        theorems.append(VTheorem(
            "VT-MALUS-BEFORE-HALVING", "A -N card comes off the whole total before it is halved: a hand that "
            "did not bust and has no Zero penalty scores its Numbers minus all its -N cards plus its bonus, "
            f"halved once per /2{floored}, so with no /2 it takes exactly N.",
            ("V-HALVE-WHOLE-TOTAL", "V-SCORE-FLOOR", "V-MOD-NO-BUST"), _malus_before_halving, VStep.MINUS))
    else:
        theorems.append(VTheorem(
            "VT-MALUS-EXACT", f"A -N card takes exactly N off a hand that did not bust and has no Zero "
            f"penalty{floored}; it never changes the Flip 7 bonus.",
            ("V-SCORE", "V-SCORE-FLOOR", "V-MOD-NO-BUST"), _malus_exact, VStep.MINUS))
    if not whole or domain.floor:
        # under whole_total with negative scores a /2 raises a negative score toward 0 (VT-HALVE-HALVES-SCORE)
        theorems.append(VTheorem(
            "VT-HALVE-NEVER-RAISES", "Adding a /2 card never raises a round score (busted hands included).",
            ("V-SCORE", *order, *stacking), _never_raises, VStep.HALVE))
    if whole:
        busted_too = " (busted hands included)" if domain.bust_modifiers else ""
        theorems.append(VTheorem(
            "VT-HALVE-HALVES-SCORE", f"A /2 card halves the round score itself{busted_too}, rounding down "
            "(toward minus infinity): a score s becomes s / 2 rounded down (-7 becomes -4), so a score never "
            "moves away from 0 and the bonus and the -N cards are halved with the Numbers.",
            ("V-HALVE-WHOLE-TOTAL", *stacking), _halves_score, VStep.HALVE))
    else:
        theorems.append(VTheorem(
            "VT-HALVE-NUMBERS-ONLY", "A /2 card halves (rounding down) what the Numbers gave a hand "
            "that did not bust and has no Zero penalty, never its -N cards or its bonus.",
            ("V-SCORE", *stacking), _halve_numbers_only, VStep.HALVE))
    theorems += [
        VTheorem("VT-MAX", "The highest round score is exactly {value}, reached by {witness}.", (*most, *order),
                 at_most, kind=MAX),
        VTheorem("VT-MIN", "The lowest round score is exactly {value}, reached by {witness}.", (*least, *order),
                 at_least, kind=MIN),
    ]
    return [t for t in theorems if t.step is None or step_applies(domain, t.step)]


# ---------------------------------------------------------------------------------------------------------
# Proving
# ---------------------------------------------------------------------------------------------------------


def _hand(domain: VengeanceDomain, point: VPoint, score: int) -> HandScore:
    return hand_score(domain, point, score)


def prove_on_model(theorem: VTheorem, domain: VengeanceDomain, timeout_ms: int) -> ModelProof[VPoint]:
    """Prove ``theorem`` of the model in a fresh context with a timeout (see :class:`VTheorem` for the
    kinds)."""
    proof: ModelProof[VPoint] = prove_with(theorem, domain, timeout_ms, VengeanceHand, step_relation)
    return proof


def check_against_scorer(theorem: VTheorem, proof: ModelProof[VPoint], agreement: Agreement, ruleset: VengeanceRuleset,
                         scorer: Scorer, budget: int = CHECK_BUDGET) -> tuple[ProofStatus, list[HandScore], str]:
    """Re-check a theorem proved of the model on a scorer that differs from the model at some compared hands.

    Only a hand where the scorer differs (or a step into or out of one) can break a theorem about every hand,
    so those are checked, fewest cards first; a hand outside the compared ones is scored by calling the
    scorer. An optimum also needs the scorer to reach it at the witness; an existence needs a compared hand
    that has the property under the scorer's score. Returns the status, the hands and a detail line.
    """
    domain = agreement.domain
    differences = agreement.differences
    a, holds = property_function(theorem, proof.bound, domain, VengeanceHand, compile_terms)
    memo: dict[VPoint, int] = dict(differences)

    def scored(point: VPoint) -> int:
        found = memo.get(point)
        if found is None:
            found = memo[point] = scorer(ruleset, domain.cards(point), point.busted)
        return found

    if theorem.kind == EXISTS:
        return _check_existence(theorem, proof, agreement, holds, scored)
    return scan_differences(theorem, proof, domain, agreement.ordered(), len(differences), holds, a.values,
                            scored, successors, predecessors, budget)


def _check_existence(theorem: VTheorem, proof: ModelProof[VPoint], agreement: Agreement,
                     holds: Callable[..., tuple[Any, ...]], scored: Callable[[VPoint], int]
                     ) -> tuple[ProofStatus, list[HandScore], str]:
    domain = agreement.domain
    a = VengeanceHand(domain, z3.Context(), "A")
    witness = proof.witness
    if witness is not None and holds(*a.values(witness), scored(witness))[0]:
        return PROVED, [_hand(domain, witness, scored(witness))], ""
    model = score_function(domain)
    for point in agreement.compared():
        score = agreement.differences.get(point)
        if holds(*a.values(point), model(point) if score is None else score)[0]:
            return (PROVED, [_hand(domain, point, scored(point))],
                    "the scorer has the property at another hand")
    hands = [_hand(domain, witness, scored(witness))] if witness is not None else []
    if agreement.whole:
        return COUNTEREXAMPLE, hands, "under the scorer no hand of the domain has the property"
    return UNKNOWN, hands, "under the scorer no hand of the covering sub-domain has the property"


class VengeanceTheorems(GameTheorems[VengeanceDomain]):
    """The Vengeance theorems for a ruleset whose game is ``vengeance`` (custom decks and options
    included)."""

    ruleset: VengeanceRuleset

    def __init__(self, ruleset: VengeanceRuleset, players: int | None = None) -> None:
        super().__init__(ruleset, domain_of(ruleset, players))

    def theorems(self) -> list[VTheorem]:
        """The theorems, in the order they are proved."""
        return vengeance_theorems(self.domain, brutal=self.ruleset.brutal_mode)

    def prove_one(self, theorem: VTheorem, timeout_ms: int) -> ModelProof[VPoint]:
        """Prove ``theorem`` of the model."""
        return prove_on_model(theorem, self.domain, timeout_ms)

    def compare(self, scorer: Scorer, name: str, limit: int) -> tuple[Agreement, TheoremResult]:
        """Compare ``scorer`` with the model on the whole domain, or the covering sub-domain above ``limit``."""
        agreement = compare_with_scorer(self.domain, self.ruleset, scorer, limit)
        return agreement, _agreement_result(agreement, name)

    def recheck(self, theorem: VTheorem, proof: ModelProof[VPoint], agreement: Agreement, scorer: Scorer,
                budget: int) -> tuple[ProofStatus, list[HandScore], str]:
        """Re-check ``theorem`` on the scorer (see :func:`check_against_scorer`)."""
        return check_against_scorer(theorem, proof, agreement, self.ruleset, scorer, budget)

    def prove(self, scorer: Scorer | None = round_score, timeout_ms: int = DEFAULT_TIMEOUT_MS,
              full_limit: int = FULL_LIMIT, budget: int = CHECK_BUDGET) -> ProofReport:
        """Compare ``scorer`` with the model, then prove every theorem.

        The comparison covers the whole domain when it holds at most ``full_limit`` hands, else the covering
        sub-domain (:meth:`VengeanceDomain.covering_points`). A theorem is ``proved`` when z3 proves it of the
        model and it holds of the scorer; ``counterexample`` when the model or the scorer breaks it (the
        hands are given, with the scores they got); ``unknown`` when z3 gave no answer in ``timeout_ms`` or
        the re-check exceeds ``budget``. With ``scorer`` ``None`` the theorems are proved of the model only.
        """
        return self.prove_all(scorer, timeout_ms, full_limit, budget)


def _agreement_result(agreement: Agreement, name: str) -> TheoremResult:
    """The comparison of the scorer with the model, as a result row."""
    domain = agreement.domain
    where = (f"all {agreement.hands} hands of the domain" if agreement.whole else
             f"all {agreement.hands} hands of the covering sub-domain (of the domain's "
             f"{agreement.domain_size}: every Number part with no modifier and with every modifier, and one "
             "Number part of each class with every combination of modifiers)")
    statement = f"{name} gives the model's score on {where}."
    smallest = agreement.smallest()
    if smallest is None:
        return TheoremResult("C-MODEL-MATCHES-SCORER", statement, ("V-SCORE",), PROVED, agreement.seconds,
                             method="enumeration")
    modelled = score_function(domain)(smallest)
    return TheoremResult("C-MODEL-MATCHES-SCORER", statement, ("V-SCORE",), COUNTEREXAMPLE, agreement.seconds,
                         [_hand(domain, smallest, agreement.differences[smallest])],
                         f"differs at {len(agreement.differences)} hands; the model scores this hand "
                         f"{modelled}",
                         method="enumeration")
