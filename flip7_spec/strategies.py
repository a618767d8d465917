"""Hypothesis strategies for Flip 7 (and Flip 7: With a Vengeance, once it can be played).

Chance is always explicit, as everywhere in flip7-spec: a draw pile is a permutation of the ruleset's deck
(top card first), a reshuffle order is a permutation of the discard pile drawn from Hypothesis at the moment
the reshuffle is needed, and a decision is one of the pending decision's legal options chosen by
Hypothesis. A generated game is therefore a plain value (:class:`GameRecord`) that replays without any
random number generator, shrinks like any other Hypothesis value, and exports as a trace.

The strategies, from the smallest to the largest:

- :func:`rulesets`: presets and combinations of their options (:func:`playable_presets` says which presets);
- :func:`player_counts`: player counts a ruleset allows, above 18 (a second deck) included;
- :func:`draw_piles`, :func:`rigged_piles`, :func:`special_tops`: whole draw piles, plain or with chosen
  cards on top;
- :func:`game_setups`: a ruleset, a player count, a Dealer and a draw pile;
- :func:`choosers`, :func:`data_chooser`, :func:`index_chooser`, :func:`threshold_chooser`: decision policies;
- :func:`hands`: possible final hands of one player, for scoring;
- :func:`conform_games`: the games `flip7-spec conform` generates (the same generator), as traces;
- :func:`played_games` and :func:`rare_games`: whole games (or their first ``max_decisions`` decisions), the
  latter steered into a rare state (:data:`SCENARIOS`); :func:`traces`: the same as trace dicts.

Vengeance presets take part only when :func:`flip7_spec.rulesets.preset_names` lists them and the reference
can start and finish a game under them, so these strategies work whether or not Vengeance is finished.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Final, Protocol

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from flip7_spec.cards import Card, card
from flip7_spec.errors import CardError
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.machine import Game
from flip7_spec.play import check_hand, make_game
from flip7_spec.policies import threshold_policy
from flip7_spec.rulesets import Ruleset, preset, preset_names
from flip7_spec.steering import PileSteering, any_number, card_text, new_number_for, rig
from flip7_spec.trace.record import record_choices

Chooser = Callable[[Game, Decision], Choice]
"""A decision policy: given the game and its pending decision, one of ``decision.options``."""

Reshuffler = Callable[[list[Card]], list[Card]]


class Draw(Protocol):
    """What draws a value from a strategy: the ``draw`` of :func:`hypothesis.strategies.composite`, or the
    ``draw`` method of a :func:`hypothesis.strategies.data` object."""

    def __call__(self, strategy: st.SearchStrategy[Any], /) -> Any: ...


DEFAULT_MAX_DECISIONS: Final = 400
"""Decisions a generated game plays at most by default; far above a three-to-six-player game to 200
(about 80 decisions with random choices), so nearly every game is played to its end."""

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


# ---- rulesets and players -----------------------------------------------------------------------------


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


# ---- draw piles ---------------------------------------------------------------------------------------


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


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything a game starts from: the ruleset, the player count, the Dealer's seat and the draw pile
    (top card first)."""

    ruleset: Ruleset
    players: int
    dealer: int
    deck: tuple[str, ...]

    def cards(self) -> list[Card]:
        """The draw pile as cards, top card first."""
        return [card(t) for t in self.deck]


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


# ---- decision policies --------------------------------------------------------------------------------


def data_chooser(draw: Draw) -> Chooser:
    """A policy that asks Hypothesis for every decision: an index into the legal options (shrinking
    towards the first option: ``hit``, the lowest seat)."""

    def choose(game: Game, decision: Decision) -> Choice:
        options = decision.options
        return options[draw(st.integers(0, len(options) - 1))]

    return choose


def threshold_chooser(threshold: int) -> Chooser:
    """The built-in threshold policy (stay at ``threshold`` points, aim Actions at the leader) as a chooser."""
    policy = threshold_policy(threshold)
    rng = random.Random(0)  # the threshold policy makes no random choice; this only fills the argument

    def choose(game: Game, decision: Decision) -> Choice:
        return policy(game, decision, rng)

    return choose


