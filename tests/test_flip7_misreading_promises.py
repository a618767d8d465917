"""Flip 7's misreadings keep the promises of their descriptions and of the trace format, on hand-built decks.

Each test states what a reading's description (and the clause it misreads) says, or what the reference keeps
under any reading that does not read that rule, and plays it: a reading plays its own difference, and only it.
Every event played here is checked against the event table of docs/trace-format.md.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cards import Card, cards
from flip7_spec.clauses import CLAUSES
from flip7_spec.events import Choice, Event
from flip7_spec.machine import Game
from flip7_spec.misreadings import catalogue
from flip7_spec.play import make_game, new_game
from flip7_spec.rulesets import preset

ROOT = Path(__file__).resolve().parent.parent
READINGS = tuple(catalogue("flip7"))


# ---- the event table of docs/trace-format.md -------------------------------------------------------------------


def _event_table() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """The base game's events as docs/trace-format.md lists them: fields and clauses, by event name."""
    text = (ROOT / "docs" / "trace-format.md").read_text(encoding="utf-8")
    table = text.split("| event | fields | clause | meaning |", 1)[1].split("\n\n", 1)[0]
    events: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        name = cells[0].strip("`")
        events[name] = (tuple(re.findall(r"`([a-z_]+)`", cells[1])), tuple(re.findall(r"F7-[A-Z0-9-]+", cells[2])))
    return events


EVENTS = _event_table()

VIA_CLAUSE = {"deal": "F7-DEAL", "hit": "F7-HIT-STAY", "flip3": "F7-FLIP3", "replacement": "F7-CHANCE-ENDS-TURN"}
"""The clause a ``draw`` cites for each ``via`` (the table lists both in this order)."""


def check_event(event: Event, players: int) -> None:
    """``event`` is one the trace format documents: a known event, citing a clause of Flip 7, with the fields
    its row lists (``card`` of a ``forced`` event only if there is one), a seat as ``player``, a card as
    ``card``, a non-empty ``reason``, and for a ``draw`` the clause of its ``via``."""
    assert event.kind in EVENTS, event
    fields, _ = EVENTS[event.kind]
    assert isinstance(event.clause, str) and event.clause.startswith("F7-") and event.clause in CLAUSES, event
    shown = event.to_json()
    for field in fields:
        if field == "card" and event.kind == "forced":
            continue
        assert field in shown, (field, event)
    if "player" in fields:
        assert isinstance(event.player, int) and 0 <= event.player < players, event
    if event.card is not None or ("card" in fields and event.kind != "forced"):
        assert isinstance(event.card, str) and cards([event.card]), event
    if event.kind == "discard":
        reason = event.get("reason")
        assert isinstance(reason, str) and reason.strip(), event
    if event.kind == "draw":
        assert event.clause == VIA_CLAUSE[event.get("via")], event


# ---- playing a hand-built deck ---------------------------------------------------------------------------------


def play(deviations: Sequence[str], deck: list[str], choices: Sequence[Choice] = (), players: int = 3,
         dealer: int = 2, preset_name: str = "flip7", **options: Any) -> tuple[Game, list[list[Event]]]:
    """A game of ``players`` (Dealer 2 by default: seats 0, 1, 2 dealt in that order) from ``deck`` (top first),
    under the preset with ``options`` and ``deviations``, after ``choices``; with the events of the start and of
    each choice, every one checked by :func:`check_event`."""
    ruleset = dataclasses.replace(preset(preset_name), deviations=tuple(deviations), **options)
    game, started = new_game(ruleset, players, deck, dealer=dealer, check_deck=False)
    told = [started]
    for choice in choices:
        told.append(game.apply(choice))
    for batch in told:
        for event in batch:
            check_event(event, players)
    return game, told


def row(game: Game, seat: int) -> tuple[str, list[str]]:
    """Seat ``seat``'s status and cards, as the observation shows them."""
    player = game.observation()["players"][seat]
    return player["status"], player["cards"]


def kinds(events: list[Event]) -> list[tuple[str, int | None, str | None]]:
    return [(e.kind, e.player, e.card) for e in events]


# ---- every reading tells its play with the documented events --------------------------------------------------


def shuffler(rng: random.Random) -> Callable[[list[Card]], list[Card]]:
    """A reshuffler drawing from ``rng``."""
    return lambda pile: rng.sample(pile, len(pile))


