"""Exact values of one player's round on a fresh deck, by dynamic programming over the remaining deck.

One player draws from a freshly shuffled deck until a stay rule says stop, a duplicate Number busts them,
or seven different Numbers end the round with the bonus (clauses F7-BUST, F7-FLIP7, F7-FLIP7-BONUS). With
one player on a fresh deck, the cards still to come are the deck less the player's own cards, so the hand
determines the remaining deck: the program keeps one entry per reachable hand (which Number values, how
many of each modifier, how many blanks) and merges every draw order that reaches it.

Every draw order of k cards has probability ``(product of card counts) / (N·(N-1)···(N-k+1))``: the
denominator depends on k alone, so the program carries exact integer weights layer by layer and divides
once at the end. The results are exact fractions, not samples.

Numbers and modifiers (+N, xN) have their effects. Action cards have none in this model: each must be
declared a *blank* (drawn, counted as a card, nothing else), as published solitaire analyses of the game
do; so may any modifier (``x2``, say).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any, Final

from flip7_spec.cards import Family, Kind, card
from flip7_spec.errors import Flip7Error
from flip7_spec.limits import ANALYSIS_STEPS
from flip7_spec.moved import old_names
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset, default_preset, preset

FLIP7_SIZE = 7


def actions_and_x2(ruleset: Ruleset) -> frozenset[str]:
    """The blanks of the published solitaire analyses: every Action card of ``ruleset``'s game and its xN
    cards (in the base game: Freeze, Flip Three, Second Chance and the x2), as the game lists its cards."""
    return frozenset(t.text for t in definition_of(ruleset).cards
                     if t.kind.family is Family.ACTION or t.kind is Kind.MULTIPLY)


ACTIONS_AND_X2: Final[frozenset[str]] = actions_and_x2(preset(default_preset()))
"""The blanks of the official rules' analyses (the default preset's :func:`actions_and_x2`), named before a
game's cards were its own data; kept for code written against the earlier release."""


class AnalysisError(Flip7Error, ValueError):
    """A model the exact program cannot compute: an Action card that is not a blank, a card with an effect
    the program does not follow (a -N, a /2, a Number with an effect of its own)."""


@dataclass(frozen=True, slots=True)
class SolitaireHand:
    """The cards in front of the player, as a stay rule sees them."""

    numbers: frozenset[int]
    """The Number values held (all different: a duplicate busts)."""
    number_sum: int
    multiplier: int
    """The product of the xN cards held (1 with none)."""
    adds: int
    """The sum of the +N cards held."""
    cards: int
    """Every card held, blanks included."""

    @property
    def round_score(self) -> int:
        """What the player would bank now: Numbers times the multipliers, plus the +N cards."""
        return self.number_sum * self.multiplier + self.adds


StayRule = Callable[[SolitaireHand], bool]
"""Whether a player holding this hand (at least one card) stays rather than hits. Any such function works;
the built-in rules below also say whether they read ``SolitaireHand.cards`` (see :class:`Rule`)."""


