"""The record of a game played on the reference, and its trace (the recording half of the format).

A :class:`GameRecord` is written from the game's own history (:attr:`~flip7_spec.machine.Game.history`, kept
when the game is created with ``record=True``): the setup it started from, the events of the first deal,
every ply (the decision, the choice, the events), the reshuffle orders in the order they were used, the
observations when they were taken, where it came from, and how it ended. :meth:`GameRecord.trace` writes it
in the trace format.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from flip7_spec.cards import Card, card
from flip7_spec.cards import cards as parse_cards
from flip7_spec.errors import IllegalDecision
from flip7_spec.events import Choice, Event
from flip7_spec.machine import Game, Ply
from flip7_spec.play import make_game, new_game
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace import FORMAT_NAME, FORMAT_VERSION

GENERATOR = "flip7-spec"
"""The generator a record names when its maker names none."""


def rules_version() -> str:
    from flip7_spec import RULES_VERSION

    return RULES_VERSION


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything a game starts from: the ruleset (as named, deviations included), the player count, the
    Dealer's seat and the draw pile (top card first)."""

    ruleset: Ruleset
    players: int
    dealer: int
    deck: tuple[str, ...]

    def cards(self) -> list[Card]:
        """The draw pile as cards, top card first."""
        return [card(t) for t in self.deck]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game played on the reference, as it was played: what the trace of it says, typed.

    ``plies`` are the decisions made in order (each with its choice and the events up to the next decision);
    ``orders`` the reshuffle orders (top first) in the order the reshuffles happened, among the plies' events
    and ``start_events``. ``observations``, when taken, hold the observation after the start and after each
    ply (``observations[k]`` after ``k`` decisions); empty otherwise. ``seed`` and ``generator`` say where
    the game came from (the seed is provenance only). ``over``, ``totals``, ``winners`` and ``rounds`` are
    the game as it stood after the last ply: a record may stop before the game's end.
    """

    setup: GameSetup
    start_events: tuple[Event, ...]
    plies: tuple[Ply, ...]
    orders: tuple[tuple[str, ...], ...]
    over: bool
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rounds: int
    observations: tuple[dict[str, Any], ...] = field(default=(), repr=False)
    seed: str = ""
    generator: str = GENERATOR

    @classmethod
    def of(cls, game: Game, *, observations: Sequence[dict[str, Any]] = (), seed: str = "",
           generator: str = GENERATOR) -> GameRecord:
        """The record of ``game`` as it stands, written from its history. ``observations`` are those taken
        after the start and after each ply (none, or one more than the plies). Raises ValueError for a game
        that keeps no history (created with ``record=False``) or observations that do not fit."""
        if not game.recording:
            raise ValueError("the game keeps no history to record: create it with record=True")
        if observations and len(observations) != len(game.history) + 1:
            raise ValueError(f"{len(observations)} observations for a game of {len(game.history)} decisions: "
                             f"one after the start and one after each decision are needed")
        setup = GameSetup(game.named_ruleset, game.n, game.initial_dealer, tuple(c.text for c in game.initial_deck))
        return cls(setup, game.start_events, tuple(game.history),
                   tuple(tuple(c.text for c in order) for order in game.orders_used), game.over,
                   tuple(game.totals), tuple(game.winners), game.round, tuple(observations), seed, generator)

    @property
    def choices(self) -> tuple[Choice, ...]:
        """The choices made, in order."""
        return tuple(ply.choice for ply in self.plies)

    def events_after(self, decisions: int) -> tuple[Event, ...]:
        """The events that led to the state after ``decisions`` decisions: the first deal's for 0, else
        those of the ``decisions``-th ply."""
        return self.plies[decisions - 1].events if decisions else self.start_events

    def all_events(self) -> Iterator[Event]:
        """Every event of the game in order."""
        yield from self.start_events
        for ply in self.plies:
            yield from ply.events

    def new_game(self, record: bool = True) -> tuple[Game, list[Event]]:
        """The game started afresh from the setup, with the recorded reshuffle orders queued, and the events
        of its first deal."""
        s = self.setup
        game = make_game(s.ruleset, s.players, s.cards(), s.dealer, record=record,
                         reshuffles=[[card(t) for t in order] for order in self.orders])
        return game, game.start()

    def observed(self) -> GameRecord:
        """This record with the observation after the start and after every ply: itself when it has them,
        else the game played again on the reference from its setup to take them."""
        if self.observations:
            return self
        game, _ = self.new_game(record=False)
        observations = [game.observation()]
        for ply in self.plies:
            game.apply(ply.choice)
            observations.append(game.observation())
        return replace(self, observations=tuple(observations))

    def footer(self) -> dict[str, Any]:
        """The footer of the game's trace: final totals, winners and the number of rounds played."""
        return {"totals": list(self.totals), "winners": list(self.winners), "rounds": self.rounds}

    def trace(self, description: str | None = None, clauses: Sequence[str] | None = None,
              provenance: dict[str, Any] | None = None) -> dict[str, Any]:
        """The trace of this game: the setup and provenance as header, the first deal as start, a decision
        step per ply (with events, the round scores of every round it ended, and the observation when
        recorded), and the footer once the game is over. ``provenance`` replaces the record's own (its
        generator and seed).

        Each reshuffle order is written as a chance step just before the decision during which it was
        needed (before every decision, for a reshuffle in the first deal).
        """
        s = self.setup
        header: dict[str, Any] = {
            "ruleset": s.ruleset.to_json(),
            "players": s.players,
            "dealer": s.dealer,
            "deck": list(s.deck),
            "provenance": {"generator": self.generator, "seed": self.seed} if provenance is None else provenance,
        }
        if description is not None:
            header["description"] = description
        if clauses is not None:
            header["clauses"] = sorted(set(clauses))
        observations = self.observations
        steps: list[dict[str, Any]] = [{"reshuffle": order} for order in reshuffles_in(self.start_events)]
        for index, ply in enumerate(self.plies, 1):
            events = ply.events
            steps.extend({"reshuffle": order} for order in reshuffles_in(events))
            entry: dict[str, Any] = {
                "decision": {"player": ply.decision.player, "kind": ply.decision.kind, "choice": ply.choice},
                "events": [e.to_json() for e in events],
            }
            scores = round_scores_in(events)
            if scores:
                entry["scores"] = scores
            if observations:
                entry["observation"] = observations[index]
            steps.append(entry)
        trace: dict[str, Any] = {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "rules_version": rules_version(),
            "header": header,
            "steps": steps,
        }
        start: dict[str, Any] = {"events": [e.to_json() for e in self.start_events]}
        start_scores = round_scores_in(self.start_events)
        if start_scores:
            start["scores"] = start_scores
        if observations:
            start["observation"] = observations[0]
        trace["start"] = start
        if self.over:
            trace["footer"] = self.footer()
        return trace


