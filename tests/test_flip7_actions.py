"""Flip Three, Freeze and Second Chance in the base game, decision by decision, on stacked decks.

Every expectation is worked out from the rules (RULES.md A.1#12-#15 and the clauses named), in the comments.
The deck is the ruleset's own deck with the cards listed first (``full_deck``); with three players and
Dealer seat 2 the deal, and each turn, goes seat 0, 1, 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from flip7_spec.cards import cards
from flip7_spec.errors import CardError
from flip7_spec.events import Event
from flip7_spec.fixtures import full_deck
from flip7_spec.machine import Game
from flip7_spec.play import check_hand, new_game
from flip7_spec.rulesets import Ruleset, preset

FLIP7 = preset("flip7")


def start(top: Sequence[str], ruleset: Ruleset = FLIP7) -> tuple[Game, list[Event]]:
    """Three players, Dealer seat 2, the deck stacked with ``top``."""
    return new_game(ruleset, 3, full_deck(ruleset, 3, list(top)), dealer=2)


def rows(game: Game) -> list[list[str]]:
    return [[c.text for c in p.cards] for p in game.players]


def statuses(game: Game) -> list[str]:
    return [p.status.value for p in game.players]


def pending(game: Game) -> tuple[int, str, Any, tuple[Any, ...]] | None:
    p = game.pending
    return None if p is None else (p.player, str(p.kind), p.card, tuple(p.options))


def kinds(events: Sequence[Event]) -> list[tuple[str, str]]:
    return [(e.kind, e.clause) for e in events]


# ---- Flip Three ---------------------------------------------------------------------------------------


@pytest.mark.clause("F7-FLIP3", "F7-FLIP3-COUNTS-ALL", "F7-FLIP3-SETASIDE", "F7-FLIP3-ASSIGN", "F7-FREEZE")
def test_a_freeze_drawn_in_a_flip_three_waits_until_the_three_cards_are_drawn() -> None:
    # deal 4 6 8; seat 0 hits a Flip Three and plays it on seat 1, who draws FREEZE (set aside), 3 and +4:
    # three cards, the Freeze among them. Only then is the Freeze assigned, by seat 1, to any active player.
    game, _ = start(["4", "6", "8", "FLIP3", "FREEZE", "3", "+4", "9"])
    game.apply("hit")
    assert pending(game) == (0, "target", "FLIP3", (0, 1, 2))
    events = game.apply(1)
    assert ("set_aside", "F7-FLIP3-SETASIDE") in kinds(events)
    assert rows(game) == [["4"], ["6", "3", "+4"], ["8"]]  # the Freeze is not in a row: it waits
    assert [c.text for c in game.in_play] == ["FREEZE"]
    assert pending(game) == (1, "assign", "FREEZE", (0, 1, 2))
    assert game.discard[-1].text == "FLIP3"  # [F7-FLIP3-DISCARDED] once its three cards are done
    events = game.apply(2)
    assert ("freeze", "F7-FREEZE") in kinds(events)
    assert statuses(game) == ["active", "active", "frozen"]
    assert rows(game)[2] == ["8", "FREEZE"]  # [F7-FREEZE-KEEPS-CARDS]
    assert game.in_play == []
    assert pending(game) == (1, "hit_or_stay", None, ("hit", "stay"))  # seat 1's own turn comes next
    assert [c.text for c in game.draw_pile()[:1]] == ["9"]  # exactly three cards were drawn for the Flip Three


@pytest.mark.clause("F7-FLIP3-STOP", "F7-FLIP3-SETASIDE-BUST", "F7-BUST")
def test_a_bust_stops_the_flip_three_and_discards_its_set_aside_cards() -> None:
    # seat 1 (holding 6) draws FREEZE (set aside) and 6: busted after two cards, so the third card (3) stays
    # on the deck and the Freeze is discarded with the Flip Three; seat 2 is next and hits the 3.
    game, _ = start(["4", "6", "8", "FLIP3", "FREEZE", "6", "3"])
    game.apply("hit")
    events = game.apply(1)
    assert ("bust", "F7-BUST") in kinds(events)
    assert ("discard", "F7-FLIP3-SETASIDE-BUST") in [(e.kind, e.clause) for e in events]
    assert statuses(game) == ["active", "busted", "active"]
    assert rows(game) == [["4"], ["6", "6"], ["8"]]
    assert sorted(c.text for c in game.discard) == ["FLIP3", "FREEZE"]
    assert game.in_play == []
    assert pending(game) == (2, "hit_or_stay", None, ("hit", "stay"))
    game.apply("hit")
    assert rows(game)[2] == ["8", "3"]


@pytest.mark.clause("F7-FLIP3-CHANCE-AT-ONCE", "F7-CHANCE-USE", "F7-CHANCE-ENDS-TURN", "F7-FLIP3-COUNTS-ALL")
def test_a_second_chance_drawn_in_a_flip_three_is_kept_and_can_save_the_next_card() -> None:
    # seat 1 (holding 6) draws CHANCE (kept at once), 6 (the Second Chance saves it: both go to the discard
    # pile) and 5: three cards drawn, seat 1 still in with 6 5. The Flip Three goes on after the save.
    game, _ = start(["4", "6", "8", "FLIP3", "CHANCE", "6", "5", "9"])
    game.apply("hit")
    events = game.apply(1)
    assert ("chance_used", "F7-CHANCE-USE") in kinds(events)
    assert statuses(game) == ["active", "active", "active"]
    assert rows(game) == [["4"], ["6", "5"], ["8"]]
    assert sorted(c.text for c in game.discard) == ["6", "CHANCE", "FLIP3"]
    assert [c.text for c in game.draw_pile()[:1]] == ["9"]
    assert game.round_score(1) == 11


@pytest.mark.clause("F7-FLIP3", "F7-FLIP3-NESTED", "F7-FLIP3-ASSIGN")
def test_a_flip_three_drawn_in_a_flip_three_is_played_after_the_first_one_ends() -> None:
    # seat 1 draws FLIP3 (set aside), 3, 5; then assigns the second Flip Three to seat 0, who draws 7 9 10.
    game, _ = start(["4", "6", "8", "FLIP3", "FLIP3", "3", "5", "7", "9", "10", "11"])
    game.apply("hit")
    game.apply(1)
    assert rows(game) == [["4"], ["6", "3", "5"], ["8"]]
    assert pending(game) == (1, "assign", "FLIP3", (0, 1, 2))
    game.apply(0)
    assert rows(game) == [["4", "7", "9", "10"], ["6", "3", "5"], ["8"]]
    assert sorted(c.text for c in game.discard) == ["FLIP3", "FLIP3"]
    assert pending(game) == (1, "hit_or_stay", None, ("hit", "stay"))


@pytest.mark.clause("F7-FLIP3-ASSIGN", "F7-FLIP3-ASSIGN-INACTIVE")
def test_a_set_aside_freeze_assigned_to_a_player_frozen_by_the_one_before_is_discarded() -> None:
    # seat 1 draws FREEZE, FREEZE (both set aside) and 3, then assigns both to seat 2: all are assigned before
    # any takes effect, so seat 2 is still active for the second; the first freezes seat 2, and the second,
    # reaching a player no longer active, is discarded.
    game, _ = start(["4", "6", "8", "FLIP3", "FREEZE", "FREEZE", "3"])
    game.apply("hit")
    game.apply(1)
    assert pending(game) == (1, "assign", "FREEZE", (0, 1, 2))
    game.apply(2)
    assert pending(game) == (1, "assign", "FREEZE", (0, 1, 2))
    events = game.apply(2)
    assert ("discard", "F7-FLIP3-ASSIGN-INACTIVE") in kinds(events)
    assert statuses(game) == ["active", "active", "frozen"]
    assert rows(game) == [["4"], ["6", "3"], ["8", "FREEZE"]]
    assert sorted(c.text for c in game.discard) == ["FLIP3", "FREEZE"]


@pytest.mark.clause("F7-FLIP7", "F7-FLIP7-IN-FLIP3", "F7-FLIP7-OTHERS-BANK", "F7-FLIP7-BONUS", "F7-FLIP3-STOP")
def test_a_flip_7_in_a_flip_three_ends_the_round_for_everyone_at_once() -> None:
    # deal 0 12 11; seat 1 stays on 12 10 8 = 30; seat 2 is still in with 11 9 7 6 5 = 38; seat 0 holds
    # 0 1 2 3 4, hits a Flip Three, plays it on itself and draws 5 and 6: seven different Numbers, so the round
    # ends at once (the third card is never drawn) and seat 2 banks what it has. Seat 0: 0+1+...+6 = 21 + 15.
    top = ["0", "12", "11", "1", "10", "9", "2", "8", "7", "3", "6", "4", "5", "FLIP3", "5", "6"]
    game, _ = start(top)
    for choice in ["hit", "hit", "hit", "hit", "hit", "hit", "hit", "stay", "hit", "hit", "hit"]:
        game.apply(choice)
    assert rows(game) == [["0", "1", "2", "3", "4"], ["12", "10", "8"], ["11", "9", "7", "6", "5"]]
    game.apply("hit")
    assert pending(game) == (0, "target", "FLIP3", (0, 2))
    events = game.apply(0)
    assert ("flip7", "F7-FLIP7") in kinds(events)
    assert game.totals == [36, 30, 38]
    assert game.round == 2


# ---- Freeze -------------------------------------------------------------------------------------------


@pytest.mark.clause("F7-FREEZE", "F7-ACTION-TARGET", "F7-BANK")
def test_a_freeze_on_another_player_ends_their_round_with_their_points() -> None:
    # deal 4 6 8; seat 0 hits a Freeze and plays it on seat 1 (holding 6): seat 1 banks 6 at the round's
    # end; seat 0 and seat 2 then stay: totals 4 6 8.
    game, _ = start(["4", "6", "8", "FREEZE"])
    game.apply("hit")
    assert pending(game) == (0, "target", "FREEZE", (0, 1, 2))
    game.apply(1)
    assert statuses(game) == ["active", "frozen", "active"]
    assert rows(game)[1] == ["6", "FREEZE"]
    assert game.round_score(1) == 6
    assert pending(game) == (2, "hit_or_stay", None, ("hit", "stay"))  # seat 1 is skipped from now on
    game.apply("stay")
    game.apply("stay")
    assert game.totals == [4, 6, 8]


@pytest.mark.clause("F7-ACTION-ALONE", "F7-FREEZE-SELF")
def test_the_last_active_player_must_freeze_themself() -> None:
    # seats 1 and 2 stay; seat 0 hits 5, then a Freeze with nobody else active: it is theirs, no decision.
    game, _ = start(["4", "6", "8", "5", "FREEZE"])
    game.apply("hit")
    game.apply("stay")
    game.apply("stay")
    events = game.apply("hit")
    assert ("forced", "F7-ACTION-ALONE") in [(e.kind, str(e.clause if e.kind != "forced" else
                                                             dict(e.data).get("because"))) for e in events]
    assert ("freeze", "F7-FREEZE") in kinds(events)
    assert game.totals == [9, 6, 8]  # seat 0 banks 4+5


# ---- Second Chance ------------------------------------------------------------------------------------


@pytest.mark.clause("F7-CHANCE-KEEP", "F7-CHANCE-USE", "F7-CHANCE-ENDS-TURN")
def test_a_second_chance_saves_a_duplicate_and_ends_the_turn() -> None:
    # seat 0 is dealt CHANCE and hits 5 then 5: the Second Chance and the second 5 are discarded, seat 0 is
    # still in with 5, and the turn passes to seat 1 (no replacement card under the default reading).
    game, _ = start(["CHANCE", "6", "8", "5", "5", "9"])
    game.apply("hit")
    game.apply("stay")
    game.apply("stay")
    events = game.apply("hit")
    assert ("chance_used", "F7-CHANCE-USE") in kinds(events)
    assert rows(game)[0] == ["5"]
    assert statuses(game)[0] == "active"
    assert sorted(c.text for c in game.discard) == ["5", "CHANCE"]
    assert pending(game) == (0, "hit_or_stay", None, ("hit", "stay"))  # seats 1 and 2 stayed: seat 0 again
    assert [c.text for c in game.draw_pile()[:1]] == ["9"]


@pytest.mark.clause("F7-CHANCE-GIVE")
def test_a_second_second_chance_goes_to_another_active_player_without_one() -> None:
    # seats 0 and 1 are dealt CHANCE; seat 0 hits a third CHANCE: it must go to seat 2, the only other active
    # player without one (forced). With seat 2 stayed, nobody qualifies and it is discarded.
    game, _ = start(["CHANCE", "CHANCE", "8", "CHANCE"])
    game.apply("hit")
    assert rows(game) == [["CHANCE"], ["CHANCE"], ["8", "CHANCE"]]
    game, _ = start(["CHANCE", "CHANCE", "8", "CHANCE"])
    game.apply("stay")  # seat 0 stays on its Second Chance (any card allows a Stay)
    game.apply("hit")  # seat 1 hits the third CHANCE: seat 0 stayed, seat 2 holds none: it goes to seat 2
    assert rows(game) == [["CHANCE"], ["CHANCE"], ["8", "CHANCE"]]


@pytest.mark.clause("F7-CHANCE-GIVE")
def test_a_second_chance_nobody_can_take_is_discarded() -> None:
    # seats 0 and 1 are dealt CHANCE; seat 0 stays, seat 1 hits 9, seat 2 stays; seat 1 hits another CHANCE:
    # the only active player is seat 1, who holds one already, so it is discarded.
    game, _ = start(["CHANCE", "CHANCE", "8", "9", "CHANCE"])
    game.apply("stay")  # seat 0 (holds CHANCE)
    game.apply("hit")  # seat 1: 9
    game.apply("stay")  # seat 2 on 8
    game.apply("hit")  # seat 1: CHANCE; seat 0 stayed, seat 2 stayed: discarded
    assert rows(game)[1] == ["CHANCE", "9"]
    assert [c.text for c in game.discard] == ["CHANCE"]


@pytest.mark.clause("F7-CHANCE-ENDS-TURN")
def test_under_second_chance_ends_turn_false_a_hit_gets_a_replacement_card() -> None:
    # as above, with the option off: after the save seat 0 is dealt the 9 at once
    game, _ = start(["CHANCE", "6", "8", "5", "5", "9"], FLIP7.with_options(second_chance_ends_turn=False))
    game.apply("hit")
    game.apply("stay")
    game.apply("stay")
    game.apply("hit")
    assert rows(game)[0] == ["5", "9"]


# ---- the deal turn of a player who already holds cards -------------------------------------------------


@pytest.mark.clause("F7-DEAL-STAY-INSTEAD", "F7-DEAL-TARGET-UNDEALT", "F7-DEAL-RESUME")
def test_a_player_given_cards_before_their_deal_turn_may_stay_instead() -> None:
    # seat 0 is dealt FLIP3 and plays it on seat 2 (undealt, so active), who draws 2 5 7; the deal resumes
    # with seat 1 (9); at seat 2's deal turn it chooses Hit or Stay: it stays, and the 11 is still on the deck.
    game, _ = start(["FLIP3", "2", "5", "7", "9", "11", "4"])
    assert pending(game) == (0, "target", "FLIP3", (0, 1, 2))
    game.apply(2)
    assert rows(game) == [[], ["9"], ["2", "5", "7"]]
    assert pending(game) == (2, "hit_or_stay", None, ("hit", "stay"))
    game.apply("stay")
    assert statuses(game)[2] == "stayed"
    # the deal is over: seat 0, holding nothing, must Hit and takes the 11
    assert rows(game)[0] == ["11"]


@pytest.mark.clause("F7-DEAL-ANYWAY")
def test_under_deal_anyway_that_player_is_dealt_with_no_decision() -> None:
    game, _ = start(["FLIP3", "2", "5", "7", "9", "11", "4"], FLIP7.with_options(deal_after_flip3_cards="deal_anyway"))
    game.apply(2)
    # seat 2 is dealt the 11 with no decision; seat 0, holding nothing, is forced to Hit (the 4); seat 1 is next
    assert rows(game) == [["4"], ["9"], ["2", "5", "7", "11"]]
    assert pending(game) == (1, "hit_or_stay", None, ("hit", "stay"))


@pytest.mark.clause("F7-CHANCE-ENDS-TURN", "F7-DEAL-STAY-INSTEAD", "F7-CHANCE-USE")
def test_a_second_chance_used_on_a_deal_turn_hit_gets_no_replacement() -> None:
    # second_chance_ends_turn=false deals a replacement after a save on a Hit, never for a deal card: seat 2
    # (holding CHANCE 5 7 from a Flip Three) chooses Hit at its deal turn and takes a second 5, saved; its
    # deal card was that 5, so the 11 goes on to seat 0 (holding nothing: a forced Hit).
    ruleset = FLIP7.with_options(second_chance_ends_turn=False)
    game, _ = start(["FLIP3", "CHANCE", "5", "7", "9", "5", "11"], ruleset)
    game.apply(2)
    assert rows(game) == [[], ["9"], ["CHANCE", "5", "7"]]
    events = game.apply("hit")
    assert ("chance_used", "F7-CHANCE-USE") in kinds(events)
    assert not any(e.kind == "draw" and dict(e.data).get("via") == "replacement" for e in events)
    assert rows(game) == [["11"], ["9"], ["5", "7"]]


# ---- the stalled round and impossible hands -------------------------------------------------------------


@pytest.mark.clause("F7-STALLED-ROUND", "F7-RESHUFFLE")
def test_a_discard_pile_of_freezes_is_not_a_stalled_round() -> None:
    # A 6-card deck (no deck check): round 1 deals a Freeze to each seat, each frozen on an empty row. Round 2
    # (Dealer seat 0, the deal goes 1, 2, 0) deals 5 6 7 and empties the deck; seat 1 hits: the discard pile
    # holds only the three Freezes, and a Freeze changes the round, so it is reshuffled and seat 1 draws one
    # (a target decision), instead of the round ending as stalled.
    deck = cards("FREEZE FREEZE FREEZE 5 6 7")
    game, _ = new_game(FLIP7, 3, deck, dealer=2, reshuffler=list, check_deck=False)
    game.apply(0)  # seat 0 freezes itself
    game.apply(1)  # seat 1 freezes itself; seat 2's Freeze is forced on seat 2
    assert game.round == 2 and game.totals == [0, 0, 0]
    assert rows(game) == [["7"], ["5"], ["6"]]
    game.apply("hit")
    assert pending(game) == (1, "target", "FREEZE", (0, 1, 2))
    assert game.round == 2


@pytest.mark.clause("F7-STALLED-ROUND")
def test_a_discard_pile_of_second_chances_only_is_a_stalled_round() -> None:
    # A pile of Second Chances only would cycle forever: round 1 deals CHANCE to each seat, each stays on it
    # (any card allows a Stay), all bank 0. Round 2 deals 5 6 7 (seats 1, 2, 0); seat 1 hits with only Second
    # Chances to reshuffle: the round ends, banking 7 5 6.
    deck = cards("CHANCE CHANCE CHANCE 5 6 7")
    game, _ = new_game(FLIP7, 3, deck, dealer=2, reshuffler=list, check_deck=False)
    for _ in range(3):
        game.apply("stay")
    assert game.round == 2 and rows(game) == [["7"], ["5"], ["6"]]
    game.apply("hit")
    assert game.totals == [7, 5, 6]
    assert game.round == 3


@pytest.mark.clause("F7-FREEZE", "F7-FLIP7")
def test_check_hand_refuses_a_frozen_player_with_seven_numbers() -> None:
    # the seventh different Number ends the round at once (Flip 7), so nobody can be frozen with seven
    with pytest.raises(CardError, match="seven different Numbers"):
        check_hand(FLIP7, cards("0 1 2 3 4 5 6 FREEZE"))
    check_hand(FLIP7, cards("0 1 2 3 4 5 6"))  # a Flip 7 itself is a possible hand
    check_hand(FLIP7, cards("1 2 3 4 5 6 FREEZE"))  # six and a Freeze too