@pytest.mark.parametrize("reading", READINGS)
def test_every_event_a_reading_tells_is_one_the_trace_format_documents(reading: str) -> None:
    # Generated games (random decks and choices) under the reading: each event has the shape of its row of the
    # event table, whatever the reading changes in the play.
    ruleset = dataclasses.replace(preset("flip7"), deviations=(reading,))
    for seed in range(3):
        rng = random.Random(f"{reading}-{seed}")
        players = 3 + seed
        deck = ruleset.deck_cards(players)
        rng.shuffle(deck)
        game = make_game(ruleset, players, deck, rng.randrange(players), shuffler(rng))
        told = list(game.start())
        while game.pending is not None:
            legal = game.legal()
            choice = ("hit" if rng.random() < 0.8 else "stay") if set(legal) == {"hit", "stay"} \
                else rng.choice(legal)
            told.extend(game.apply(choice))
        assert game.over
        for event in told:
            check_event(event, players)


@pytest.mark.clause("F7-DEAL-FREEZE-EMPTY", "F7-CHANCE-GIVE")
def test_the_rare_events_of_readings_are_documented_ones_too() -> None:
    # Seat 0 is dealt a Freeze and freezes seat 2 before their deal turn: under deal_to_frozen_player seat 2 is
    # still dealt the 7, a draw of the deal (F7-DEAL), checked by play().
    game, told = play(("deal_to_frozen_player",), ["FREEZE", "5", "7", "3", "9", "10"], [2])
    assert row(game, 2) == ("frozen", ["FREEZE", "7"])
    assert ("draw", 2, "7") in kinds(told[1])
    # A lone player (the challenge's preset allows one) who holds a Second Chance draws another: under
    # chance_given_to_anyone there is nobody to give it to, and it is discarded with a reason.
    game, told = play(("chance_given_to_anyone",), ["5", "CHANCE", "CHANCE", "7", "8"], ["hit", "hit"],
                      players=1, dealer=0, preset_name="flip7-challenge")
    assert [e.card for e in told[2] if e.kind == "discard"] == ["CHANCE"]
    assert row(game, 0) == ("active", ["5", "CHANCE"])
    # Under spare_chance_discarded a second Second Chance is discarded at once, with a reason.
    game, told = play(("spare_chance_discarded",), ["5", "10", "12", "CHANCE", "CHANCE", "7"],
                      ["hit", "stay", "stay", "hit"])
    assert [e.card for e in told[4] if e.kind == "discard"] == ["CHANCE"]
    assert row(game, 0) == ("active", ["5", "CHANCE"])


# ---- Flip 7 and the end of a round ---------------------------------------------------------------------------

# Seat 0 is dealt 1 and hits 2..7 (seven different Numbers at the sixth Hit); seat 1 stays at once; seat 2 hits
# between seat 0's Hits, reaching six different Numbers only.
FLIP7_DECK = ["1", "10", "12", "2", "11", "3", "9", "4", "8", "5", "0", "6", "10", "7", "5", "5", "5", "4", "3"]
FLIP7_CHOICES: list[Choice] = ["hit", "stay", "hit", "hit", "hit", "hit", "hit", "hit", "hit", "hit", "hit", "hit"]
# The same with seat 0 dealt the 0 and hitting 1..6 (seven different Numbers, the 0 among them), seat 2 hitting
# 11, 10, 9, 8, 7.
ZERO_DECK = ["0", "10", "12", "1", "11", "2", "10", "3", "9", "4", "8", "5", "7", "6", "7", "4", "3", "2", "1"]


def round_ends(deviations: Sequence[str], deck: list[str], choices: Sequence[Choice],
               **options: Any) -> tuple[Game, list[int | None]]:
    """The game after ``choices``, with the seat ``last_flip7`` named at each round's end so far."""
    ruleset = dataclasses.replace(preset("flip7"), deviations=tuple(deviations), **options)
    game, _ = new_game(ruleset, 3, deck, dealer=2, check_deck=False)
    seen: list[int | None] = []
    game.on_round_end = lambda g: seen.append(g.last_flip7)
    for choice in choices:
        for event in game.apply(choice):
            check_event(event, 3)
    return game, seen


@pytest.mark.clause("F7-FLIP7")
def test_flip7_ends_own_turn_stays_its_maker_with_the_bonus_and_the_others_play_on() -> None:
    game, _ = play(("flip7_ends_own_turn",), FLIP7_DECK, FLIP7_CHOICES)
    assert game.round == 1 and row(game, 0) == ("stayed", ["1", "2", "3", "4", "5", "6", "7"])
    assert game.round_score(0) == 28 + 15
    assert game.pending is not None and game.pending.player == 2 and row(game, 2)[0] == "active"


