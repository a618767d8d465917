"""The bounded exhaustive search: every game within a bound, in the order of the search.

Every game of at most ``cards`` cards drawn from the card types of the rulesets' deck, at most ``players``
players (from the fewest the rulesets allow), every Dealer, each target score of the bound, every reshuffle
order and at most ``decisions`` decisions, is played on both sides. The deck is chosen lazily (see
:mod:`flip7_spec.rulesdiff.lockstep`): a card position is tried with every card type only when a game draws
it, so one play stands for every deck that differs only in cards never drawn. The games are taken by
increasing decisions, then players, then deck size (iterative deepening), so the first one found on which
the two sides differ is a smallest game in that order: no game before it in the order, within the bound,
tells them apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice
from flip7_spec.play import check_reachable
from flip7_spec.rulesdiff.budget import Budget, Spent
from flip7_spec.rulesdiff.lockstep import (
    HOLE,
    OBSERVATIONS,
    Chance,
    Cut,
    DiffGame,
    NeedCard,
    NeedChoice,
    NeedDraw,
    Split,
    Unplayable,
    composition_of,
    play_pair,
    scripted_choices,
)
from flip7_spec.rulesets import Ruleset, ruleset_from_json


@dataclass(frozen=True, slots=True)
class Bound:
    """The games the exhaustive search covers: decks of 1 to ``cards`` cards of the ``alphabet``, ``low`` to
    ``players`` players, the Dealer in seat 0 (or ``every_dealer``), the ``targets`` (None: the rulesets'
    own), up to ``decisions`` decisions, ``reshuffles`` reshuffles and ``rounds`` rounds (a game is followed
    up to its last decision before a side needs one more)."""

    cards: int
    players: int
    decisions: int
    alphabet: tuple[str, ...]
    low: int
    targets: tuple[int | None, ...] = (None,)
    reshuffles: int = 1
    rounds: int = 2
    every_dealer: bool = False

    def describe(self, own_target: int, decisions: int | None = None) -> str:
        """The bound in words (with ``decisions`` instead of the bound's own, when given)."""
        upto = self.decisions if decisions is None else decisions
        players = f"{self.low} players" if self.low == self.players else f"{self.low} to {self.players} players"
        targets = " or ".join(str(own_target if t is None else t) for t in self.targets)
        dealer = "every Dealer" if self.every_dealer else "the Dealer in seat 0"
        return (f"every deck of 1 to {self.cards} cards drawn from {len(self.alphabet)} card types "
                f"({' '.join(self.alphabet)}), {players}, {dealer}, target score {targets}, every reshuffle "
                f"order, up to {upto} decision{'s' * (upto != 1)}, {self.reshuffles} "
                f"reshuffle{'s' * (self.reshuffles != 1)} and {self.rounds} round{'s' * (self.rounds != 1)}")

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, "players": [self.low, self.players], "decisions": self.decisions,
                "reshuffles": self.reshuffles, "rounds": self.rounds, "card_types": list(self.alphabet),
                "every_dealer": self.every_dealer,
                "targets": [t for t in self.targets]}


@dataclass(frozen=True, slots=True)
class Found:
    """A game on which the sides differ, and where."""

    game: DiffGame
    split: Split


@dataclass
class Covered:
    """What the search covered: ``levels``, the decision counts searched completely (-1: none); ``plays``,
    the games played; ``games``, the games of the last level searched completely that they stand for (a play
    stands for every deck that differs only in cards it never drew); ``found``, the first game on which the
    sides differ; ``complete``: the whole bound was searched."""

    levels: int = -1
    plays: int = 0
    games: int = 0
    found: Found | None = None
    complete: bool = False


@dataclass(frozen=True, slots=True)
class _Setup:
    """The part of a game the search fixes first: players, Dealer, target."""

    players: int
    dealer: int
    target: int | None


