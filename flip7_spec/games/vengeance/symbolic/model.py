"""A z3 model of Flip 7: With a Vengeance round scoring, written from the rules (RULES.md B.1#5, #9-11,
#19-20, B.2#1-#4, #14, C.3 and E), not from :mod:`flip7_spec.games.vengeance.scoring`.

The model describes one player's cards when a round ends:

* how many copies of each Number card are held: the regular ``0`` ... ``13`` and the special The Zero
  (``ZERO``), Unlucky 7 (``U7``) and Lucky 13 (``L13``). A value is held at most once, except that a Lucky 13
  allows one other 13 (V-LUCKY13-PAIR); a third 13 busts (V-LUCKY13-THIRD). The Unlucky 7 is a 7: a later 7
  busts (V-UNLUCKY7-LATER-7), and a 7 held when it arrives is wiped (V-UNLUCKY7-WIPE), so a hand never holds
  both;
* how many copies of each -N and /2 card are held (Modifiers never bust: V-MOD-NO-BUST);
* whether the player busted; a busted hand also holds the Number card that busted it.

Its score is the rule of V-SCORE, step by step: the sum of the Number values (The Zero 0, Unlucky 7 7, each
13 of a Lucky 13 pair 13); halved and rounded down by each /2 held (V-TWO-DECKS-EFFECTS); minus the -N cards;
not below 0 unless the ruleset allows negative scores (V-SCORE-FLOOR, V-BRUTAL-NEGATIVE); plus the Flip 7
bonus for seven different values, the 13 of a pair counted once or, under ``flip7_two_13s = "count_both"``,
twice (V-FLIP7, V-LUCKY13-FLIP7); and 0 for a holder of The Zero without a Flip 7 (V-ZERO-SCORE,
V-ZERO-FLIP7). Under ``halve_order = "whole_total"`` (V-HALVE-WHOLE-TOTAL) the order changes: the Numbers,
minus the -N cards, plus the bonus, halved once per /2 and rounded toward minus infinity (-7 halves to -4),
then the floor. A busted player scores 0 (V-SCORE-BUST), except in Brutal Mode with ``brutal_busted_modifier =
"from_zero"``, where the busted row's Modifiers apply to a base of 0, in the same order, without a bonus
(V-BRUTAL-MOD-BUSTED: -10 scores -10, and -10 with a /2 under whole_total -5). With ``special_numbers =
false`` the three special cards are plain Numbers 0, 7 and 13 (V-SPECIAL-NUMBERS).

Brutal Mode's choice to take 15 from another player instead of the bonus (V-BRUTAL-FLIP7) changes what is
banked, not the hand's round score, and is outside the model.

Everything is derived from ``ruleset.deck``, the player count (a second whole deck above
``players_per_deck`` players) and the options, so custom Vengeance decks work.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Card, Kind, card
from flip7_spec.errors import CardError
from flip7_spec.games.vengeance.cards import Special
from flip7_spec.games.vengeance.ruleset import VengeanceRuleset
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

FLIP7_VALUES: Final = 7
"""[V-FLIP7] Seven different Number values make a Flip 7 and end the round."""

FULL_LIMIT: Final = 400_000
"""The largest domain :func:`compare_with_scorer` enumerates whole; above it, the covering sub-domain."""


# ---------------------------------------------------------------------------------------------------------
# The domain: what a hand can hold under a Vengeance ruleset
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NumberCard:
    """A Number card of the deck, how many copies are in play, which special card it is (``special``) and
    which special effect it has (``effect``: ``None`` for a regular card, and for every card when the ruleset
    turns special Numbers off)."""

    text: str
    value: int
    copies: int
    special: Special | None
    effect: Special | None


@dataclass(frozen=True, slots=True)
class ModifierCard:
    """A -N or /2 card of the deck and how many copies of it are in play."""

    text: str
    kind: Kind
    value: int
    copies: int


@dataclass(frozen=True, slots=True)
class VPoint:
    """One concrete hand of a Vengeance domain.

    ``numbers`` holds the copies held of each Number card and ``mods`` of each modifier, aligned with
    :attr:`VengeanceDomain.number_cards` and :attr:`VengeanceDomain.modifiers`. A busted point also holds the
    Number card that busted the player (see :meth:`VengeanceDomain.bust_card`).
    """

    numbers: tuple[int, ...]
    mods: tuple[int, ...]
    busted: bool = False

    @property
    def size(self) -> int:
        """How many cards the hand holds (the card that busted it included)."""
        return sum(self.numbers) + sum(self.mods) + int(self.busted)


@dataclass(frozen=True, slots=True)
class NumberPart:
    """The Number cards of a hand, whether it busted, and the features the scoring rules read from them."""

    counts: tuple[int, ...]
    busted: bool
    cards: tuple[Card, ...]
    number_sum: int
    distinct: int
    flip7_count: int

    def key(self) -> tuple[Any, ...]:
        """The class of this part: busted, the sum, the values toward Flip 7, and the special cards held."""
        return (self.busted, self.number_sum, self.distinct, self.flip7_count,
                tuple(c.text for c in self.cards if c.special is not None))


@dataclass(frozen=True)
class VengeanceDomain:
    """The hands a player can hold when a round of ``ruleset`` ends with ``decks`` decks in play.

    A hand holds each Number value at most once, except a Lucky 13 pair (two 13s, at least one of them a Lucky
    13 with its effect); at most seven values toward Flip 7; at most the copies in play of each card; any
    number of -N and /2 cards up to their copies. A busted hand had at most six values toward Flip 7 (the
    seventh would have ended the round) and holds a card that busts it: a Number card with a copy left in play
    whose value it already holds, other than an Unlucky 7 (it never busts) and other than the 13 a Lucky 13
    allows.
    """

    ruleset: str
    decks: int
    bonus: int
    floor: bool
    count_both: bool
    number_cards: tuple[NumberCard, ...]
    modifiers: tuple[ModifierCard, ...]
    _by_text: dict[str, int] = field(compare=False, hash=False, repr=False, default_factory=dict)
    whole_total: bool = False
    """``halve_order = "whole_total"``: each /2 halves the whole round total (V-HALVE-WHOLE-TOTAL)."""
    bust_modifiers: bool = False
    """Brutal Mode with ``brutal_busted_modifier = "from_zero"``: a busted row scores its Modifiers from a base
    of 0 (V-BRUTAL-MOD-BUSTED)."""

    @cached_property
    def values(self) -> list[int]:
        """The different Number values of the deck, ascending."""
        return sorted({c.value for c in self.number_cards})

    @cached_property
    def _indices(self) -> dict[int, list[int]]:
        return {v: [i for i, c in enumerate(self.number_cards) if c.value == v] for v in self.values}

    @cached_property
    def _options(self) -> dict[int, list[tuple[int, ...]]]:
        return {v: self._value_options(v) for v in self.values}

    def indices(self, value: int) -> list[int]:
        """The indices in :attr:`number_cards` of the cards of Number ``value``."""
        return self._indices.get(value, [])

    def has(self, effect: Special) -> bool:
        """Whether the deck holds a Number card with the special ``effect`` in force."""
        return any(c.effect is effect for c in self.number_cards)

    def index(self, text: str) -> int | None:
        """The index of the Number card ``text`` in :attr:`number_cards`, if the deck has it."""
        return self._by_text.get(text)

    # -- the rules of a hand, on concrete counts ----------------------------------------------------------

    def value_options(self, value: int) -> list[tuple[int, ...]]:
        """The ways a hand that did not bust can hold cards of ``value``, as counts aligned with
        :meth:`indices`: none, any one card, or a pair of 13s with a Lucky 13 among them."""
        return list(self._options.get(value, [()]))

    def _value_options(self, value: int) -> list[tuple[int, ...]]:
        idx = self.indices(value)
        options: list[tuple[int, ...]] = [tuple(0 for _ in idx)]
        for k, i in enumerate(idx):
            if self.number_cards[i].copies >= 1:
                options.append(tuple(int(j == k) for j in range(len(idx))))
        for a, b in itertools.combinations_with_replacement(range(len(idx)), 2):
            first, second = self.number_cards[idx[a]], self.number_cards[idx[b]]
            counts = tuple(int(j == a) + int(j == b) for j in range(len(idx)))
            enough = all(n <= self.number_cards[idx[j]].copies for j, n in enumerate(counts))
            # [V-LUCKY13-PAIR] one other 13 with a Lucky 13 (the other Lucky 13 too with two decks)
            if enough and Special.LUCKY_13 in (first.effect, second.effect):
                options.append(counts)
        return options

    def busts_on(self, counts: Sequence[int], incoming: int) -> bool:
        """Whether receiving Number card ``incoming`` (an index) busts a player holding ``counts``."""
        c = self.number_cards[incoming]
        idx = self.indices(c.value)
        held = sum(counts[i] for i in idx)
        if held == 0 or c.effect is Special.UNLUCKY_7:
            return False  # [V-UNLUCKY7-NO-BUST] it wipes the row instead
        lucky_held = any(counts[i] and self.number_cards[i].effect is Special.LUCKY_13 for i in idx)
        # [V-LUCKY13-PAIR] a single 13 and a Lucky 13 among the two: no bust; [V-LUCKY13-THIRD] never a third
        return not (held == 1 and (c.effect is Special.LUCKY_13 or lucky_held))

    def bust_card(self, counts: Sequence[int]) -> int | None:
        """The card a busted hand holding ``counts`` shows as the one that busted it: the first, by value then
        deck order, with a copy left in play that busts the hand (``None`` if no card can)."""
        for i, c in enumerate(self.number_cards):
            if counts[i] < c.copies and self.busts_on(counts, i):
                return i
        return None

    def flip7_count(self, counts: Sequence[int]) -> int:
        """How many values ``counts`` holds toward Flip 7: each value once, the 13 of a Lucky 13 pair twice
        under ``count_both`` [V-LUCKY13-FLIP7]."""
        held = [sum(counts[i] for i in self.indices(v)) for v in self.values]
        return sum(1 for n in held if n) + (sum(1 for n in held if n > 1) if self.count_both else 0)

    def valid(self, point: VPoint) -> bool:
        """Whether ``point`` is a hand of this domain (the conditions of
        :meth:`VengeanceHand.constraints`)."""
        if len(point.numbers) != len(self.number_cards) or len(point.mods) != len(self.modifiers):
            return False
        if any(not 0 <= n <= m.copies for n, m in zip(point.mods, self.modifiers, strict=True)):
            return False
        for v in self.values:
            if tuple(point.numbers[i] for i in self._indices[v]) not in self._options[v]:
                return False
        count = self.flip7_count(point.numbers)
        if count > FLIP7_VALUES:
            return False
        if point.busted:
            return count < FLIP7_VALUES and self.bust_card(point.numbers) is not None
        return True

    # -- hands as cards ------------------------------------------------------------------------------------

    def cards(self, point: VPoint) -> list[Card]:
        """The cards of ``point`` in canonical order: Numbers by value (deck order within a value), modifiers
        in deck order, and last the Number card that busted a busted hand."""
        hand = [card(c.text) for n, c in zip(point.numbers, self.number_cards, strict=True) for _ in range(n)]
        hand.extend(card(m.text) for n, m in zip(point.mods, self.modifiers, strict=True) for _ in range(n))
        if point.busted:
            dup = self.bust_card(point.numbers)
            if dup is None:
                raise SymbolicError(f"a busted hand holding {' '.join(c.text for c in hand) or 'no Number'} "
                                    "has no card that could have busted it")
            hand.append(card(self.number_cards[dup].text))
        return hand

    def point(self, hand: Sequence[Card], busted: bool = False) -> VPoint:
        """The point of ``hand``; a busted hand may list the Number card that busted it or leave it out.

        Raises :class:`CardError` when the hand is outside the domain.
        """
        numbers = [0] * len(self.number_cards)
        mods = [0] * len(self.modifiers)
        mod_index = {m.text: i for i, m in enumerate(self.modifiers)}
        for c in hand:
            i = self._by_text.get(c.text)
            if i is not None:
                numbers[i] += 1
            elif c.text in mod_index:
                mods[mod_index[c.text]] += 1
            else:
                raise CardError(f"card {c.text} is outside the scoring model of ruleset {self.ruleset}")
        if busted:
            for i in reversed([j for j, c in enumerate(hand) if c.is_number]):
                before = list(numbers)
                before[self._by_text[hand[i].text]] -= 1
                if self.busts_on(before, self._by_text[hand[i].text]):
                    numbers = before  # the last Number listed busted the hand
                break
        point = VPoint(tuple(numbers), tuple(mods), busted)
        if not self.valid(point):
            raise CardError(f"hand {' '.join(c.text for c in hand) or '(no cards)'} "
                            f"{'(busted) ' if busted else ''}cannot be held when a round of {self.ruleset} "
                            f"ends with {self.decks} deck(s)")
        return point

    def weight(self, point: VPoint) -> int:
        """The value :meth:`VengeanceHand.canonical_weight` takes for ``point``: a total order on hands."""
        base = self.weight_base()
        value: int = sum(n * base ** i for i, n in enumerate(point.numbers))
        offset = len(self.number_cards)
        value += sum(n * base ** (offset + i) for i, n in enumerate(point.mods))
        busted: int = base ** (offset + len(self.modifiers))
        return value + busted if point.busted else value

    def weight_base(self) -> int:
        """The base of :meth:`weight`: more than any count of a card."""
        return self._weight_base

    @cached_property
    def _weight_base(self) -> int:
        return 1 + max([1, *(c.copies for c in self.number_cards), *(m.copies for m in self.modifiers)])

    def describe(self) -> str:
        """One line: the Number cards, the modifiers with their copies, the options and the decks."""
        specials = [c.text for c in self.number_cards if c.effect is not None]
        mods = " ".join(m.text + (f"*{m.copies}" if m.copies > 1 else "") for m in self.modifiers)
        values = self.values
        return (f"{len(values)} Number values ({values[0]}..{values[-1]}), special "
                f"{' '.join(specials) or 'none'}, modifiers {mods or 'none'}, Flip 7 bonus {self.bonus}, "
                f"{'floor at 0' if self.floor else 'negative scores'}, a Lucky 13 pair counts "
                f"{'twice' if self.count_both else 'once'}, /2 halves "
                f"{'the whole total' if self.whole_total else 'the Numbers'}, a busted row scores "
                f"{'its Modifiers from 0' if self.bust_modifiers else '0'}, {self.decks} deck(s)")

    # -- enumeration ---------------------------------------------------------------------------------------

    def number_parts(self) -> list[NumberPart]:
        """Every Number part of a hand of the domain (with its busted flag), fewest cards first, then in the
        order of :meth:`weight`."""
        return list(self._parts)

    @cached_property
    def _parts(self) -> tuple[NumberPart, ...]:
        # Each value's option, with what it adds: its counts, cards, sum, values toward Flip 7, and whether a
        # card of that value with a copy left would bust the hand (that depends on that value's cards only).
        width = len(self.number_cards)
        per_value = []
        for v in self.values:
            idx = self._indices[v]
            choices = []
            for option in self._options[v]:
                counts = [0] * width
                for i, n in zip(idx, option, strict=True):
                    counts[i] = n
                held = sum(option)
                toward = (1 if held else 0) + (1 if held > 1 and self.count_both else 0)
                busts = any(counts[i] < self.number_cards[i].copies and self.busts_on(counts, i) for i in idx)
                hand = tuple(card(self.number_cards[i].text) for i, n in zip(idx, option, strict=True)
                             for _ in range(n))
                choices.append((tuple(zip(idx, option, strict=True)), hand, v * held, int(held > 0), toward,
                                busts))
            per_value.append(choices)
        parts: list[NumberPart] = []

        def extend(depth: int, counts: list[int], hand: tuple[Card, ...], number_sum: int, distinct: int,
                   toward: int, busts: bool) -> None:
            if depth == len(per_value):
                key = tuple(counts)
                parts.append(NumberPart(key, False, hand, number_sum, distinct, toward))
                if toward < FLIP7_VALUES and busts:
                    parts.append(NumberPart(key, True, hand, number_sum, distinct, toward))
                return
            for pairs, cards, value_sum, held, more, bust in per_value[depth]:
                if toward + more > FLIP7_VALUES:
                    continue
                for i, n in pairs:
                    counts[i] = n
                extend(depth + 1, counts, hand + cards, number_sum + value_sum, distinct + held,
                       toward + more, busts or bust)
                for i, _ in pairs:
                    counts[i] = 0

        extend(0, [0] * width, (), 0, 0, 0, False)
        parts.sort(key=lambda p: (len(p.cards) + p.busted, self.weight(VPoint(p.counts, (), False)),
                                  p.busted))
        return tuple(parts)

    def modifier_rows(self) -> list[tuple[int, ...]]:
        """Every combination of modifier counts, fewest cards first."""
        rows = list(itertools.product(*(range(m.copies + 1) for m in self.modifiers)))
        return sorted(rows, key=sum)

    def size(self) -> int:
        """How many hands the domain holds."""
        return len(self._parts) * math.prod(m.copies + 1 for m in self.modifiers)

    def size_limit(self) -> int:
        """The most cards a hand of the domain can hold."""
        return FLIP7_VALUES + 1 + sum(m.copies for m in self.modifiers) + 1

    def points(self, max_size: int | None = None) -> Iterator[VPoint]:
        """Every hand of the domain with at most ``max_size`` cards (all if ``None``), each once."""
        limit = self.size_limit() if max_size is None else max_size
        rows = self.modifier_rows()
        for part in self._parts:
            room = limit - len(part.cards) - int(part.busted)
            for row in rows:
                if sum(row) <= room:
                    yield VPoint(part.counts, row, part.busted)

    def covering_points(self) -> Iterator[VPoint]:
        """The covering sub-domain, each hand once.

        Number parts are grouped into classes by what the scoring rules read from them: busted or not, the
        Number sum, how many different values and how many toward Flip 7, and which special cards are held.
        The sub-domain holds every Number part with no modifier and with every modifier in play, and the
        first part of each class (in :meth:`number_parts` order) with every combination of modifiers.
        """
        rows = self.modifier_rows()
        extremes = [rows[0], rows[-1]] if len(rows) > 1 else rows
        seen: set[tuple[Any, ...]] = set()
        for part in self._parts:
            key = part.key()
            chosen = rows if key not in seen else extremes
            seen.add(key)
            for row in chosen:
                yield VPoint(part.counts, row, part.busted)

    def covering_size(self) -> int:
        """How many hands :meth:`covering_points` yields, computed without building them."""
        parts = self._parts
        classes = len({p.key() for p in parts})
        rows = math.prod(m.copies + 1 for m in self.modifiers)
        extremes = min(2, rows)
        return classes * rows + (len(parts) - classes) * extremes


def domain_of(ruleset: VengeanceRuleset, players: int | None = None) -> VengeanceDomain:
    """The hand domain of the Vengeance ruleset ``ruleset`` for ``players`` players (``None``: one deck).

    Raises :class:`SymbolicError` for a ruleset whose game is not ``vengeance`` or whose deck holds a card
    with no Vengeance scoring rule (a +N, xN or base-game Action card: V-NO-BASE-CARDS).
    """
    if ruleset.game != "vengeance":
        raise SymbolicError(f"the Vengeance scoring model covers the game vengeance, not {ruleset.game} "
                            f"(ruleset {ruleset.name})")
    decks = 1 if players is None else ruleset.decks_for(players)
    numbers: list[tuple[int, int, NumberCard]] = []
    modifiers: list[ModifierCard] = []
    for order, (text, count) in enumerate(ruleset.deck):
        c = card(text)
        if c.is_number:
            special = c.special if isinstance(c.special, Special) else None
            effect = special if ruleset.special_numbers else None  # [V-SPECIAL-NUMBERS]
            numbers.append((c.value, order, NumberCard(c.text, c.value, count * decks, special, effect)))
        elif c.kind in (Kind.SUBTRACT, Kind.HALVE):
            modifiers.append(ModifierCard(c.text, c.kind, c.value, count * decks))
        elif c.kind not in ruleset.CARD_KINDS:  # [V-NO-BASE-CARDS]
            raise SymbolicError(f"ruleset {ruleset.name}: card {text} has no scoring rule in vengeance")
        # the Vengeance Actions never stay in front of a player [V-ACTION-AT-ONCE]
    number_cards = tuple(n for _, _, n in sorted(numbers, key=lambda x: (x[0], x[1])))
    if not number_cards:
        raise SymbolicError(f"ruleset {ruleset.name}: the deck has no Number card")
    floor = not (ruleset.negative_scores or ruleset.brutal_mode)
    both = ruleset.flip7_two_13s == "count_both"
    index = {c.text: i for i, c in enumerate(number_cards)}
    whole = ruleset.halve_order == "whole_total"  # [V-HALVE-WHOLE-TOTAL]
    # [V-BRUTAL-MOD-BUSTED] (or [V-BRUTAL-MOD-BUSTED-NO-EFFECT]): only Brutal Mode gives a bust Modifiers
    bust_modifiers = ruleset.brutal_mode and ruleset.brutal_busted_modifier == "from_zero"
    return VengeanceDomain(ruleset.name, decks, ruleset.flip7_bonus, floor, both, number_cards,
                           tuple(modifiers), index, whole, bust_modifiers)


# ---------------------------------------------------------------------------------------------------------
# The symbolic hand
# ---------------------------------------------------------------------------------------------------------


class VengeanceHand:
    """A hand of ``domain`` as z3 variables in ``ctx``, with the terms the rules talk about.

    Variables: one Int per Number card and per modifier (copies held) and a Bool for a bust.
    :meth:`constraints` restricts them to the domain; :attr:`score` is the specification's round score.
    """

    def __init__(self, domain: VengeanceDomain, ctx: Any, name: str = "A") -> None:
        self.domain = domain
        self.ctx = ctx
        self.name = name
        one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
        self.counts = [z3.Int(f"{name}.{c.text}", ctx) for c in domain.number_cards]
        self.mods = [z3.Int(f"{name}.{m.text}", ctx) for m in domain.modifiers]
        self.busted = z3.Bool(f"{name}.busted", ctx)
        self.held: dict[int, Expr] = {v: total(ctx, [self.counts[i] for i in domain.indices(v)])
                                      for v in domain.values}
        """How many cards of each Number value are held."""
        self.distinct: Expr = total(ctx, [z3.If(n >= 1, one, zero) for n in self.held.values()])
        """How many different Number values are held."""
        self.pairs: Expr = total(ctx, [z3.If(n >= 2, one, zero) for n in self.held.values()])
        """How many values are held twice (a Lucky 13 pair: 0 or 1)."""
        # [V-FLIP7] seven different values; [V-LUCKY13-FLIP7] a Lucky 13 pair once, or twice under count_both
        self.flip7_count: Expr = self.distinct + self.pairs if domain.count_both else self.distinct
        """How many values count toward Flip 7."""
        self.number_sum: Expr = total(ctx, [n * c.value for n, c in zip(self.counts, domain.number_cards,
                                                                        strict=True) if c.value])
        """[V-SCORE] the sum of the Number values (The Zero 0, Unlucky 7 7, each 13 of a pair 13)."""
        self.halves: Expr = total(ctx, [n for n, m in zip(self.mods, domain.modifiers, strict=True)
                                        if m.kind is Kind.HALVE])
        """How many /2 cards are held."""
        self.malus: Expr = total(ctx, [n * m.value for n, m in zip(self.mods, domain.modifiers, strict=True)
                                       if m.kind is Kind.SUBTRACT])
        """The sum of the -N cards held."""
        self.halved: Expr = self.halve(self.number_sum)
        """[V-SCORE] the Number sum halved, rounded down, once per /2 held [V-TWO-DECKS-EFFECTS]."""
        self.flip7: Expr = self.flip7_count >= FLIP7_VALUES
        """[V-FLIP7] the hand is a Flip 7."""
        self.bonus: Expr = z3.If(self.flip7, z3.IntVal(domain.bonus, ctx), zero)
        """The Flip 7 bonus scored."""
        self.whole_halved: Expr = self.halve(self.number_sum - self.malus + self.bonus)
        """[V-HALVE-WHOLE-TOTAL] the Numbers minus the -N cards plus the bonus, halved once per /2 (rounded
        toward minus infinity), before any floor."""
        after = self.whole_halved if domain.whole_total else self.halved - self.malus
        # [V-SCORE-FLOOR] not below 0, before the bonus (after it under whole_total); [V-BRUTAL-NEGATIVE]
        self.after_malus: Expr = self.floored(after)
        """The halved sum minus the -N cards (under whole_total: the halved whole total), floored at 0 unless
        negative scores are allowed."""
        self.zero_held: Expr = some(ctx, [n >= 1 for n, c in zip(self.counts, domain.number_cards,
                                                                  strict=True) if c.effect is Special.ZERO])
        """The Zero, with its effect, is held."""
        self.zero_penalty: Expr = z3.And(self.zero_held, z3.Not(self.flip7))
        """[V-ZERO-SCORE] The Zero without a Flip 7: the round scores 0."""
        standing = self.after_malus if domain.whole_total else self.after_malus + self.bonus
        # [V-BRUTAL-MOD-BUSTED] the busted row's Modifiers on a base of 0, no bonus; else [V-SCORE-BUST] 0
        self.bust_score: Expr = (self.arithmetic(zero, z3.BoolVal(False, ctx)) if domain.bust_modifiers
                                 else zero)
        """What a busted hand scores."""
        self.score: Expr = z3.If(self.busted, self.bust_score,
                                 z3.If(self.zero_penalty, zero, standing))
        """The round score of the specification."""
        self.modifier_count: Expr = total(ctx, self.mods)
        """How many modifier cards are held."""
        self.size: Expr = total(ctx, self.counts) + self.modifier_count + z3.If(self.busted, one, zero)
        """How many cards the hand holds (the card that busted it included)."""

    def halve(self, term: Expr) -> Expr:
        """``term`` halved and rounded down (toward minus infinity) once per /2 held."""
        most = sum(m.copies for m in self.domain.modifiers if m.kind is Kind.HALVE)
        steps = [term]
        for _ in range(most):
            # z3 integer division rounds toward minus infinity for a positive divisor, as Python's // does
            steps.append(steps[-1] / 2)
        result = steps[0]
        for k in range(1, most + 1):
            result = z3.If(self.halves == k, steps[k], result)
        return result

    def floored(self, term: Expr) -> Expr:
        """``term``, not below 0 unless the ruleset allows negative scores [V-SCORE-FLOOR]."""
        return z3.If(term < 0, z3.IntVal(0, self.ctx), term) if self.domain.floor else term

    def arithmetic(self, number_sum: Expr, flip7: Expr) -> Expr:
        """The score of a hand that did not bust and has no Zero penalty, with ``number_sum`` and ``flip7``:
        halved, minus the -N cards, floored unless negative scores are allowed, plus the bonus; under
        ``whole_total`` the Numbers minus the -N cards plus the bonus, halved, then floored."""
        ctx = self.ctx
        bonus = z3.If(flip7, z3.IntVal(self.domain.bonus, ctx), z3.IntVal(0, ctx))
        if self.domain.whole_total:
            return self.floored(self.halve(number_sum - self.malus + bonus))
        return self.floored(self.halve(number_sum) - self.malus) + bonus

    def constraints(self) -> list[Expr]:
        """The conditions for the variables to describe a hand of the domain (see
        :class:`VengeanceDomain`)."""
        ctx, domain = self.ctx, self.domain
        found = [z3.And(n >= 0, n <= c.copies) for n, c in zip(self.counts, domain.number_cards, strict=True)]
        found += [z3.And(n >= 0, n <= m.copies) for n, m in zip(self.mods, domain.modifiers, strict=True)]
        for v in domain.values:
            options = domain.value_options(v)
            idx = domain.indices(v)
            found.append(some(ctx, [every(ctx, [self.counts[i] == n
                                                for i, n in zip(idx, option, strict=True)])
                                    for option in options]))
        found.append(self.flip7_count <= FLIP7_VALUES)
        # [V-BUST] a bust comes before the seventh value, on a card with a copy left that busts the hand
        busting = some(ctx, [z3.And(self.counts[i] < c.copies, self.busts_on(i))
                             for i, c in enumerate(domain.number_cards)])
        found.append(z3.Implies(self.busted, z3.And(self.flip7_count < FLIP7_VALUES, busting)))
        return found

    def busts_on(self, incoming: int) -> Expr:
        """Whether receiving the Number card ``incoming`` (an index) busts this hand (see
        :meth:`VengeanceDomain.busts_on`)."""
        ctx, domain = self.ctx, self.domain
        c = domain.number_cards[incoming]
        held = self.held[c.value]
        if c.effect is Special.UNLUCKY_7:
            return z3.BoolVal(False, ctx)  # [V-UNLUCKY7-NO-BUST]
        lucky = [self.counts[i] >= 1 for i in domain.indices(c.value)
                 if domain.number_cards[i].effect is Special.LUCKY_13]
        pairs = z3.BoolVal(True, ctx) if c.effect is Special.LUCKY_13 else some(ctx, lucky)
        allowed = z3.And(held == 1, pairs)
        return z3.And(held >= 1, z3.Not(allowed))

    def inputs(self) -> list[Expr]:
        """The variables, in the order of :meth:`values` and of :func:`compile_terms` inputs."""
        return [*self.counts, *self.mods, self.busted]

    def values(self, point: VPoint) -> tuple[Any, ...]:
        """The values :meth:`inputs` take for ``point``."""
        return (*point.numbers, *point.mods, point.busted)

    def equals(self, point: VPoint) -> list[Expr]:
        """Constraints fixing the variables to ``point``."""
        return [x == value for x, value in zip(self.inputs(), self.values(point), strict=True)]

    def constraints_for(self, hand: Sequence[Card], busted: bool = False) -> list[Expr]:
        """Constraints fixing the variables to the concrete ``hand``; raises :class:`CardError` outside the
        domain."""
        return self.equals(self.domain.point(hand, busted))

    def point_in(self, model: Any) -> VPoint:
        """The hand a z3 model assigns to the variables."""
        def number(x: Expr) -> int:
            return int(model.eval(x, model_completion=True).as_long())

        busted = bool(z3.is_true(model.eval(self.busted, model_completion=True)))
        return VPoint(tuple(number(n) for n in self.counts), tuple(number(n) for n in self.mods), busted)

    def canonical_weight(self) -> Expr:
        """A weight that differs between any two hands, smaller for smaller Number values and cheaper cards:
        minimising it picks one hand among equally good ones (the z3 form of
        :meth:`VengeanceDomain.weight`)."""
        base = self.domain.weight_base()
        terms = [n * base ** i for i, n in enumerate(self.counts)]
        offset = len(self.counts)
        terms += [n * base ** (offset + i) for i, n in enumerate(self.mods)]
        terms.append(z3.If(self.busted, z3.IntVal(base ** (offset + len(self.mods)), self.ctx),
                           z3.IntVal(0, self.ctx)))
        return total(self.ctx, terms)


# ---------------------------------------------------------------------------------------------------------
# Evaluating z3 terms fast
# ---------------------------------------------------------------------------------------------------------


_TEMPLATES: Final[Templates] = {
    **COMMON_TEMPLATES,
    z3.Z3_OP_IDIV: lambda a: f"_div({a[0]}, {a[1]})",
}


def compile_terms(inputs: Sequence[Expr], outputs: Sequence[Expr]) -> Callable[..., tuple[Any, ...]]:
    """A Python function computing the values of the z3 terms ``outputs`` from values of the variables
    ``inputs`` (positional, in order), with z3's meaning for integer (division included) and Boolean
    operations.

    Each shared subterm is evaluated once. Raises :class:`SymbolicError` for an operation it does not know, a
    division by anything but a positive constant, or a variable missing from ``inputs``.
    """
    return compile_with(_TEMPLATES, inputs, outputs)


def score_function(domain: VengeanceDomain) -> Callable[[VPoint], int]:
    """The model's round score as a Python function of a point (the compiled :attr:`VengeanceHand.score`)."""
    return compiled_score(VengeanceHand(domain, z3.Context()), compile_terms)


