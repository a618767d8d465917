"""Rulesets, player counts, draw piles and whole game setups, and the reshuffle orders drawn during a game.

Chance is explicit: a draw pile is a permutation of the ruleset's deck (top card first), and a reshuffle order
a permutation of the discard pile, drawn from Hypothesis at the moment the reshuffle is needed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final, Protocol

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from flip7_spec.cards import Card, card
from flip7_spec.play import make_game
from flip7_spec.rulesets import Ruleset, preset, preset_names
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.trace.record import GameSetup


class Draw(Protocol):
    """What draws a value from a strategy: the ``draw`` of :func:`hypothesis.strategies.composite`, or the
    ``draw`` method of a :func:`hypothesis.strategies.data` object."""

    def __call__(self, strategy: st.SearchStrategy[Any], /) -> Any: ...


SMALL_TARGETS: Final = (200, 100, 50, 25, 10, 1)
"""Target scores :func:`rulesets` draws from, the official 200 first (it is what shrinking returns to)."""

# Values tried for the options that take any whole number (the others take each of their listed values).
_INT_OPTION_VALUES: Final[dict[str, tuple[int, ...]]] = {
    "target_score": SMALL_TARGETS,
    "flip7_bonus": (15, 0, 30),
    "players_per_deck": (18, 3),
    "min_players": (3, 1),
}
# Options left at the preset's value: they restrict player counts rather than change the rules.
_FIXED_OPTIONS: Final = frozenset({"max_players"})


def _finishes(ruleset: Ruleset) -> bool:
    """Whether the reference starts and finishes a few games under ``ruleset`` without an exception."""
    players = max(ruleset.min_players, 3)
    if ruleset.max_players:
        players = min(players, ruleset.max_players)
    policy = threshold_policy(15)
    rng = random.Random(0)
    try:
        for seed in range(3):
            deck = ruleset.deck_cards(players)
            random.Random(seed).shuffle(deck)
            game = make_game(ruleset, players, deck, 0, _sorted_reshuffle, record=False)
            game.start()
            for _ in range(5_000):
                if game.pending is None:
                    break
                game.apply(policy(game, game.pending, rng))
            if not game.over:
                return False
    except Exception:
        return False
    return True


def _sorted_reshuffle(discard: list[Card]) -> list[Card]:
    return sorted(discard, key=lambda c: c.text)


@cache
def playable_presets() -> tuple[str, ...]:
    """The presets of :func:`~flip7_spec.rulesets.preset_names` under which the reference can start and finish
    games (checked once per process): ``flip7`` and ``flip7-no-deal`` always, the Vengeance presets once
    their engine plays."""
    return tuple(name for name in preset_names() if _finishes(preset(name)))


def option_values(ruleset: Ruleset) -> dict[str, tuple[Any, ...]]:
    """For each option that applies to ``ruleset``'s game, the values :func:`rulesets` tries, the preset's
    own value first (so that shrinking returns to it)."""
    out: dict[str, tuple[Any, ...]] = {}
    for name, spec in ruleset.OPTIONS.items():
        if name in _FIXED_OPTIONS:
            continue
        current = getattr(ruleset, name)
        allowed = spec.values()
        values: tuple[Any, ...] = tuple(allowed) if allowed is not None else _INT_OPTION_VALUES.get(name, ())
        if name == "min_players" and ruleset.max_players:
            values = tuple(v for v in values if v <= ruleset.max_players)  # within the preset's own limit
        out[name] = (current, *(v for v in values if v != current))
    return out


def rulesets(games: Sequence[str] | None = None, names: Sequence[str] | None = None,
             vary_options: bool = True, targets: Sequence[int] = SMALL_TARGETS) -> st.SearchStrategy[Ruleset]:
    """Rulesets: a playable preset (of ``names``, or of ``games``, default every playable one) with, when
    ``vary_options``, any combination of its options' values (:func:`option_values`; target scores from
    ``targets``). Shrinks towards the preset as it is."""
    available = [n for n in playable_presets() if names is None or n in names]
    chosen = [preset(n) for n in available]
    chosen = [r for r in chosen if games is None or r.game in games]
    if not chosen:
        raise InvalidArgument(f"no playable preset among names={names!r} games={games!r}; "
                              f"playable: {', '.join(playable_presets())}")
    if not vary_options:
        return st.sampled_from(chosen)

    def with_options(base: Ruleset) -> st.SearchStrategy[Ruleset]:
        values = option_values(base)
        if "target_score" in values:
            values["target_score"] = tuple(dict.fromkeys([base.target_score, *targets]))
        return st.fixed_dictionaries({k: st.sampled_from(v) for k, v in values.items()}).map(
            lambda options: base.with_options(**options))

    return st.sampled_from(chosen).flatmap(with_options)


_rulesets = rulesets  # for the functions below whose ``rulesets`` parameter hides the function


def player_counts(ruleset: Ruleset, most: int = 6, two_decks: bool = True) -> st.SearchStrategy[int]:
    """Player counts ``ruleset`` allows: from its minimum to ``most`` (or its maximum), each as likely, and,
    with ``two_decks`` when the ruleset allows it, as likely as any of them, one player more than a deck
    serves (19 by default: a second deck is shuffled in, clause F7-TWO-DECKS). Shrinks towards the minimum."""
    low = max(ruleset.min_players, 1)
    high = max(min(ruleset.max_players or most, most), low)
    counts = list(range(low, high + 1))
    more = ruleset.players_per_deck + 1
    if two_decks and more > high and (not ruleset.max_players or ruleset.max_players >= more):
        counts.append(more)
    return st.sampled_from(counts)


def deck_texts(ruleset: Ruleset, players: int) -> list[str]:
    """The texts of the whole deck for ``players`` players, in composition order."""
    return [c.text for c in ruleset.deck_cards(players)]


def draw_piles(ruleset: Ruleset, players: int) -> st.SearchStrategy[list[str]]:
    """Draw piles (top card first): every permutation of the ruleset's deck for ``players`` players.
    Shrinks towards the composition order."""
    return st.permutations(deck_texts(ruleset, players))


def _take(pool: list[str], top: Sequence[str], where: str) -> list[str]:
    rest = list(pool)
    for text in top:
        canonical = card(text).text
        if canonical not in rest:
            raise InvalidArgument(f"{where}: card {canonical} is not left in the deck "
                                  f"({Counter(top)[text]} asked)")
        rest.remove(canonical)
    return rest


def rigged_piles(ruleset: Ruleset, players: int,
                 top: Sequence[str] | st.SearchStrategy[Sequence[str]]) -> st.SearchStrategy[list[str]]:
    """Draw piles that start with the cards ``top`` (a list of card texts, or a strategy of such lists) in
    that order, the rest of the deck following in any order. Used to reach rare states from the first
    deal. Raises ``InvalidArgument`` when ``top`` asks for more copies of a card than the deck holds."""
    pool = deck_texts(ruleset, players)
    tops = top if isinstance(top, st.SearchStrategy) else st.just(list(top))

    def rest_after(chosen: Sequence[str]) -> st.SearchStrategy[list[str]]:
        canonical = [card(t).text for t in chosen]
        return st.permutations(_take(pool, canonical, "rigged_piles")).map(lambda rest: canonical + rest)

    return tops.flatmap(rest_after)


def special_tops(ruleset: Ruleset, players: int, most: int = 8) -> st.SearchStrategy[list[str]]:
    """Up to ``most`` of the deck's Action, Modifier and special Number cards (The Zero, Unlucky 7, Lucky 13),
    in any order: put on top of a pile, they make the first round a tangle of Actions (Flip Threes inside
    Flip Threes, Second Chances passed on, Steals of a Lucky 13, ...)."""
    specials = [t for t in deck_texts(ruleset, players) if not card(t).is_number or card(t).special is not None]
    if not specials:
        return st.just([])
    return st.lists(st.integers(0, len(specials) - 1), unique=True, max_size=most).map(
        lambda indices: [specials[i] for i in indices])


@st.composite
def game_setups(draw: st.DrawFn, rulesets: st.SearchStrategy[Ruleset] | None = None,
                players: Callable[[Ruleset], st.SearchStrategy[int]] | None = None,
                rigged: bool = True) -> GameSetup:
    """Game setups: a ruleset (default :func:`rulesets`), a player count (default :func:`player_counts`), any
    Dealer, and a draw pile: a plain permutation, or (with ``rigged``, about one time in three) one with
    :func:`special_tops` on top."""
    ruleset = draw(rulesets if rulesets is not None else _rulesets())
    count = draw(players(ruleset) if players is not None else player_counts(ruleset))
    dealer = draw(st.integers(0, count - 1))
    if rigged and draw(st.integers(0, 2)) == 2:
        deck = draw(rigged_piles(ruleset, count, special_tops(ruleset, count)))
    else:
        deck = draw(draw_piles(ruleset, count))
    return GameSetup(ruleset, count, dealer, tuple(deck))


def reshuffle_orders(discard: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """Reshuffle orders of a discard pile (top card first): every permutation of it."""
    return st.permutations(list(discard))