@dataclass(frozen=True, slots=True)
class _Node:
    """A partly chosen game: the deck's first cards (``exact``: the whole deck; otherwise at least one more
    card follows, not chosen yet), the reshuffle orders and the choices so far."""

    prefix: tuple[str, ...]
    exact: bool
    orders: tuple[tuple[str, ...], ...]
    choices: tuple[Choice, ...]

    def least(self, sized: bool) -> int:
        """The smallest deck this node stands for: its prefix when exact; otherwise one card more, or (when
        the size is ``sized``: a pile that runs out matters only when a card is drawn from it) the prefix
        itself, unless the play needs another card (the exact node is then played on its own)."""
        return len(self.prefix) if self.exact else max(1, len(self.prefix) + (not sized))


_ROOT: Final = _Node((), False, (), ())


@lru_cache(maxsize=1 << 16)
def valid_composition(ruleset: Ruleset, composition: tuple[tuple[str, int], ...], target: int | None) -> bool:
    """Whether ``ruleset`` takes ``composition`` as its custom deck with target score ``target`` (None: its
    own): a deck with a Number card under which some game can end."""
    data = ruleset.to_json()
    data["deck"] = dict(composition)
    if target is not None:
        data["options"] = {**data["options"], "target_score": target}
    try:
        check_reachable(ruleset_from_json(data))
    except Flip7Error:
        return False
    return True


def completed(left: Ruleset, prefix: Sequence[str], size: int, alphabet: Sequence[str],
              target: int | None) -> tuple[str, ...] | None:
    """``prefix`` made into a whole deck of ``size`` cards that both sides take (the open positions filled
    with one card type, the first of ``alphabet`` that makes the deck valid), or None when no filling does."""
    if len(prefix) == size:
        deck = tuple(prefix)
        return deck if valid_composition(left, composition_of(deck, alphabet), target) else None
    for filler in alphabet:
        deck = (*prefix, *([filler] * (size - len(prefix))))
        if valid_composition(left, composition_of(deck, alphabet), target):
            return deck
    return None


def _drawing(orders: tuple[tuple[str, ...], ...], reshuffle: int, text: str) -> tuple[tuple[str, ...], ...]:
    """``orders`` (the cards drawn from each reshuffle so far) with ``text`` drawn next from ``reshuffle``."""
    grown = [*orders, *([()] * (reshuffle + 1 - len(orders)))]
    grown[reshuffle] = (*grown[reshuffle], text)
    return tuple(grown)


def search(left: Ruleset, right: Ruleset, bound: Bound, budget: Budget, level: str = OBSERVATIONS) -> Covered:
    """Search every game within ``bound`` in the order of the search (decisions, then players, then deck size)
    for the first on which ``left`` and ``right`` differ at ``level``; stop there, or when the budget is
    spent (the decision counts searched completely are in the result's ``levels``).

    The deck's size is chosen as lazily as its cards: a game whose deck has at least one card more than it
    draws plays alike whatever that size, so a card drawn at a new position is either the deck's last
    (an exact deck) or not (one more position stays open). Each level of decisions starts from the games the
    level before stopped at its last decision (its frontier), so no game is played twice for its first
    decisions; within a level, a difference found with a deck of k cards leaves only smaller decks to try."""
    done = Covered()
    counts = range(bound.low, bound.players + 1)
    setups = {p: [_Setup(p, dealer, target) for target in bound.targets
                  for dealer in range(p if bound.every_dealer else 1)] for p in counts}
    frontier: dict[_Setup, list[_Node]] = {setup: [_ROOT] for p in counts for setup in setups[p]}
    ended = 0  # games that ended (or were cut) before the level's last decision, counted once
    try:
        for decisions in range(bound.decisions + 1):
            reached: dict[_Setup, list[_Node]] = {}
            at_level = 0
            for players in counts:
                best: Found | None = None
                for setup in setups[players]:
                    step = _Level(left, right, setup, decisions, bound, budget, level, done)
                    found = step.run(frontier[setup], len(best.game.deck) if best else None)
                    if found is not None:
                        best = found
                    reached[setup] = step.frontier
                    ended += step.ended
                    at_level += step.cut
                if best is not None:
                    done.found = best
                    return done
            frontier = reached
            done.levels = decisions
            done.games = ended + at_level
        done.complete = True
    except Spent:
        pass
    return done


