"""A z3 model of Flip 7 round scoring, written from the rules (RULES.md A.1#16-17), not from
:mod:`flip7_spec.games.flip7.scoring`.

The model describes one player's cards at the end of a round:

* which Number values are held (each at most once: a second copy busts; clause F7-BUST),
* how many copies of each +N and xN card are held (at most the copies in play: one deck, or more decks for
  more than ``players_per_deck`` players; clause F7-TWO-DECKS),
* whether the player was frozen (a frozen player keeps the Freeze card; F7-FREEZE-KEEPS-CARDS),
* whether the player busted (then the hand also holds the duplicate Number that busted them).

Its score is the rule of F7-SCORE: the sum of the Numbers, multiplied by every xN card held (F7-MOD-X2,
F7-TWO-DECKS-EFFECTS), plus the +N cards (F7-MOD-ADD), plus the Flip 7 bonus for seven different Numbers
(F7-FLIP7, F7-FLIP7-BONUS, F7-FLIP7-ZERO); 0 for a bust (F7-SCORE-BUST).

Everything is derived from ``ruleset.deck`` and the ruleset's options, so custom decks work. The model does
not cover a kept Second Chance (it scores nothing) nor cards that never stay in front of a player.

z3 has no type information, so z3 expressions are typed :data:`~flip7_spec.symbolic.terms.Expr` (``Any``).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Card, Kind, card
from flip7_spec.errors import CardError
from flip7_spec.games.flip7.cards import FREEZE
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic.terms import (
    COMMON_TEMPLATES,
    Expr,
    Scorer,
    SymbolicError,
    Templates,
    compile_with,
    compiled_score,
    every,
    some,
    total,
)

FLIP7_NUMBERS: Final = 7
"""[F7-FLIP7] Seven different Number values make a Flip 7 and end the round."""

MAX_HANDS: Final = 3_000_000
"""The largest hand domain :func:`compare_with_scorer` enumerates."""


# ---------------------------------------------------------------------------------------------------------
# The domain: what a hand can hold under a ruleset
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifier:
    """A +N or xN card of the deck and how many copies of it are in play."""

    text: str
    kind: Kind
    value: int
    copies: int


@dataclass(frozen=True, slots=True)
class Point:
    """One concrete hand of the domain.

    ``mods`` holds the count of each modifier, aligned with :attr:`Domain.modifiers`. A busted point also
    holds the duplicate Number that busted the player (see :meth:`Domain.cards`).
    """

    numbers: frozenset[int]
    mods: tuple[int, ...]
    frozen: bool = False
    busted: bool = False

    @property
    def size(self) -> int:
        """How many cards the hand holds (the duplicate of a bust included)."""
        return len(self.numbers) + sum(self.mods) + int(self.frozen) + int(self.busted)


@dataclass(frozen=True, slots=True)
class Domain:
    """The hands a player can hold at the end of a round of ``ruleset`` with ``decks`` decks in play.

    A hand of the domain holds each Number value at most once (plus the duplicate when busted), at most
    seven different Numbers, at most the copies in play of each modifier, and possibly the Freeze card.
    A busted hand holds at most six different Numbers (the seventh would have ended the round), one of
    which has a second copy in play, and no Freeze; a frozen hand holds at most six different Numbers.
    """

    ruleset: str
    decks: int
    bonus: int
    numbers: tuple[int, ...]
    number_copies: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    freeze: bool
    _index: dict[int, int] = field(compare=False, hash=False, repr=False, default_factory=dict)

    def copies(self, value: int) -> int:
        """How many cards of Number ``value`` are in play (0 if the deck has none)."""
        index = self._index.get(value)
        return 0 if index is None else self.number_copies[index]

    def bust_value(self, numbers: frozenset[int]) -> int | None:
        """The Number whose duplicate a busted hand holding ``numbers`` shows: the smallest with two copies."""
        doubles = [v for v in sorted(numbers) if self.copies(v) >= 2]
        return doubles[0] if doubles else None

    def valid(self, point: Point) -> bool:
        """Whether ``point`` is a hand of this domain (the same conditions as :meth:`SymbolicHand.constraints`)."""
        if not point.numbers <= set(self.numbers) or len(point.numbers) > FLIP7_NUMBERS:
            return False
        if len(point.mods) != len(self.modifiers):
            return False
        if any(not 0 <= n <= m.copies for n, m in zip(point.mods, self.modifiers, strict=True)):
            return False
        if point.frozen and (not self.freeze or len(point.numbers) >= FLIP7_NUMBERS):
            return False
        if point.busted:
            return (len(point.numbers) < FLIP7_NUMBERS and not point.frozen
                    and self.bust_value(point.numbers) is not None)
        return True

    def cards(self, point: Point) -> list[Card]:
        """The cards of ``point`` in canonical order: Numbers ascending, modifiers in deck order, the Freeze,
        and last the duplicate Number of a bust."""
        hand = [card(str(v)) for v in sorted(point.numbers)]
        for count, modifier in zip(point.mods, self.modifiers, strict=True):
            hand.extend([card(modifier.text)] * count)
        if point.frozen:
            hand.append(card("FREEZE"))
        if point.busted:
            dup = self.bust_value(point.numbers)
            if dup is None:
                raise SymbolicError(f"a busted hand holding {sorted(point.numbers)} has no Number to duplicate")
            hand.append(card(str(dup)))
        return hand

    def point(self, hand: Sequence[Card], busted: bool = False) -> Point:
        """The point of ``hand``; a busted hand may list the duplicate Number that busted it or leave it out.

        Raises :class:`CardError` when the hand is outside the domain.
        """
        numbers: list[int] = []
        mods = [0] * len(self.modifiers)
        texts = {m.text: i for i, m in enumerate(self.modifiers)}
        frozen = False
        for c in hand:
            if c.is_number and c.special is None and c.value in self._index:
                numbers.append(c.value)
            elif c.text in texts:
                mods[texts[c.text]] += 1
            elif c.kind is FREEZE and self.freeze and not frozen:
                frozen = True
            else:
                raise CardError(f"card {c.text} is outside the scoring model of ruleset {self.ruleset}")
        held = frozenset(numbers)
        if len(held) != len(numbers):
            if not busted:
                raise CardError("a Number held twice means a bust; pass busted=True")
            repeated = sorted(v for v in held if numbers.count(v) > 1)
            if len(repeated) > 1 or numbers.count(repeated[0]) > 2 or self.copies(repeated[0]) < 2:
                raise CardError("a busted hand holds exactly one duplicate Number, of a value with two copies")
        point = Point(held, tuple(mods), frozen, busted)
        if not self.valid(point):
            raise CardError(f"hand {' '.join(c.text for c in hand) or '(no cards)'} "
                            f"{'(busted) ' if busted else ''}cannot be held at the end of a round of "
                            f"{self.ruleset} with {self.decks} deck(s)")
        return point

    def weight(self, point: Point) -> int:
        """The value :meth:`SymbolicHand.canonical_weight` takes for ``point``: a total order on hands."""
        base = 1 + max([1, *(m.copies for m in self.modifiers)])
        value = sum(base ** i for i, v in enumerate(self.numbers) if v in point.numbers)
        offset = len(self.numbers)
        value += sum(n * base ** (offset + i) for i, n in enumerate(point.mods))
        offset += len(self.modifiers)
        return int(value + int(point.frozen) * base ** offset + int(point.busted) * base ** (offset + 1))

    def describe(self) -> str:
        """One line: the Number values, the modifiers with their copies, the Freeze and the decks."""
        mods = " ".join(m.text + (f"*{m.copies}" if m.copies > 1 else "") for m in self.modifiers)
        low, high = min(self.numbers), max(self.numbers)
        return (f"{len(self.numbers)} Number values ({low}..{high}), modifiers {mods or 'none'}"
                f"{', Freeze' if self.freeze else ''}, Flip 7 bonus {self.bonus}, {self.decks} deck(s)")

    def size(self) -> int:
        """How many hands the domain holds (what :meth:`points` yields), computed without enumerating."""
        mods = math.prod(m.copies + 1 for m in self.modifiers)
        doubles = sum(1 for c in self.number_copies if c >= 2)
        singles = len(self.numbers) - doubles
        count = 0
        for k in range(min(FLIP7_NUMBERS, len(self.numbers)) + 1):
            subsets = math.comb(len(self.numbers), k)
            count += subsets
            if k < FLIP7_NUMBERS:
                count += subsets if self.freeze else 0
                count += subsets - math.comb(singles, k)
        return count * mods

    def points(self, max_size: int | None = None) -> Iterator[Point]:
        """Every hand of the domain with at most ``max_size`` cards (all if ``None``), each once."""
        limit = self.size_limit() if max_size is None else max_size
        rows: dict[int, list[tuple[int, ...]]] = {}
        for counts in itertools.product(*(range(m.copies + 1) for m in self.modifiers)):
            rows.setdefault(sum(counts), []).append(counts)
        for k in range(min(FLIP7_NUMBERS, len(self.numbers), limit) + 1):
            for subset in itertools.combinations(self.numbers, k):
                held = frozenset(subset)
                states = [(False, False)]
                if k < FLIP7_NUMBERS:
                    if self.freeze:
                        states.append((True, False))
                    if self.bust_value(held) is not None:
                        states.append((False, True))
                for frozen, busted in states:
                    room = limit - k - int(frozen) - int(busted)
                    for used in sorted(rows):
                        if used > room:
                            break
                        for counts in rows[used]:
                            yield Point(held, counts, frozen, busted)

    def size_limit(self) -> int:
        """The most cards a hand of the domain can hold."""
        return FLIP7_NUMBERS + sum(m.copies for m in self.modifiers) + 1

    def walk(self) -> Iterator[tuple[frozenset[int], tuple[int, ...], bool, bool, list[Card], tuple[Any, ...]]]:
        """Every hand of the domain, fast: its Numbers, modifier counts, frozen and busted flags, its cards
        (as :meth:`cards` orders them) and the values of :meth:`SymbolicHand.inputs` for it."""
        freeze = [card("FREEZE")] if self.freeze else []
        rows = []
        for counts in itertools.product(*(range(m.copies + 1) for m in self.modifiers)):
            hand: list[Card] = []
            for count, modifier in zip(counts, self.modifiers, strict=True):
                hand.extend([card(modifier.text)] * count)
            rows.append((counts, hand))
        for k in range(min(FLIP7_NUMBERS, len(self.numbers)) + 1):
            for subset in itertools.combinations(self.numbers, k):
                held = frozenset(subset)
                number_cards = [card(str(v)) for v in subset]
                flags = tuple(v in held for v in self.numbers)
                states: list[tuple[bool, bool, list[Card]]] = [(False, False, [])]
                if k < FLIP7_NUMBERS:
                    if self.freeze:
                        states.append((True, False, freeze))
                    dup = self.bust_value(held)
                    if dup is not None:
                        states.append((False, True, [card(str(dup))]))
                for frozen, busted, extra in states:
                    tail = ((frozen,) if self.freeze else ()) + (busted,)
                    for counts, mod_cards in rows:
                        yield held, counts, frozen, busted, number_cards + mod_cards + extra, flags + counts + tail


def domain_of(ruleset: Ruleset, players: int | None = None) -> Domain:
    """The hand domain of ``ruleset`` for ``players`` players (``None``: one deck), from ``ruleset.deck``.

    Raises :class:`SymbolicError` for a ruleset whose game is not ``flip7``, or whose deck holds a card the
    base game has no scoring rule for (a -N or /2 card, or a Vengeance special Number).
    """
    if ruleset.game != "flip7":
        raise SymbolicError(f"the scoring model covers the game flip7, not {ruleset.game} "
                            f"(ruleset {ruleset.name})")
    decks = 1 if players is None else ruleset.decks_for(players)
    numbers: dict[int, int] = {}
    modifiers: list[Modifier] = []
    freeze = False
    for text, count in ruleset.deck:
        c = card(text)
        if c.is_number:
            if c.special is not None:
                raise SymbolicError(f"ruleset {ruleset.name}: card {text} has no scoring rule in flip7")
            numbers[c.value] = numbers.get(c.value, 0) + count * decks
        elif c.kind in (Kind.ADD, Kind.MULTIPLY):
            modifiers.append(Modifier(c.text, c.kind, c.value, count * decks))
        elif c.kind is FREEZE:
            freeze = True
        elif c.is_modifier:
            raise SymbolicError(f"ruleset {ruleset.name}: card {text} has no scoring rule in flip7")
        # other Action cards never score: a Flip Three is discarded once resolved, a Second Chance scores nothing
    values = tuple(sorted(numbers))
    return Domain(ruleset.name, decks, ruleset.flip7_bonus, values, tuple(numbers[v] for v in values),
                  tuple(modifiers), freeze, {v: i for i, v in enumerate(values)})


# ---------------------------------------------------------------------------------------------------------
# The symbolic hand
# ---------------------------------------------------------------------------------------------------------


class SymbolicHand:
    """A hand of ``domain`` as z3 variables in ``ctx``, with the terms the rules talk about.

    Variables: one Bool per Number value (held or not), one Int per modifier (copies held), a Bool for the
    Freeze (only when the deck has one) and a Bool for a bust. :meth:`constraints` restricts them to the
    domain; :attr:`score` is the specification's round score.
    """

    def __init__(self, domain: Domain, ctx: Any, name: str = "A") -> None:
        self.domain = domain
        self.ctx = ctx
        self.name = name
        self.held = {v: z3.Bool(f"{name}.n{v}", ctx) for v in domain.numbers}
        self.mods = [z3.Int(f"{name}.{m.text}", ctx) for m in domain.modifiers]
        self.frozen = z3.Bool(f"{name}.FREEZE", ctx) if domain.freeze else z3.BoolVal(False, ctx)
        self.busted = z3.Bool(f"{name}.busted", ctx)
        one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
        self.distinct: Expr = total(ctx, [z3.If(b, one, zero) for b in self.held.values()])
        """How many different Number values are held."""
        self.nonzero_distinct: Expr = total(ctx, [z3.If(b, one, zero) for v, b in self.held.items() if v])
        """How many different non-zero Number values are held."""
        self.number_sum: Expr = total(ctx, [z3.If(b, v, 0) for v, b in self.held.items() if v])
        """The sum of the Number cards held (the duplicate of a bust left out)."""
        self.adds: Expr = total(ctx, [n * m.value for n, m in zip(self.mods, domain.modifiers, strict=True)
                                      if m.kind is Kind.ADD])
        """The sum of the +N cards held."""
        self.multiplier_cards: Expr = total(ctx, [n for n, m in zip(self.mods, domain.modifiers, strict=True)
                                                  if m.kind is Kind.MULTIPLY])
        """How many xN cards are held."""
        self.modifier_count: Expr = total(ctx, self.mods)
        """How many modifier cards are held."""
        self.size: Expr = (self.distinct + self.modifier_count + z3.If(self.frozen, one, zero)
                           + z3.If(self.busted, one, zero))
        """How many cards the hand holds (the duplicate of a bust included)."""
        self.flip7: Expr = self.distinct >= FLIP7_NUMBERS
        """[F7-FLIP7] [F7-FLIP7-ZERO] seven different Numbers, the 0 included; modifiers never count."""
        self.bonus: Expr = z3.If(self.flip7, z3.IntVal(domain.bonus, ctx), zero)
        """[F7-FLIP7-BONUS] the bonus scored for a Flip 7."""
        # [F7-SCORE] numbers, multiplied by every xN held, plus the +N cards, plus the bonus; [F7-SCORE-BUST] 0
        self.score: Expr = z3.If(self.busted, zero, self.times_multiplier(self.number_sum) + self.adds + self.bonus)
        """The round score of the specification."""

    def times_multiplier(self, term: Expr, stacking: bool = True) -> Expr:
        """``term`` multiplied by the xN cards held: by each copy (``stacking``), or once per kind of card.

        The product is written as a sum over the possible counts of xN cards, so it stays linear.
        """
        mults = [(n, m) for n, m in zip(self.mods, self.domain.modifiers, strict=True) if m.kind is Kind.MULTIPLY]
        if not mults:
            return term
        cases = []
        for counts in itertools.product(*(range(m.copies + 1) for _, m in mults)):
            factor = math.prod(m.value ** k if stacking else (m.value if k else 1)
                               for k, (_, m) in zip(counts, mults, strict=True))
            held = every(self.ctx, [n == k for k, (n, _) in zip(counts, mults, strict=True)])
            cases.append(z3.If(held, factor * term, z3.IntVal(0, self.ctx)))
        return total(self.ctx, cases)

    def constraints(self) -> list[Expr]:
        """The conditions for the variables to describe a hand of the domain (see :class:`Domain`)."""
        ctx = self.ctx
        doubles = [b for v, b in self.held.items() if self.domain.copies(v) >= 2]
        found = [z3.And(n >= 0, n <= m.copies) for n, m in zip(self.mods, self.domain.modifiers, strict=True)]
        found.append(self.distinct <= FLIP7_NUMBERS)
        # [F7-BUST] a bust comes on a duplicate before the seventh Number; a Second Chance or Freeze holder
        # would not be dealt it
        found.append(z3.Implies(self.busted, z3.And(self.distinct < FLIP7_NUMBERS, some(ctx, doubles),
                                                    z3.Not(self.frozen))))
        # [F7-FREEZE] a frozen player is out of the round, so never Flipped 7
        found.append(z3.Implies(self.frozen, self.distinct < FLIP7_NUMBERS))
        return found

    def inputs(self) -> list[Expr]:
        """The variables, in the order of :meth:`values` and of :func:`compile_exprs` inputs."""
        return [*self.held.values(), *self.mods, *([self.frozen] if self.domain.freeze else []), self.busted]

    def values(self, point: Point) -> tuple[Any, ...]:
        """The values :meth:`inputs` take for ``point``."""
        flags = tuple(v in point.numbers for v in self.domain.numbers)
        return flags + point.mods + ((point.frozen,) if self.domain.freeze else ()) + (point.busted,)

    def equals(self, point: Point) -> list[Expr]:
        """Constraints fixing the variables to ``point``."""
        return [x == value for x, value in zip(self.inputs(), self.values(point), strict=True)]

    def constraints_for(self, hand: Sequence[Card], busted: bool = False) -> list[Expr]:
        """Constraints fixing the variables to the concrete ``hand``.

        Raises :class:`CardError` when the hand is outside the domain.
        """
        return self.equals(self.domain.point(hand, busted))

    def point_in(self, model: Any) -> Point:
        """The hand a z3 model assigns to the variables."""
        def truth(x: Expr) -> bool:
            return bool(z3.is_true(model.eval(x, model_completion=True)))

        numbers = frozenset(v for v, b in self.held.items() if truth(b))
        mods = tuple(int(model.eval(n, model_completion=True).as_long()) for n in self.mods)
        return Point(numbers, mods, truth(self.frozen), truth(self.busted))

    def canonical_weight(self) -> Expr:
        """A weight that differs between any two hands, smaller for smaller Number values and cheaper cards:
        minimising it picks one hand among equally good ones, so every search gives a stable answer."""
        base = 1 + max([1, *(m.copies for m in self.domain.modifiers)])
        terms: list[Expr] = []
        for weight, held in enumerate(self.held.values()):
            terms.append(z3.If(held, z3.IntVal(base ** weight, self.ctx), z3.IntVal(0, self.ctx)))
        offset = len(self.held)
        for i, n in enumerate(self.mods):
            terms.append(n * base ** (offset + i))
        offset += len(self.mods)
        terms.append(z3.If(self.frozen, z3.IntVal(base ** offset, self.ctx), z3.IntVal(0, self.ctx)))
        terms.append(z3.If(self.busted, z3.IntVal(base ** (offset + 1), self.ctx), z3.IntVal(0, self.ctx)))
        return total(self.ctx, terms)


# ---------------------------------------------------------------------------------------------------------
# Evaluating the model's terms fast: the compiler of the core with z3's distinct of two terms
# ---------------------------------------------------------------------------------------------------------

_TEMPLATES: Final[Templates] = {
    **COMMON_TEMPLATES,
    z3.Z3_OP_DISTINCT: lambda a: f"(len({{{', '.join(a)}}}) == {len(a)})",
}


def compile_exprs(inputs: Sequence[Expr], outputs: Sequence[Expr]) -> Callable[..., tuple[Any, ...]]:
    """A Python function computing the values of the z3 terms ``outputs`` from values of the variables
    ``inputs`` (positional, in order), with z3's meaning for integer and Boolean operations.

    It evaluates exactly the given terms, each shared subterm once, and is much faster than
    ``z3.substitute`` per call. Raises :class:`SymbolicError` for an operation it does not know or a
    variable missing from ``inputs``.
    """
    return compile_with(_TEMPLATES, inputs, outputs)


def score_function(domain: Domain) -> Callable[[Point], int]:
    """The model's round score as a Python function of a point (the compiled :attr:`SymbolicHand.score`)."""
    return compiled_score(SymbolicHand(domain, z3.Context()), compile_exprs)


