"""A plain enumeration of small games on two rulesets, written apart from the rules diff's lazy search, to
check it: every whole deck of the given card types, every reshuffle order (every permutation of the
discard pile), every choice; each game played from its start on both sides with the reference's public
``make_game``, compared after the start and after every decision. It knows nothing of lazy decks, lazy
orders or frontiers; it shares only the bound's meaning (a game is followed until both sides would pass the
rounds or reshuffles allowed in the same step) and the notion of a deck both sides take.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import permutations, product
from typing import Any

from flip7_spec.cards import Card, card
from flip7_spec.errors import Flip7Error
from flip7_spec.machine import Game
from flip7_spec.play import check_reachable, make_game
from flip7_spec.rulesets import Ruleset, ruleset_from_json


class _Need(Flip7Error):
    """A reshuffle needs an order the enumeration has not chosen yet (a Flip7Error: the machine passes it on
    from the reshuffler as raised on purpose)."""

    def __init__(self, discard: list[str]) -> None:
        self.discard = discard


class _Past(Flip7Error):
    """The side passed the reshuffles allowed."""


def valid(left: Ruleset, deck: Sequence[str], target: int | None) -> Ruleset | None:
    """``left`` with ``deck``'s composition (and the target), if that is a ruleset some game can end under."""
    data = left.to_json()
    data["deck"] = dict(Counter(deck))
    if target is not None:
        data["options"] = {**data["options"], "target_score": target}
    try:
        ruleset = ruleset_from_json(data)
        check_reachable(ruleset)
    except Flip7Error:
        return None
    return ruleset


def _with(ruleset: Ruleset, composition: Ruleset) -> Ruleset:
    return replace(ruleset, deck=composition.deck, target_score=composition.target_score)


def _side(ruleset: Ruleset, players: int, deck: list[Card], orders: list[list[str]], limit: int | None
          ) -> tuple[Game, list[int]]:
    used = [0]

    def reshuffle(discard: list[Card]) -> list[Card]:
        index = used[0]
        if limit is not None and index >= limit:
            raise _Past()
        used[0] += 1
        if index >= len(orders):
            raise _Need(sorted(c.text for c in discard))
        if Counter(orders[index]) != Counter(c.text for c in discard):
            raise _Need(["<mismatch>"])
        return [card(t) for t in orders[index]]

    return make_game(ruleset, players, deck, 0, reshuffle, record=False), used


def play(left: Ruleset, right: Ruleset, players: int, deck: Sequence[str], orders: list[list[str]],
         choices: Sequence[Any], rounds: int | None, reshuffles: int | None) -> tuple[str, Any]:
    """One game on both sides: ("split", decisions), ("need", discard), ("choice", options), ("end", None)."""
    limit = (rounds, reshuffles)
    while True:
        outcome = _once(left, right, players, deck, orders, choices, *limit)
        if outcome[0] != "one-sided":
            return outcome
        # one side only passed the bound in that step: play it again past the bound, up to that step
        return _once(left, right, players, deck, orders, choices[:outcome[1]], None, None, upto=outcome[1])


def _once(left: Ruleset, right: Ruleset, players: int, deck: Sequence[str], orders: list[list[str]],
          choices: Sequence[Any], rounds: int | None, reshuffles: int | None, upto: int | None = None
          ) -> tuple[str, Any]:
    games = []
    cards = [card(t) for t in deck]
    for ruleset in (left, right):
        games.append(_side(ruleset, players, cards, orders, reshuffles))
    states: list[Any] = []
    passed = []
    for game, _ in games:
        try:
            game.start()
            passed.append(rounds is not None and game.round > rounds)
            states.append(game.observation())
        except _Past:
            passed.append(True)
            states.append(None)
        except _Need as need:
            return ("mismatch", 0) if need.discard == ["<mismatch>"] else ("need", need.discard)
    step = 0
    while True:
        if all(passed):
            return ("end", None)
        if any(passed):
            return ("one-sided", step)
        if states[0] != states[1]:
            return ("split", step)
        a, b = games[0][0], games[1][0]
        if a.pending is None or (upto is not None and step >= upto):
            return ("end", None)
        if step >= len(choices):
            return ("choice", list(a.pending.options))
        choice = choices[step]
        step += 1
        states, passed = [], []
        for game in (a, b):
            try:
                game.apply(choice)
                passed.append(rounds is not None and game.round > rounds)
                states.append(game.observation())
            except _Past:
                passed.append(True)
                states.append(None)
            except _Need as need:
                if need.discard == ["<mismatch>"]:
                    return ("split", step)
                return ("need", need.discard)


def _orders(discard: list[str]) -> Iterator[list[str]]:
    yield from (list(p) for p in sorted(set(permutations(discard))))


def smallest_split(left: Ruleset, right: Ruleset, alphabet: Sequence[str], cards: int, players: Sequence[int],
                   decisions: int, rounds: int, reshuffles: int, targets: Sequence[int | None],
                   below: tuple[int, int, int] | None = None) -> tuple[int, int, int] | None:
    """The smallest (decisions, players, cards) of a game within the bound on which the sides differ (only
    keys under ``below`` are looked for, when given), or None."""
    best: tuple[int, int, int] | None = None
    for p in players:
        for size in range(1, cards + 1):
            for deck in product(alphabet, repeat=size):
                for target in targets:
                    if best is not None and (0, p, size) >= best:
                        continue
                    limit = min(decisions, best[0]) if best is not None else decisions
                    if below is not None and (0, p, size) >= below:
                        continue
                    composition = valid(left, deck, target)
                    if composition is None:
                        continue
                    a, b = _with(left, composition), _with(right, composition)
                    found = _search(a, b, p, deck, limit, rounds, reshuffles)  # the fewest decisions
                    if found is not None:
                        key = (found, p, size)
                        if below is not None and key >= below:
                            continue
                        if best is None or key < best:
                            best = key
    return best


def _search(left: Ruleset, right: Ruleset, players: int, deck: Sequence[str], decisions: int, rounds: int,
            reshuffles: int) -> int | None:
    """The fewest decisions after which some game of this deck tells the sides apart (up to ``decisions``)."""
    best: int | None = None
    stack: list[tuple[list[list[str]], list[Any]]] = [([], [])]
    while stack:
        orders, choices = stack.pop()
        kind, value = play(left, right, players, deck, orders, choices, rounds, reshuffles)
        if kind == "split":
            best = value if best is None else min(best, value)
        elif kind == "mismatch":
            best = 0
        elif kind == "need":
            stack.extend(([*orders, order], choices) for order in _orders(value))
        elif kind == "choice" and len(choices) < decisions and (best is None or len(choices) + 1 < best):
            stack.extend((orders, [*choices, option]) for option in value)
    return best