@pytest.mark.clause("F7-FLIP7-ZERO")
def test_zero_not_for_flip7_needs_seven_numbers_besides_the_0() -> None:
    # The rules end the round at 0..6 (F7-FLIP7-ZERO); the reading plays on, and ends it at seven others.
    _, seen = round_ends((), ZERO_DECK, FLIP7_CHOICES)
    assert seen == [0]
    game, seen = round_ends(("zero_not_for_flip7",), ZERO_DECK, FLIP7_CHOICES)
    assert seen == [] and game.round == 1 and row(game, 0)[0] == "active" and game.round_score(0) == 21
    game, seen = round_ends(("zero_not_for_flip7",), ZERO_DECK, [*FLIP7_CHOICES, "stay", "hit"])
    assert seen == [0] and game.round == 2 and game.totals[0] == 28 + 15


@pytest.mark.clause("F7-FLIP7-ZERO", "F7-FLIP7")
def test_composed_readings_each_play_their_own_part_of_a_flip7() -> None:
    # zero_not_for_flip7 with flip7_ends_own_turn: 0..6 is no Flip 7, so its maker is neither stopped nor stayed.
    game, _ = play(("flip7_ends_own_turn", "zero_not_for_flip7"), ZERO_DECK, FLIP7_CHOICES)
    assert game.round == 1 and row(game, 0)[0] == "active" and game.round_score(0) == 21


@pytest.mark.clause("F7-MOD-NO-BUST")
def test_modifiers_count_for_flip7_ends_the_round_at_the_seventh_card_not_before() -> None:
    # Seat 0 alone hits 1, +2, +4, x2, 2, 3 (six Number and modifier cards), then +6: the seventh.
    deck = ["1", "10", "12", "+2", "+4", "x2", "2", "3", "+6", "5", "6", "7", "8"]
    choices: list[Choice] = ["hit", "stay", "stay", "hit", "hit", "hit", "hit"]
    game, _ = play(("modifiers_count_for_flip7",), deck, choices)
    assert game.round == 1 and row(game, 0) == ("active", ["1", "+2", "+4", "x2", "2", "3"])
    game, told = play(("modifiers_count_for_flip7",), deck, [*choices, "hit"])
    assert ("flip7", 0, None) in kinds(told[-1]) and game.round == 2
    assert game.totals[0] == (1 + 2 + 3) * 2 + 2 + 4 + 6 + 15


# ---- scoring: a reading changes a score only where it reads the rules otherwise ----------------------------


def scored(deviations: Sequence[str], hand: list[str], busted: bool = False) -> int:
    ruleset = dataclasses.replace(preset("flip7"), deviations=tuple(deviations))
    return make_game(ruleset, 3, ruleset.deck_cards(3), 0, record=False).score_hand(cards(hand), busted)


@pytest.mark.parametrize("reading", [r for r in READINGS if catalogue("flip7")[r].clause != "F7-SCORE-BUST"])
def test_a_busted_player_banks_0_under_every_reading_but_those_of_the_busted_score(reading: str) -> None:
    assert scored((reading,), ["5", "5", "x2", "+4"], busted=True) == 0  # [F7-SCORE-BUST]


@pytest.mark.clause("F7-FREEZE")
def test_the_frozen_readings_change_a_frozen_players_score_only() -> None:
    # score_hand: a hand with a Freeze is a frozen player's, any other a stayed one's.
    assert scored(("frozen_banks_nothing",), ["5", "x2", "+4"]) == 14
    assert scored(("frozen_banks_nothing",), ["5", "x2", "+4", "FREEZE"]) == 0
    assert scored(("frozen_banks_numbers",), ["5", "x2", "+4"]) == 14
    assert scored(("frozen_banks_numbers",), ["5", "x2", "+4", "FREEZE"]) == 5
    # Frozen with seven different Numbers: the Numbers and the bonus; the x2 is ignored, so it doubles nothing,
    # not even under x2_doubles_bonus.
    flip7 = ["0", "1", "2", "3", "4", "5", "6", "x2", "FREEZE"]
    assert scored(("frozen_banks_numbers", "x2_doubles_bonus"), flip7) == 21 + 15
    assert scored(("x2_doubles_bonus",), flip7) == 21 * 2 + 30


