"""Plausible misreadings of Flip 7: With a Vengeance scoring, and the smallest hands that tell each from the
specification.

Each misreading is a :class:`Reading`: the ruleset's own scoring rule (:func:`ruleset_reading`: V-SCORE, or
V-HALVE-WHOLE-TOTAL under ``halve_order = "whole_total"``, with Brutal Mode's busted Modifiers as
``brutal_busted_modifier`` says) with one step read differently (÷2 rounding up, the -N cards taken before
halving, The Zero ignored, the other halving order, ...). A misreading that is the ruleset's own reading (the
-N cards or the bonus halved, under ``whole_total``) is left out of that ruleset's list. A reading is
evaluated twice from the same parameters: in Python on a concrete hand (:func:`reading_score`) and as a z3 term over the
Vengeance model (:func:`reading_term`); the tests check that the two agree. For each misreading z3 finds a
hand with the fewest cards on which its score differs from the specification's (every smaller size is proved
to have none) and, among those, one that also tells it from as many other misreadings as possible. The
results are :class:`~flip7_spec.symbolic.misreadings.ScoringCase` values, which the conformance runner sends
to engines at the ``scoring`` level.

A misreading that no hand of the ruleset exposes (rounding toward zero where only a Number sum, never
negative, is halved; a floor misreading under the other floor option; two /2 cards with one deck) has no case.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Card, Kind
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.ruleset import VengeanceRuleset
from flip7_spec.games.vengeance.symbolic.model import FLIP7_VALUES, VengeanceHand, domain_of
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS
from flip7_spec.symbolic.misreadings import CaseSearch, SymbolicMisreading, smallest_case
from flip7_spec.symbolic.terms import Expr, Scorer, total

THIRTEEN: Final = 13

# How ÷2 rounds an odd (or negative) amount.
DOWN: Final = "down"
UP: Final = "up"
HALF_EVEN: Final = "half_even"
TOWARD_ZERO: Final = "toward_zero"

# Where the floor at 0 applies.
AS_RULESET: Final = "ruleset"
NEVER: Final = "never"
ALWAYS: Final = "always"
AFTER_BONUS: Final = "after_bonus"

# What The Zero does.
OFFICIAL: Final = "official"
IGNORED: Final = "ignored"
BEATS_FLIP7: Final = "beats_flip7"
NUMBERS_ONLY: Final = "numbers_only"


@dataclass(frozen=True)
class Reading:
    """A reading of Vengeance scoring; the defaults are the official rules (V-SCORE and its neighbours).

    ``halve``: how each ÷2 rounds; ``stack``: each ÷2 held halves again (false: two halve once);
    ``malus_first``: the -N cards come off before halving; ``bonus_halved``: the Flip 7 bonus is added before
    halving; ``floor``: the floor at 0 as the ruleset says, never, always, or after the bonus (where the
    ruleset has one); ``zero``: The Zero as the rules say, ignored, zeroing even a Flip 7, or zeroing the
    Number sum only; ``zero_counts``: The Zero counts toward the seven values; ``pair_counts``: a Lucky 13
    pair counts as the ruleset says, ``once`` or ``twice`` toward Flip 7; ``pair_scores_once``: a Lucky 13
    pair scores 13 once; ``unlucky7``: what the Unlucky 7 scores; ``modifiers_count``: -N and /2 cards count
    toward the seven; ``bust_keeps_malus``: a busted hand still takes its -N cards (floored as the ruleset
    says); ``bust_modifiers``: a busted hand scores its Modifiers from a base of 0, in the reading's order,
    without a bonus (Brutal Mode's V-BRUTAL-MOD-BUSTED). ``malus_first`` and ``bonus_halved`` together are
    the whole-total order (V-HALVE-WHOLE-TOTAL).
    """

    halve: str = DOWN
    stack: bool = True
    malus_first: bool = False
    bonus_halved: bool = False
    floor: str = AS_RULESET
    zero: str = OFFICIAL
    zero_counts: bool = True
    pair_counts: str = AS_RULESET
    pair_scores_once: bool = False
    unlucky7: int = 7
    modifiers_count: bool = False
    bust_keeps_malus: bool = False
    bust_modifiers: bool = False

    def normalized(self) -> Reading:
        """The same rule in one canonical form, so two spellings of one rule compare equal."""
        reading = self
        if reading.bonus_halved and reading.floor == AFTER_BONUS:
            reading = replace(reading, floor=AS_RULESET)  # no bonus is added after the halving
        if reading.bust_modifiers and not reading.malus_first:
            # a base of 0 halves to 0 whatever the rounding: what is left is the -N cards
            reading = replace(reading, bust_modifiers=False, bust_keeps_malus=True)
        if reading.bust_modifiers:
            reading = replace(reading, bust_keeps_malus=False)
        return reading


def ruleset_reading(ruleset: VengeanceRuleset) -> Reading:
    """The reading that is ``ruleset``'s own scoring rule: the official one, with the whole-total order under
    ``halve_order = "whole_total"`` and busted Modifiers from a base of 0 in Brutal Mode's ``from_zero``."""
    whole = ruleset.halve_order == "whole_total"  # [V-HALVE-WHOLE-TOTAL]
    from_zero = ruleset.brutal_mode and ruleset.brutal_busted_modifier == "from_zero"  # [V-BRUTAL-MOD-BUSTED]
    return Reading(malus_first=whole, bonus_halved=whole, bust_modifiers=from_zero)


@dataclass(frozen=True)
class VengeanceMisreading(SymbolicMisreading[VengeanceHand]):
    """A wrong Vengeance scoring rule: ``reading`` gives both its Python scorer (``score``) and its z3 term
    over the Vengeance model (``symbolic``)."""

    reading: Reading


# ---------------------------------------------------------------------------------------------------------
# A reading in Python
# ---------------------------------------------------------------------------------------------------------


def _halve_int(x: int, how: str) -> int:
    if how == UP:
        return -(-x // 2)
    if how == HALF_EVEN:
        return round(x / 2)
    if how == TOWARD_ZERO:
        return int(x / 2)
    return x // 2


def reading_score(ruleset: VengeanceRuleset, hand: Sequence[Card], busted: bool, reading: Reading) -> int:
    """The round score ``reading`` gives ``hand`` (with :func:`ruleset_reading` it is the specification's
    score)."""
    floors = not (ruleset.negative_scores or ruleset.brutal_mode)
    malus = sum(c.value for c in hand if c.kind is Kind.SUBTRACT)

    def floored(x: int, floor: bool) -> int:
        return max(0, x) if floor else x

    floor = {AS_RULESET: floors, NEVER: False, ALWAYS: True, AFTER_BONUS: floors}[reading.floor]
    halves = sum(1 for c in hand if c.kind is Kind.HALVE)
    if not reading.stack:
        halves = min(halves, 1)

    def arithmetic(number_sum: int, bonus: int) -> int:
        amount = number_sum - (malus if reading.malus_first else 0) + (bonus if reading.bonus_halved else 0)
        for _ in range(halves):
            amount = _halve_int(amount, reading.halve)
        after = amount - (0 if reading.malus_first else malus)
        added = 0 if reading.bonus_halved else bonus
        return floored(after + added, floor) if reading.floor == AFTER_BONUS else floored(after, floor) + added

    if busted:
        if reading.bust_modifiers:
            return arithmetic(0, 0)
        return floored(-malus, floors) if reading.bust_keeps_malus else 0
    special = ruleset.special_numbers
    numbers = [c for c in hand if c.is_number]
    values = {c.value for c in numbers}
    pairs = len(numbers) - len(values)
    zero_held = special and any(c.special is Special.ZERO for c in numbers)
    number_sum = sum(reading.unlucky7 if special and c.special is Special.UNLUCKY_7 else c.value
                     for c in numbers)
    if reading.pair_scores_once:
        number_sum -= THIRTEEN * pairs
    both = (ruleset.flip7_two_13s == "count_both" if reading.pair_counts == AS_RULESET
            else reading.pair_counts == "twice")
    toward = len(values) + (pairs if both else 0)
    if zero_held and not reading.zero_counts:
        toward -= 1
    if reading.modifiers_count:
        toward += sum(1 for c in hand if c.kind in (Kind.SUBTRACT, Kind.HALVE))
    flip7 = toward >= FLIP7_VALUES
    bonus = ruleset.flip7_bonus if flip7 else 0
    result = arithmetic(number_sum, bonus)
    if zero_held and reading.zero != IGNORED and (reading.zero == BEATS_FLIP7 or not flip7):
        result = floored(-malus, floor) if reading.zero == NUMBERS_ONLY else 0
    return result


def reading_scorer(reading: Reading) -> Scorer:
    """``reading`` as a scorer with the signature of :func:`flip7_spec.scoring.round_score`."""
    def score(ruleset: VengeanceRuleset, hand: Sequence[Card], busted: bool = False) -> int:
        return reading_score(ruleset, hand, busted, reading)

    return score


# ---------------------------------------------------------------------------------------------------------
# The same reading as a z3 term
# ---------------------------------------------------------------------------------------------------------


def _halve_term(x: Expr, how: str) -> Expr:
    if how == UP:
        return (x + 1) / 2
    if how == HALF_EVEN:
        # x / 2 rounded half to even: up exactly when x = 3 (mod 4)
        return z3.If(x - 4 * (x / 4) == 3, (x + 1) / 2, x / 2)
    if how == TOWARD_ZERO:
        return z3.If(x >= 0, x / 2, -((-x) / 2))
    return x / 2  # z3 integer division rounds down for a positive divisor


def reading_term(h: VengeanceHand, reading: Reading) -> Expr:
    """The round score ``reading`` gives the symbolic hand ``h``, as a z3 term (the same rule as
    :func:`reading_score`)."""
    ctx, domain = h.ctx, h.domain
    zero_int = z3.IntVal(0, ctx)
    one = z3.IntVal(1, ctx)

    def floored(x: Expr, floor: bool) -> Expr:
        return z3.If(x < 0, zero_int, x) if floor else x

    cards = domain.number_cards
    unlucky = [n for n, c in zip(h.counts, cards, strict=True) if c.effect is Special.UNLUCKY_7]
    number_sum = h.number_sum + (reading.unlucky7 - 7) * total(ctx, unlucky)
    if reading.pair_scores_once:
        number_sum = number_sum - THIRTEEN * h.pairs
    both = domain.count_both if reading.pair_counts == AS_RULESET else reading.pair_counts == "twice"
    toward = h.distinct + (h.pairs if both else zero_int)
    if not reading.zero_counts:
        toward = toward - z3.If(h.zero_held, one, zero_int)
    if reading.modifiers_count:
        toward = toward + h.modifier_count
    flip7 = toward >= FLIP7_VALUES
    bonus = z3.If(flip7, z3.IntVal(domain.bonus, ctx), zero_int)
    floor = {AS_RULESET: domain.floor, NEVER: False, ALWAYS: True, AFTER_BONUS: domain.floor}[reading.floor]
    most = sum(m.copies for m in domain.modifiers if m.kind is Kind.HALVE)

    def arithmetic(number_sum: Expr, bonus: Expr) -> Expr:
        amount = number_sum - (h.malus if reading.malus_first else zero_int) + (bonus if reading.bonus_halved
                                                                                 else zero_int)
        steps = [amount]
        for _ in range(most if reading.stack else min(most, 1)):
            steps.append(_halve_term(steps[-1], reading.halve))
        halved = steps[0]
        for k in range(1, len(steps)):
            held = h.halves == k if reading.stack else h.halves >= k
            halved = z3.If(held, steps[k], halved)
        after = halved - (zero_int if reading.malus_first else h.malus)
        added = zero_int if reading.bonus_halved else bonus
        return floored(after + added, floor) if reading.floor == AFTER_BONUS else floored(after, floor) + added

    result = arithmetic(number_sum, bonus)
    if reading.zero != IGNORED:
        zeroed = floored(-h.malus, floor) if reading.zero == NUMBERS_ONLY else zero_int
        applies = h.zero_held if reading.zero == BEATS_FLIP7 else z3.And(h.zero_held, z3.Not(flip7))
        result = z3.If(applies, zeroed, result)
    if reading.bust_modifiers:
        busted = arithmetic(zero_int, zero_int)
    else:
        busted = floored(-h.malus, domain.floor) if reading.bust_keeps_malus else zero_int
    return z3.If(h.busted, busted, result)


# ---------------------------------------------------------------------------------------------------------
# The misreadings
# ---------------------------------------------------------------------------------------------------------


def _misreading(mid: str, text: str, clause: str, source: str, reading: Reading) -> VengeanceMisreading:
    def term(h: VengeanceHand) -> Expr:
        return reading_term(h, reading)

    scorer = reading_scorer(reading)
    return VengeanceMisreading(mid, text, clause, source, scorer, term, reading)


def vengeance_misreadings(ruleset: VengeanceRuleset) -> list[VengeanceMisreading]:
    """The misreadings of Vengeance scoring, each a change of :func:`ruleset_reading`, with the clause it
    breaks under ``ruleset`` (the floor misreadings name Brutal Mode's clause in Brutal Mode). A change that
    leaves the ruleset's own rule (the -N cards or the bonus halved, under ``halve_order = "whole_total"``)
    is not a misreading of that ruleset and is left out."""
    negative = "V-BRUTAL-NEGATIVE" if ruleset.brutal_mode else "V-SCORE-FLOOR"
    official = ruleset_reading(ruleset)
    whole = ruleset.halve_order == "whole_total"
    order = "V-HALVE-WHOLE-TOTAL" if whole else "V-SCORE"
    from_zero = official.bust_modifiers
    bust_clause = "V-BRUTAL-MOD-BUSTED" if from_zero else "V-SCORE-BUST"
    rows: list[tuple[str, str, str, str, Reading]] = [
        ("MR-V-HALVE-ROUND-UP", "÷2 rounds up: an odd sum keeps its half point", order,
         "engines computing ceil(sum / 2) or (sum + 1) // 2", replace(official, halve=UP)),
        ("MR-V-HALVE-HALF-EVEN", "÷2 rounds half to even, as Python's round(sum / 2) does", order,
         "engines rounding the half with the language's round()", replace(official, halve=HALF_EVEN)),
        ("MR-V-HALVE-TOWARD-ZERO", "÷2 rounds toward zero (truncates)", order,
         "integer division in C, Java or JavaScript's Math.trunc", replace(official, halve=TOWARD_ZERO)),
        ("MR-V-BONUS-HALVED", "÷2 halves the Flip 7 bonus too: (Numbers + 15) halved, then the -N cards",
         "V-SCORE", "summaries saying ÷2 'halves your score'", replace(official, bonus_halved=True)),
        ("MR-V-MALUS-BEFORE-HALVE", "the -N cards come off before ÷2: (Numbers - N) halved", "V-SCORE",
         "summaries listing the modifiers without their order (RULES.md B.1#20 gives it)",
         replace(official, malus_first=True)),
        ("MR-V-HALVE-WHOLE-TOTAL", "÷2 halves the whole total: (Numbers - N + 15) halved, then the floor",
         "V-SCORE", "seed 004's 'score total divided by 2' read into the official rules",
         replace(official, malus_first=True, bonus_halved=True)),
        ("MR-V-HALVE-NUMBERS-FIRST", "÷2 halves the Numbers only, then the -N cards, the floor and the bonus",
         "V-HALVE-WHOLE-TOTAL", "the official order (RULES.md B.1#20) read into seed 004",
         replace(official, malus_first=False, bonus_halved=False)),
        ("MR-V-NO-FLOOR", "no floor at 0: a round score can be negative", "V-SCORE-FLOOR",
         "seed 004's 'scores can go negative', read as the standard rules (RULES.md B.3)",
         replace(official, floor=NEVER)),
        ("MR-V-ALWAYS-FLOORED", "round scores are floored at 0 even where the ruleset allows negative ones",
         negative, "the standard rules applied to Brutal Mode or seed 004", replace(official, floor=ALWAYS)),
        ("MR-V-FLOOR-AFTER-BONUS", "the floor at 0 is applied after the Flip 7 bonus, not before",
         "V-SCORE-FLOOR", "the order the sources leave implicit (RULES.md B.1#20)",
         replace(official, floor=AFTER_BONUS)),
        ("MR-V-ZERO-IGNORED", "The Zero is a plain 0 with no effect on the score", "V-ZERO-SCORE",
         "engines treating special Numbers as their values", replace(official, zero=IGNORED)),
        ("MR-V-ZERO-BEATS-FLIP7", "The Zero makes the score 0 even with a Flip 7", "V-ZERO-FLIP7",
         "'total score becomes zero' read without 'unless you can Flip 7'",
         replace(official, zero=BEATS_FLIP7)),
        ("MR-V-ZERO-NOT-COUNTED", "The Zero does not count toward the seven values of a Flip 7",
         "V-ZERO-FLIP7", "the base game's 0 question asked again (RULES.md B.1#9)",
         replace(official, zero_counts=False)),
        ("MR-V-ZERO-NUMBERS-ONLY", "The Zero zeroes the Number sum only: the -N cards still count",
         "V-ZERO-SCORE", "'total' read as the Number total", replace(official, zero=NUMBERS_ONLY)),
        ("MR-V-LUCKY13-COUNTS-TWICE", "a Lucky 13 pair counts as two values toward Flip 7", "V-LUCKY13-FLIP7",
         "V4's reading (RULES.md B.2#2)", replace(official, pair_counts="twice")),
        ("MR-V-LUCKY13-COUNTS-ONCE", "a Lucky 13 pair counts as one value toward Flip 7", "V-LUCKY13-FLIP7",
         "V3's reading, a misreading where the ruleset counts both", replace(official, pair_counts="once")),
        ("MR-V-LUCKY13-SCORES-ONCE", "a Lucky 13 pair scores 13 once (the sum of the different values)",
         "V-LUCKY13-PAIR", "engines summing a set of values", replace(official, pair_scores_once=True)),
        ("MR-V-UNLUCKY7-SCORES-ZERO", "the Unlucky 7 scores 0", "V-SPECIAL-NUMBERS",
         "'unlucky' read as worthless", replace(official, unlucky7=0)),
        ("MR-V-MODIFIERS-COUNT-FLIP7", "-N and ÷2 cards count toward the seven cards of a Flip 7",
         "V-MOD-NO-BUST", "the base game's modifier question asked again",
         replace(official, modifiers_count=True)),
        ("MR-V-BUST-KEEPS-MALUS", "a busted player takes their -N cards and nothing else"
         if from_zero else "a busted player still takes their -N cards", bust_clause,
         "Brutal Mode's Modifiers on busted players read as scoring",
         replace(official, bust_keeps_malus=True, bust_modifiers=False)),
        ("MR-V-HALVE-NO-STACK", "two ÷2 cards (two decks) halve only once", "V-TWO-DECKS-EFFECTS",
         "sources silent on two ÷2 cards (RULES.md B.2#14)", replace(official, stack=False)),
    ]
    if ruleset.brutal_mode:
        rows.append(
            ("MR-V-BRUTAL-BUST-NO-EFFECT", "in Brutal Mode a busted row's Modifiers change nothing: it scores 0",
             "V-BRUTAL-MOD-BUSTED", "a literal reading of V3 (option brutal_busted_modifier=no_effect)",
             replace(official, bust_modifiers=False, bust_keeps_malus=False)) if from_zero else
            ("MR-V-BRUTAL-BUST-FROM-ZERO", "in Brutal Mode a busted row scores its Modifiers from a base of 0",
             "V-BRUTAL-MOD-BUSTED-NO-EFFECT", "Brutal Mode's default (option brutal_busted_modifier=from_zero)",
             replace(official, bust_modifiers=True)))
    own = official.normalized()
    return [_misreading(*row) for row in rows if row[4].normalized() != own]


# ---------------------------------------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------------------------------------


def _search(ruleset: VengeanceRuleset, players: int | None, misreading: VengeanceMisreading,
            rivals: Sequence[VengeanceMisreading], timeout_ms: int) -> CaseSearch:
    def new_hand(ctx: Any) -> VengeanceHand:
        return VengeanceHand(domain_of(ruleset, players), ctx, "H")

    return smallest_case(ruleset, players, misreading, rivals, timeout_ms, new_hand)


def search_vengeance_cases(ruleset: VengeanceRuleset, players: int | None = None,
                           timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[CaseSearch]:
    """Search a distinguishing hand for every Vengeance misreading, over the Vengeance model (what
    :func:`flip7_spec.symbolic.prover.distinguishing_cases` gives for a Vengeance ruleset).

    Raises :class:`~flip7_spec.symbolic.terms.SymbolicError` for a ruleset the model cannot represent or a
    search z3 could not finish in ``timeout_ms``.
    """
    rivals = vengeance_misreadings(ruleset)
    return [_search(ruleset, players, m, rivals, timeout_ms) for m in rivals]