# ---------------------------------------------------------------------------------------------------------
# The model against a scorer
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Agreement:
    """How a scorer compares with the model over the whole domain.

    ``complete`` is false when the domain was too large to enumerate; then nothing was compared.
    ``differences`` maps every hand where the scorer differs from the model to the scorer's score.
    """

    domain: Domain
    hands: int
    complete: bool
    differences: dict[Point, int]
    seconds: float
    _ordered: list[Point] | None = field(default=None, repr=False, compare=False)

    @property
    def agrees(self) -> bool:
        """Whether the scorer gives the model's score on every hand of the domain."""
        return self.complete and not self.differences

    def ordered(self) -> list[Point]:
        """The hands where the scorer differs, fewest cards first (then in the order of :meth:`Domain.walk`)."""
        if self._ordered is None:
            self._ordered = sorted(self.differences, key=lambda p: p.size)
        return self._ordered

    def smallest(self) -> Point | None:
        """The first hand in :meth:`Domain.weight` order among those with the fewest cards where the scorer
        differs (``None`` if there are none)."""
        ordered = self.ordered()
        if not ordered:
            return None
        fewest = ordered[0].size
        return min((p for p in ordered if p.size == fewest), key=self.domain.weight)


def compare_with_scorer(domain: Domain, ruleset: Ruleset, scorer: Scorer, max_hands: int = MAX_HANDS) -> Agreement:
    """Score every hand of ``domain`` with ``scorer`` and with the model, and record where they differ.

    The domain is finite, so agreement on every hand means every theorem proved of the model holds of the
    scorer. Domains larger than ``max_hands`` are not enumerated (``complete`` is false).
    """
    started = time.perf_counter()
    size = domain.size()
    if size > max_hands:
        return Agreement(domain, size, False, {}, time.perf_counter() - started)
    hand = SymbolicHand(domain, z3.Context())
    model = compile_exprs(hand.inputs(), [hand.score])
    differences: dict[Point, int] = {}
    count = 0
    for numbers, mods, frozen, busted, cards, values in domain.walk():
        count += 1
        got = scorer(ruleset, cards, busted)
        if got != model(*values)[0]:
            differences[Point(numbers, mods, frozen, busted)] = got
    if count != size:
        raise SymbolicError(f"internal: enumerated {count} hands, expected {size}")
    return Agreement(domain, count, True, differences, time.perf_counter() - started)