def _whole(where: str, value: object) -> int:
    """``value`` if it is a whole number, else :class:`AnalysisError` naming ``where``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise AnalysisError(f"{where}: expected a whole number, got {type(value).__name__}")
    return value


class Rule:
    """A stay rule that says whether it reads ``SolitaireHand.cards``. One that does not lets the program merge the
    draw orders that differ only in blanks, which makes it much smaller; for such a rule, ``SolitaireHand.cards``
    counts the non-blank cards only."""

    reads_cards = True

    def __call__(self, hand: SolitaireHand) -> bool:
        raise NotImplementedError


@dataclass(frozen=True)
class StayAt(Rule):
    """Stay once the round score (``on="score"``) or the Number cards alone (``on="numbers"``) reach
    ``threshold``: the exact counterparts of the ``threshold:N`` and ``threshold-numbers:N`` policies."""

    threshold: int
    on: str = "score"
    reads_cards = False

    def __post_init__(self) -> None:
        _whole("stay_at(threshold=...)", self.threshold)
        if self.on not in ("score", "numbers"):
            raise AnalysisError(f"stay_at(on={self.on!r:.60}): expected 'score' or 'numbers'")

    def __call__(self, hand: SolitaireHand) -> bool:
        return (hand.round_score if self.on == "score" else hand.number_sum) >= self.threshold


@dataclass(frozen=True)
class StayWithCards(Rule):
    """Stay once ``count`` cards are held: the exact counterpart of the ``cards:N`` policy."""

    count: int

    def __post_init__(self) -> None:
        _whole("stay_with_cards(count=...)", self.count)

    def __call__(self, hand: SolitaireHand) -> bool:
        return hand.cards >= self.count


class NeverStay(Rule):
    """Always hit: the round ends only on a bust, a Flip 7 or an empty deck."""

    reads_cards = False

    def __call__(self, hand: SolitaireHand) -> bool:
        return False


def stay_at(threshold: int, on: str = "score") -> StayAt:
    """See :class:`StayAt`."""
    return StayAt(threshold, on)


def stay_with_cards(count: int) -> StayWithCards:
    """See :class:`StayWithCards`."""
    return StayWithCards(count)


never_stay = NeverStay()


@dataclass(frozen=True)
class SolitaireOutcome:
    """The exact distribution of a round's result (fractions; ``float()`` any of them for a decimal)."""

    expected_score: Fraction
    bust_probability: Fraction
    flip7_probability: Fraction
    expected_cards: Fraction
    score_distribution: dict[int, Fraction]
    """Points banked (0 for a bust) -> probability."""
    cards_distribution: dict[int, Fraction]
    """Cards held when the round ends (the busting duplicate included) -> probability."""
    states: int
    """How many distinct hands the program visited (the size of the computation)."""

    def summary(self, digits: int = 6) -> dict[str, Any]:
        """The figures as rounded decimals, for JSON and for people."""
        _whole("summary(digits=...)", digits)
        return {
            "expected_score": round(float(self.expected_score), digits),
            "bust_probability": round(float(self.bust_probability), digits),
            "flip7_probability": round(float(self.flip7_probability), digits),
            "expected_cards": round(float(self.expected_cards), digits),
            "states": self.states,
        }


@dataclass(frozen=True, slots=True)
class SolitaireDeck:
    """A deck as the program sees it: Number counts, modifier counts, and how many blanks."""

    numbers: tuple[tuple[int, int], ...]
    """(value, copies) for each Number value."""
    modifiers: tuple[tuple[str, int], ...]
    """(card text, copies) for each modifier that keeps its effect."""
    blanks: int
    flip7_bonus: int = 15

    @property
    def size(self) -> int:
        return sum(c for _, c in self.numbers) + sum(c for _, c in self.modifiers) + self.blanks


def solitaire_deck(ruleset: Ruleset, blanks: Collection[str] | None = None,
                   numbers_only: bool = False) -> SolitaireDeck:
    """The deck of ``ruleset`` for one player, with the cards named in ``blanks`` (card texts; default
    :func:`actions_and_x2`) made blanks; ``numbers_only`` leaves every other card out of the deck altogether.

    Raises :class:`AnalysisError` for a card whose effect the program does not follow and that is not a
    blank (an Action, a -N or /2 modifier, a Number with an effect of its own), and for arguments of the
    wrong kind.
    """
    if not isinstance(ruleset, Ruleset):
        raise AnalysisError(f"expected a Ruleset (see flip7_spec.preset, load_ruleset), got {type(ruleset).__name__}")
    blanks = _blanks(ruleset, blanks)
    counts = Counter(c.text for c in ruleset.deck_cards(1))
    numbers: dict[int, int] = {}
    modifiers: dict[str, int] = {}
    blank_count = 0
    for text, count in sorted(counts.items()):
        face = card(text)
        if face.is_number and face.special is None:
            numbers[face.value] = numbers.get(face.value, 0) + count
        elif numbers_only and not face.is_number:
            continue
        elif text in blanks:
            blank_count += count
        elif face.kind in (Kind.ADD, Kind.MULTIPLY):
            modifiers[text] = count
        else:
            raise AnalysisError(f"card {text} has effects the exact program does not follow: make it a blank "
                                f"(blanks={{..., {text!r}}}) or leave it out (numbers_only=True)")
    return SolitaireDeck(tuple(sorted(numbers.items())), tuple(modifiers.items()), blank_count, ruleset.flip7_bonus)


