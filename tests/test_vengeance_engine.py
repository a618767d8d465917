"""The Vengeance state machine, clause by clause, from forced deck orders; then random play with card conservation.

Unless a test says otherwise a game has 3 players and the Dealer is seat 2, so the deal and the turns go
seat 0, seat 1, seat 2. ``deck(top)`` puts the named cards on top (top first) and the rest of the ruleset's
deck after them, plain Numbers first.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from flip7_spec.cards import card
from flip7_spec.clauses import CLAUSES, clauses_for
from flip7_spec.cli import cli
from flip7_spec.errors import IllegalDecision, RulesetError, SetupError
from flip7_spec.events import Decision, Event
from flip7_spec.machine import Game
from flip7_spec.play import new_game
from flip7_spec.rulesets import Ruleset, load_ruleset, preset, ruleset_from_json
from flip7_spec.simulation.policies import random_policy, threshold_policy
from flip7_spec.simulation.simulate import Stats, play_games, record_games

V = preset("vengeance")
BASIC = preset("vengeance-basic")
clause = pytest.mark.clause


def deck(top: str, ruleset: Ruleset = V, players: int = 3) -> list[str]:
    rest = [c.text for c in ruleset.deck_cards(players)]
    tops = top.split()
    for text in tops:
        rest.remove(text)
    rest.sort(key=lambda t: not card(t).is_number or card(t).special is not None)
    return tops + rest


def start(top: str, ruleset: Ruleset = V, players: int = 3, dealer: int | None = None,
          **kwargs: Any) -> tuple[Game, list[Event]]:
    seat = players - 1 if dealer is None else dealer
    return new_game(ruleset, players, deck(top, ruleset, players), dealer=seat, **kwargs)


def play(game: Game, *choices: Any) -> list[Event]:
    events: list[Event] = []
    for choice in choices:
        events += game.apply(choice)
    return events


def rows(game: Game) -> list[list[str]]:
    return [[c.text for c in p.cards] for p in game.players]


def statuses(game: Game) -> list[str]:
    return [p.status for p in game.players]


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def ref(player: int, index: int) -> dict[str, int]:
    return {"player": player, "index": index}


def round_end(events: list[Event]) -> Event:
    return of(events, "round_end")[0]


# ---- components and setup -------------------------------------------------------------------------------


@clause("V-DECK")
def test_official_deck_has_108_cards() -> None:
    counts = Counter(c.text for c in V.deck_cards(3))
    assert sum(counts.values()) == 108  # 92 Numbers + 6 Modifiers + 10 Actions
    assert counts["ZERO"] == 1 and counts["0"] == 0
    for value in range(1, 14):
        special = {7: "U7", 13: "L13"}.get(value)
        assert counts[str(value)] + (counts[special] if special else 0) == value
    assert counts["U7"] == counts["L13"] == 1
    assert all(counts[m] == 1 for m in ("-2", "-4", "-6", "-8", "-10", "/2"))
    assert all(counts[a] == 2 for a in ("ONEMORE", "FLIP4", "SWAP", "STEAL", "DISCARD"))


@clause("V-BASIC")
def test_basic_deck_and_options() -> None:
    counts = Counter(c.text for c in BASIC.deck_cards(2))
    assert all(counts[str(v)] == v for v in range(1, 14))  # 91 Numbers, no special one
    assert {t: counts[t] for t in ("-5", "-10", "/2")} == {"-5": 3, "-10": 2, "/2": 1}
    assert {t: counts[t] for t in ("STEAL", "SWAP", "DISCARD", "FLIP4", "ONEMORE")} == {
        "STEAL": 2, "SWAP": 2, "DISCARD": 2, "FLIP4": 2, "ONEMORE": 0}
    assert sum(counts.values()) == 105  # 91 + 6 + 8
    assert (BASIC.game, BASIC.min_players, BASIC.max_players, BASIC.target_score) == ("vengeance", 2, 6, 200)
    assert BASIC.negative_scores and not BASIC.special_numbers


@clause("V-BASIC", "V-DECK-MODIFIERS-ALT")
def test_counts_are_overridable_by_a_deck_table(tmp_path: Path) -> None:
    path = tmp_path / "basic-more-malus.toml"
    numbers = "\n".join(f'"{v}" = {v}' for v in range(1, 14))
    path.write_text(f'name = "basic-more-malus"\nbase = "vengeance-basic"\n[deck]\n{numbers}\n'
                    '"-5" = 4\n"-10" = 4\n"/2" = 2\nSTEAL = 1\nSWAP = 1\nDISCARD = 1\nFLIP4 = 1\n')
    ruleset = load_ruleset(str(path))
    assert ruleset.discard_chooser == "victim" and len(ruleset.deck_cards(4)) == 91 + 10 + 4
    # the minority composition: two each of -2 ... -10, one /2, one of each Action, still 108 cards
    alt = dict(V.deck)
    alt.update({m: 2 for m in ("-2", "-4", "-6", "-8", "-10")})
    alt.update({a: 1 for a in ("ONEMORE", "FLIP4", "SWAP", "STEAL", "DISCARD")})
    minority = ruleset_from_json({"name": "minority", "base": "vengeance", "deck": alt})
    assert len(minority.deck_cards(3)) == 108
    for ruleset_ in (ruleset, minority):
        stats = Stats(4)
        for _ in play_games(ruleset_, 4, random_policy, "deck-table", range(5), stats=stats):
            pass
        assert stats.games == 5


@clause("V-TWO-DECKS")
def test_second_deck_beyond_18_players() -> None:
    assert len(V.deck_cards(18)) == 108
    assert len(V.deck_cards(19)) == 216


@clause("V-PLAYERS", "V-BASIC")
def test_player_counts() -> None:
    with pytest.raises(SetupError, match="at least 3"):
        new_game(V, 2, deck("", V, 2))
    new_game(BASIC, 2, deck("", BASIC, 2))
    with pytest.raises(SetupError, match="at most 6"):
        new_game(BASIC, 7, deck("", BASIC, 7))


@clause("V-NO-BASE-CARDS")
def test_base_game_cards_cannot_be_played() -> None:
    with pytest.raises(RulesetError, match="card FREEZE has no effect in a vengeance game"):
        ruleset_from_json({"name": "mixed", "base": "vengeance", "deck": {**dict(V.deck), "FREEZE": 1}})
    mixed = dataclasses.replace(V, deck=(*V.deck, ("FREEZE", 1)))  # built in code, past the file checks
    with pytest.raises(SetupError, match="FREEZE have no effect in Vengeance"):
        new_game(mixed, 3, deck("", mixed))


def test_vengeance_options_stay_out_of_flip7() -> None:
    assert "brutal_mode" not in preset("flip7").options()
    assert V.options()["brutal_mode"] is False
    with pytest.raises(RulesetError, match="applies to vengeance rulesets only"):
        preset("flip7").with_options(brutal_mode=True)
    assert ruleset_from_json(BASIC.to_json()) == BASIC


# ---- the deal and the turns ----------------------------------------------------------------------------


@clause("V-DEAL", "V-DEAL-ORDER", "V-SEATS")
def test_deal_goes_clockwise_from_the_dealers_left() -> None:
    game, events = start("1 2 3 4")
    assert rows(game) == [["1"], ["2"], ["3"]]
    assert game.pending == Decision(0, "hit_or_stay", ("hit", "stay"))
    assert [e.clause for e in of(events, "draw")] == ["V-DEAL"] * 3
    assert of(events, "round_start")[0].clause == "V-DEAL"
    game, _ = start("1 2 3", dealer=0)  # order 1, 2, 0
    assert rows(game) == [["3"], ["1"], ["2"]]
    game, _ = start("1 2 3", ruleset=V.with_options(deal_start="dealer"))  # order 2, 0, 1
    assert rows(game) == [["2"], ["3"], ["1"]]


@clause("V-DEAL")
def test_no_initial_deal_option() -> None:
    game, events = start("5", ruleset=V.with_options(initial_deal=False))
    assert rows(game) == [[], [], []] and not of(events, "draw")
    assert game.pending == Decision(0, "hit_or_stay", ("hit", "stay"))


@clause("V-DEAL-PAUSE", "V-MOD-TARGET")
def test_modifier_in_the_deal_pauses_it() -> None:
    game, _ = start("-4 2 3")
    assert rows(game) == [[], [], []]
    assert game.pending == Decision(0, "target", (0, 1, 2), "-4")
    events = game.apply(2)
    assert [(e.kind, e.player, e.card, e.get("target")) for e in events[:1]] == [("modifier", 0, "-4", 2)]
    assert rows(game) == [[], ["2"], ["-4", "3"]]  # the deal resumed with seat 1


@clause("V-DEAL-ALWAYS", "V-ONEMORE-STAY")
def test_deal_serves_players_with_cards_and_skips_stayed_ones() -> None:
    game, _ = start("-4 2 3")
    game.apply(1)  # seat 1 now holds -4 before its deal turn and is still dealt a card
    assert rows(game) == [[], ["-4", "2"], ["3"]]
    game, _ = start("ONEMORE 5 6 8")
    events = game.apply(1)  # Just One More on seat 1: it takes 5, then must Stay
    assert statuses(game) == ["active", "stayed", "active"]
    assert rows(game) == [[], ["5"], ["6"]]  # seat 1, stayed, got no deal card
    assert [e.player for e in of(events, "draw")] == [1, 2]


@clause("V-HIT-STAY", "V-STAY-NO-BANK")
def test_hit_and_stay() -> None:
    game, _ = start("1 2 3 4")
    events = game.apply("hit")
    assert [(e.kind, e.clause, e.card) for e in events] == [("draw", "V-HIT-STAY", "4")]
    events = game.apply("stay")
    assert [(e.kind, e.clause, e.player) for e in events] == [("stay", "V-STAY-NO-BANK", 1)]
    assert game.totals == [0, 0, 0]  # nothing banked
    assert game.observation()["players"][1] == {"cards": ["2"], "status": "stayed", "round_score": 2, "total": 0}


@clause("V-STAY-MINIMUM")
def test_stay_minimum_option() -> None:
    no_deal = V.with_options(initial_deal=False)
    game, _ = start("5", ruleset=no_deal)
    assert game.pending is not None and game.pending.options == ("hit", "stay")  # "none": empty row may Stay
    game, events = start("5 6 8", ruleset=no_deal.with_options(stay_minimum="one_card"))
    assert [(e.player, e.get("choice"), e.get("because")) for e in of(events, "forced")] == [
        (0, "hit", "V-STAY-MINIMUM"), (1, "hit", "V-STAY-MINIMUM"), (2, "hit", "V-STAY-MINIMUM")]
    assert rows(game) == [["5"], ["6"], ["8"]]
    assert game.pending == Decision(0, "hit_or_stay", ("hit", "stay"))
    game, events = start("1 2 3 4 5 6", ruleset=V.with_options(stay_minimum="two_numbers"))
    assert [e.player for e in of(events, "forced")] == [0, 1, 2]  # one Number each: Hit only
    assert rows(game) == [["1", "4"], ["2", "5"], ["3", "6"]]
    assert game.pending == Decision(0, "hit_or_stay", ("hit", "stay"))


@clause("V-FORCED-CHOICE", "V-ZERO-MUST-HIT", "V-ZERO-SCORE")
def test_the_zero_forces_hits() -> None:
    game, events = start("ZERO 1 2 5")
    forced = of(events, "forced")
    assert [(e.clause, e.player, e.get("kind"), e.get("choice"), e.get("because")) for e in forced] == [
        ("V-FORCED-CHOICE", 0, "hit_or_stay", "hit", "V-ZERO-MUST-HIT")]
    assert rows(game)[0] == ["ZERO", "5"]
    assert game.pending == Decision(1, "hit_or_stay", ("hit", "stay"))
    assert game.round_score(0) == 0  # 0 + 5, but The Zero makes it 0


@clause("V-DISCARD", "V-DISCARD-CHOOSER")
def test_discarding_the_zero_ends_the_must_hit() -> None:
    game, _ = start("ZERO 1 2 5 DISCARD")  # seat 0 was forced to take 5
    game.apply("hit")  # seat 1: DISCARD, the resolver picks any face-up card, its own included
    assert game.pending == Decision(1, "card", (ref(0, 0), ref(0, 1), ref(1, 0), ref(2, 0)), "DISCARD")
    events = play(game, ref(0, 0), "stay")
    assert [(e.kind, e.clause, e.player, e.card) for e in events[:2]] == [
        ("discard_card", "V-DISCARD", 0, "ZERO"), ("discard", "V-ACTION-AT-ONCE", None, "DISCARD")]
    assert game.pending == Decision(0, "hit_or_stay", ("hit", "stay"))
    assert game.discard[-2:] == [card("ZERO"), card("DISCARD")]


# ---- bust, Flip 7, round end ------------------------------------------------------------------------------


@clause("V-BUST", "V-SCORE-BUST")
def test_duplicate_busts() -> None:
    game, _ = start("5 6 8 5")
    events = game.apply("hit")
    assert [(e.kind, e.clause, e.player, e.card) for e in events] == [
        ("draw", "V-HIT-STAY", 0, "5"), ("bust", "V-BUST", 0, "5")]
    assert statuses(game)[0] == "busted" and rows(game)[0] == ["5", "5"] and game.round_score(0) == 0


@clause("V-FLIP7", "V-SCORE")
def test_flip7_ends_the_round() -> None:
    game, _ = start("1 2 3 4 5 6 8 9 10")
    events = play(game, "hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit")
    assert [(e.clause, e.player) for e in of(events, "flip7")] == [("V-FLIP7", 0)]
    # seat 0: 1+4+5+6+8+9+10 = 43, +15; seats 1 and 2 bank their single card
    assert round_end(events).get("scores") == [58, 2, 3]
    assert game.last_flip7 == 0 and game.round == 2


@clause("V-FLIP7-ANY-MEANS", "V-STEAL", "V-ROW")
def test_flip7_by_steal() -> None:
    game, _ = start("1 2 3 4 5 6 8 9 STEAL")
    play(game, "hit", "stay", "stay", "hit", "hit", "hit", "hit")  # seat 0: 1 4 5 6 8 9, six values
    game.apply("hit")
    assert game.pending == Decision(0, "card", (ref(1, 0), ref(2, 0)), "STEAL")
    events = game.apply(ref(1, 0))
    assert [(e.kind, e.player, e.card, e.get("from")) for e in events[:2]] == [
        ("steal", 0, "2", 1), ("flip7", 0, None, None)]
    # seat 0: 1+4+5+6+8+9+2 = 35, +15; seat 1 lost its only card
    assert round_end(events).get("scores") == [50, 0, 3]


@clause("V-FLIP7-ANY-MEANS", "V-STAYED-TARGET", "V-FLIP4-HOLD-DISCARD")
def test_flip7_of_a_stayed_player_in_a_flip_four() -> None:
    game, _ = start("1 2 3 4 11 5 12 6 13 8 10 FLIP4 9 -4 7")
    # seat 0 reaches 1 4 5 6 8 and stays; seat 1 reaches 2 11 12 13 10; seat 2 stays at once
    play(game, "hit", "hit", "stay", "hit", "hit", "hit", "hit", "hit", "hit", "stay")
    assert statuses(game) == ["stayed", "active", "stayed"]
    events = play(game, "hit", 0)  # seat 1: Flip Four on the stayed seat 0
    assert [e.card for e in of(events, "draw")][:4] == ["FLIP4", "9", "-4", "7"]
    assert of(events, "flip7")[0].player == 0 and not of(events, "modifier")
    # seat 0: 1+4+5+6+8+9+7 = 40, +15; seat 1: 2+11+12+13+10 = 48; seat 2: 3
    assert round_end(events).get("scores") == [55, 48, 3]


@clause("V-ROUND-END", "V-FLIP4-HOLD", "V-ONEMORE")
def test_round_waits_for_the_action_in_progress() -> None:
    game, _ = start("1 2 3 FLIP4 ONEMORE -6 4 5 6")
    play(game, "stay", "stay", "hit", 2)  # seat 2, the last active player, Flip Four on itself
    assert rows(game)[2] == ["3", "4", "5"] and [c.text for c in game.in_play] == ["ONEMORE", "-6"]
    assert game.pending == Decision(2, "target", (0, 1, 2), "ONEMORE")
    events = game.apply(2)  # Just One More on itself: takes 6, then must Stay: nobody is active now
    assert statuses(game) == ["stayed", "stayed", "stayed"] and not of(events, "round_end")
    assert game.pending == Decision(2, "target", (0, 1, 2), "-6")  # the held-back -6 is still resolved
    events = game.apply(0)
    # seat 0: 1 - 6 = -5, floored to 0; seat 1: 2; seat 2: 3+4+5+6 = 18
    assert round_end(events).get("scores") == [0, 2, 18]


@clause("V-NEXT-ROUND", "V-BANK")
def test_next_round() -> None:
    game, _ = start("5 4 1 2 3 6")
    events = play(game, "stay", "stay", "stay")
    assert round_end(events).get("totals") == [5, 4, 1]
    assert (game.round, game.dealer) == (2, 0)
    assert sorted(c.text for c in game.discard) == ["1", "4", "5"]
    assert rows(game) == [["6"], ["2"], ["3"]]  # dealt from seat 1, the new Dealer's left


@clause("V-RESHUFFLE", "V-EMPTY-DECK")
def test_reshuffle_keeps_table_and_flip_four_out_then_empty_deck_ends_the_round() -> None:
    small = ruleset_from_json({"name": "small", "base": "vengeance",
                               "deck": {str(v): 1 for v in (1, 2, 3, 4, 5, 6, 8, 9, 10)} | {"FLIP4": 1}})
    top = "1 2 3 4 5 6 8 9 10 FLIP4"
    all_cards = top.split()
    game, _ = start(top, ruleset=small, reshuffles=[[card(t) for t in ("3", "1", "2")],
                                                     [card(t) for t in all_cards]])
    play(game, "stay", "stay", "stay")  # round 1: 1 2 3 go to the discard pile
    play(game, "hit", "hit", "hit")  # round 2 (order 1 2 0): 4 8 / 5 9 / 6 10
    events = play(game, "hit", 1)  # seat 1: Flip Four on itself; the deck is empty
    reshuffle = of(events, "reshuffle")[0]
    assert (reshuffle.clause, reshuffle.get("order")) == ("V-RESHUFFLE", ["3", "1", "2"])
    assert [e.card for e in of(events, "draw")][1:4] == ["3", "1", "2"]
    assert of(events, "empty_deck")[0].clause == "V-EMPTY-DECK"
    # seat 0: 6+10; seat 1: 4+8+3+1+2; seat 2: 5+9
    assert round_end(events).get("scores") == [16, 18, 14]


@clause("V-GAME-END", "V-WINNER")
def test_game_end() -> None:
    game, _ = start("5 4 1", ruleset=V.with_options(target_score=5))
    events = play(game, "stay", "stay", "stay")
    end = of(events, "game_end")[0]
    assert (end.clause, end.get("winners"), game.over) == ("V-WINNER", [0], True)


@clause("V-TIE")
def test_tie_at_target() -> None:
    game, _ = start("5 5 1 2 3 4", ruleset=V.with_options(target_score=5))
    events = play(game, "stay", "stay", "stay")
    assert [(e.clause, e.get("leaders")) for e in of(events, "tie")] == [("V-TIE", [0, 1])]
    assert not game.over and game.round == 2
    game, _ = start("5 5 1", ruleset=V.with_options(target_score=5, tie_at_target="shared_win"))
    events = play(game, "stay", "stay", "stay")
    assert of(events, "game_end")[0].get("winners") == [0, 1]


# ---- special Numbers --------------------------------------------------------------------------------------


@clause("V-UNLUCKY7-WIPE")
def test_unlucky_7_wipes_numbers_and_modifiers() -> None:
    game, _ = start("5 -4 1 U7")
    game.apply(0)  # seat 1's -4 goes to seat 0
    assert rows(game) == [["5", "-4"], [], ["1"]]
    events = game.apply("hit")
    wipe = of(events, "wipe")[0]
    assert (wipe.clause, wipe.player, wipe.get("discarded")) == ("V-UNLUCKY7-WIPE", 0, ["5", "-4"])
    assert rows(game)[0] == ["U7"] and game.discard == [card("5"), card("-4")]


@clause("V-UNLUCKY7-NO-BUST")
def test_unlucky_7_on_a_7_does_not_bust() -> None:
    game, _ = start("7 1 2 U7")
    events = game.apply("hit")
    assert not of(events, "bust") and rows(game)[0] == ["U7"] and statuses(game)[0] == "active"


@clause("V-UNLUCKY7-LATER-7")
def test_a_7_after_the_unlucky_7_busts() -> None:
    game, _ = start("U7 1 2 7")
    events = game.apply("hit")
    assert of(events, "bust")[0].card == "7" and statuses(game)[0] == "busted"


@clause("V-LUCKY13-PAIR", "V-LUCKY13-THIRD")
def test_lucky_13() -> None:
    for first, second in (("13", "L13"), ("L13", "13")):
        game, _ = start(f"{first} 1 2 {second}")
        events = game.apply("hit")
        assert [(e.kind, e.clause) for e in events][1:] == [("lucky13", "V-LUCKY13-PAIR")]
        assert game.round_score(0) == 26
    game, _ = start("L13 1 2 13 13")
    events = play(game, "hit", "stay", "stay", "hit")
    assert of(events, "bust")[0].player == 0


@clause("V-LUCKY13-FLIP7")
def test_two_13s_toward_flip7_in_play() -> None:
    moves = ("hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit")  # seat 0: L13 13 3 4 5 6 8
    top = "L13 1 2 13 3 4 5 6 8"
    game, _ = start(top)
    events = play(game, *moves)
    assert not of(events, "flip7") and game.round_score(0) == 52  # 13+13+3+4+5+6+8, six values
    game, _ = start(top, ruleset=V.with_options(flip7_two_13s="count_both"))
    events = play(game, *moves)
    assert round_end(events).get("scores") == [67, 1, 2]  # 52 + 15


@clause("V-SPECIAL-NUMBERS")
def test_special_numbers_off_in_play() -> None:
    plain = V.with_options(special_numbers=False)
    game, _ = start("7 1 2 U7", ruleset=plain)
    assert of(game.apply("hit"), "bust")[0].card == "U7"
    game, _ = start("13 1 2 L13", ruleset=plain)
    assert of(game.apply("hit"), "bust")[0].card == "L13"
    game, _ = start("ZERO 1 2", ruleset=plain)
    assert game.pending == Decision(0, "hit_or_stay", ("hit", "stay"))


# ---- Actions ------------------------------------------------------------------------------------------------


@clause("V-ONEMORE", "V-ONEMORE-STAY", "V-ACTION-TARGET", "V-ACTION-AT-ONCE")
def test_just_one_more() -> None:
    game, _ = start("1 2 3 ONEMORE 5")
    game.apply("hit")
    assert game.pending == Decision(0, "target", (0, 1, 2), "ONEMORE")
    events = game.apply(1)
    assert [(e.kind, e.clause, e.player, e.card) for e in events] == [
        ("target", "V-ACTION-TARGET", 0, "ONEMORE"), ("draw", "V-ONEMORE", 1, "5"),
        ("discard", "V-ACTION-AT-ONCE", None, "ONEMORE"), ("stay", "V-ONEMORE-STAY", 1, None)]
    assert game.pending == Decision(2, "hit_or_stay", ("hit", "stay"))  # seat 1 is out of the rotation


@clause("V-STAYED-TARGET", "V-ONEMORE")
def test_just_one_more_on_a_stayed_or_busting_player() -> None:
    game, _ = start("1 2 3 4 ONEMORE 5")
    play(game, "hit", "stay", "hit")
    events = game.apply(1)  # seat 2's Just One More on the stayed seat 1
    assert rows(game)[1] == ["2", "5"] and statuses(game)[1] == "stayed" and not of(events, "stay")
    game, _ = start("1 2 3 ONEMORE 2")
    events = play(game, "hit", 1)
    assert of(events, "bust")[0].player == 1 and not of(events, "stay")


@clause("V-ONEMORE-STAY", "V-ZERO-MUST-HIT")
def test_just_one_more_overrides_the_zero() -> None:
    game, _ = start("ZERO 1 2 5 ONEMORE 8")
    events = play(game, "hit", 0)
    assert rows(game)[0] == ["ZERO", "5", "8"] and statuses(game)[0] == "stayed"
    assert of(events, "stay")[0].clause == "V-ONEMORE-STAY"


@clause("V-ACTION-RESOLVER")
def test_action_drawn_under_just_one_more_is_resolved_by_its_receiver() -> None:
    game, _ = start("1 2 3 ONEMORE STEAL")
    play(game, "hit", 1)
    assert game.pending == Decision(1, "card", (ref(0, 0), ref(2, 0)), "STEAL")
    game.apply(ref(2, 0))
    assert rows(game) == [["1"], ["2", "3"], []] and statuses(game)[1] == "stayed"


@clause("V-ACTION-ALONE", "V-MOD-ALONE", "V-FORCED-CHOICE")
def test_the_only_player_not_busted_plays_on_themselves() -> None:
    game, _ = start("9 10 3 9 10 ONEMORE 4")
    events = play(game, "hit", "hit", "hit")
    forced = of(events, "forced")[0]
    assert (forced.player, forced.card, forced.get("kind"), forced.get("choice"), forced.get("because")) == (
        2, "ONEMORE", "target", 2, "V-ACTION-ALONE")
    assert round_end(events).get("scores") == [0, 0, 7]  # seat 2: 3 + 4, then it had to Stay
    game, _ = start("9 10 3 9 10 -4")
    events = play(game, "hit", "hit", "hit")
    forced = of(events, "forced")[0]
    assert (forced.get("choice"), forced.get("because")) == (2, "V-MOD-ALONE")
    assert rows(game)[2] == ["3", "-4"]


@clause("V-BRUTAL", "V-BRUTAL-MOD-BUSTED", "V-BRUTAL-MOD-BUSTED-NO-EFFECT")
def test_brutal_mode_modifier_may_go_to_a_busted_player() -> None:
    for reading, busted_score in (("from_zero", -4), ("no_effect", 0)):  # 0 - 4; or the -4 changes nothing
        ruleset = V.with_options(brutal_mode=True, brutal_busted_modifier=reading)
        game, _ = start("9 10 3 9 10 -4", ruleset=ruleset)
        play(game, "hit", "hit", "hit")
        assert game.pending == Decision(2, "target", (0, 1, 2), "-4")
        game.apply(0)
        assert rows(game)[0] == ["9", "9", "-4"] and game.round_score(0) == busted_score


@clause("V-ACTION-START-NO-CARDS")
def test_swap_with_no_face_up_card_is_discarded() -> None:
    game, events = start("SWAP 1 2 3")
    assert [(e.kind, e.clause, e.card) for e in events[2:3]] == [("discard", "V-ACTION-START-NO-CARDS", "SWAP")]
    assert rows(game) == [[], ["1"], ["2"]]


@clause("V-ACTION-MANDATORY", "V-STEAL")
def test_steal_with_only_own_cards_is_discarded_and_otherwise_must_be_used() -> None:
    game, _ = start("5 ONEMORE STEAL")
    # seat 1's Just One More on itself draws a Steal; the only card of another player is seat 0's 5
    events = game.apply(1)
    forced = of(events, "forced")[0]
    assert forced.get("choice") == ref(0, 0) and forced.get("because") == "V-STEAL"
    assert rows(game)[:2] == [[], ["5"]]
    game, _ = start("5 9 2 9 STEAL")
    play(game, "stay", "hit")  # seat 1 busts
    events = game.apply("hit")  # seat 2's Steal: seat 0's 5 is the only target; forced
    assert rows(game)[2] == ["2", "5"] and of(events, "forced")[0].get("because") == "V-STEAL"
    game, _ = start("9 10 3 9 10 STEAL")
    events = play(game, "hit", "hit", "hit")  # seat 2 alone with its own row: nothing to steal
    assert [(e.clause, e.get("reason")) for e in of(events, "discard")] == [
        ("V-ACTION-MANDATORY", "no valid target")]


@clause("V-BUST-OUT-OF-PLAY", "V-ACTION-TARGET", "V-MOD-TARGET")
def test_busted_rows_and_players_are_out_of_play() -> None:
    game, _ = start("9 2 3 9 STEAL")
    play(game, "hit")  # seat 0 busts
    events = game.apply("hit")  # seat 1's Steal: only seat 2's card
    assert of(events, "forced")[0].get("choice") == ref(2, 0)
    game, _ = start("9 2 3 9 FLIP4")
    play(game, "hit", "hit")
    assert game.pending == Decision(1, "target", (1, 2), "FLIP4")
    game, _ = start("9 2 3 9 -4")
    play(game, "hit", "hit")
    assert game.pending == Decision(1, "target", (1, 2), "-4")


@clause("V-STEAL", "V-STAY-NO-BANK", "V-STAYED-TARGET")
def test_steal_from_a_stayed_player() -> None:
    game, _ = start("5 9 1 STEAL")
    play(game, "stay", "hit")
    assert game.pending == Decision(1, "card", (ref(0, 0), ref(2, 0)), "STEAL")
    events = game.apply(ref(0, 0))
    assert rows(game) == [[], ["9", "5"], ["1"]] and statuses(game)[0] == "stayed"
    assert [(e.kind, e.clause) for e in events[:2]] == [("steal", "V-STEAL"), ("discard", "V-ACTION-AT-ONCE")]


@clause("V-BUST-BY-ACTION")
def test_steal_of_a_duplicate_busts_the_stealer() -> None:
    game, _ = start("5 5 1 STEAL")
    events = play(game, "hit", ref(1, 0))
    assert of(events, "bust")[0].player == 0 and rows(game)[0] == ["5", "5"]


@clause("V-STEAL-DISCARD-CARDS", "V-MOD-NO-BUST")
def test_steal_any_card_or_numbers_only() -> None:
    top = "5 -4 1 STEAL"
    game, _ = start(top)
    play(game, 1)  # seat 1 keeps its -4; then it is dealt nothing more
    game.apply("hit")
    assert game.pending == Decision(0, "card", (ref(1, 0), ref(2, 0)), "STEAL")
    game.apply(ref(1, 0))  # a Modifier can be stolen; it never busts
    assert rows(game)[0] == ["5", "-4"]
    game, _ = start(top, ruleset=V.with_options(steal_discard_cards="numbers"))
    play(game, 1)
    events = game.apply("hit")
    assert of(events, "forced")[0].get("choice") == ref(2, 0)


@clause("V-MOD-NO-BUST", "V-MOD-TARGET", "V-STAYED-TARGET")
def test_modifiers_never_bust_nor_count_toward_flip7() -> None:
    game, _ = start("1 2 3 4 5 6 8 9 -2")
    play(game, "hit", "stay", "stay", "hit", "hit", "hit", "hit")  # seat 0: 1 4 5 6 8 9
    game.apply("hit")
    assert game.pending == Decision(0, "target", (0, 1, 2), "-2")  # stayed players may receive it
    events = game.apply(0)
    assert not of(events, "flip7") and game.pending == Decision(0, "hit_or_stay", ("hit", "stay"))


@clause("V-SWAP", "V-SWAP-LIMITS", "V-SWAP-RECEIVE", "V-BUST-BY-ACTION")
def test_one_swap_busts_both() -> None:
    game, _ = start("5 9 1 9 5 SWAP SWAP")
    play(game, "hit", "hit", "hit")  # seat 0: 5 9; seat 1: 9 5; seat 2 draws a Swap
    refs = [ref(0, 0), ref(0, 1), ref(1, 0), ref(1, 1), ref(2, 0)]
    expected = tuple([a, b] for i, a in enumerate(refs) for b in refs[i + 1:] if a["player"] != b["player"])
    assert game.pending == Decision(2, "swap", expected, "SWAP") and len(expected) == 8
    events = game.apply([ref(0, 0), ref(1, 0)])  # seat 0's 5 for seat 1's 9: two other players
    assert [(e.kind, e.player, e.card) for e in events[:3]] == [
        ("swap", 2, None), ("bust", 0, "9"), ("bust", 1, "5")]
    assert of(events, "swap")[0].get("cards") == ["5", "9"]
    assert rows(game)[:2] == [["9", "9"], ["5", "5"]]
    events = game.apply("hit")  # the second Swap: seat 2's row is the only face-up one
    assert [e.clause for e in of(events, "discard")] == ["V-ACTION-MANDATORY"]


@clause("V-SWAP", "V-BUST-BY-ACTION", "V-STAYED-TARGET")
def test_swap_busts_a_stayed_player() -> None:
    game, _ = start("5 1 9 8 8 SWAP")
    play(game, "hit", "stay", "hit", "stay", "hit")  # seat 0: 5 8 stayed; seat 2: 9 8, then a Swap
    events = game.apply([ref(0, 0), ref(2, 1)])  # seat 0's 5 for seat 2's own 8
    assert of(events, "bust")[0].player == 0 and statuses(game)[0] == "busted"
    assert rows(game)[2] == ["9", "5"]


@clause("V-SWAP-RECEIVE", "V-UNLUCKY7-WIPE")
def test_swapped_unlucky_7_wipes_its_receiver() -> None:
    game, _ = start("U7 5 9 3 4 SWAP")
    play(game, "hit", "hit", "hit")  # seat 0: U7 3; seat 1: 5 4; seat 2: 9, then a Swap
    events = game.apply([ref(0, 0), ref(1, 1)])
    assert rows(game)[:2] == [["3", "4"], ["U7"]]
    assert of(events, "wipe")[0].get("discarded") == ["5"]


@clause("V-DISCARD", "V-DISCARD-SELF", "V-DISCARD-CHOOSER")
def test_discard_options() -> None:
    game, _ = start("5 9 1 DISCARD")
    game.apply("hit")
    assert game.pending == Decision(0, "card", (ref(0, 0), ref(1, 0), ref(2, 0)), "DISCARD")
    game.apply(ref(1, 0))
    assert rows(game) == [["5"], [], ["1"]] and card("9") in game.discard
    game, _ = start("5 9 1 DISCARD", ruleset=V.with_options(discard_self=False))
    game.apply("hit")
    assert game.pending == Decision(0, "card", (ref(1, 0), ref(2, 0)), "DISCARD")


@clause("V-DISCARD-CHOOSER")
def test_discard_victim_picks_the_card() -> None:
    game, _ = start("5 9 1 4 3 DISCARD", ruleset=V.with_options(discard_chooser="victim"))
    play(game, "hit", "hit", "hit")  # seat 0: 5 4; seat 1: 9 3; seat 2 draws a Discard
    assert game.pending == Decision(2, "target", (0, 1, 2), "DISCARD")
    events = game.apply(1)
    assert [(e.kind, e.clause, e.get("target")) for e in events] == [("target", "V-DISCARD-CHOOSER", 1)]
    assert game.pending == Decision(1, "card", (ref(1, 0), ref(1, 1)), "DISCARD")
    game.apply(ref(1, 1))
    assert rows(game)[1] == ["9"]


@clause("V-FLIP4", "V-FLIP4-HOLD", "V-ACTION-TARGET")
def test_flip_four_counts_every_card_and_holds_modifiers() -> None:
    game, _ = start("1 2 3 FLIP4 4 -2 5 6")
    game.apply("hit")
    assert game.pending == Decision(0, "target", (0, 1, 2), "FLIP4")
    events = game.apply(1)
    assert [(e.card, e.get("via")) for e in of(events, "draw")] == [
        ("4", "flip4"), ("-2", "flip4"), ("5", "flip4"), ("6", "flip4")]
    assert of(events, "hold")[0].card == "-2"
    assert rows(game)[1] == ["2", "4", "5", "6"]
    assert game.pending == Decision(1, "target", (0, 1, 2), "-2")  # the target chooses, after the four
    game.apply(0)
    assert rows(game)[0] == ["1", "-2"] and statuses(game)[1] == "active"
    assert game.pending == Decision(1, "hit_or_stay", ("hit", "stay"))


@clause("V-FLIP4-SELF")
def test_flip_four_on_self_option() -> None:
    game, _ = start("1 2 3 FLIP4", ruleset=V.with_options(flip4_self=False))
    game.apply("hit")
    assert game.pending == Decision(0, "target", (1, 2), "FLIP4")
    game, _ = start("9 10 3 9 10 FLIP4 4 5 6 8", ruleset=V.with_options(flip4_self=False))
    events = play(game, "hit", "hit", "hit")  # seat 2 is alone: the Flip Four is its own
    assert of(events, "forced")[0].get("because") == "V-ACTION-ALONE"


@clause("V-FLIP4-STOP", "V-FLIP4-HOLD-DISCARD")
def test_flip_four_stops_on_a_bust_and_discards_held_cards() -> None:
    game, _ = start("1 2 3 FLIP4 DISCARD 2 5 6")
    events = play(game, "hit", 1)
    assert [e.card for e in of(events, "draw")] == ["FLIP4", "DISCARD", "2"]
    assert [(e.clause, e.card) for e in of(events, "discard")] == [
        ("V-ACTION-AT-ONCE", "FLIP4"), ("V-FLIP4-HOLD-DISCARD", "DISCARD")]
    assert game.draw_pile()[:2] == [card("5"), card("6")]


@clause("V-FLIP4-HOLD-DISCARD", "V-FLIP4-STOP")
def test_flip7_in_a_flip_four_discards_held_cards() -> None:
    game, _ = start("1 2 3 4 5 6 8 FLIP4 -4 9 10")
    play(game, "hit", "stay", "stay", "hit", "hit", "hit")  # seat 0: 1 4 5 6 8
    events = play(game, "hit", 0)
    assert [e.card for e in of(events, "draw") if e.get("via") == "flip4"] == ["-4", "9", "10"]
    assert not of(events, "modifier")
    # seat 0: 1+4+5+6+8+9+10 = 43, +15; the held -4 was never played
    assert round_end(events).get("scores") == [58, 2, 3]


@clause("V-FLIP4-UNLUCKY7")
def test_unlucky_7_inside_a_flip_four() -> None:
    game, _ = start("1 2 3 FLIP4 5 U7 8 9")
    events = play(game, "hit", 1)
    assert [e.card for e in of(events, "draw")] == ["FLIP4", "5", "U7", "8", "9"]
    assert of(events, "wipe")[0].get("discarded") == ["2", "5"]
    assert rows(game)[1] == ["U7", "8", "9"]


@clause("V-FLIP4-RESOLVER-OUT", "V-FLIP4-HOLD")
def test_held_cards_after_the_target_busts_on_one_of_them() -> None:
    game, _ = start("1 2 3 FLIP4 FLIP4 -2 4 5 2")
    play(game, "hit", 1)  # seat 1 holds back a Flip Four and -2
    assert game.pending == Decision(1, "target", (0, 1, 2), "FLIP4")
    events = game.apply(1)  # its own Flip Four busts it on the 2
    assert of(events, "bust")[0].player == 1
    assert [(e.clause, e.card) for e in of(events, "discard")] == [
        ("V-ACTION-AT-ONCE", "FLIP4"), ("V-FLIP4-RESOLVER-OUT", "-2")]


@clause("V-BRUTAL", "V-BRUTAL-FLIP7")
def test_brutal_flip7_takes_15_from_another_player() -> None:
    brutal = V.with_options(brutal_mode=True)
    moves = ("hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit")
    game, _ = start("1 2 3 4 5 6 8 9 10", ruleset=brutal)
    events = play(game, *moves)
    assert not of(events, "round_end") and game.pending == Decision(0, "target", (0, 1, 2), None)
    events = game.apply(1)
    assert [(e.kind, e.clause, e.get("target"), e.get("bonus")) for e in events[:1]] == [
        ("brutal_flip7", "V-BRUTAL-FLIP7", 1, False)]
    # seat 0: 1+4+5+6+8+9+10 = 43 without the bonus; seat 1: 2 - 15 = -13
    assert round_end(events).get("scores") == [43, -13, 3] and game.totals == [43, -13, 3]
    game, _ = start("1 2 3 4 5 6 8 9 10", ruleset=brutal)
    events = play(game, *moves, 0)
    assert round_end(events).get("scores") == [58, 2, 3]


@clause("V-BRUTAL", "V-BRUTAL-FLIP7")
@pytest.mark.parametrize("bonus", [0, 20, 25])
def test_brutal_flip7_takes_from_another_player_the_bonus_it_gives_up(bonus: int) -> None:
    # V-BRUTAL-FLIP7: the Flip 7 takes the bonus or subtracts it from another player instead; with the bonus set
    # to another value (flip7_bonus), both choices move that many points, not 15.
    brutal = V.with_options(brutal_mode=True, flip7_bonus=bonus)
    moves = ("hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit")
    game, _ = start("1 2 3 4 5 6 8 9 10", ruleset=brutal)
    events = play(game, *moves, 1)
    assert round_end(events).get("scores") == [43, 2 - bonus, 3]  # seat 0: 1+4+5+6+8+9+10, no bonus
    game, _ = start("1 2 3 4 5 6 8 9 10", ruleset=brutal)
    events = play(game, *moves, 0)
    assert round_end(events).get("scores") == [43 + bonus, 2, 3]


@clause("V-BRUTAL-NEGATIVE", "V-BANK", "V-BASIC", "V-SCORE-FLOOR")
def test_negative_round_scores_and_totals() -> None:
    for ruleset, expected in ((V, 0), (V.with_options(brutal_mode=True), -9), (BASIC, -9)):
        game, _ = start("-10 1 2", ruleset=ruleset)
        events = play(game, 1, "stay", "stay", "stay")
        assert round_end(events).get("scores")[1] == expected  # 1 - 10 = -9, floored to 0 in standard rules
        assert game.totals[1] == expected


# ---- the decision interface --------------------------------------------------------------------------------


@clause("V-STEAL", "V-SWAP")
def test_a_card_reference_with_a_key_missing_or_added_is_not_a_legal_choice() -> None:
    # A card reference is exactly {"player", "index"} (docs/protocol.md): one key fewer or one more is another
    # value, refused as illegal with the game left as it was, not taken and then failed on.
    game, _ = start("1 2 3 4 5 6 8 9 STEAL")
    play(game, "hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit")
    assert game.pending == Decision(0, "card", (ref(1, 0), ref(2, 0)), "STEAL")
    before = json.dumps(game.observation())
    for wrong in ({"player": 1}, {"index": 0}, {**ref(1, 0), "card": "2"}, {}):
        with pytest.raises(IllegalDecision):
            game.apply(wrong)
        assert json.dumps(game.observation()) == before
    game, _ = start("5 9 1 9 5 SWAP")
    play(game, "hit", "hit", "hit")
    before = json.dumps(game.observation())
    for pair in ([{"player": 0}, ref(1, 0)], [ref(0, 0), {**ref(1, 0), "seat": 1}]):
        with pytest.raises(IllegalDecision):
            game.apply(pair)
        assert json.dumps(game.observation()) == before


@clause("V-SWAP")
def test_choices_are_plain_json_and_compared_strictly() -> None:
    game, _ = start("5 9 1 9 5 SWAP")
    play(game, "hit", "hit", "hit")
    with pytest.raises(IllegalDecision):
        game.apply([{"player": True, "index": 0}, ref(1, 0)])
    with pytest.raises(IllegalDecision):
        game.apply((ref(0, 0), ref(1, 0)))
    json.dumps(game.observation())
    successor, events = game.after(json.loads(json.dumps([ref(0, 0), ref(1, 0)])))
    assert of(events, "swap") and rows(game)[0] == ["5", "9"]  # after() left the original alone
    assert rows(successor)[0] == ["9", "9"]


# ---- games that could never end ----------------------------------------------------------------------


@pytest.mark.clause("V-TARGET-UNREACHABLE")
def test_a_ruleset_whose_deck_scores_nothing_is_refused() -> None:
    # 0s score 0 and a -2 only takes points away: no hand scores a point, so no total reaches 200
    ruleset = ruleset_from_json({"name": "nothing", "base": "vengeance", "deck": {"0": 3, "-2": 1}})
    texts = [c.text for c in ruleset.deck_cards(3)]
    with pytest.raises(SetupError, match=r"can never be reached.*V-TARGET-UNREACHABLE"):
        new_game(ruleset, 3, texts)
    new_game(ruleset.with_options(round_limit=2), 3, texts, reshuffler=list)  # a round limit ends it anyway


@pytest.mark.clause("V-ENDLESS")
def test_a_deck_dealt_out_without_points_round_after_round_ends_the_game() -> None:
    # One 0 for three players: each round deals it to one seat and finds nothing for the next, with no
    # decision and no point. Two draws a round: the 11th draw (ten times the one-card deck, plus one) is in
    # round 6, which ends as if nothing were left to draw; the game ends there, all totals 0, all winners.
    ruleset = ruleset_from_json({"name": "lone-zero", "base": "vengeance", "deck": {"0": 1},
                                 "options": {"round_limit": 30}})
    game, events = new_game(ruleset, 3, ["0"], dealer=2, reshuffler=list)
    assert game.over and game.round == 6 and game.winners == [0, 1, 2]
    assert events[-1].kind == "game_end" and events[-1].clause == "V-ENDLESS"


# ---- registry, citations and coverage -------------------------------------------------------------------


PACKAGE = Path(__file__).resolve().parent.parent / "flip7_spec" / "games" / "vengeance"
TESTS = [Path(__file__), Path(__file__).with_name("test_vengeance_scoring.py"),
         Path(__file__).with_name("test_readings.py"), Path(__file__).with_name("test_handshake.py")]


def test_clause_registry() -> None:
    ids = [c.id for c in clauses_for("vengeance")]
    assert len(ids) >= 40 and all(i.startswith("V-") for i in ids)
    for c in clauses_for("vengeance"):
        assert c.confidence in ("H", "M", "L") and c.source and c.where and c.statement.endswith((".", ")"))
        assert c.option is None or c.option == "deck" or c.option in V.options()
    result = CliRunner().invoke(cli, ["rules", "--ruleset", "vengeance"])
    assert result.exit_code == 0 and f"# {len(ids)} clauses" in result.output and "V-UNLUCKY7-WIPE" in result.output


def test_every_clause_is_cited_in_the_code_and_exercised_by_a_test() -> None:
    ids = {c.id for c in clauses_for("vengeance")}
    cited = set()
    for path in PACKAGE.glob("*.py"):
        cited |= set(re.findall(r"\[(V-[A-Z0-9-]+)\]", path.read_text(encoding="utf-8")))
    assert cited <= set(CLAUSES) and not ids - cited, sorted(ids - cited)
    marked = set()
    for path in TESTS:
        # a clause(...) marker, or the clauses a reading fixture of tests/test_readings.py is marked with
        for args in re.findall(r"(?:clause|_reading)\(([^)]*)\)", path.read_text(encoding="utf-8")):
            marked |= set(re.findall(r"V-[A-Z0-9-]+", args))
    assert marked <= ids and not ids - marked, sorted(ids - marked)


# ---- random play ---------------------------------------------------------------------------------------------


def _conserving(policy: Any, checks: list[int], json_choices: bool) -> Any:
    """Wrap ``policy``: before every decision check that every card of the deck is somewhere, exactly once."""
    full: dict[int, Counter[str]] = {}

    def wrapped(game: Game, decision: Decision, rng: random.Random) -> Any:
        _check_conservation(game, full.setdefault(game.n, Counter(c.text for c in game.ruleset.deck_cards(game.n))))
        assert decision.options and all(json.loads(json.dumps(o)) == o for o in decision.options)
        checks[0] += 1
        choice = policy(game, decision, rng)
        return json.loads(json.dumps(choice)) if json_choices else choice

    return wrapped


def _check_conservation(game: Game, full: Counter[str] | None = None) -> None:
    held = Counter(c.text for c in game.pile)
    held.update(c.text for c in game.discard)
    held.update(c.text for c in game.in_play)
    held.update(c.text for c in [c for p in game.players for c in p.cards])
    assert held == (full or Counter(c.text for c in game.ruleset.deck_cards(game.n)))


VARIANTS = V.with_options(brutal_mode=True, discard_chooser="victim", flip7_two_13s="count_both",
                          stay_minimum="two_numbers", steal_discard_cards="numbers", discard_self=False,
                          flip4_self=False)


@pytest.mark.parametrize(("name", "players", "games"), [
    ("vengeance", 3, 150), ("vengeance", 5, 150), ("vengeance", 19, 20), ("vengeance-basic", 2, 100),
    ("vengeance-basic", 5, 100), ("variants", 4, 100),
])
@pytest.mark.parametrize("strategy", ["random", "threshold"])
def test_random_play_conserves_cards_and_ends(name: str, players: int, games: int, strategy: str) -> None:
    ruleset = VARIANTS if name == "variants" else preset(name)
    base = random_policy if strategy == "random" else threshold_policy(20)
    checks = [0]
    stats = Stats(players)
    for game in play_games(ruleset, players, _conserving(base, checks, strategy == "random"),
                           f"{name}-{strategy}", range(games), stats=stats):
        assert game.over
        _check_conservation(game)
        assert max(game.totals) >= ruleset.target_score
    assert stats.games == games and checks[0] == stats.decisions


def test_recorded_events_name_vengeance_clauses() -> None:
    ids = {c.id for c in clauses_for("vengeance")}
    brutal = V.with_options(brutal_mode=True)
    seen: Counter[str] = Counter()
    for ruleset in (V, brutal):
        for record in record_games(ruleset, 4, random_policy, "events", range(40)):
            for event in record.all_events():
                assert event.clause in ids, event
                seen[event.kind] += 1
    for kind in ("steal", "swap", "discard_card", "modifier", "wipe", "lucky13", "hold", "flip7",
                 "brutal_flip7", "reshuffle", "forced", "round_end", "game_end"):
        assert seen[kind], kind
