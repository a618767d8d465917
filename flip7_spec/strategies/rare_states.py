"""Games steered into rare states (:data:`SCENARIOS`): a script per state, which rigs the setup and forces
choices (steering the pile first) until the state is reached, and :func:`rare_games`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from flip7_spec.cards import Card, Kind, card
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.machine import Game
from flip7_spec.registry import definition_of, game_definition, game_names
from flip7_spec.rulesets import Ruleset
from flip7_spec.steering import PileSteering, any_number, card_text, new_number_for, rig
from flip7_spec.strategies.choosers import data_chooser
from flip7_spec.strategies.games import DEFAULT_MAX_DECISIONS, Reshuffle, Script, play_steered
from flip7_spec.strategies.setups import Draw, draw_piles
from flip7_spec.strategies.setups import rulesets as _rulesets
from flip7_spec.trace.record import GameRecord, GameSetup


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
    needs_cards = frozenset({"FLIP3"})


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


SCALING_KINDS: Final = frozenset({Kind.MULTIPLY, Kind.HALVE})
"""The Modifiers that scale the sum of the Numbers (x2 in the base game, /2 in Vengeance)."""


def _scaling(c: Card, chosen: list[Card]) -> bool:
    return c.kind in SCALING_KINDS


class _Flip7Scaled(Script):
    """The first player to decide (the hero) takes a scaling Modifier (x2 in the base game; in Vengeance
    the /2, which they play on themselves), then one new Number per Hit up to seven values, while everyone
    else stays (or, where they may not stay yet, hits a new Number): a Flip 7 scored with a scaling Modifier
    in the row, where the 15-point bonus is added after the scaling (F7-MOD-X2, F7-FLIP7-BONUS, V-SCORE).
    Every game whose deck has such a Modifier qualifies."""

    name = "flip7_scaled"
    plain_numbers = False

    def __init__(self) -> None:
        self.hero: int | None = None
        self.last_hit: int | None = None  # the ply of the hero's Hit for the seventh value

    def prepare(self, draw: Draw, setup: GameSetup) -> GameSetup:
        """The initial deal on; the top of the deck two laps of plain Numbers, the first lap of 8 or more and
        the second of 7 or less: the deal, and the Hits a minimum to stay forces before anyone decides, bring
        no bust and no Action."""
        ruleset = setup.ruleset.with_options(initial_deal=True)
        deck = setup.cards()
        if not any(_scaling(c, []) for c in deck):
            _reject()

        def high(c: Card, chosen: list[Card]) -> bool:
            return c.is_number and c.special is None and c.value >= 8

        def low(c: Card, chosen: list[Card]) -> bool:
            return c.is_number and c.special is None and c.value <= 7

        rigged = rig(deck, [high] * setup.players + [low] * setup.players)
        if rigged is None:
            _reject()
        assert rigged is not None
        return GameSetup(ruleset, setup.players, setup.dealer, tuple(c.text for c in rigged))

    def choose(self, game: Game, decision: Decision, steering: PileSteering) -> Choice | None:
        if game.round > 1:
            return None
        if self.hero is None:
            self.hero = decision.player
        hero = self.hero
        if decision.kind == "target" and hero in decision.options and (
                (decision.card is None and decision.player == hero)
                or (decision.card is not None and _scaling(card(decision.card), []))):
            return hero  # the scaling Modifier, and a choice the Flip 7 leaves (the bonus), go to the hero
        if decision.kind != "hit_or_stay" or "hit" not in decision.options:
            return None
        held = set(game.players[decision.player].values)
        if decision.player != hero:
            if "stay" in decision.options:
                return "stay"
            return "hit" if steering.put_on_top([new_number_for(held, plain=True)]) else None
        scaled = any(_scaling(c, []) for c in game.players[hero].cards)
        if not steering.put_on_top([new_number_for(held, plain=True)] if scaled else [_scaling]):
            return None
        if scaled and len(held) == 6:
            self.last_hit = len(game.history)
        return "hit"

    def reached(self, game: Game, events: Sequence[Event], reshuffles: Sequence[Reshuffle]) -> bool:
        ply = self.last_hit
        if ply is None or ply >= len(game.history):
            return False
        return any(e.kind == "flip7" and e.player == self.hero for e in game.history[ply].events)


class _ChancePassed(_HeroScript):
    """The first player to decide draws a Second Chance, the others hit safely, then the first player draws
    a second Second Chance and must pass it on (F7-CHANCE-GIVE)."""

    name = "chance_passed"
    needs_cards = frozenset({"CHANCE"})


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
    needs_cards = frozenset({"FLIP3"})

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
    plain_numbers = False

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
    "flip7_scaled": _Flip7Scaled,
    "reshuffle_in_flip3": _ReshuffleInFlip3,
    "chance_passed": _ChancePassed,
    "all_bust": _AllBust,
    "tie_at_target": _TieAtTarget,
    "two_decks": _TwoDecks,
}
"""The rare states :func:`rare_games` steers games into, by name."""


def fitting_games(script: Script) -> list[str]:
    """The registered games ``script`` can steer (by their cards)."""
    return [name for name in game_names() if script.fits(game_definition(name))]


def _reject() -> None:
    from hypothesis import reject

    reject()


@st.composite
def rare_games(draw: st.DrawFn, scenario: str, rulesets: st.SearchStrategy[Ruleset] | None = None,
               max_decisions: int = DEFAULT_MAX_DECISIONS, then: int | None = 30) -> GameRecord:
    """Games steered into the rare state ``scenario`` (a key of :data:`SCENARIOS`): each generated game
    reaches it (others are rejected). ``two_decks`` and ``flip7_scaled`` steer rulesets of either game, the
    other scenarios base-game rulesets (default :func:`rulesets` of the games a scenario steers, with the
    options it needs set); the rest of the game after the rare state is played as in :func:`played_games`,
    for ``then`` more decisions after the end of that round (None: to the end, within ``max_decisions``).
    ``two_decks`` games stop after at most 150 decisions (a game of 19 or more players is long)."""
    if scenario not in SCENARIOS:
        raise InvalidArgument(f"unknown scenario {scenario!r}; scenarios are {', '.join(SCENARIOS)}")
    script = SCENARIOS[scenario]()
    strategy = rulesets if rulesets is not None else _rulesets(games=fitting_games(script))
    ruleset = draw(strategy)
    if not script.fits(definition_of(ruleset)):
        raise InvalidArgument(f"scenario {scenario} needs a game with the cards {', '.join(sorted(script.needs_cards))}"
                              f"{' and plain Numbers' if script.plain_numbers else ''}, got {ruleset.name}")
    most = min(ruleset.max_players or 6, 6)  # a preset's own limit holds (the challenge: two players)
    count = draw(st.integers(min(max(ruleset.min_players, 3), most), most))
    base = GameSetup(ruleset, count, draw(st.integers(0, count - 1)), tuple(draw(draw_piles(ruleset, count))))
    setup = script.prepare(draw, base)
    limit = min(max_decisions, 150) if scenario == "two_decks" else max_decisions
    record, game, reshuffles = play_steered(draw, setup, data_chooser(draw), limit, script, then)
    if not script.reached(game, list(record.all_events()), reshuffles):
        _reject()
    return record