BLANK = "x1"
"""How a blank is written in a ruleset's deck: a multiplier by 1 never busts, never counts toward a Flip 7
and leaves every score as it is, so the reference plays it as a card with no effect."""


def _blanks(ruleset: Ruleset, blanks: Collection[str] | None) -> Collection[str]:
    if blanks is None:
        return actions_and_x2(ruleset)
    if isinstance(blanks, (str, bytes)) or not isinstance(blanks, Collection) \
            or not all(isinstance(text, str) for text in blanks):
        raise AnalysisError("blanks: expected a collection of card texts, such as {'FREEZE', 'x2'}")
    return blanks


def solitaire_ruleset(ruleset: Ruleset, blanks: Collection[str] | None = None) -> Ruleset:
    """``ruleset`` as the published solitaire tables play it, for the simulator: one player allowed
    (``min_players = 1``) and every card named in ``blanks`` replaced in the deck by a blank (:data:`BLANK`),
    so the deck keeps its size. ``flip7-spec simulate --solitaire`` plays it; :func:`solitaire_deck` is
    the same deck for the exact program.

    Raises :class:`AnalysisError` for a game with no xN card (a blank is played as one: Vengeance has none).
    """
    if not isinstance(ruleset, Ruleset):
        raise AnalysisError(f"expected a Ruleset (see flip7_spec.preset, load_ruleset), got {type(ruleset).__name__}")
    blanks = _blanks(ruleset, blanks)
    if not ruleset.has_effect(card(BLANK)):
        raise AnalysisError(f"ruleset {ruleset.name}: a blank is played as {BLANK}, and {ruleset.game} has no xN card")
    kept: dict[str, int] = {}
    blanked = 0
    for text, count in ruleset.deck:
        if card(text).text in blanks:
            blanked += count
        else:
            kept[text] = kept.get(text, 0) + count
    if blanked:
        kept[BLANK] = kept.get(BLANK, 0) + blanked
    description = (f"{ruleset.name} for one player, {', '.join(sorted(blanks))} as blanks ({BLANK}), as in the "
                   "published solitaire tables")
    return replace(ruleset, name=f"{ruleset.name}-solitaire", description=description, deck=tuple(kept.items()),
                   min_players=1, base=ruleset.base or ruleset.name)


_Key = tuple[int, tuple[int, ...], int]  # (bit mask of Number values held, copies held per modifier, blanks)


@dataclass(slots=True)
class _Weights:
    """Integer weights of the ways the round ends, by the number of cards drawn k (probability: the weight
    divided by N·(N-1)···(N-k+1))."""

    scores: defaultdict[tuple[int, int], int]  # (k, points) -> weight
    busts: defaultdict[int, int]
    flip7s: defaultdict[int, int]
    states: int = 0
    ran_out: int = 0  # the weight of the rounds that drew the whole deck (among the scores of k = N)


class _Budget:
    """The steps a computation may take (:data:`~flip7_spec.limits.ANALYSIS_STEPS`): each layer of draws is
    counted before it is expanded, so a state space too large to finish is refused at once, not after
    minutes and gigabytes."""

    def __init__(self, deck: SolitaireDeck) -> None:
        self.spent = 0
        self.deck = deck

    def spend(self, steps: int) -> None:
        self.spent += steps
        if self.spent > ANALYSIS_STEPS.value:
            raise AnalysisError(
                f"the exact program on a deck of {self.deck.size:,} cards ({len(self.deck.numbers)} Number "
                f"values, {len(self.deck.modifiers)} modifiers, {self.deck.blanks:,} blanks) needs more than "
                f"{ANALYSIS_STEPS.text} ({ANALYSIS_STEPS.name}): use a smaller deck or fewer distinct cards")