@pytest.mark.clause("F7-MOD-X2")
def test_x2_adds_two_multiplies_nothing_not_even_the_bonus() -> None:
    flip7 = ["0", "1", "2", "3", "4", "5", "6", "+4"]
    assert scored(("x2_adds_two",), [*flip7, "x2"]) == 21 + 4 + 2 + 15
    assert scored(("x2_adds_two", "x2_doubles_bonus"), flip7) == 21 + 4 + 15
    assert scored(("x2_adds_two", "x2_doubles_bonus"), [*flip7, "x2"]) == 21 + 4 + 2 + 15


# ---- Freeze and Flip Three -----------------------------------------------------------------------------------


@pytest.mark.clause("F7-FREEZE-SELF")
def test_freeze_not_self_narrows_a_freezes_targets_only() -> None:
    # Seat 0 is dealt the Action, with seats 0, 1 and 2 active: a Flip Three may still go to its revealer.
    game, _ = play(("freeze_not_self",), ["FLIP3", "4", "5", "6", "7", "8", "9"])
    assert game.pending is not None and game.pending.options == (0, 1, 2)
    game, _ = play(("freeze_not_self",), ["FREEZE", "4", "5", "6", "7", "8", "9"])
    assert game.pending is not None and game.pending.options == (1, 2)


@pytest.mark.clause("F7-FLIP3")
def test_flip3_card_counted_gives_its_target_two_more_cards() -> None:
    deck = ["FLIP3", "4", "5", "6", "7", "8", "9", "10"]
    assert row(play((), deck, [1])[0], 1) == ("active", ["4", "5", "6"])
    assert row(play(("flip3_card_counted",), deck, [1])[0], 1) == ("active", ["4", "5"])


@pytest.mark.clause("F7-FLIP3-STOP")
def test_flip3_through_freeze_still_stops_at_a_bust() -> None:
    # Seat 0 hits a Flip Three for seat 1, whose first card duplicates their 4: only a bust stops it early.
    deck = ["3", "4", "5", "FLIP3", "4", "6", "7", "8", "9", "10", "11"]
    game, _ = play(("flip3_through_freeze",), deck, ["hit", 1])
    assert row(game, 1) == ("busted", ["4", "4"]) and game.observation()["draw_pile"] == 6


@pytest.mark.clause("F7-FLIP3-STOP", "F7-FLIP3-SETASIDE", "F7-CHANCE-ENDS-TURN")
def test_flip3_through_freeze_goes_on_after_a_freeze_its_target_takes_at_once() -> None:
    # Only with flip3_actions_at_once is a target frozen in the middle of their Flip Three: seat 1 freezes
    # themselves with its first card. The rules stop the Flip Three there; flip3_through_freeze draws its
    # other two cards for seat 1, by the Flip Three (each checked by play()).
    deck = ["3", "4", "5", "FLIP3", "FREEZE", "6", "7", "8", "9", "10", "11"]
    assert row(play(("flip3_actions_at_once",), deck, ["hit", 1, 1])[0], 1) == ("frozen", ["4", "FREEZE"])
    game, told = play(("flip3_through_freeze", "flip3_actions_at_once"), deck, ["hit", 1, 1])
    assert row(game, 1) == ("frozen", ["4", "FREEZE", "6", "7"])
    assert [(e.player, e.card, e.get("via")) for e in told[-1] if e.kind == "draw"] == \
        [(1, "6", "flip3"), (1, "7", "flip3")]
    # With chance_ends_flip_three too, the Second Chance seat 1 uses after the Freeze ends the Flip Three.
    deck = ["3", "4", "5", "CHANCE", "6", "FLIP3", "FREEZE", "4", "9", "10", "11", "12"]
    choices: list[Choice] = ["stay", "hit", "hit", "hit", 1, 1]
    game, _ = play(("flip3_through_freeze", "flip3_actions_at_once"), deck, choices)
    assert row(game, 1) == ("frozen", ["4", "FREEZE", "9"])
    game, _ = play(("flip3_through_freeze", "flip3_actions_at_once", "chance_ends_flip_three"), deck, choices)
    assert row(game, 1) == ("frozen", ["4", "FREEZE"])


SET_ASIDE_DECK = ["FLIP3", "4", "FREEZE", "6", "7", "8", "9", "10", "11"]
"""Seat 0 is dealt a Flip Three and gives it to seat 1, who draws 4, a Freeze and 6."""