def index_chooser(indices: Sequence[int], fallback: Chooser) -> Chooser:
    """A policy that takes option ``indices[k] % len(options)`` at its k-th decision, then ``fallback``."""
    queue = list(indices)
    position = [0]

    def choose(game: Game, decision: Decision) -> Choice:
        if position[0] < len(queue):
            index = queue[position[0]]
            position[0] += 1
            return decision.options[index % len(decision.options)]
        return fallback(game, decision)

    return choose


def threshold_choosers() -> st.SearchStrategy[Chooser]:
    """Threshold policies with a threshold from 1 to 40 points."""
    return st.integers(1, 40).map(threshold_chooser)


def choosers() -> st.SearchStrategy[Chooser]:
    """Decision policies as values: a threshold policy, or a list of option indices followed by one (the
    indices are a choice sequence Hypothesis shrinks like any list)."""
    indexed = st.builds(index_chooser, st.lists(st.integers(0, 255), max_size=200), threshold_choosers())
    return st.one_of(threshold_choosers(), indexed)


def reshuffle_orders(discard: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """Reshuffle orders of a discard pile (top card first): every permutation of it."""
    return st.permutations(list(discard))


# ---- hands ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hand:
    """One player's cards when a round ends, in the order received, and whether they busted."""

    cards: tuple[str, ...]
    busted: bool

    def as_cards(self) -> list[Card]:
        """The hand as cards."""
        return [card(t) for t in self.cards]


@st.composite
def hands(draw: st.DrawFn, ruleset: Ruleset, players: int = 3, busted: bool | None = None) -> Hand:
    """Possible final hands under ``ruleset``: different Number values (at most seven), any of the deck's
    Modifiers, and (base game) a kept Second Chance or the Freeze of a frozen player; in any order. A
    non-busted hand always passes :func:`~flip7_spec.scoring.check_hand`; a busted hand (``busted`` True,
    or drawn when None) holds one Number value twice (its last card is not necessarily the duplicate)."""
    deck = Counter(deck_texts(ruleset, players))
    by_value: dict[int, list[str]] = {}
    for text in sorted(deck):
        c = card(text)
        if c.is_number:
            by_value.setdefault(c.value, []).append(text)
    is_busted = draw(st.booleans()) if busted is None else busted
    values = sorted(by_value)
    if is_busted:
        values = [v for v in values if sum(deck[t] for t in by_value[v]) >= 2]
        if not values:
            raise InvalidArgument(f"ruleset {ruleset.name}: no Number value has two copies to bust with")
    chosen_values = draw(st.lists(st.sampled_from(values), unique=True, min_size=1 if is_busted else 0,
                                  max_size=6 if is_busted else 7))
    hand = [draw(st.sampled_from(by_value[v])) for v in chosen_values]
    if is_busted:
        value = draw(st.sampled_from(chosen_values))
        spare = [t for t in by_value[value] if deck[t] - hand.count(t) > 0]
        hand.append(draw(st.sampled_from(spare)))
    modifiers = [t for t, count in sorted(deck.items()) for _ in range(count) if card(t).is_modifier]
    if modifiers:
        picked = draw(st.lists(st.integers(0, len(modifiers) - 1), unique=True, max_size=len(modifiers)))
        hand += [modifiers[i] for i in picked]
    for kept in ("CHANCE", "FREEZE"):  # the base game's cards that stay in front of a player
        if deck[kept] and draw(st.booleans()):
            hand.append(kept)
    ordered = draw(st.permutations(hand))
    if not is_busted:
        try:
            check_hand(ruleset, [card(t) for t in ordered], players)
        except CardError:
            from hypothesis import reject

            reject()  # a Vengeance hand its own rules exclude (a Lucky 13 pair needs the Lucky 13, ...)
    return Hand(tuple(ordered), is_busted)


# ---- whole games ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """A reshuffle as it happened: its order (top first), the round, whether an Action (a Flip Three, a Flip
    Four) was drawing cards, and the cards in play at that moment."""

    order: tuple[str, ...]
    round: int
    mid_action: bool
    in_play: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game played on the reference: its setup, the choices made in order, and the reshuffle orders in
    the order they were needed. ``over`` says whether the game ended within the decisions played;
    ``scenario`` names the :data:`SCENARIOS` entry that steered it (None for a free game)."""

    setup: GameSetup
    choices: tuple[Choice, ...]
    reshuffles: tuple[Reshuffle, ...]
    over: bool
    scenario: str | None = None
    events: tuple[tuple[Event, ...], ...] = field(default=(), repr=False, compare=False)

    @property
    def orders(self) -> list[list[str]]:
        """The reshuffle orders, as the ``reshuffles`` of a trace or of the protocol's ``start``."""
        return [list(r.order) for r in self.reshuffles]

    def new_game(self, record: bool = True) -> tuple[Game, list[Event]]:
        """The game started afresh from the setup, with the recorded reshuffle orders queued."""
        s = self.setup
        game = make_game(s.ruleset, s.players, s.cards(), s.dealer, record=record,
                         reshuffles=[[card(t) for t in r.order] for r in self.reshuffles])
        return game, game.start()

    def trace(self, description: str | None = None) -> dict[str, Any]:
        """The trace of this game, with events and the observation after every step
        (:func:`~flip7_spec.trace.record.record_choices`)."""
        s = self.setup
        return record_choices(s.ruleset, s.players, s.dealer, list(s.deck), list(self.choices), self.orders,
                              generator="flip7_spec.strategies", description=description)

    def all_events(self) -> Iterator[Event]:
        """Every event of the game in order (recorded when it was played)."""
        for events in self.events:
            yield from events


