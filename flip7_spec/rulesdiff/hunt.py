"""The search beyond the bound: aimed games and Hypothesis-driven games on whole or small decks, until one
tells the two sides apart.

Aimed games are the coverage work's (:mod:`flip7_spec.conformance.hunts`): a game steered on one side's
reference toward a rare situation (a Flip 7, Actions meeting players in every state, a Flip Three's tangle of
set-aside cards, a tie, everybody bust, the bottom of the pile, a small or tiny deck), often under a low
target score; the game it records (deck, choices, reshuffle orders) is then played on both sides. The sides
take turns being the one steered. Hypothesis then draws games whole (a player count, a Dealer, a target
score, a custom deck of the rulesets' card types or a shuffled deck of their own, the choices, the
reshuffles) and, when one tells the sides apart, shrinks it. Everything is drawn from generators seeded by
the diff's seed: the same seed and budget find the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from flip7_spec.cards import Card
from flip7_spec.conformance.hunts import HUNTS, LOW_TARGETS, Aim, aimed_game, deck_hunt
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision
from flip7_spec.machine import Game
from flip7_spec.rulesdiff.budget import Budget, Spent
from flip7_spec.rulesdiff.exhaustive import Found, valid_composition
from flip7_spec.rulesdiff.lockstep import (
    OBSERVATIONS,
    Chance,
    DiffGame,
    NeedChoice,
    composition_of,
    play_pair,
)
from flip7_spec.rulesdiff.sides import Sides, card_types

HUNTED = tuple(h for h in dict.fromkeys(HUNTS) if h != "still_deck")
"""The hunts of the aimed games (a still deck needs a round limit the sides may not share)."""

DECK_HUNTS = ("small_deck", "tiny_deck")
MOST_PLAYERS = 4
"""The largest player count the search tries above the fewest the rulesets allow."""


@dataclass
class Tried:
    """How many games each part of the search played (each on both sides)."""

    aimed: int = 0
    drawn: int = 0

    def to_json(self) -> dict[str, int]:
        return {"aimed": self.aimed, "hypothesis": self.drawn}


def _players(sides: Sides) -> list[int]:
    counts = sides.player_counts()
    return list(counts)[:MOST_PLAYERS]


def aimed_games(sides: Sides, seed: str) -> Iterator[DiffGame]:
    """Aimed games without end, each played on one side (the left, then the right, in turn) and made a game
    for both: the setup it took (a small or tiny deck, a low target score when the sides allow one)."""
    rng = random.Random(f"{seed}:diff:aimed")
    hunts = [h for h in HUNTED if sides.deck_free or h not in DECK_HUNTS]
    counts = _players(sides)
    index = 0
    while True:
        hunt = hunts[index % len(hunts)]
        ruleset = sides.left if index % 2 == 0 else sides.right
        players = rng.choice(counts)
        target: int | None = None
        if sides.target_free and rng.random() < 0.85:
            target = rng.choice(LOW_TARGETS)
            ruleset = ruleset.with_options(target_score=target) if target != ruleset.target_score else ruleset
        composition: tuple[tuple[str, int], ...] | None = None
        if hunt in DECK_HUNTS:
            made = deck_hunt(ruleset, hunt, players, None if sides.target_free else {}, rng)
            if made is None:
                index += 1
                continue
            composition = made.deck
            if made.target_score != sides.own_target:
                target = made.target_score
            ruleset = made
        deck = ruleset.deck_cards(players)
        specials = tuple(sorted({c.text for c in deck if not c.is_number or c.special is not None or c.value == 0}))
        try:
            played = aimed_game(Aim(ruleset, players, hunt, specials), seed, index).record
        except Flip7Error:
            index += 1
            continue
        index += 1
        yield DiffGame(players, played.setup.dealer, played.setup.deck, composition,
                       target if target != sides.own_target else None, played.choices, played.orders)


KEPT = 24
"""Aimed games that tell the sides apart the search plays before it keeps the smallest of them (aimed games
play on to the game's end, so the first to show a difference often shows it late)."""


def search_aimed(sides: Sides, seed: str, budget: Budget, tried: Tried, level: str = OBSERVATIONS) -> Found | None:
    """Aimed games until :data:`KEPT` of them tell the sides apart or the budget is spent: the smallest of
    them, up to its first difference."""
    budget.stage = "aimed games"
    found: list[Found] = []
    try:
        for game in aimed_games(sides, seed):
            budget.spend()  # the game played on one side
            budget.spend()  # and on both
            tried.aimed += 1
            played = play_pair(sides.left, sides.right, game, level=level)
            if played.split is not None:
                found.append(Found(_cut(game, played.choices, played.whole_orders), played.split))
                if len(found) >= KEPT:
                    break
    except Spent:
        pass
    return min(found, key=lambda f: f.game.key, default=None)


def _cut(game: DiffGame, choices: list[Choice], orders: tuple[tuple[str, ...], ...]) -> DiffGame:
    """``game`` with only the choices made and the reshuffles used up to its first difference."""
    return DiffGame(game.players, game.dealer, game.deck, game.composition, game.target, tuple(choices), orders)


# ---- Hypothesis ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Drawn:
    """A game as Hypothesis draws it: the setup, option indices for the decisions, and a seed for each
    reshuffle's order (0 for those past the last)."""

    game: DiffGame
    picks: tuple[int, ...]
    shuffles: tuple[int, ...]


def _drawn_games(sides: Sides) -> st.SearchStrategy[_Drawn]:
    counts = _players(sides)
    targets: list[int | None] = [None, 1, 15, 60] if sides.target_free else [None]
    types = card_types(sides.left)
    order = types

    @st.composite
    def games(draw: Any) -> _Drawn:
        players = draw(st.sampled_from(counts))
        dealer = draw(st.integers(0, players - 1))
        target = draw(st.sampled_from(targets))
        if sides.deck_free and draw(st.booleans()) is False:
            # different cards first (so that seven different Numbers come easily), then any
            different = draw(st.lists(st.sampled_from(types), min_size=1, max_size=len(types), unique=True))
            deck = (*different, *draw(st.lists(st.sampled_from(types), max_size=24)))
            composition: tuple[tuple[str, int], ...] | None = composition_of(deck, order)
        else:
            deck = tuple(c.text for c in draw(st.permutations(sides.left.deck_cards(players))))
            composition = None
        picks = tuple(draw(st.lists(st.integers(0, 5), max_size=80)))
        shuffles = tuple(draw(st.lists(st.integers(0, 1 << 16), max_size=6)))
        return _Drawn(DiffGame(players, dealer, deck, composition, target), picks, shuffles)

    return games()


def _picking(picks: tuple[int, ...]) -> Callable[[int, Decision, Game], Choice]:
    """Choose option ``picks[n]`` (modulo the options) for the n-th decision; stop when they run out."""

    def choose(made: int, decision: Decision, game: Game) -> Choice:
        if made >= len(picks):
            raise NeedChoice(decision)
        return decision.options[picks[made] % len(decision.options)]

    return choose


def _shuffled(seeds: tuple[int, ...]) -> Callable[[list[Card]], list[Card]]:
    """Reshuffle orders: the discard pile sorted, then shuffled by the next seed."""
    used = [0]

    def order(discard: list[Card]) -> list[Card]:
        index = used[0]
        used[0] += 1
        cards = sorted(discard, key=lambda c: c.text)
        random.Random(seeds[index] if index < len(seeds) else 0).shuffle(cards)
        return cards

    return order


def search_drawn(sides: Sides, budget: Budget, tried: Tried, level: str = OBSERVATIONS) -> Found | None:
    """Games drawn by Hypothesis until one tells the sides apart, shrunk by Hypothesis (its order: fewer
    decisions, smaller decks, smaller player counts), within the budget. Derandomized: the same code and
    budget draw the same games. A game is played once: asked again, the answer is the same (also once the
    budget is spent, when a game not played yet counts as one that does not differ)."""
    budget.stage = "Hypothesis games"
    answers: dict[_Drawn, bool] = {}

    def differs(drawn: _Drawn) -> bool:
        known = answers.get(drawn)
        if known is not None:
            return known
        game = drawn.game
        answer = False
        if budget.left and (game.composition is None or
                            valid_composition(sides.left, game.composition, game.target)):
            budget.spend()
            tried.drawn += 1
            played = play_pair(sides.left, sides.right, game, choose=_picking(drawn.picks),
                               chance=Chance(make=_shuffled(drawn.shuffles)), level=level)
            answer = played.split is not None
        answers[drawn] = answer
        return answer

    try:
        drawn = find(_drawn_games(sides), differs, settings=settings(
            max_examples=max(1, budget.left), derandomize=True, database=None, deadline=None,
            phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck)))
    except NoSuchExample:
        return None
    game = drawn.game
    played = play_pair(sides.left, sides.right, game, choose=_picking(drawn.picks),
                       chance=Chance(make=_shuffled(drawn.shuffles)), level=level)
    if played.split is None:
        return None
    return Found(_cut(game, played.choices, played.whole_orders), played.split)
