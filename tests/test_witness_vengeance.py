"""The Vengeance clause witness (``flip7_spec.games.vengeance.witness``): for each clause it can name, a game where
the clause applies and it must be named, and a near miss where it must not.

Games are played by the reference on a stacked deck (three players, Dealer seat 2: the deal and every turn go
seat 0, 1, 2); scored rows (the Zero, /2, a negative score) are written by hand with the score the rules give
them. The expected clauses are read from each clause's text (``flip7_spec.games.vengeance.clauses``, RULES.md
B.1, B.2, C.3).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from flip7_spec.evidence import Evidence, RoundEnd, ScoredRow
from flip7_spec.games.vengeance.witness import STRUCTURAL, vengeance_witness
from flip7_spec.rulesets import Ruleset, preset
from tests.test_witness import played as played_on
from tests.test_witness import readings_of

VENGEANCE = preset("vengeance")


def played(top: Sequence[str], choices: Sequence[Any], ruleset: Ruleset = VENGEANCE, players: int = 3) -> Evidence:
    """The reference's play of ``choices`` on a deck stacked with ``top``, Dealer the last seat (as the Flip 7
    witness tests play, under Vengeance by default)."""
    return played_on(top, choices, ruleset, players)


def witnessed(evidence: Evidence) -> set[str]:
    return set(vengeance_witness(evidence))


def scored(rows: Sequence[tuple[Sequence[str], str, int]], ruleset: Ruleset = VENGEANCE,
           events: Sequence[dict[str, Any]] = (), players: int = 3) -> set[str]:
    """What the witness names for one scored round of ``rows`` (cards, status, round score) written by hand."""
    end = RoundEnd(1, tuple(ScoredRow(tuple(c), s) for c, s, _ in rows), tuple(n for _, _, n in rows),
                   tuple(n for _, _, n in rows))
    return witnessed(Evidence(ruleset, players, list(events), [end], False))


def seat(player: int, index: int = 0) -> dict[str, int]:
    """A face-up card chosen for a Steal or a Discard: ``player``'s card at ``index`` in their row."""
    return {"player": player, "index": index}