class Script:
    """A steered scenario: adjusts the setup before the game starts, and may force a choice (steering the
    pile first) at each decision before the first reshuffle. ``reached`` says whether the rare state came."""

    name = ""
    needs_flip7 = True

    def prepare(self, draw: Draw, setup: GameSetup) -> GameSetup:
        return setup

    def choose(self, game: Game, decision: Decision, steering: PileSteering) -> Choice | None:
        return None

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        raise NotImplementedError








def _with_deal_of_numbers(setup: GameSetup, **options: Any) -> GameSetup | None:
    """The setup with the initial deal on (plus ``options``) and Number cards for the whole deal."""
    ruleset = setup.ruleset.with_options(initial_deal=True, **options)
    rigged = rig(setup.cards(), [any_number] * setup.players)
    if rigged is None:
        return None
    return GameSetup(ruleset, setup.players, setup.dealer, tuple(c.text for c in rigged))


class _HeroScript(Script):
    """A script that steers the first player to decide (the hero) from a deal of plain Numbers."""

    def __init__(self) -> None:
        self.hero: int | None = None

    def prepare(self, draw: Draw, setup: GameSetup) -> GameSetup:
        prepared = _with_deal_of_numbers(setup)
        if prepared is None:
            _reject()
        assert prepared is not None
        return prepared


class _Flip7InFlip3(_HeroScript):
    """The first player to decide collects four different Numbers while everyone else stays, then reveals a
    Flip Three that brings three more: a Flip 7 inside a Flip Three (F7-FLIP7-IN-FLIP3)."""

    name = "flip7_in_flip3"


    def choose(self, game: Game, decision: Decision, steering: PileSteering) -> Choice | None:
        if game.round > 1:
            return None
        if self.hero is None:
            self.hero = decision.player
        if decision.kind == "target" and decision.card == "FLIP3":
            return self.hero
        if decision.kind != "hit_or_stay":
            return None
        if decision.player != self.hero:
            return "stay" if "stay" in decision.options else None
        held = set(game.players[self.hero].values)
        if len(held) < 4:
            wanted = [new_number_for(held)]
        else:
            wanted = [card_text("FLIP3"), *[new_number_for(held)] * (7 - len(held))]
        return "hit" if steering.put_on_top(wanted) else None

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        last_draw: Event | None = None
        for event in events:
            if event.kind == "draw":
                last_draw = event
            elif event.kind == "flip7" and last_draw is not None and last_draw.get("via") == "flip3":
                return True
        return False


class _ChancePassed(_HeroScript):
    """The first player to decide draws a Second Chance, the others hit safely, then the first player draws
    a second Second Chance and must pass it on (F7-CHANCE-GIVE)."""

    name = "chance_passed"


    def choose(self, game: Game, decision: Decision, steering: PileSteering) -> Choice | None:
        if game.round > 1 or decision.kind != "hit_or_stay":
            return None
        if self.hero is None:
            self.hero = decision.player
        if decision.player == self.hero:
            return "hit" if steering.put_on_top([card_text("CHANCE")]) else None
        held = set(game.players[decision.player].values)
        return "hit" if steering.put_on_top([new_number_for(held)]) else None

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        return any(e.kind == "give" or (e.kind == "forced" and e.get("kind") == "give") for e in events)