def solitaire(deck: SolitaireDeck, stays: StayRule) -> SolitaireOutcome:
    """The exact outcome of one player's round on a fresh ``deck`` under the stay rule ``stays``.

    Raises :class:`AnalysisError` for a deck that is not a :class:`SolitaireDeck`, a ``stays`` that is not
    callable, and a state space over :data:`~flip7_spec.limits.ANALYSIS_STEPS` (refused before it is
    explored)."""
    if not isinstance(deck, SolitaireDeck):
        raise AnalysisError(f"solitaire(deck=...): expected a SolitaireDeck (see solitaire_deck), got "
                            f"{type(deck).__name__}")
    if not callable(stays):
        raise AnalysisError(f"solitaire(stays=...): expected a stay rule (a function of a SolitaireHand), got "
                            f"{type(stays).__name__}")
    budget = _Budget(deck)
    if deck.blanks and not getattr(stays, "reads_cards", True):
        # Blanks change nothing but how many cards are drawn: follow the other cards alone, then spread
        # each ending over the positions its last card can take among the blanks.
        bare = SolitaireDeck(deck.numbers, deck.modifiers, 0, deck.flip7_bonus)
        weights = _program(bare, stays, budget)
        return _outcome(bare.size, weights, _with_blanks(bare.size, deck.blanks, budget), deck.size)
    return _outcome(deck.size, _program(deck, stays, budget), None)


def _program(deck: SolitaireDeck, stays: StayRule, budget: _Budget) -> _Weights:
    values = [v for v, _ in deck.numbers]
    value_bit = {v: 1 << i for i, v in enumerate(values)}
    modifier_cards = [card(t) for t, _ in deck.modifiers]
    total = deck.size
    weights = _Weights(defaultdict(int), defaultdict(int), defaultdict(int))
    endings: dict[_Key, tuple[int, bool] | None] = {}  # a hand's ending (points, Flip 7?); None: play on

    def ending(key: _Key) -> tuple[int, bool] | None:
        if key in endings:
            return endings[key]
        mask, mods, blanks = key
        hand = _hand([v for v in values if mask & value_bit[v]], mods, modifier_cards, blanks)
        result: tuple[int, bool] | None = None
        if len(hand.numbers) >= FLIP7_SIZE:
            # [F7-FLIP7] [F7-FLIP7-BONUS] seven different Numbers end the round with the bonus
            result = (hand.round_score + deck.flip7_bonus, True)
        elif stays(hand):
            result = (hand.round_score, False)
        endings[key] = result
        return result

    def reach(following: defaultdict[_Key, int], key: _Key, cards: int, weight: int) -> None:
        end = ending(key)
        if end is None:
            following[key] += weight
            return
        weights.scores[(cards, end[0])] += weight
        if end[1]:
            weights.flip7s[cards] += weight

    layer: dict[_Key, int] = {(0, (0,) * len(modifier_cards), 0): 1}
    branches = len(deck.numbers) + len(deck.modifiers) + 1
    for drawn in range(total):
        budget.spend(len(layer) * branches)
        following: defaultdict[_Key, int] = defaultdict(int)
        cards = drawn + 1
        for (mask, mods, blanks), weight in layer.items():
            weights.states += 1
            for value, copies in deck.numbers:
                if mask & value_bit[value]:
                    if copies > 1:  # [F7-BUST] a duplicate: the player's own copy is out of the deck
                        weights.busts[cards] += weight * (copies - 1)
                    continue
                reach(following, (mask | value_bit[value], mods, blanks), cards, weight * copies)
            for index, (_, copies) in enumerate(deck.modifiers):
                left = copies - mods[index]
                if left:
                    grown = (*mods[:index], mods[index] + 1, *mods[index + 1:])
                    reach(following, (mask, grown, blanks), cards, weight * left)
            if deck.blanks > blanks:
                reach(following, (mask, mods, blanks + 1), cards, weight * (deck.blanks - blanks))
        layer = following
        if not layer:
            break
    for (mask, mods, blanks), weight in layer.items():  # [F7-EMPTY-DECK] the whole deck drawn: the round ends
        hand = _hand([v for v in values if mask & value_bit[v]], mods, modifier_cards, blanks)
        weights.scores[(total, hand.round_score)] += weight
        weights.ran_out += weight
    return weights


def _hand(numbers: list[int], mods: tuple[int, ...], modifier_cards: list[Any], blanks: int) -> SolitaireHand:
    multiplier, adds = 1, 0
    for face, copies in zip(modifier_cards, mods, strict=True):
        if face.kind is Kind.MULTIPLY:
            multiplier *= face.value ** copies
        else:
            adds += face.value * copies
    return SolitaireHand(frozenset(numbers), sum(numbers), multiplier, adds, len(numbers) + sum(mods) + blanks)


