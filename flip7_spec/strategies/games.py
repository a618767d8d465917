"""Whole games played on the reference, drawn by Hypothesis: each is a
:class:`~flip7_spec.trace.record.GameRecord` (the record of any played game), a plain value that replays
without any random number generator, shrinks like any other Hypothesis value and exports as a trace."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from flip7_spec.cards import Card, card
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.registry import GameDefinition
from flip7_spec.rulesets import Ruleset
from flip7_spec.steering import PileSteering
from flip7_spec.strategies.choosers import Chooser, data_chooser
from flip7_spec.strategies.setups import Draw, game_setups, reshuffle_orders
from flip7_spec.trace.record import GameRecord, GameSetup

DEFAULT_MAX_DECISIONS: Final = 400
"""Decisions a generated game plays at most by default; far above a three-to-six-player game to 200
(about 80 decisions with random choices), so nearly every game is played to its end."""

GENERATOR: Final = "flip7_spec.strategies"
"""The generator the records of generated games name."""


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """A reshuffle as a script sees it while the game is played: its order (top first), the round, whether an
    Action (a Flip Three, a Flip Four) was drawing cards, and the cards in play at that moment."""

    order: tuple[str, ...]
    round: int
    mid_action: bool
    in_play: tuple[str, ...]


class Script:
    """A steered scenario: adjusts the setup before the game starts, and may force a choice (steering the
    pile first) at each decision before the first reshuffle. ``reached`` says whether the rare state came."""

    name = ""
    needs_cards: frozenset[str] = frozenset()
    """The cards (canonical texts) the script steers with: it steers only a game that lists them all."""
    plain_numbers = True
    """Whether the script needs a game whose Numbers have no effect of their own (it rigs Numbers by value,
    taking two Numbers of one value to be alike)."""

    def fits(self, definition: GameDefinition) -> bool:
        """Whether the script can steer a game of ``definition`` (by the game's cards)."""
        return definition.has_cards(self.needs_cards) and (definition.plain_numbers or not self.plain_numbers)

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
    may steer. The game keeps its history; :meth:`run` returns its record."""

    def __init__(self, draw: Draw, setup: GameSetup, chooser: Chooser, script: Script | None) -> None:
        self.draw = draw
        self.chooser = chooser
        self.script = script
        self.reshuffles: list[Reshuffle] = []
        self.game = make_game(setup.ruleset, setup.players, setup.cards(), setup.dealer, self.reshuffle)
        self.steering = PileSteering(self.game)

    def reshuffle(self, discard: list[Card]) -> list[Card]:
        game = self.game
        order = [card(t) for t in self.draw(reshuffle_orders([c.text for c in discard]))]
        self.reshuffles.append(Reshuffle(tuple(c.text for c in order), game.round,
                                         game.drawing_for_action,
                                         tuple(c.text for c in game.in_play)))
        return order

    def run(self, max_decisions: int, then: int | None = None) -> GameRecord:
        """Play at most ``max_decisions`` decisions (see :func:`play`); the record has every observation."""
        game = self.game
        game.start()
        observations = [game.observation()]
        script = self.script
        limit = max_decisions
        while game.pending is not None and len(observations) <= limit:
            decision = game.pending
            forced = None
            if script is not None and not self.reshuffles:
                forced = script.choose(game, decision, self.steering)
            choice = forced if forced is not None else self.chooser(game, decision)
            events = game.apply(choice)
            observations.append(game.observation())
            if script is not None and then is not None and limit == max_decisions and \
                    any(e.kind == "round_end" for e in events) and \
                    script.reached(game, _events_so_far(game), self.reshuffles):
                limit = min(max_decisions, len(game.history) + then)
        return GameRecord.of(game, observations=observations, generator=GENERATOR)


def _events_so_far(game: Game) -> list[Event]:
    return [*game.start_events, *(e for ply in game.history for e in ply.events)]


def play(draw: Draw, setup: GameSetup, chooser: Chooser | None = None,
         max_decisions: int = DEFAULT_MAX_DECISIONS, script: Script | None = None,
         then: int | None = None) -> tuple[GameRecord, Game]:
    """Play ``setup`` on the reference for at most ``max_decisions`` decisions: ``chooser`` decides (default:
    :func:`data_chooser` on ``draw``), reshuffle orders are drawn with ``draw`` when needed, and ``script``
    may steer; with ``then``, play stops ``then`` decisions after the end of the round in which the
    script's rare state was reached. Returns the record (with the observation after every step) and the
    game as it stands at the end."""
    record, game, _ = play_steered(draw, setup, chooser, max_decisions, script, then)
    return record, game


def play_steered(draw: Draw, setup: GameSetup, chooser: Chooser | None = None,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, script: Script | None = None,
                 then: int | None = None) -> tuple[GameRecord, Game, list[Reshuffle]]:
    """:func:`play`, and the reshuffles as the script saw them (with their round and context)."""
    run = _Play(draw, setup, chooser if chooser is not None else data_chooser(draw), script)
    return run.run(max_decisions, then), run.game, run.reshuffles


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
    _aim(len(record.orders), "reshuffles")
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