@pytest.mark.parametrize("reading", [r for r in READINGS if catalogue("flip7")[r].clause != "F7-FLIP3-SETASIDE"])
def test_a_freeze_revealed_in_a_flip_three_is_set_aside_under_every_reading_but_that_one(reading: str) -> None:
    # [F7-FLIP3-SETASIDE] the Freeze waits for the three cards, then is assigned by the Flip Three's target.
    game, told = play((reading,), SET_ASIDE_DECK, [1])
    assert ("set_aside", 1, "FREEZE") in kinds(told[-1])
    assert game.pending is not None and (game.pending.player, str(game.pending.kind), game.pending.card) == \
        (1, "assign", "FREEZE")


@pytest.mark.clause("F7-FLIP3-ASSIGN", "F7-FLIP3-ASSIGN-EACH")
def test_setaside_dropped_when_target_out_discards_the_rest_unassigned_when_each_resolves_at_once() -> None:
    # Seat 0 gives their own Flip Three to themselves and sets aside a Freeze and a Flip Three; resolving each
    # as it is assigned, the Freeze freezes seat 0: the reading discards the Flip Three without assigning it.
    deck = ["FLIP3", "FREEZE", "FLIP3", "4", "5", "6", "7", "8", "9"]
    game, told = play(("setaside_dropped_when_target_out",), deck, [0, 0], set_aside_resolution="resolve_each")
    assert row(game, 0) == ("frozen", ["4", "FREEZE"]) and game.observation()["in_play"] == []
    assert [(e.kind, e.card) for e in told[-1] if e.kind in ("assign", "discard")] == \
        [("assign", "FREEZE"), ("discard", "FLIP3")]
    game, _ = play((), deck, [0, 0], set_aside_resolution="resolve_each")
    assert game.pending is not None and (str(game.pending.kind), game.pending.card) == ("assign", "FLIP3")


# ---- Second Chance -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("reading", [r for r in READINGS if catalogue("flip7")[r].clause != "F7-CHANCE-ENDS-TURN"])
def test_a_player_saved_on_a_hit_draws_a_replacement_under_every_reading_but_those_of_the_turns_end(
        reading: str) -> None:
    # [F7-CHANCE-ENDS-TURN] (option second_chance_ends_turn=false): the first player dealt hits a Second Chance,
    # the others stay, and their next Hit duplicates their Number: saved, they draw the 7 at once.
    deck = ["5", "10", "12", "CHANCE", "5", "7", "8", "9", "11"]
    _, told = play((reading,), deck, ["hit", "stay", "stay", "hit"], second_chance_ends_turn=False)
    last = [(e.kind, e.card, e.get("via")) for e in told[-1] if e.kind in ("chance_used", "draw")]
    assert last == [("draw", "5", "hit"), ("chance_used", "5", None), ("draw", "7", "replacement")]


@pytest.mark.clause("F7-CHANCE-GIVE", "F7-CHANCE-USE")
def test_chance_given_to_anyone_saves_once_for_each_second_chance_held() -> None:
    # Seat 0 hits a Second Chance, the others stay; seat 0's next 5 is cancelled by it, the one after busts them.
    deck = ["5", "10", "12", "CHANCE", "5", "5", "7", "8", "9", "11"]
    game, told = play(("chance_given_to_anyone",), deck, ["hit", "stay", "stay", "hit"])
    assert ("chance_used", 0, "5") in kinds(told[4]) and row(game, 0) == ("active", ["5"])
    game, told = play(("chance_given_to_anyone",), deck, ["hit", "stay", "stay", "hit", "hit"])
    assert ("bust", 0, "5") in kinds(told[5]) and game.round == 2 and game.totals == [0, 10, 12]


@pytest.mark.clause("F7-CHANCE-ROUND-END")
def test_chance_kept_next_round_saves_its_player_in_the_next_round() -> None:
    # Seat 0 ends round 1 holding a Second Chance. In round 2 (Dealer 0: seats 1, 2, 0 dealt) it is in front of
    # them already, so their deal turn is a Hit or Stay (F7-DEAL-STAY-INSTEAD); they hit a 6, the others stay,
    # and they hit another 6: the Second Chance they kept cancels it.
    deck = ["5", "10", "12", "CHANCE", "3", "4", "6", "6", "7", "8", "9"]
    choices: list[Choice] = ["hit", "stay", "stay", "stay", "hit", "stay", "stay", "hit"]
    game, told = play(("chance_kept_next_round",), deck, choices[:4])
    assert game.round == 2 and row(game, 0) == ("active", ["CHANCE"])
    game, told = play(("chance_kept_next_round",), deck, choices)
    assert ("chance_used", 0, "6") in kinds(told[-1]) and row(game, 0) == ("active", ["6"])