# ---------------------------------------------------------------------------------------------------------
# The model against a scorer
# ---------------------------------------------------------------------------------------------------------


@dataclass
class Agreement:
    """How a scorer compares with the model.

    ``whole`` is true when every hand of the domain was compared, false when the covering sub-domain was
    (see :meth:`VengeanceDomain.covering_points`). ``differences`` maps every compared hand where the scorer
    differs from the model to the scorer's score.
    """

    domain: VengeanceDomain
    hands: int
    domain_size: int
    whole: bool
    differences: dict[VPoint, int]
    seconds: float
    _ordered: list[VPoint] | None = field(default=None, repr=False, compare=False)

    @property
    def agrees(self) -> bool:
        """Whether the scorer gives the model's score on every compared hand."""
        return not self.differences

    def ordered(self) -> list[VPoint]:
        """The hands where the scorer differs, fewest cards first, then in :meth:`VengeanceDomain.weight`
        order."""
        if self._ordered is None:
            self._ordered = sorted(self.differences, key=lambda p: (p.size, self.domain.weight(p)))
        return self._ordered

    def smallest(self) -> VPoint | None:
        """The first of :meth:`ordered` (``None`` if the scorer agrees everywhere)."""
        ordered = self.ordered()
        return ordered[0] if ordered else None

    def compared(self) -> Iterator[VPoint]:
        """The compared hands, in the order they were compared."""
        return self.domain.points() if self.whole else self.domain.covering_points()


