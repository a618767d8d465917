"""Shrinking a game that tells the two sides apart to a smallest one, in the order of the search: fewest
decisions, then fewest players, then smallest deck.

First greedily, each step kept only when the sides still differ and the game is smaller: the deck cut to the
cards drawn before the difference (a custom deck of those cards, when the sides allow one), each card taken
out in turn, one player fewer, each decision left out in turn (a decision that no longer fits is made with
the first legal choice, a reshuffle that no longer fits keeps what it can of its order). Then the bounded
exhaustive search runs over the card types of the game left (its plain Numbers replaced by as many of the
lowest), up to its size: the first game it finds is a smallest among the games of those card types.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flip7_spec.cards import Card, card
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision
from flip7_spec.machine import Game
from flip7_spec.rulesdiff.budget import Budget, Spent
from flip7_spec.rulesdiff.exhaustive import Bound, Covered, Found, search, valid_composition
from flip7_spec.rulesdiff.lockstep import (
    OBSERVATIONS,
    Chance,
    DiffGame,
    NeedChoice,
    Split,
    composition_of,
    play_pair,
    setup_ruleset,
)
from flip7_spec.rulesdiff.sides import Sides, card_types
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.document import TraceDocument
from flip7_spec.trace.record import record_choices


@dataclass
class Shrunk:
    """The smallest game found, and the exhaustive search over its card types that backs it (None when the
    budget left none)."""

    found: Found
    bound: Bound | None = None
    covered: Covered | None = None
    steps: int = 0


def _lenient(choices: Sequence[Choice]) -> Callable[[int, Decision, Game], Choice]:
    """Make ``choices`` in order, each one that is not legal any more as the first legal choice; stop after
    the last."""

    def choose(made: int, decision: Decision, game: Game) -> Choice:
        if made >= len(choices):
            raise NeedChoice(decision)
        wanted = choices[made]
        return wanted if any(type(o) is type(wanted) and o == wanted for o in decision.options) \
            else decision.options[0]

    return choose


def _following(orders: Sequence[Sequence[str]]) -> Callable[[list[Card]], list[Card]]:
    """Reshuffle orders that keep what they can of ``orders``: reshuffle i takes the cards of order i it holds,
    in that order, then the others sorted."""
    used = [0]

    def order(discard: list[Card]) -> list[Card]:
        index = used[0]
        used[0] += 1
        left = sorted(discard, key=lambda c: c.text)
        out: list[Card] = []
        for text in orders[index] if index < len(orders) else ():
            at = next((i for i, c in enumerate(left) if c.text == text), None)
            if at is not None:
                out.append(left.pop(at))
        return out + left

    return order


def _smaller(a: DiffGame, b: DiffGame) -> bool:
    return a.key < b.key


class _Shrinker:
    def __init__(self, sides: Sides, level: str, budget: Budget) -> None:
        self.sides, self.level, self.budget = sides, level, budget
        self.order = card_types(sides.left)
        self.steps = 0

    def attempt(self, game: DiffGame) -> Found | None:
        """``game`` played leniently on both sides: the game as played up to its first difference, if the
        sides differ within its decisions."""
        if game.composition is not None and not valid_composition(self.sides.left, game.composition, game.target):
            return None
        self.budget.spend()
        self.steps += 1
        played = play_pair(self.sides.left, self.sides.right, game, choose=_lenient(game.choices),
                           chance=Chance(make=_following(game.orders)), level=self.level)
        if played.split is None:
            return None
        return Found(replace(game, choices=tuple(played.choices), orders=played.whole_orders), played.split)

    def better(self, best: Found, game: DiffGame) -> Found:
        """``best``, or the game ``game`` leads to when it is smaller."""
        found = self.attempt(game)
        return found if found is not None and _smaller(found.game, best.game) else best

    def custom(self, game: DiffGame, deck: Sequence[str]) -> DiffGame:
        return replace(game, deck=tuple(deck), composition=composition_of(deck, self.order))

    def isolate(self, best: Found) -> Found:
        """``best``, or the round of its first difference played as the first round of a game of its own (the
        cards drawn in that round, in the order drawn, on top of the deck; that round's Dealer and decisions;
        totals at zero) when the sides still differ there."""
        game = best.game
        if rounds_of(best.split) <= 1:
            return best
        trace = side_trace(self.sides.left, game)
        if trace is None:
            return best
        document = TraceDocument.of(trace)
        entries = [list(document.start_events or ()), *(list(d.events or ()) for d in document.decisions)]
        last = next((i for i in range(len(entries) - 1, -1, -1)
                     if any(e.get("event") == "round_start" for e in entries[i])), None)
        if not last:
            return best
        events = entries[last]
        start = max(i for i, e in enumerate(events) if e.get("event") == "round_start")
        dealer = events[start].get("dealer")
        drawn = [e["card"] for e in events[start:] if e.get("event") == "draw"]
        for entry in entries[last + 1:]:
            drawn.extend(e["card"] for e in entry if e.get("event") == "draw")
        if not drawn or not isinstance(dealer, int):
            return best
        if self.sides.deck_free:
            deck = (*drawn, drawn[-1])
            candidate = self.custom(replace(game, dealer=dealer, choices=game.choices[last:], orders=()), deck)
        else:
            rest = Counter(game.deck)
            rest.subtract(drawn)
            if min(rest.values(), default=0) < 0:
                return best
            candidate = replace(game, deck=(*drawn, *sorted(rest.elements())), dealer=dealer,
                                choices=game.choices[last:], orders=())
        return self.better(best, candidate)

    def greedy(self, found: Found) -> Found:
        best = self.isolate(found)
        sides = self.sides
        if best.game.dealer:
            best = self.better(best, replace(best.game, dealer=0))
        if sides.deck_free:
            played = play_pair(sides.left, sides.right, best.game, choose=_lenient(best.game.choices),
                               chance=Chance(make=_following(best.game.orders)), level=self.level)
            drawn = max(played.drawn, 1)
            for size in (drawn, drawn + 1):
                if size < len(best.game.deck):
                    best = self.better(best, self.custom(best.game, best.game.deck[:size]))
            changed = True
            while changed:
                changed = False
                for index in range(len(best.game.deck) - 1, -1, -1):
                    deck = best.game.deck
                    if index >= len(deck) or len(deck) == 1:
                        continue
                    kept = self.better(best, self.custom(best.game, deck[:index] + deck[index + 1:]))
                    if kept is not best:
                        best, changed = kept, True
        low = sides.player_counts().start
        while best.game.players > low:
            fewer = self.better(best, replace(best.game, players=best.game.players - 1,
                                              dealer=min(best.game.dealer, best.game.players - 2)))
            if fewer is best:
                break
            best = fewer
        changed = True
        while changed:
            changed = False
            for index in range(len(best.game.choices) - 1, -1, -1):
                choices = best.game.choices
                if index >= len(choices):
                    continue
                kept = self.better(best, replace(best.game, choices=choices[:index] + choices[index + 1:]))
                if kept is not best:
                    best, changed = kept, True
        return best


MOST_CARDS = 8
"""The largest deck the exhaustive search after the greedy steps tries."""

NUMBERS_KEPT = 3
"""Plain Number values that search keeps (the lowest of the deck, as many as the game had, up to this)."""


def focused_types(ruleset: Ruleset, game: DiffGame) -> tuple[str, ...]:
    """The card types the exhaustive search after the greedy steps draws from: the game's own cards but its
    plain Numbers, which become the lowest plain Numbers of the deck (as many different values as the game
    had, up to :data:`NUMBERS_KEPT`; a 0 only when the game had one), in the order of the ruleset's deck."""
    held = {card(text) for text in game.deck}
    values = {c.value for c in held if c.is_number and c.special is None}
    kinds = card_types(ruleset)
    plain = sorted({card(t).value for t in kinds if card(t).is_number and card(t).special is None})
    if 0 not in values:
        plain = [v for v in plain if v] or plain  # a Number worth nothing stands in for none of them
    kept = set(plain[:min(len(values), NUMBERS_KEPT)])
    out = []
    for text in kinds:
        c = card(text)
        if c.is_number and c.special is None:
            if c.value in kept:
                out.append(text)
        elif c in held:
            out.append(text)
    return tuple(out)


