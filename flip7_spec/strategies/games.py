"""Whole games played on the reference, as plain values (:class:`GameRecord`) that replay without any random
number generator, shrink like any other Hypothesis value and export as traces."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from flip7_spec.cards import Card, card
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.rulesets import Ruleset
from flip7_spec.steering import PileSteering
from flip7_spec.strategies.choosers import Chooser, data_chooser
from flip7_spec.strategies.setups import Draw, GameSetup, game_setups, reshuffle_orders
from flip7_spec.trace.record import record_choices

DEFAULT_MAX_DECISIONS: Final = 400
"""Decisions a generated game plays at most by default; far above a three-to-six-player game to 200
(about 80 decisions with random choices), so nearly every game is played to its end."""


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