def compare_with_scorer(domain: VengeanceDomain, ruleset: VengeanceRuleset, scorer: Scorer,
                        full_limit: int = FULL_LIMIT) -> Agreement:
    """Score hands of ``domain`` with ``scorer`` and with the model, and record where they differ.

    Every hand is compared when the domain holds at most ``full_limit`` hands; otherwise the covering
    sub-domain is (:meth:`VengeanceDomain.covering_points`).
    """
    started = time.perf_counter()
    size = domain.size()
    whole = size <= full_limit
    hand = VengeanceHand(domain, z3.Context())
    model = compile_terms(hand.inputs(), [hand.score])
    rows = domain.modifier_rows()
    row_cards = {row: [card(m.text) for n, m in zip(row, domain.modifiers, strict=True) for _ in range(n)]
                 for row in rows}
    parts: dict[tuple[tuple[int, ...], bool], tuple[list[Card], list[Card]]] = {}
    differences: dict[VPoint, int] = {}
    count = 0
    for point in domain.points() if whole else domain.covering_points():
        split = parts.get((point.numbers, point.busted))
        if split is None:
            numbers = domain.cards(VPoint(point.numbers, rows[0], point.busted))
            # the Number cards, then the modifiers, then the card that busted the hand (VengeanceDomain.cards)
            split = parts[(point.numbers, point.busted)] = (
                (numbers[:-1], numbers[-1:]) if point.busted else (numbers, []))
        count += 1
        head, tail = split
        got = scorer(ruleset, head + row_cards[point.mods] + tail, point.busted)
        if got != model(*point.numbers, *point.mods, point.busted)[0]:
            differences[point] = got
    return Agreement(domain, count, size, whole, differences, time.perf_counter() - started)