def reshuffles_in(events: Sequence[Event]) -> list[list[str]]:
    """The reshuffle orders that ``events`` record, in order."""
    return [list(e.get("order")) for e in events if e.kind == "reshuffle"]


def round_scores_in(events: Sequence[Event]) -> list[list[int]]:
    """The round scores of every round that ended in ``events``, in order."""
    return [list(e.get("scores")) for e in events if e.kind == "round_end"]


def footer(game: Game) -> dict[str, Any]:
    """The footer of a finished game: final totals, winners and the number of rounds played."""
    return {"totals": list(game.totals), "winners": list(game.winners), "rounds": game.round}


def record_choices(ruleset: Ruleset, players: int, dealer: int, deck: Sequence[str], choices: Sequence[Any],
                   reshuffles: Sequence[Sequence[str]] = (), seed: str = "", generator: str = GENERATOR,
                   description: str | None = None, clauses: Sequence[str] | None = None,
                   strict: bool = True) -> dict[str, Any]:
    """The trace of the game ``deck`` (top first) and ``choices`` give on the reference, with observations.

    Reshuffles take ``reshuffles`` in order. The trace stops when ``choices`` run out (a partial trace)
    or the game ends. With ``strict``, an illegal choice raises :class:`IllegalDecision`; otherwise
    recording stops before it.
    """
    game, _ = new_game(ruleset, players, list(deck), dealer=dealer,
                       reshuffles=[parse_cards(list(o)) for o in reshuffles])
    observations = [game.observation()]
    for choice in choices:
        if game.pending is None:
            break
        try:
            game.apply(choice)
        except IllegalDecision:
            if strict:
                raise
            break
        observations.append(game.observation())
    record = GameRecord.of(game, observations=observations, seed=seed, generator=generator)
    return record.trace(description=description, clauses=clauses)


def trace_choices(trace: dict[str, Any]) -> list[Any]:
    """The choices of a trace's decision steps, in order."""
    return [s["decision"]["choice"] for s in trace["steps"] if "decision" in s]


def trace_reshuffles(trace: dict[str, Any]) -> list[list[str]]:
    """The reshuffle orders of a trace's chance steps, in order."""
    return [list(s["reshuffle"]) for s in trace["steps"] if "reshuffle" in s]