class _AllBust(Script):
    """Every player's first Hit is a Number they already hold: the whole table busts (F7-ALL-BUST)."""

    name = "all_bust"

    def prepare(self, draw: Draw, setup: GameSetup) -> GameSetup:
        ruleset = setup.ruleset.with_options(initial_deal=True)
        counts = Counter(c.value for c in setup.cards() if c.is_number)

        def pairable(c: Card, chosen: list[Card]) -> bool:
            return c.is_number and counts[c.value] >= 2 and all(c.value != o.value for o in chosen)

        rigged = rig(setup.cards(), [pairable] * setup.players)
        if rigged is None:
            _reject()
        assert rigged is not None
        return GameSetup(ruleset, setup.players, setup.dealer, tuple(c.text for c in rigged))

    def choose(self, game: Game, decision: Decision, steering: PileSteering) -> Choice | None:
        if game.round > 1 or decision.kind != "hit_or_stay":
            return None
        held = set(game.players[decision.player].values)
        duplicate = steering.put_on_top([lambda c, chosen: c.is_number and c.value in held])
        return "hit" if duplicate else None

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        busted: set[int] = set()
        for event in events:
            if event.kind == "round_start":
                busted = set()
            elif event.kind == "bust" and event.player is not None:
                busted.add(event.player)
            elif event.kind == "round_end" and len(busted) == game.n:
                return True
        return False


class _TieAtTarget(Script):
    """The first two players dealt get the same Number, the others lower ones, everyone stays, and the
    target score is at most that Number: the first round ends in a tie at the target (F7-TIE)."""

    name = "tie_at_target"

    def prepare(self, draw: Draw, setup: GameSetup) -> GameSetup:
        deck = setup.cards()
        counts = Counter(c.value for c in deck if c.is_number)
        others = setup.players - 2
        candidates = [v for v in counts if counts[v] >= 2 and v >= 1
                      and sum(k for u, k in counts.items() if u < v) >= others]
        if not candidates:
            _reject()
        top = draw(st.sampled_from(sorted(candidates, reverse=True)))
        target = draw(st.integers(1, max(top, 1)))
        ruleset = setup.ruleset.with_options(initial_deal=True, target_score=target)

        def equal(c: Card, chosen: list[Card]) -> bool:
            return c.is_number and c.value == top

        def lower(c: Card, chosen: list[Card]) -> bool:
            return c.is_number and c.value < top

        rigged = rig(deck, [equal, equal] + [lower] * others)
        if rigged is None:
            _reject()
        assert rigged is not None
        return GameSetup(ruleset, setup.players, setup.dealer, tuple(c.text for c in rigged))

    def choose(self, game: Game, decision: Decision, steering: PileSteering) -> Choice | None:
        if game.round == 1 and decision.kind == "hit_or_stay" and "stay" in decision.options:
            return "stay"
        return None

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        return any(e.kind == "tie" for e in events) or len(game.winners) > 1


class _ReshuffleInFlip3(Script):
    """A Flip Three is the second card from the bottom of the first pile and a Modifier the bottom card:
    the Flip Three's target takes the Modifier and the pile runs out in the middle of the Flip Three
    (F7-RESHUFFLE-IN-FLIP3). The target score is at least 500, so that the game lasts until then."""

    name = "reshuffle_in_flip3"

    def prepare(self, draw: Draw, setup: GameSetup) -> GameSetup:
        ruleset = setup.ruleset
        if ruleset.target_score < 500:
            ruleset = ruleset.with_options(target_score=500)
        rigged = rig(setup.cards(), [card_text("FLIP3"), lambda c, chosen: c.is_modifier], bottom=True)
        if rigged is None:
            _reject()
        assert rigged is not None
        return GameSetup(ruleset, setup.players, setup.dealer, tuple(c.text for c in rigged))

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        return any(r.mid_action for r in reshuffles)


