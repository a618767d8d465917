"""Each misreading of Flip 7's catalogue plays exactly its reading.

The diagnosis names a misreading when the reference under it reproduces an engine, so a misreading must play
what its description says and nothing else. Two kinds of check:

- differential: a mutant engine of ``tests/mutants`` is the reference with one bug written separately from the
  catalogue, and declares the reading it plays (``READINGS``). On generated games (random decks, random legal
  choices, every player count) the reference under that misreading and the mutant must make the same
  observation at every step;
- rigged: a small deck where the misreading's behaviour shows, asserting what its description implies beside
  what the rules (the clause it misreads) give.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections.abc import Callable
from types import ModuleType

import pytest

from flip7_spec.cards import Card
from flip7_spec.events import Choice, Event
from flip7_spec.machine import Game
from flip7_spec.misreadings import catalogue
from flip7_spec.play import make_game, new_game
from flip7_spec.rulesets import Ruleset, preset
from tests.mutants import MUTANTS
from tests.mutants._support import MutantAdapter, ScoredGame


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"tests.mutants.{name}")


def _flip7_misreading_mutants() -> dict[str, str]:
    """Base-game mutant module by the one Flip 7 catalogue misreading it declares it plays."""
    known = catalogue("flip7")
    found: dict[str, str] = {}
    for name in MUTANTS:
        if name.startswith("v_"):
            continue
        readings = _module(name).READINGS
        if len(readings) == 1 and next(iter(readings)) in known:
            found[next(iter(readings))] = name
    return found


PAIRS = _flip7_misreading_mutants()

RARE = frozenset({"game_ends_on_empty_piles", "setaside_dropped_when_target_out", "tie_to_first_seat"})
"""Readings whose behaviour needs a state generated games seldom reach: no card left anywhere, an Action set
aside for a player who is out by then, a tie at the top (tests/test_misreadings.py rigs them)."""


def reshuffler(seed: str) -> Callable[[list[Card]], list[Card]]:
    """Reshuffle orders that depend only on the seed and the cards reshuffled, so that two games reshuffling
    the same cards get the same order."""
    def order(pile: list[Card]) -> list[Card]:
        cards_ = sorted(pile, key=lambda c: c.text)
        random.Random(f"{seed}:{len(cards_)}:{' '.join(c.text for c in cards_)}").shuffle(cards_)
        return cards_
    return order


def mutant_game(mutant: str, ruleset: Ruleset, players: int, dealer: int, deck: list[Card],
                shuffle: Callable[[list[Card]], list[Card]]) -> Game:
    """Mutant engine ``mutant``'s game, not started, as its adapter builds it but recording its events."""
    engine = _module(mutant).Engine()
    assert isinstance(engine, MutantAdapter) and not engine.forced_options
    game = engine.game_class(ruleset, players, dealer, deck, (), shuffle)
    if isinstance(game, ScoredGame):
        game.scorer = engine.hand_score
    return game


def lockstep(reading: str, mutant: str, ruleset: Ruleset, seed: str) -> bool:
    """Play one generated game on the reference under ``reading`` and on mutant engine ``mutant`` side by side,
    asserting equal events (unless the mutant tells its own, :data:`OWN_EVENTS`) and observations after every
    decision; returns whether the official rules, played alongside
    with the same choices, made another observation at some step (the reading showed in this game)."""
    rng = random.Random(seed)
    players = rng.randint(ruleset.min_players, min(ruleset.max_players or 6, 6))
    dealer = rng.randrange(players)
    deck = ruleset.deck_cards(players)
    rng.shuffle(deck)
    shuffle = reshuffler(seed)
    mine: Game = make_game(dataclasses.replace(ruleset, deviations=(reading,)), players, deck, dealer, shuffle)
    theirs = mutant_game(mutant, ruleset, players, dealer, deck, shuffle)
    same_events = reading not in OWN_EVENTS
    started = [e.to_json() for e in mine.start()], [e.to_json() for e in theirs.start()]
    assert not same_events or started[0] == started[1], f"{reading}, seed {seed}"
    official: Game | None = make_game(ruleset, players, deck, dealer, shuffle, record=False)
    assert official is not None
    official.start()
    steps = 0
    hit = rng.choice((0.5, 0.8, 0.95))
    while True:
        seen = mine.observation()
        assert seen == theirs.observation(), f"{reading} vs {mutant}, seed {seed}, step {steps}"
        if official is not None and official.observation() != seen:
            official = None
        legal = mine.legal()
        if not legal:
            return official is None
        choice = ("hit" if rng.random() < hit else "stay") if set(legal) == {"hit", "stay"} \
            else rng.choice(legal)
        events = [e.to_json() for e in mine.apply(choice)]
        told = [e.to_json() for e in theirs.apply(choice)]
        assert not same_events or events == told, f"{reading}, seed {seed}, step {steps}"
        if official is not None:
            official.apply(choice)
        steps += 1