def side_trace(ruleset: Ruleset, game: DiffGame) -> dict[str, Any] | None:
    """The trace of ``game`` on one side, with observations (None when that side cannot start it)."""
    try:
        return record_choices(setup_ruleset(ruleset, game), game.players, game.dealer, game.deck, game.choices,
                              game.orders, strict=False)
    except Flip7Error:
        return None


def rounds_of(split: Split) -> int:
    """The rounds a game has begun by its first difference (as the sides' observations there say)."""
    rounds = [o.get("round") for o in (split.left, split.right) if o is not None]
    return max([r for r in rounds if isinstance(r, int)] or [1])


def minimise(sides: Sides, found: Found, budget: Budget, level: str = OBSERVATIONS,
             reshuffles: int = 1) -> Shrunk:
    """The smallest game found from ``found`` within the budget (see the module's description)."""
    shrinker = _Shrinker(sides, level, budget)
    best = found
    budget.stage = "shrinking"
    try:
        best = shrinker.greedy(found)
    except Spent:
        return Shrunk(best, steps=shrinker.steps)
    game = best.game
    if not sides.deck_free:
        return Shrunk(best, steps=shrinker.steps)
    bound = Bound(min(len(game.deck), MOST_CARDS), game.players, game.key[0], focused_types(sides.left, game),
                  sides.player_counts().start, (game.target,), max(reshuffles, len(game.orders)),
                  rounds_of(best.split))
    budget.stage = "shrinking: every smaller game of its card types"
    covered = search(sides.left, sides.right, bound, budget, level)
    if covered.found is not None and not _smaller(best.game, covered.found.game):
        best = covered.found
    return Shrunk(best, bound, covered, shrinker.steps)