class _TwoDecks(Script):
    """More players than one deck serves: a second deck is shuffled in (F7-TWO-DECKS)."""

    name = "two_decks"
    needs_flip7 = False

    def prepare(self, draw: Draw, setup: GameSetup) -> GameSetup:
        ruleset = setup.ruleset
        players = draw(st.sampled_from([ruleset.players_per_deck + 1, ruleset.players_per_deck + 3]))
        if ruleset.max_players and players > ruleset.max_players:
            ruleset = ruleset.with_options(players_per_deck=max(1, ruleset.max_players - 1))
            players = ruleset.max_players
        deck = draw(draw_piles(ruleset, players))
        return GameSetup(ruleset, players, draw(st.integers(0, players - 1)), tuple(deck))

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        return game.ruleset.decks_for(game.n) >= 2


SCENARIOS: Final[dict[str, Callable[[], Script]]] = {
    "flip7_in_flip3": _Flip7InFlip3,
    "reshuffle_in_flip3": _ReshuffleInFlip3,
    "chance_passed": _ChancePassed,
    "all_bust": _AllBust,
    "tie_at_target": _TieAtTarget,
    "two_decks": _TwoDecks,
}
"""The rare states :func:`rare_games` steers games into, by name."""


def _reject() -> None:
    from hypothesis import reject

    reject()


def _aim(value: float, label: str) -> None:
    """``hypothesis.target(value, label)``, once per test case and label; nothing outside a test."""
    from hypothesis import target

    with contextlib.suppress(InvalidArgument):
        target(value, label=label)


class _Play:
    """Plays one game on the reference: Hypothesis (or a policy) decides, Hypothesis shuffles, and a script
    may steer. Collects what a :class:`GameRecord` holds."""

    def __init__(self, draw: Draw, setup: GameSetup, chooser: Chooser, script: Script | None) -> None:
        self.draw = draw
        self.chooser = chooser
        self.script = script
        self.deck = setup.cards()
        self.setup = setup
        self.reshuffles: list[Reshuffle] = []
        self.game = make_game(setup.ruleset, setup.players, list(self.deck), setup.dealer, self.reshuffle)
        self.steering = PileSteering(self.game, self.deck)

    def reshuffle(self, discard: list[Card]) -> list[Card]:
        game = self.game
        order = [card(t) for t in self.draw(reshuffle_orders([c.text for c in discard]))]
        self.reshuffles.append(Reshuffle(tuple(c.text for c in order), game.round,
                                         any(f.DRAWS_FOR_ACTION for f in game.stack),
                                         tuple(c.text for c in game.in_play)))
        return order

    def run(self, max_decisions: int, then: int | None = None) -> GameRecord:
        game = self.game
        events: list[tuple[Event, ...]] = [tuple(game.start())]
        choices: list[Choice] = []
        script = self.script
        limit = max_decisions
        while game.pending is not None and len(choices) < limit:
            decision = game.pending
            forced = None
            if script is not None and not self.reshuffles:
                forced = script.choose(game, decision, self.steering)
            choice = forced if forced is not None else self.chooser(game, decision)
            step = tuple(game.apply(choice))
            events.append(step)
            choices.append(choice)
            if script is not None and then is not None and limit == max_decisions and \
                    any(e.kind == "round_end" for e in step) and \
                    script.reached(game, [e for s in events for e in s], self.reshuffles):
                limit = min(max_decisions, len(choices) + then)
        setup = replace(self.setup, deck=tuple(c.text for c in self.deck))
        return GameRecord(setup, tuple(choices), tuple(self.reshuffles), game.over,
                          script.name if script is not None else None, tuple(events))


def play(draw: Draw, setup: GameSetup, chooser: Chooser | None = None,
         max_decisions: int = DEFAULT_MAX_DECISIONS, script: Script | None = None,
         then: int | None = None) -> tuple[GameRecord, Game]:
    """Play ``setup`` on the reference for at most ``max_decisions`` decisions: ``chooser`` decides (default:
    :func:`data_chooser` on ``draw``), reshuffle orders are drawn with ``draw`` when needed, and ``script``
    may steer; with ``then``, play stops ``then`` decisions after the end of the round in which the
    script's rare state was reached. Returns the record and the game as it stands at the end."""
    run = _Play(draw, setup, chooser if chooser is not None else data_chooser(draw), script)
    return run.run(max_decisions, then), run.game