# Each game: its deck's top cards, the choices made, what the witness must name and what it must not.
GAMES: list[tuple[str, list[str], list[Any], set[str], set[str]]] = [
    # B.1#3: seat 1 is dealt a -2 and plays it on seat 2, not dealt yet: the deal pauses, and seat 2, holding
    # the -2, is still dealt its card.
    ("modifier dealt to an undealt seat", ["4", "-2", "6", "8"], [2],
     {"V-DEAL-PAUSE", "V-DEAL-ALWAYS", "V-MOD-NO-BUST"}, {"V-STAYED-TARGET", "V-MOD-ALONE"}),
    # The same -2 on seat 0, dealt already: nobody dealt a card while holding one.
    ("modifier dealt to a dealt seat", ["4", "-2", "6", "8"], [0], {"V-DEAL-PAUSE"}, {"V-DEAL-ALWAYS"}),
    # B.1#17: seat 0 steals seat 1's 6; nobody busts, nobody stayed.
    ("a steal", ["4", "6", "8", "STEAL"], ["hit", seat(1)], {"V-STEAL-DISCARD-CARDS"},
     {"V-BUST-BY-ACTION", "V-STAYED-TARGET", "V-BUST-OUT-OF-PLAY", "V-DEAL-PAUSE", "V-ONEMORE",
      "V-ACTION-RESOLVER"}),
    # B.1#5: seat 0, holding a 6, steals seat 1's 6: busted by the card it received.
    ("a steal that busts", ["6", "6", "8", "STEAL"], ["hit", seat(1)], {"V-BUST-BY-ACTION"}, set()),
    # B.1#12: seat 0 stayed; seat 1 steals from it, and seat 0 stays stayed.
    ("a steal from a stayed seat", ["4", "6", "8", "STEAL"], ["stay", "hit", seat(0)],
     {"V-STAYED-TARGET", "V-STAY-MINIMUM"}, {"V-BUST-OUT-OF-PLAY"}),
    # B.1#5: seat 0 busted; seat 1's Steal can only take from seat 2 (a choice made for it): a busted row is out
    # of play.
    ("a steal after a bust", ["4", "6", "8", "4", "STEAL"], ["hit", "hit"],
     {"V-BUST-OUT-OF-PLAY"}, {"V-BUST-BY-ACTION"}),
    # B.1#14: seat 1's Just One More on seat 0, who stayed: seat 0 takes one card and stays stayed.
    ("just one more on a stayed seat", ["4", "6", "8", "ONEMORE", "9"], ["stay", "hit", 0],
     {"V-ONEMORE", "V-STAYED-TARGET"}, {"V-ACTION-RESOLVER"}),
    # B.1#15: a Flip Four whose target busts on its first card stops at once.
    ("flip four bust on its first card", ["4", "6", "8", "FLIP4", "6"], ["hit", 1], {"V-FLIP4-STOP"},
     {"V-FLIP4-RESOLVER-OUT", "V-DISCARD-SELF", "V-DEAL-PAUSE"}),
    ("flip four bust on its third card", ["4", "6", "8", "FLIP4", "1", "2", "6"], ["hit", 1], {"V-FLIP4-STOP"},
     set()),
    # A Flip Four of four cards, over; seat 0 then busts on a Hit: no Flip Four under way (B.1#15).
    ("a bust after a flip four", ["4", "6", "8", "FLIP4", "1", "2", "3", "5", "9", "10", "4"],
     ["hit", 1, "hit", "hit", "hit"], {"V-FLIP4-SELF"}, {"V-FLIP4-STOP", "V-FLIP4-RESOLVER-OUT"}),
    # A bust on the fourth card: all four drawn, no early stop (V-FLIP4-RESOLVER-OUT: the test below).
    ("flip four bust on its fourth card", ["4", "6", "8", "FLIP4", "1", "2", "3", "6"], ["hit", 1],
     {"V-FLIP4-SELF"}, {"V-FLIP4-STOP"}),
    # B.2#5: a Steal drawn in a Flip Four is resolved by the Flip Four's target.
    ("steal held in a flip four", ["4", "6", "8", "FLIP4", "1", "STEAL", "2", "3"], ["hit", 1, seat(2)],
     {"V-ACTION-RESOLVER", "V-STEAL-DISCARD-CARDS"}, {"V-FLIP4-STOP", "V-FLIP4-UNLUCKY7"}),
    # B.1#15: an Unlucky 7 among the four cards.
    ("unlucky 7 in a flip four", ["4", "6", "8", "FLIP4", "1", "U7", "2", "3"], ["hit", 1],
     {"V-FLIP4-UNLUCKY7", "V-SPECIAL-NUMBERS"}, {"V-UNLUCKY7-NO-BUST"}),
    # B.1#10, B.2#4: the Unlucky 7 arrives while a 7 is held: no bust.
    ("unlucky 7 on a 7", ["7", "6", "8", "U7"], ["hit"], {"V-UNLUCKY7-NO-BUST", "V-SPECIAL-NUMBERS"},
     {"V-UNLUCKY7-LATER-7", "V-FLIP4-UNLUCKY7"}),
    ("unlucky 7 on no 7", ["5", "6", "8", "U7"], ["hit"], {"V-SPECIAL-NUMBERS"}, {"V-UNLUCKY7-NO-BUST"}),
    # B.1#10: a 7 received while the Unlucky 7 is held busts.
    ("a 7 on the unlucky 7", ["U7", "6", "8", "7"], ["hit"], {"V-UNLUCKY7-LATER-7"}, {"V-LUCKY13-THIRD"}),
    ("a 7 on a 7", ["7", "6", "8", "7"], ["hit"], set(), {"V-UNLUCKY7-LATER-7", "V-SPECIAL-NUMBERS"}),
    # B.1#11: the Lucky 13 allows one other 13; a third busts.
    ("a third 13", ["L13", "6", "8", "13", "9", "10", "13"], ["hit", "hit", "hit", "hit"],
     {"V-LUCKY13-THIRD"}, {"V-UNLUCKY7-LATER-7"}),
    ("two 13s without the lucky 13", ["13", "6", "8", "13"], ["hit"], set(), {"V-LUCKY13-THIRD"}),
    # B.2#9: a stay with two Numbers meets every minimum; one with a single Number does not meet the app's.
    ("a stay with two numbers", ["4", "6", "8", "5", "9", "10"], ["hit", "hit", "hit", "stay"], set(),
     {"V-STAY-MINIMUM"}),
    ("a stay with one number", ["4", "6", "8"], ["stay"], {"V-STAY-MINIMUM"}, set()),
    # B.1#18: a Discard on another player's card; on the resolver's own (B.2#11); on a stayed player's (B.1#12).
    ("a discard", ["4", "6", "8", "DISCARD"], ["hit", seat(1)], {"V-STEAL-DISCARD-CARDS"},
     {"V-DISCARD-SELF", "V-STAYED-TARGET"}),
    ("a discard of its own card", ["4", "6", "8", "DISCARD"], ["hit", seat(0)], {"V-DISCARD-SELF"}, set()),
    ("a discard on a stayed seat", ["4", "6", "8", "DISCARD"], ["stay", "hit", seat(0)], {"V-STAYED-TARGET"},
     {"V-DISCARD-SELF"}),
    # B.1#16: a Swap of seat 0's 4 and seat 1's 6: no bust.
    ("a swap", ["4", "6", "8", "SWAP"], ["hit", [seat(0), seat(1)]], {"V-SWAP-LIMITS", "V-SWAP-RECEIVE"},
     {"V-BUST-BY-ACTION", "V-STAYED-TARGET", "V-BUST-OUT-OF-PLAY"}),
    # Seat 0 holds 4 5 and swaps its 4 for seat 1's 5: it receives a second 5 and busts (B.1#5, B.1#16).
    ("a swap that busts", ["4", "5", "8", "5", "9", "10", "SWAP"], ["hit", "hit", "hit", "hit", [seat(0), seat(1)]],
     {"V-BUST-BY-ACTION", "V-SWAP-RECEIVE"}, set()),
    # A Swap with a stayed player (seat 0 stayed; seat 1 swaps with it).
    ("a swap with a stayed seat", ["4", "6", "8", "SWAP"], ["stay", "hit", [seat(0), seat(1)]],
     {"V-STAYED-TARGET"}, set()),
    # B.1#6: seven different Numbers from Hits is a plain Flip 7; the seventh through Just One More is one by
    # other means (B.2#8).
    ("flip 7 on a hit", ["1", "12", "11", "2", "3", "4", "5", "6", "8"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit"], {"V-ROUND-END", "V-BANK"},
     {"V-FLIP7-ANY-MEANS", "V-ZERO-FLIP7", "V-LUCKY13-FLIP7", "V-SCORE-BUST"}),
    ("flip 7 through just one more", ["1", "12", "11", "2", "3", "4", "5", "6", "ONEMORE", "8"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit", 0], {"V-FLIP7-ANY-MEANS", "V-ONEMORE"},
     {"V-STAYED-TARGET"}),
    # B.2#8: seat 0, alone with 1..5, plays its Flip Four on itself: 6 then 8 make seven values after two of the
    # four cards, so the Flip Four stops (B.1#15); or it holds 1..6 and steals seat 1's 12 for the seventh.
    ("flip 7 inside a flip four", ["1", "12", "11", "2", "3", "4", "5", "FLIP4", "6", "8"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", 0], {"V-FLIP7-ANY-MEANS", "V-FLIP4-STOP"},
     {"V-FLIP4-RESOLVER-OUT"}),
    ("flip 7 by a steal", ["1", "12", "11", "2", "3", "4", "5", "6", "STEAL"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit", seat(1)],
     {"V-FLIP7-ANY-MEANS", "V-STAYED-TARGET"}, {"V-FLIP4-STOP", "V-BUST-BY-ACTION"}),
    # B.1#9: seat 0 holds The Zero and must Hit; it busts on a second 2 and scores 0 as a busted row, not by
    # The Zero's rule.
    ("the zero in a busted row", ["ZERO", "12", "11", "2", "1", "2"], ["stay", "hit", "stay"],
     {"V-SCORE-BUST", "V-SPECIAL-NUMBERS"}, {"V-ZERO-SCORE", "V-ZERO-FLIP7"}),
    # B.1#17, B.1#16: a stolen or swapped card is the receiver's from then on, and no longer its owner's: the
    # Unlucky 7 arriving later finds the 7 with the new holder (B.2#4), not with the old one.
    ("a stolen 7, then the unlucky 7 for the thief", ["4", "7", "8", "STEAL", "9", "10", "U7"],
     ["hit", seat(1), "hit", "hit", "hit"], {"V-UNLUCKY7-NO-BUST"}, set()),
    ("a stolen 7, then the unlucky 7 for its old holder", ["4", "7", "8", "STEAL", "U7"], ["hit", seat(1), "hit"],
     {"V-SPECIAL-NUMBERS"}, {"V-UNLUCKY7-NO-BUST"}),
    ("a swapped 7, then the unlucky 7 for its receiver", ["4", "7", "8", "SWAP", "9", "10", "U7"],
     ["hit", [seat(0), seat(1)], "hit", "hit", "hit"], {"V-UNLUCKY7-NO-BUST"}, set()),
    ("a swapped 7, then the unlucky 7 for its old holder", ["4", "7", "8", "SWAP", "U7"],
     ["hit", [seat(0), seat(1)], "hit"], {"V-SPECIAL-NUMBERS"}, {"V-UNLUCKY7-NO-BUST"}),
    # B.2#5: an Action drawn under Just One More is resolved by that card's receiver (seat 1 steals seat 2's 8).
    ("a steal drawn under just one more", ["4", "6", "8", "ONEMORE", "STEAL"], ["hit", 1, seat(2)],
     {"V-ACTION-RESOLVER", "V-ONEMORE"}, {"V-STAYED-TARGET", "V-FLIP4-STOP"}),
    # B.1#10: the Unlucky 7 wipes seat 0's 4 and -2: it stays holding one Number, below the app's minimum
    # (B.2#9), where it held two Numbers before the wipe.
    ("the unlucky 7 wipes the row", ["4", "6", "8", "-2", "9", "10", "U7", "11", "12"],
     ["hit", 0, "hit", "hit", "hit", "hit", "hit", "stay"], {"V-STAY-MINIMUM", "V-MOD-NO-BUST"},
     {"V-UNLUCKY7-NO-BUST", "V-ONEMORE"}),
    # B.1#15: the seventh value on the fourth card of a Flip Four: all four were drawn, no early stop.
    ("flip 7 on the fourth card of a flip four", ["1", "12", "11", "2", "3", "FLIP4", "4", "5", "6", "8"],
     ["hit", "stay", "stay", "hit", "hit", 0], {"V-FLIP7-ANY-MEANS"}, {"V-FLIP4-STOP", "V-ONEMORE"}),
    # B.1#5: seat 0 busted; seat 1's Just One More (and, below, its Swap) can only go to the others.
    ("just one more after a bust", ["4", "6", "8", "4", "ONEMORE", "9"], ["hit", "hit", 2],
     {"V-BUST-OUT-OF-PLAY", "V-ONEMORE"}, {"V-STAYED-TARGET"}),
    ("a swap after a bust", ["4", "6", "8", "4", "SWAP"], ["hit", "hit"], {"V-BUST-OUT-OF-PLAY", "V-SWAP-LIMITS"},
     {"V-BUST-BY-ACTION", "V-ONEMORE"}),
    # B.1#18: a discarded 7 is gone from seat 1's row: the Unlucky 7 then finds none.
    ("a discarded 7, then the unlucky 7 for its old holder", ["4", "7", "8", "DISCARD", "U7"],
     ["hit", seat(1), "hit"], {"V-SPECIAL-NUMBERS"}, {"V-UNLUCKY7-NO-BUST"}),
    # Seat 0 swaps its own 7 away for seat 1's 4: the Unlucky 7 it draws later finds no 7 with it.
    ("a 7 swapped away, then the unlucky 7", ["7", "4", "8", "SWAP", "9", "10", "U7"],
     ["hit", [seat(0), seat(1)], "hit", "hit", "hit"], {"V-SPECIAL-NUMBERS"}, {"V-UNLUCKY7-NO-BUST"}),
    # B.1#19, B.1#12: seat 1 plays its -2 on seat 0, who stayed, and seat 0 stays stayed.
    ("a modifier on a stayed seat", ["4", "6", "8", "-2"], ["stay", "hit", 0], {"V-STAYED-TARGET", "V-MOD-NO-BUST"},
     {"V-MOD-ALONE"}),
    # Seat 0 busted; seat 1 plays its -2 on itself while seat 2 is still in: not alone (B.1#19).
    ("a modifier on oneself after a bust", ["4", "6", "8", "4", "-2"], ["hit", "hit", 1], {"V-MOD-NO-BUST"},
     {"V-MOD-ALONE"}),
    # B.1#7: a second round.
    ("a second round", ["4", "6", "8"], ["stay", "stay", "stay"], {"V-NEXT-ROUND", "V-ROUND-END", "V-BANK"},
     {"V-GAME-END", "V-SCORE-BUST"}),
]


@pytest.mark.clause("V-DEAL-PAUSE", "V-DEAL-ALWAYS", "V-BUST-BY-ACTION", "V-STAYED-TARGET", "V-BUST-OUT-OF-PLAY",
                    "V-FLIP4-STOP", "V-ACTION-RESOLVER", "V-FLIP4-UNLUCKY7", "V-UNLUCKY7-NO-BUST",
                    "V-UNLUCKY7-LATER-7", "V-LUCKY13-THIRD", "V-STAY-MINIMUM")
@pytest.mark.parametrize(("top", "choices", "named", "not_named"),
                         [pytest.param(*game[1:], id=game[0]) for game in GAMES])
def test_a_played_game_names_the_clauses_it_shows(top: list[str], choices: list[Any], named: set[str],
                                                  not_named: set[str]) -> None:
    found = witnessed(played(top, choices))
    assert named <= found, sorted(named - found)
    assert not (not_named & found), sorted(not_named & found)
    assert set(STRUCTURAL) | {"V-DECK"} <= found
    assert not {"V-BASIC", "V-TWO-DECKS", "V-TWO-DECKS-EFFECTS", "V-BRUTAL"} & found


@pytest.mark.clause("V-ZERO-SCORE", "V-ZERO-FLIP7", "V-LUCKY13-FLIP7", "V-SCORE-BUST")
@pytest.mark.parametrize("count", ["count_once", "count_both"])
def test_a_scored_row_names_the_zero_and_the_lucky_13(count: str) -> None:
    ruleset = VENGEANCE.with_options(flip7_two_13s=count)
    # B.1#9: The Zero in a stayed row of fewer than seven values scores 0; with seven values it is a Flip 7.
    assert {"V-ZERO-SCORE"} <= scored([(("ZERO", "5"), "stayed", 0)], ruleset) - {"V-ZERO-FLIP7"}
    seven = ("ZERO", "1", "2", "3", "4", "5", "6")
    found = scored([(seven, "active", 36)], ruleset)
    assert "V-ZERO-FLIP7" in found and "V-ZERO-SCORE" not in found
    assert not {"V-ZERO-SCORE", "V-ZERO-FLIP7"} & scored([(("5", "6"), "stayed", 11)], ruleset)
    # B.1#11, B.2#2: 1..6 with the Lucky 13 and a 13 hold seven values under either reading: a Flip 7 with the
    # pair. 1..5 with the pair hold six values in seven Numbers: a Flip 7 only when both 13s count.
    found = scored([(("1", "2", "3", "4", "5", "6", "L13", "13"), "active", 62)], ruleset)
    assert "V-LUCKY13-FLIP7" in found
    short = scored([(("1", "2", "3", "4", "5", "L13", "13"), "stayed", 41)], ruleset)
    assert ("V-LUCKY13-FLIP7" in short) == (count == "count_both")
    # seven values with a single 13: no pair shown
    assert "V-LUCKY13-FLIP7" not in scored([(("1", "2", "3", "4", "5", "6", "L13"), "active", 49)], ruleset)
    # a busted row before a stayed one: the stayed row is still read
    assert "V-ZERO-SCORE" in scored([(("4", "4"), "busted", 0), (("ZERO", "5"), "stayed", 0)], ruleset)
    # a busted row shows nothing of its cards' scoring
    assert scored([(seven, "busted", 0)], ruleset) & {"V-ZERO-FLIP7", "V-ZERO-SCORE"} == set()
    assert "V-SCORE-BUST" in scored([(seven, "busted", 0)], ruleset)


@pytest.mark.clause("V-SCORE", "V-HALVE-WHOLE-TOTAL")
@pytest.mark.parametrize("order", ["numbers_then_minus", "whole_total"])
def test_a_halved_row_names_the_halving_reading(order: str) -> None:
    ruleset = VENGEANCE.with_options(halve_order=order)
    option = ruleset.OPTIONS["halve_order"]
    found = scored([(("8", "/2"), "stayed", 4)], ruleset)
    assert found & readings_of(option) == {option.clause_of(order)}
    assert ("V-HALVE-WHOLE-TOTAL" in found) == (order == "whole_total")
    assert "V-HALVE-WHOLE-TOTAL" not in scored([(("8", "-2"), "stayed", 6)], ruleset)


@pytest.mark.clause("V-SCORE-FLOOR", "V-BRUTAL-NEGATIVE", "V-BRUTAL")
def test_a_row_below_zero_names_the_floor_or_brutal_mode() -> None:
    # B.1#20: 2 minus 4 is below 0: floored at 0; 6 minus 4 is not.
    assert "V-SCORE-FLOOR" in scored([(("2", "-4"), "stayed", 0)])
    assert not {"V-SCORE-FLOOR", "V-BRUTAL-NEGATIVE"} & scored([(("6", "-4"), "stayed", 2)])
    # 4 minus 4 is 0, not below; The Zero's 0 (B.1#9) is no floor either
    assert "V-SCORE-FLOOR" not in scored([(("4", "-4"), "stayed", 0)])
    assert "V-SCORE-FLOOR" not in scored([(("ZERO", "5"), "stayed", 0)])
    # C.3: in Brutal Mode the same row scores -2
    brutal = VENGEANCE.with_options(brutal_mode=True)
    found = scored([(("2", "-4"), "stayed", -2)], brutal)
    assert {"V-BRUTAL-NEGATIVE", "V-BRUTAL"} <= found and "V-SCORE-FLOOR" not in found
    # negative_scores=true (seed 004) outside Brutal Mode: the row keeps its -4, and the clause of that option
    # (V-SCORE-FLOOR, one clause for both values) is what applied
    assert "V-SCORE-FLOOR" in scored([(("-4",), "stayed", -4)], VENGEANCE.with_options(negative_scores=True))
    # B.1#9: The Zero's 0 whatever the rest, also when its -N cards outweigh its Numbers, in Brutal Mode or not
    for ruleset in (VENGEANCE, brutal):
        found = scored([(("ZERO", "1", "-4"), "stayed", 0)], ruleset)
        assert "V-ZERO-SCORE" in found and not {"V-SCORE-FLOOR", "V-BRUTAL-NEGATIVE"} & found
    # Brutal Mode is shown by a scored round, not by a ruleset alone
    assert "V-BRUTAL" not in witnessed(Evidence(brutal, 3, [], [], False))
    assert "V-BRUTAL" not in scored([(("6",), "stayed", 6)])


@pytest.mark.clause("V-DECK", "V-BASIC", "V-TWO-DECKS", "V-TWO-DECKS-EFFECTS")
def test_the_deck_clauses_follow_the_deck_and_the_player_count() -> None:
    def bare(ruleset: Ruleset, players: int = 3) -> set[str]:
        return witnessed(Evidence(ruleset, players, [], [], False))

    assert "V-DECK" in bare(VENGEANCE) and "V-BASIC" not in bare(VENGEANCE)
    basic = preset("vengeance-basic")
    assert "V-BASIC" in bare(basic) and "V-DECK" not in bare(basic)
    deck = dict(VENGEANCE.deck)
    deck["-2"] += 1
    custom = dataclasses.replace(VENGEANCE, deck=tuple(deck.items()))
    assert not {"V-DECK", "V-BASIC"} & bare(custom)
    # B.1#2: one deck serves 18 players; a 19th brings a second. B.2#14: the effects of two decks show in a
    # scored round of such a game only.
    assert "V-TWO-DECKS" in bare(VENGEANCE, 19) and "V-TWO-DECKS" not in bare(VENGEANCE, 18)
    assert "V-TWO-DECKS-EFFECTS" not in bare(VENGEANCE, 19)
    rows = [(("5",), "stayed", 5)] * 19
    assert "V-TWO-DECKS-EFFECTS" in scored(rows, players=19)
    assert "V-TWO-DECKS-EFFECTS" not in scored(rows[:18], players=18)


@pytest.mark.clause("V-BRUTAL-MOD-BUSTED", "V-BRUTAL-MOD-BUSTED-NO-EFFECT")
@pytest.mark.parametrize("value", ["from_zero", "no_effect"])
def test_a_modifier_given_to_a_busted_player_names_its_brutal_reading(value: str) -> None:
    # C.3: seat 0 busts on a second 4; seat 1 reveals a -2 and, in Brutal Mode, gives it to seat 0.
    ruleset = VENGEANCE.with_options(brutal_mode=True, brutal_busted_modifier=value)
    option = ruleset.OPTIONS["brutal_busted_modifier"]
    readings = readings_of(option)
    found = witnessed(played(["4", "6", "8", "4", "-2"], ["hit", "hit", 0], ruleset))
    assert found & readings == {option.clause_of(value)}
    assert "V-MOD-ALONE" not in found
    # C.3: seats 0 and 1 busted; seat 2, the only one left, gives its -2 to busted seat 0 instead of keeping it
    found = witnessed(played(["4", "6", "8", "4", "6", "-2"], ["hit", "hit", "hit", 0], ruleset))
    assert "V-MOD-ALONE" not in found and option.clause_of(value) in found
    # the same -2 on seat 2, who has not busted: neither reading
    assert not witnessed(played(["4", "6", "8", "4", "-2"], ["hit", "hit", 2], ruleset)) & readings


@pytest.mark.clause("V-MOD-ALONE")
def test_a_modifier_kept_by_the_only_player_not_busted() -> None:
    # B.1#19: seats 0 and 1 bust; seat 2, alone, keeps the -2 it reveals.
    assert "V-MOD-ALONE" in witnessed(played(["4", "6", "8", "4", "6", "-2"], ["hit", "hit", "hit"]))
    # seat 0 gives itself its -2 while the others are in the round: a choice, not the rule for one alone
    found = witnessed(played(["4", "6", "8", "-2"], ["hit", 0]))
    assert "V-MOD-ALONE" not in found and "V-MOD-NO-BUST" in found


@pytest.mark.clause("V-BRUTAL-FLIP7", "V-BRUTAL-FLIP7-IN-ROUND")
@pytest.mark.parametrize("value", ["any_seat", "in_round"])
def test_a_brutal_flip_7_names_its_target_reading(value: str) -> None:
    # C.3: seat 0 Flips 7 (1..6 and 8) in Brutal Mode and takes 15 from seat 1, who stayed.
    ruleset = VENGEANCE.with_options(brutal_mode=True, brutal_flip7_target=value)
    option = ruleset.OPTIONS["brutal_flip7_target"]
    readings = readings_of(option)
    choices = ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit", 1]
    found = witnessed(played(["1", "12", "11", "2", "3", "4", "5", "6", "8"], choices, ruleset))
    assert found & readings == {option.clause_of(value)}
    assert "V-BRUTAL" in found


def event(name: str, **fields: Any) -> dict[str, Any]:
    return {"event": name, "clause": "V-TEST", **fields}


START = event("round_start", round=1, dealer=2)


@pytest.mark.clause("V-GAME-END", "V-ROUND-LIMIT", "V-TIE")
def test_the_end_of_the_game_names_how_it_ended() -> None:
    # B.1#8: one winner at the target; C#1: the round limit; B.2#10: two winners share it (shared_win).
    found = witnessed(Evidence(VENGEANCE, 3, [event("game_end", clause="V-WINNER", winners=[1])], [], True))
    assert "V-GAME-END" in found and not {"V-ROUND-LIMIT", "V-TIE"} & found
    limit = witnessed(Evidence(VENGEANCE, 3, [event("game_end", clause="V-ROUND-LIMIT", winners=[])], [], True))
    assert "V-ROUND-LIMIT" in limit and "V-GAME-END" not in limit
    tie = witnessed(Evidence(VENGEANCE, 3, [event("game_end", clause="V-WINNER", winners=[0, 2])], [], True))
    assert {"V-TIE", "V-GAME-END"} <= tie


@pytest.mark.clause("V-ZERO-MUST-HIT")
def test_a_forced_choice_names_the_clause_that_forced_it() -> None:
    forced = event("forced", player=0, kind="hit_or_stay", choice="hit", because="V-ZERO-MUST-HIT")
    assert "V-ZERO-MUST-HIT" in witnessed(Evidence(VENGEANCE, 3, [START, forced], [], False))
    unnamed = {**forced, "because": ""}
    assert witnessed(Evidence(VENGEANCE, 3, [START, unnamed], [], False)) == witnessed(
        Evidence(VENGEANCE, 3, [START], [], False))


@pytest.mark.clause("V-SPECIAL-NUMBERS")
def test_special_numbers_are_named_only_when_the_ruleset_has_them() -> None:
    # B.1: the Unlucky 7 dealt to seat 0 is a special Number; with special_numbers=false it is a plain 7.
    assert "V-SPECIAL-NUMBERS" in witnessed(played(["U7", "6", "8"], ["stay"]))
    plain = VENGEANCE.with_options(special_numbers=False)
    assert "V-SPECIAL-NUMBERS" not in witnessed(played(["U7", "6", "8"], ["stay"], plain))
    assert "V-SPECIAL-NUMBERS" not in witnessed(played(["5", "6", "8"], ["stay"]))


@pytest.mark.clause("V-FLIP4-RESOLVER-OUT")
def test_a_bust_on_the_fourth_card_of_a_flip_four_is_not_a_bust_while_resolving_held_back_cards() -> None:
    # B.1#15: seat 1 busts on the fourth card of the Flip Four (a second 6); no card was held back, none was being
    # resolved: V-FLIP4-RESOLVER-OUT (a bust while the held-back cards are resolved) did not apply.
    found = witnessed(played(["4", "6", "8", "FLIP4", "1", "2", "3", "6"], ["hit", 1]))
    assert "V-FLIP4-RESOLVER-OUT" not in found