class _Level:
    """One level of the search for one setup: from the games of the level before, every game with one more
    decision, depth first."""

    def __init__(self, left: Ruleset, right: Ruleset, setup: _Setup, decisions: int, bound: Bound,
                 budget: Budget, level: str, done: Covered) -> None:
        self.left, self.right, self.setup, self.decisions = left, right, setup, decisions
        self.bound, self.budget, self.level, self.done = bound, budget, level, done
        self.frontier: list[_Node] = []
        self.ended = 0
        self.cut = 0
        self.sized = all(r.played().reshuffle_moment != "when_emptied" for r in (left, right))
        """Whether a deck's size matters only once a card is drawn from an empty pile (not so when a side
        reshuffles as the last card is drawn)."""

    def _stands_for(self, node: _Node) -> int:
        """How many decks ``node``'s play stands for (every size and card of the open positions)."""
        if node.exact:
            return 1
        types = len(self.bound.alphabet)
        return sum(types ** (size - len(node.prefix)) for size in range(node.least(self.sized),
                                                                          self.bound.cards + 1))

    def _smallest_deck(self, node: _Node) -> tuple[str, ...] | None:
        """The smallest whole deck, both sides take, that ``node``'s play stands for (None: there is none)."""
        least = node.least(self.sized)
        sizes = [least] if node.exact else range(least, self.bound.cards + 1)
        for size in sizes:
            whole = completed(self.left, node.prefix, size, self.bound.alphabet, self.setup.target)
            if whole is not None:
                return whole
        return None

    def run(self, start: list[_Node], below: int | None) -> Found | None:
        """The game with the smallest deck (under ``below`` cards, when given) from ``start`` on which the
        sides differ after exactly this level's decisions (fewer were searched before), if one does; the
        games stopped at this level's last decision are kept in :attr:`frontier`."""
        left, right, setup, decisions = self.left, self.right, self.setup, self.decisions
        alphabet = self.bound.alphabet
        most = self.bound.cards
        best: Found | None = None
        stack = list(reversed(start))
        while stack:
            node = stack.pop()
            if below is not None and node.least(self.sized) >= below:
                continue  # a difference with a smaller deck is known
            prefix, orders, choices = node.prefix, node.orders, node.choices
            game = DiffGame(setup.players, setup.dealer, prefix, None, setup.target)
            deck: list[Any] = [*prefix] if node.exact else [*prefix, HOLE]
            self.budget.spend()
            self.done.plays += 1
            played = play_pair(left, right, game, deck=deck, choose=scripted_choices(choices),
                               chance=Chance(orders, limit=self.bound.reshuffles, lazy=True), level=self.level,
                               max_decisions=decisions, rounds=self.bound.rounds)
            stop = played.stop
            if isinstance(stop, NeedCard):
                children = []
                if self.sized and prefix:
                    children.append(_Node(prefix, True, orders, choices))  # the pile runs out here
                for text in alphabet:
                    grown = (*prefix, text)
                    if not self.sized and len(grown) <= most:
                        children.append(_Node(grown, True, orders, choices))
                    if len(grown) < most or (self.sized and len(grown) == most):
                        children.append(_Node(grown, False, orders, choices))
                stack.extend(reversed(children))
                continue
            if isinstance(stop, NeedDraw):
                drawn = played.orders
                stack.extend(_Node(prefix, node.exact, _drawing(drawn, stop.reshuffle, text), choices)
                             for text in reversed(stop.cards))
                continue
            if isinstance(stop, NeedChoice):
                stack.extend(_Node(prefix, node.exact, orders, (*choices, option))
                             for option in reversed(stop.decision.options))
                continue
            if isinstance(stop, Unplayable):
                continue
            whole = self._smallest_deck(node)
            if whole is None:
                continue  # no deck that starts so is one both sides take
            size = len(whole)
            split = played.split
            if split is not None:
                if split.decisions < decisions:
                    raise AssertionError("a difference the level before missed")  # the levels are exhaustive
                best = Found(DiffGame(setup.players, setup.dealer, whole, composition_of(whole, alphabet),
                                      setup.target, tuple(played.choices), played.whole_orders), split)
                below = size
                continue
            if played.over or isinstance(stop, Cut):
                self.ended += self._stands_for(node)
            else:
                self.frontier.append(_Node(prefix, node.exact, played.orders, tuple(played.choices)))
                self.cut += self._stands_for(node)
        return best