@st.composite
def played_games(draw: st.DrawFn, setups: st.SearchStrategy[GameSetup] | None = None,
                 chooser: st.SearchStrategy[Chooser] | None = None,
                 max_decisions: int = DEFAULT_MAX_DECISIONS) -> GameRecord:
    """Whole games played on the reference (or their first ``max_decisions`` decisions): a setup (default
    :func:`game_setups`), decisions from ``chooser`` (default: Hypothesis picks every option) and reshuffle
    orders drawn when needed. Steers the search (``hypothesis.target``) towards games with more
    reshuffles and more Action decisions."""
    setup = draw(setups if setups is not None else game_setups())
    policy = draw(chooser) if chooser is not None else data_chooser(draw)
    record, _ = play(draw, setup, policy, max_decisions)
    _aim(len(record.reshuffles), "reshuffles")
    _aim(sum(1 for e in record.all_events() if e.kind in ("set_aside", "give", "assign")), "action tangles")
    return record


@st.composite
def rare_games(draw: st.DrawFn, scenario: str, rulesets: st.SearchStrategy[Ruleset] | None = None,
               max_decisions: int = DEFAULT_MAX_DECISIONS, then: int | None = 30) -> GameRecord:
    """Games steered into the rare state ``scenario`` (a key of :data:`SCENARIOS`): each generated game
    reaches it (others are rejected). Scenarios other than ``two_decks`` steer base-game rulesets (default
    :func:`rulesets` of the base game, with the options a scenario needs set); the rest of the game after
    the rare state is played as in :func:`played_games`, for ``then`` more decisions after the end of that
    round (None: to the end, within ``max_decisions``). ``two_decks`` games stop after at most 150
    decisions (a game of 19 or more players is long)."""
    if scenario not in SCENARIOS:
        raise InvalidArgument(f"unknown scenario {scenario!r}; scenarios are {', '.join(SCENARIOS)}")
    script = SCENARIOS[scenario]()
    strategy = rulesets if rulesets is not None else _rulesets(games=("flip7",) if script.needs_flip7 else None)
    ruleset = draw(strategy)
    if script.needs_flip7 and ruleset.game != "flip7":
        raise InvalidArgument(f"scenario {scenario} needs a base-game ruleset, got {ruleset.name}")
    most = min(ruleset.max_players or 6, 6)  # a preset's own limit holds (the challenge: two players)
    count = draw(st.integers(min(max(ruleset.min_players, 3), most), most))
    base = GameSetup(ruleset, count, draw(st.integers(0, count - 1)), tuple(draw(draw_piles(ruleset, count))))
    setup = script.prepare(draw, base)
    limit = min(max_decisions, 150) if scenario == "two_decks" else max_decisions
    record, game = play(draw, setup, data_chooser(draw), limit, script, then)
    if not script.reached(game, list(record.all_events()), record.reshuffles):
        _reject()
    return record


def traces(games: st.SearchStrategy[GameRecord] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Traces (dicts in the trace format) of generated games (default :func:`played_games`)."""
    return (games if games is not None else played_games()).map(lambda record: record.trace())



def conform_games(rulesets: Sequence[Ruleset] | None = None,
                  players: Sequence[int] = (3, 4, 5, 6)) -> st.SearchStrategy[dict[str, Any]]:
    """The games ``flip7-spec conform`` generates, as recorded traces: the same generator
    (:func:`flip7_spec.conformance.cases.generated_game`), with Hypothesis choosing the ruleset, the player
    count, the seed and the game index. A failing property over these shrinks to a small seed/index that
    ``flip7-spec conform --seed S --games N`` also plays."""
    from flip7_spec.conformance.cases import default_rulesets, generated_game

    chosen = list(rulesets) if rulesets is not None else default_rulesets()

    def build(ruleset: Ruleset, count: int, seed: int, index: int) -> dict[str, Any]:
        low = max(ruleset.min_players, 1)
        high = ruleset.max_players or count
        return generated_game(ruleset, min(max(count, low), high), str(seed), index)

    return st.builds(build, st.sampled_from(chosen), st.sampled_from(list(players)),
                     st.integers(0, 2**16), st.integers(0, 63))