def _fallings(total: int, wanted: set[int]) -> dict[int, int]:
    """N·(N-1)···(N-k+1), the number of ordered draws of k cards from N = ``total``, for each k in
    ``wanted``: one running product (a deck of thousands of cards would otherwise cost a product per k)."""
    out: dict[int, int] = {}
    product = 1
    for k in range(max(wanted, default=0) + 1):
        if k in wanted:
            out[k] = product
        product *= total - k
    return out


def _with_blanks(others: int, blanks: int, budget: _Budget) -> Callable[[int], dict[int, Fraction]]:
    """For a deck of ``others`` cards plus ``blanks`` blanks: where the k-th non-blank card lies, as a
    distribution of its position t (the negative hypergeometric law; the last one, k = ``others``, may come
    before blanks too: a round that ends on it draws no more)."""
    size = others + blanks

    def positions(k: int) -> dict[int, Fraction]:
        budget.spend(blanks + 1)
        ways = comb(size, others)
        return {t: Fraction(comb(t - 1, k - 1) * comb(size - t, others - k), ways)
                for t in range(k, k + blanks + 1)}

    return positions


def _outcome(total: int, weights: _Weights, spread: Callable[[int], dict[int, Fraction]] | None,
             size: int | None = None) -> SolitaireOutcome:
    """The probabilities of the endings; ``spread`` maps a count of non-blank cards to the distribution of
    the cards actually drawn (None: the counts are the cards drawn), except for a round that drew every
    non-blank card without ending: it draws the blanks left too, all ``size`` cards."""
    drawn = {k for k, _ in weights.scores} | set(weights.busts) | set(weights.flip7s)
    denominators = _fallings(total, drawn | ({total} if weights.ran_out else set()))
    scores: defaultdict[int, Fraction] = defaultdict(Fraction)
    by_k: defaultdict[int, Fraction] = defaultdict(Fraction)
    for (k, points), weight in weights.scores.items():
        p = Fraction(weight, denominators[k])
        scores[points] += p
        by_k[k] += p
    bust = Fraction(0)
    for k, weight in weights.busts.items():
        p = Fraction(weight, denominators[k])
        scores[0] += p
        by_k[k] += p
        bust += p
    flip7 = sum((Fraction(w, denominators[k]) for k, w in weights.flip7s.items()), Fraction(0))
    cards: defaultdict[int, Fraction] = defaultdict(Fraction)
    if spread is not None and size is not None and weights.ran_out:
        ran_out = Fraction(weights.ran_out, denominators[total])  # [F7-EMPTY-DECK] on to the last blank
        cards[size] += ran_out
        by_k[total] -= ran_out
    for k, p in by_k.items():
        for t, q in (spread(k) if spread is not None else {k: Fraction(1)}).items():
            cards[t] += p * q
    expected_score = sum((points * p for points, p in scores.items()), Fraction(0))
    expected_cards = sum((k * p for k, p in cards.items()), Fraction(0))
    return SolitaireOutcome(expected_score, bust, flip7, expected_cards, dict(sorted(scores.items())),
                            dict(sorted(cards.items())), weights.states)


def seven_distinct_probability(ruleset: Ruleset) -> Fraction:
    """The chance that a player who always hits, drawing from the Number cards alone, collects seven
    different values before a duplicate."""
    return solitaire(solitaire_deck(ruleset, numbers_only=True), never_stay).flip7_probability


def threshold_table(ruleset: Ruleset, thresholds: Iterable[int], on: str = "numbers",
                    blanks: Collection[str] | None = None) -> dict[int, SolitaireOutcome]:
    """:func:`solitaire` under ``stay_at(t, on)`` for each threshold ``t``: a solitaire threshold table."""
    deck = solitaire_deck(ruleset, blanks)
    if isinstance(thresholds, (str, bytes)) or not isinstance(thresholds, Iterable):
        raise AnalysisError(f"thresholds: expected whole numbers, such as range(10, 31), got "
                            f"{type(thresholds).__name__}")
    return {t: solitaire(deck, stay_at(t, on)) for t in thresholds}


if TYPE_CHECKING:
    Hand = SolitaireHand  # the old name (flip7_spec.moved.RENAMED)
else:
    __getattr__ = old_names(__name__, globals())