OWN_EVENTS = frozenset({"actions_discarded_when_revealed", "freeze_card_discarded", "saved_by_chance_stays",
                        "spare_chance_discarded"})
"""Readings whose mutant engine explains the same play with events of its own (another clause or reason, a
discard told at another moment): only their observations are compared."""

GAMES = 40
"""Generated games per misreading: enough for each reading to show in several of them."""


@pytest.mark.parametrize("reading", sorted(PAIRS))
def test_the_reference_under_a_misreading_plays_as_its_mutant_engine(reading: str) -> None:
    ruleset = preset("flip7")
    showed = sum(lockstep(reading, PAIRS[reading], ruleset, f"{reading}-{game}") for game in range(GAMES))
    if reading not in RARE:
        assert showed, f"{reading} never changed a generated game: the comparison proves nothing about it"


@pytest.mark.parametrize("reading", sorted(PAIRS))
def test_a_misreading_blames_the_clause_its_mutant_engine_breaks(reading: str) -> None:
    """The catalogue's entry names the clause its mutant engine declares it breaks, in a family, with a
    description: what the diagnosis shows when it names the reading."""
    entry = catalogue("flip7")[reading]
    assert (entry.name, entry.game) == (reading, "flip7")
    assert entry.clause in _module(PAIRS[reading]).CLAUSES
    assert isinstance(entry.family, str) and entry.family.strip()
    assert isinstance(entry.description, str) and entry.description.strip()


# ---- rigged decks: what the description says, beside the rules ------------------------------------------------

DISCARD_CLAUSES = {"F7-FLIP3-DISCARDED", "F7-FLIP3-SETASIDE-BUST", "F7-FLIP3-ASSIGN-INACTIVE", "F7-CHANCE-GIVE",
                   "F7-FLIP3-ASSIGN"}
"""The clauses a ``discard`` event may cite (docs/trace-format.md)."""


def events_of(deviations: tuple[str, ...], deck: list[str], choices: list[Choice]) -> list[list[Event]]:
    """The events of the start and of each of ``choices``, in a three-player game with Dealer 2 (seats 0, 1, 2
    dealt in that order) from ``deck`` (top first), under the flip7 preset playing ``deviations``."""
    game, started = new_game(dataclasses.replace(preset("flip7"), deviations=deviations), 3, deck, dealer=2,
                             check_deck=False)
    return [started, *(game.apply(choice) for choice in choices)]


def discards(events: list[Event]) -> list[tuple[str | None, str]]:
    """The cards the ``discard`` events among ``events`` discard, with the clause each cites."""
    return [(e.card, e.clause) for e in events if e.kind == "discard"]


@pytest.mark.clause("F7-FREEZE-KEEPS-CARDS", "F7-FLIP3-DISCARDED")
def test_actions_discarded_when_revealed_tells_the_discard_at_once() -> None:
    # Seat 0 is dealt a Freeze. The rules keep it in play until it freezes its target, and with them after
    # (F7-FREEZE-KEEPS-CARDS): no discard at all. Under the misreading it is discarded as it is revealed,
    # before anyone is chosen, and the freeze still happens.
    deck = ["FREEZE", "5", "7", "3", "9"]
    start, chosen = events_of((), deck, [1])
    assert discards(start) == discards(chosen) == []
    start, chosen = events_of(("actions_discarded_when_revealed",), deck, [1])
    [(card, clause)] = discards(start)
    assert card == "FREEZE" and clause in DISCARD_CLAUSES
    assert [e.kind for e in start].index("discard") == len(start) - 1  # the target is still to be chosen
    assert [(e.kind, e.player, e.card) for e in chosen if e.kind == "freeze"] == [("freeze", 1, "FREEZE")]
    assert discards(chosen) == []
    # A Flip Three drawn by seat 0 is discarded as it is drawn (F7-FLIP3-DISCARDED waits for its three cards).
    deck = ["5", "6", "7", "FLIP3", "1", "2", "3", "4"]
    _, drawn = events_of((), deck, ["hit"])
    assert discards(drawn) == []
    _, drawn = events_of(("actions_discarded_when_revealed",), deck, ["hit"])
    [(card, clause)] = discards(drawn)
    assert card == "FLIP3" and clause in DISCARD_CLAUSES
