"""The Flip 7 clause witness (``flip7_spec.games.flip7.witness``): for each clause it can name, a game where the
clause applies and it must be named, and a near miss where it must not.

Most games are played by the reference on a stacked deck (``full_deck``: the cards listed first, then the rest
of the deck), so their events are the reference's own; three players with Dealer seat 2, so the deal and every
turn go seat 0, 1, 2 (F7-DEAL-ORDER). The expected clauses are read from each clause's text
(``flip7_spec.games.flip7.clauses``, RULES.md A.1, A.2); a few situations the reference cannot be steered
into cheaply (a reshuffle, two decks, a stalled round) are written as events by hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from flip7_spec.cards import cards
from flip7_spec.conformance.coverage import watch_round_ends
from flip7_spec.evidence import Evidence, RoundEnd, ScoredRow
from flip7_spec.fixtures import full_deck
from flip7_spec.games.flip7.witness import STRUCTURAL, flip7_witness
from flip7_spec.play import make_game
from flip7_spec.rulesets import Option, Ruleset, preset

FLIP7 = preset("flip7")


def played(top: Sequence[str], choices: Sequence[Any], ruleset: Ruleset = FLIP7, players: int = 3,
           reshuffles: Sequence[Sequence[str]] = ()) -> Evidence:
    """The reference's play of ``choices`` on a deck stacked with ``top``, Dealer the last seat; reshuffles
    take ``reshuffles`` in order."""
    game = make_game(ruleset, players, full_deck(ruleset, players, list(top)), players - 1, record=True,
                     reshuffles=[cards(list(order)) for order in reshuffles])
    ends = watch_round_ends(game)
    events = [e.to_json() for e in game.start()]
    for choice in choices:
        events.extend(e.to_json() for e in game.apply(choice))
    return Evidence(ruleset, players, events, tuple(ends), game.over)


def readings_of(option: Option) -> set[str]:
    """The clauses an option's values choose: one per reading of the rule it leaves open."""
    return {option.clause_of(v) for v in option.values() or []}


def witnessed(evidence: Evidence) -> set[str]:
    return set(flip7_witness(evidence))


def by_hand(events: Sequence[dict[str, Any]], rows: Sequence[tuple[Sequence[str], str]] = (),
            ruleset: Ruleset = FLIP7, players: int = 3) -> set[str]:
    """What the witness names for ``events`` written by hand, and one scored round of ``rows`` when given."""
    ends = [RoundEnd(1, tuple(ScoredRow(tuple(c), s) for c, s in rows), tuple(0 for _ in rows),
                     tuple(0 for _ in rows))] if rows else []
    return witnessed(Evidence(ruleset, players, list(events), ends, False))


START = {"event": "round_start", "clause": "F7-DEAL", "round": 1, "dealer": 2}


def draw(player: int, text: str, via: str = "hit") -> dict[str, Any]:
    return {"event": "draw", "clause": "F7-HIT-STAY", "player": player, "card": text, "via": via}


# Each game: its deck's top cards, the choices made, what the witness must name and what it must not.
GAMES: list[tuple[str, list[str], list[Any], set[str], set[str]]] = [
    # A.2#2: seat 1 is dealt a Freeze and aims it at seat 2, not dealt yet and holding nothing: the deal
    # pauses, the target is undealt and the Freeze hits an empty row. Nobody is left after seat 1 to deal to.
    ("freeze dealt, aimed at an undealt empty seat", ["4", "FREEZE", "6", "8"], [2],
     {"F7-DEAL-ACTION-PAUSE", "F7-DEAL-TARGET-UNDEALT", "F7-DEAL-FREEZE-EMPTY", "F7-ACTION-AT-ONCE"},
     {"F7-FREEZE-KEEPS-CARDS", "F7-DEAL-RESUME", "F7-FREEZE-SELF"}),
    # The same Freeze aimed at seat 0, dealt its 4 already: seat 0 keeps its 4 (A.2#9); the deal then
    # resumes with seat 2 (A.2#2).
    ("freeze dealt, aimed at a dealt seat", ["4", "FREEZE", "6", "8"], [0],
     {"F7-DEAL-ACTION-PAUSE", "F7-DEAL-RESUME", "F7-FREEZE-KEEPS-CARDS"},
     {"F7-DEAL-TARGET-UNDEALT", "F7-DEAL-FREEZE-EMPTY"}),
    # The Dealer (dealt last) reveals the Freeze: the deal pauses but nobody is left to resume with.
    ("freeze dealt to the last seat", ["4", "6", "FREEZE"], [0],
     {"F7-DEAL-ACTION-PAUSE", "F7-FREEZE-KEEPS-CARDS"}, {"F7-DEAL-RESUME", "F7-DEAL-TARGET-UNDEALT"}),
    # A Flip Three dealt to seat 0 and played on seat 0 itself: nobody takes cards before their deal turn.
    ("flip three dealt, played on its revealer", ["FLIP3", "5", "6", "7", "8", "9"], [0],
     {"F7-DEAL-ACTION-PAUSE"},
     {"F7-DEAL-STAY-INSTEAD", "F7-DEAL-ANYWAY", "F7-DEAL-TARGET-UNDEALT", "F7-FLIP3-COUNTS-ALL"}),
    # A Second Chance dealt to seat 1 is kept at once (A.1#15); the deal resumes with seat 2 (A.2#2).
    ("second chance dealt to the middle seat", ["4", "CHANCE", "8"], [],
     {"F7-DEAL-ACTION-PAUSE", "F7-DEAL-RESUME", "F7-CHANCE-KEEP"}, {"F7-CHANCE-ENDS-TURN"}),
    # A.2#3: a Freeze on a Hit aimed at its revealer while the others are active.
    ("freeze on a hit, aimed at its revealer", ["4", "6", "8", "FREEZE"], ["hit", 0],
     {"F7-FREEZE-SELF", "F7-FREEZE-KEEPS-CARDS"}, {"F7-DEAL-TARGET-UNDEALT", "F7-DEAL-FREEZE-EMPTY"}),
    ("freeze on a hit, aimed at another", ["4", "6", "8", "FREEZE"], ["hit", 1],
     {"F7-FREEZE-KEEPS-CARDS"}, {"F7-FREEZE-SELF"}),
    # A.2#8: seats 0 and 1 stayed, so seat 2 must play its Freeze on itself: that is the only active player's
    # Action, not a choice to Freeze oneself while others are active (A.2#3).
    ("freeze drawn by the only active player", ["4", "6", "8", "FREEZE"], ["stay", "stay", "hit"],
     {"F7-ACTION-ALONE", "F7-FREEZE-KEEPS-CARDS"}, {"F7-FREEZE-SELF"}),
    # A Flip Three of three Numbers: nothing but Numbers counted, no stop, no modifier.
    ("flip three of three numbers", ["4", "6", "8", "FLIP3", "1", "2", "3"], ["hit", 1],
     {"F7-ACTION-AT-ONCE"},
     {"F7-FLIP3-COUNTS-ALL", "F7-FLIP3-STOP", "F7-MOD-NO-BUST", "F7-BUST-ONLY-NUMBERS", "F7-FLIP3-NESTED",
      "F7-FLIP3-CHANCE-AT-ONCE"}),
    # A.1#14, #16: the +4 counts as one of the three and does not bust seat 1, who holds a 6.
    ("flip three with a modifier", ["4", "6", "8", "FLIP3", "+4", "2", "3"], ["hit", 1],
     {"F7-FLIP3-COUNTS-ALL", "F7-MOD-NO-BUST", "F7-BUST-ONLY-NUMBERS"}, {"F7-FLIP3-STOP"}),
    # A.1#14: seat 1 busts on the first of its three cards: the Flip Three stops early.
    ("flip three bust on its first card", ["4", "6", "8", "FLIP3", "6"], ["hit", 1],
     {"F7-FLIP3-STOP"}, {"F7-FLIP7-IN-FLIP3"}),
    ("flip three bust on its second card", ["4", "6", "8", "FLIP3", "1", "6"], ["hit", 1],
     {"F7-FLIP3-STOP"}, set()),
    # A bust on the third card is no early stop: all three were drawn.
    ("flip three bust on its third card", ["4", "6", "8", "FLIP3", "1", "2", "6"], ["hit", 1],
     set(), {"F7-FLIP3-STOP"}),
    # A modifier dealt into an empty row cannot bust (A.1#16) but shows nothing of "only Numbers bust": no
    # Number is held. Seat 0 stays on it alone (A.2#14) and scores its +4 (A.1#16).
    ("stay on a modifier only", ["+4", "6", "8"], ["stay", "stay", "stay"],
     {"F7-MOD-NO-BUST", "F7-STAY-MODIFIERS-ONLY", "F7-MOD-ONLY", "F7-MOD-ADD", "F7-ROUND-END", "F7-BANK"},
     {"F7-BUST-ONLY-NUMBERS", "F7-STAY-CHANCE-ONLY", "F7-SCORE-BUST", "F7-BUST-CARDS-STAY", "F7-ALL-BUST"}),
    # A.2#14: a Second Chance dealt to seat 0 is kept (A.1#15), seat 0 stays on it, it is discarded at the
    # round's end (A.1#15); the deal resumes after it (A.2#2).
    ("stay on a second chance only", ["CHANCE", "6", "8"], ["stay", "stay", "stay"],
     {"F7-STAY-CHANCE-ONLY", "F7-CHANCE-KEEP", "F7-CHANCE-ROUND-END", "F7-DEAL-ACTION-PAUSE", "F7-DEAL-RESUME"},
     {"F7-STAY-MODIFIERS-ONLY", "F7-MOD-ONLY", "F7-CHANCE-ENDS-TURN"}),
    # A.1#15: seat 0 keeps the Second Chance dealt to it; the next one it reveals goes to seat 1 (it may hold only
    # one), so seat 0 still holds that one card when it stays (A.2#14).
    ("second chance given away", ["CHANCE", "6", "8", "CHANCE"], ["hit", 1, "stay", "stay", "stay"],
     {"F7-CHANCE-KEEP", "F7-STAY-CHANCE-ONLY", "F7-CHANCE-ROUND-END"}, {"F7-CHANCE-ENDS-TURN"}),
    # A.2#6, A.2#8: seat 1 was given seat 0's second Second Chance; seat 0's third finds nobody active who could
    # take it and is discarded: seat 0 still holds its one card when it stays.
    ("second chance discarded", ["CHANCE", "6", "8", "CHANCE", "CHANCE"], ["hit", 1, "stay", "stay", "hit", "stay"],
     {"F7-STAY-CHANCE-ONLY", "F7-CHANCE-KEEP"}, {"F7-CHANCE-ENDS-TURN"}),
    # A.2#2, A.2#14: seat 0's dealt Flip Three, played on itself, brings two Second Chances; the second goes to
    # seat 1, not dealt yet, who then stays holding only it instead of taking its deal card.
    ("second chance given to an undealt seat", ["FLIP3", "CHANCE", "CHANCE", "5", "6", "8"], [0, 1, "stay"],
     {"F7-STAY-CHANCE-ONLY", "F7-FLIP3-CHANCE-AT-ONCE", "F7-DEAL-STAY-INSTEAD"}, {"F7-DEAL-TARGET-UNDEALT"}),
    # Seat 0's dealt Flip Three went to seat 1, so seat 0 must Hit (A.1#7): a Freeze, on itself. The deal is over
    # (seats 1 and 2 took their deal cards), so this is no Freeze of the deal on an empty row (A.2#2).
    ("freeze on an empty row after the deal", ["FLIP3", "5", "6", "7", "8", "9", "FREEZE"], [1, "hit", 0],
     {"F7-FREEZE-SELF", "F7-STAY-NEEDS-CARD"}, {"F7-DEAL-FREEZE-EMPTY", "F7-FREEZE-KEEPS-CARDS"}),
    # A Flip Three early in the round; later seat 1 uses a Second Chance on a Hit, no Flip Three under way: its
    # turn ends (A.2#7).
    ("second chance used on a hit after a flip three",
     ["4", "6", "8", "FLIP3", "1", "2", "3", "CHANCE", "9", "10", "6"], ["hit", 1, "hit", "hit", "hit", "hit"],
     {"F7-CHANCE-ENDS-TURN", "F7-CHANCE-KEEP"}, {"F7-FLIP3-STOP"}),
    # A.2#7: seat 0 keeps a Second Chance, then hits a second 4 and uses it on a Hit: the turn ends.
    ("second chance used on a hit", ["4", "6", "8", "CHANCE", "9", "10", "4"], ["hit", "hit", "hit", "hit"],
     {"F7-CHANCE-KEEP", "F7-CHANCE-ENDS-TURN"}, {"F7-FLIP3-CHANCE-AT-ONCE"}),
    # The same Second Chance used inside a Flip Three (seat 0 alone plays it on itself): the Flip Three goes on,
    # no turn ends (A.2#7).
    ("second chance used in a flip three", ["4", "6", "8", "CHANCE", "FLIP3", "4", "1", "2"],
     ["hit", "stay", "stay", "hit"], {"F7-CHANCE-KEEP"}, {"F7-CHANCE-ENDS-TURN", "F7-FLIP3-COUNTS-ALL"}),
    # A.1#14, A.2#6: a Second Chance among the three cards is taken at once and counts as one of them.
    ("second chance in a flip three", ["4", "6", "8", "FLIP3", "CHANCE", "1", "2"], ["hit", 1],
     {"F7-FLIP3-CHANCE-AT-ONCE", "F7-CHANCE-KEEP", "F7-FLIP3-COUNTS-ALL"}, {"F7-CHANCE-ENDS-TURN"}),
    # A.2#13, A.2#11: seat 0 holds 0..5, alone; its Flip Three's first card, a 6, is the seventh Number: the
    # round ends at once, the 0 among the seven; seats 1 and 2 stayed with cards and bank them (A.1#11).
    ("flip 7 in a flip three with the 0", ["0", "12", "11", "1", "2", "3", "4", "5", "FLIP3", "6"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit"],
     {"F7-FLIP7-IN-FLIP3", "F7-FLIP3-STOP", "F7-FLIP7-ZERO", "F7-FLIP7-BONUS", "F7-FLIP7-OTHERS-BANK",
      "F7-ROUND-END", "F7-BANK"},
     {"F7-SCORE-BUST", "F7-MOD-X2", "F7-ALL-BUST"}),
    # The same Flip 7 ends round 1 inside the Flip Three (A.2#13); in round 2 (Dealer seat 0: the deal goes to
    # seats 1, 2, 0) seat 2, dealt a Second Chance, uses it on a Hit: outside any Flip Three, its turn ends (A.2#7).
    ("a flip three cut short by a flip 7, then a second chance on a hit",
     ["0", "12", "11", "1", "2", "3", "4", "5", "FLIP3", "6", "9", "CHANCE", "10", "7", "8", "12", "8"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit", "hit", "hit", "hit", "stay", "hit"],
     {"F7-FLIP7-IN-FLIP3", "F7-CHANCE-KEEP", "F7-CHANCE-ENDS-TURN"}, set()),
    # Seven different Numbers from Hits, no 0 among them, no Flip Three.
    ("flip 7 on a hit", ["7", "12", "11", "1", "2", "3", "4", "5", "6"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit"],
     {"F7-FLIP7-BONUS", "F7-FLIP7-OTHERS-BANK"}, {"F7-FLIP7-IN-FLIP3", "F7-FLIP7-ZERO", "F7-FLIP3-STOP"}),
    # A.1#16-#17: x2 with a Flip 7 shows the whole clause (the Numbers doubled, not the bonus).
    ("flip 7 with x2", ["7", "12", "11", "1", "x2", "2", "3", "4", "5", "6"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit", "hit"], {"F7-MOD-X2"}, {"F7-MOD-ONLY"}),
    # x2 on Numbers alone shows the doubling but not "never the +N cards or the bonus".
    ("x2 with numbers only", ["5", "6", "8", "x2"], ["hit", "stay", "stay", "stay"], set(),
     {"F7-MOD-X2", "F7-MOD-ADD", "F7-MOD-ONLY"}),
    ("x2 with a +N card", ["5", "6", "8", "x2", "+4"], ["hit", "stay", "stay", "hit", "stay"],
     {"F7-MOD-X2", "F7-MOD-ADD"}, {"F7-MOD-ONLY"}),
    # A.1#10, #17: seat 0 busts; its cards stay until the round's end, where it scores 0; not everyone busted.
    ("one bust", ["4", "6", "8", "4"], ["hit", "stay", "stay"],
     {"F7-SCORE-BUST", "F7-BUST-CARDS-STAY", "F7-ROUND-END"}, {"F7-ALL-BUST", "F7-FLIP3-STOP", "F7-ACTION-AT-ONCE"}),
    # Seat 0's busted row is scored first; seat 1's +4 after it still counts (A.1#16). No Second Chance is held.
    ("a bust, then a +N card", ["4", "6", "8", "4", "+4"], ["hit", "hit", "stay", "stay"],
     {"F7-SCORE-BUST", "F7-MOD-ADD"}, {"F7-CHANCE-ROUND-END", "F7-ALL-BUST", "F7-MOD-ONLY"}),
    # A.1#11: seats 1 and 2 busted, so nobody else banks anything on seat 0's Flip 7.
    ("flip 7 with everyone else busted", ["1", "6", "8", "2", "6", "8", "3", "4", "5", "7", "9"],
     ["hit", "hit", "hit", "hit", "hit", "hit", "hit", "hit"], {"F7-FLIP7-BONUS", "F7-SCORE-BUST"},
     {"F7-FLIP7-OTHERS-BANK", "F7-ALL-BUST", "F7-FLIP7-ZERO"}),
    # A.2#11: the 0 is in seat 1's row, not among seat 0's seven.
    ("flip 7 with the 0 in another row", ["7", "0", "11", "1", "2", "3", "4", "5", "6"],
     ["hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit"], {"F7-FLIP7-OTHERS-BANK"}, {"F7-FLIP7-ZERO"}),
    # A.2#12: everyone busts.
    ("everyone busts", ["4", "6", "8", "4", "6", "8"], ["hit", "hit", "hit"],
     {"F7-ALL-BUST", "F7-SCORE-BUST"}, {"F7-FLIP7-OTHERS-BANK"}),
    # An ordinary Flip Three in round 2 (Dealer seat 0: seats 1, 2, 0 dealt 5, 7, 9; seat 1 plays it on seat 2).
    ("a flip three in a second round", ["4", "6", "8", "5", "7", "9", "FLIP3", "1", "2", "3"],
     ["stay", "stay", "stay", "hit", 2], {"F7-DISCARD-PILE"}, {"F7-FLIP3-NESTED"}),
    # A.1#19: a second round starts: the first round's cards went to the discard pile, the deck passed left.
    ("a second round", ["4", "6", "8"], ["stay", "stay", "stay"],
     {"F7-DISCARD-PILE", "F7-DEALER-ROTATION", "F7-DEAL"}, {"F7-NO-DEAL-VARIANT", "F7-GAME-END"}),
    # Rows start empty each round (A.1#19): seat 1 held a 6 in round 1; in round 2 it is dealt +4 alone and stays
    # on it (A.2#14), the +4 meeting no Number (A.1#10).
    ("a second round starts with empty rows", ["4", "6", "8", "+4", "5", "7"], ["stay", "stay", "stay", "stay"],
     {"F7-STAY-MODIFIERS-ONLY", "F7-MOD-NO-BUST", "F7-DISCARD-PILE"}, {"F7-BUST-ONLY-NUMBERS"}),
    # The Dealer's dealt Freeze (on seat 0) leaves it with no card: it must Hit (A.1#7), takes +4 and stays; the
    # round ends and round 2 is dealt: those deal cards are another deal, not the first one resuming.
    ("freeze dealt to the last seat, round played out", ["4", "6", "FREEZE", "+4", "5", "7"],
     [0, "stay", "stay", "stay"], {"F7-STAY-NEEDS-CARD", "F7-STAY-MODIFIERS-ONLY", "F7-DEAL-ACTION-PAUSE"},
     {"F7-DEAL-RESUME"}),
    # A.2#4: a Flip Three set aside and assigned runs as a Flip Three of its own.
    ("a set-aside flip three", ["4", "6", "8", "FLIP3", "FLIP3", "1", "2", "3", "5", "7"], ["hit", 1, 2],
     {"F7-FLIP3-NESTED", "F7-FLIP3-ASSIGN"}, set()),
    # A.2#4 (case 13a): seat 1's Flip Three sets aside a Freeze and a Flip Three, both assigned to seat 2: frozen,
    # the Flip Three is discarded and never runs. Seat 1's own Flip Three on its next Hit is an ordinary one.
    ("a set-aside flip three discarded", ["4", "6", "8", "FLIP3", "FREEZE", "FLIP3", "3", "FLIP3", "1", "2", "5"],
     ["hit", 1, 2, 2, "hit", 0], {"F7-FLIP3-ASSIGN", "F7-FREEZE-KEEPS-CARDS"}, {"F7-FLIP3-NESTED"}),
    ("a set-aside freeze", ["4", "6", "8", "FLIP3", "FREEZE", "3", "+4"], ["hit", 1, 2],
     {"F7-FLIP3-ASSIGN"}, {"F7-FLIP3-NESTED", "F7-FREEZE-SELF"}),
]


@pytest.mark.clause("F7-DEAL-ACTION-PAUSE", "F7-DEAL-RESUME", "F7-DEAL-TARGET-UNDEALT", "F7-DEAL-FREEZE-EMPTY",
                    "F7-FREEZE-SELF", "F7-FREEZE-KEEPS-CARDS", "F7-FLIP3-COUNTS-ALL", "F7-FLIP3-STOP",
                    "F7-STAY-MODIFIERS-ONLY", "F7-STAY-CHANCE-ONLY", "F7-CHANCE-ENDS-TURN", "F7-FLIP7-IN-FLIP3",
                    "F7-FLIP7-ZERO", "F7-MOD-X2", "F7-ALL-BUST", "F7-FLIP3-NESTED")
@pytest.mark.parametrize(("top", "choices", "named", "not_named"),
                         [pytest.param(*game[1:], id=game[0]) for game in GAMES])
def test_a_played_game_names_the_clauses_it_shows(top: list[str], choices: list[Any], named: set[str],
                                                  not_named: set[str]) -> None:
    found = witnessed(played(top, choices))
    assert named <= found, sorted(named - found)
    assert not (not_named & found), sorted(not_named & found)
    assert set(STRUCTURAL) | {"F7-DECK"} <= found  # every game of the official deck
    assert not {"F7-CUSTOM-DECK", "F7-TWO-DECKS", "F7-TWO-DECKS-EFFECTS"} & found


@pytest.mark.clause("F7-DEAL-STAY-INSTEAD", "F7-DEAL-ANYWAY")
@pytest.mark.parametrize("value", ["hit_or_stay", "deal_anyway"])
def test_a_flip_three_before_a_deal_turn_names_its_option_value(value: str) -> None:
    # A.2#2: seat 0 is dealt a Flip Three and plays it on seat 1, who takes three cards before its deal turn;
    # what then happens is the option's clause for its value.
    ruleset = FLIP7.with_options(deal_after_flip3_cards=value)
    option = ruleset.OPTIONS["deal_after_flip3_cards"]
    found = witnessed(played(["FLIP3", "5", "6", "7", "8", "9"], [1], ruleset))
    assert option.clause_of(value) in found and "F7-DEAL-TARGET-UNDEALT" in found
    others = readings_of(option) - {option.clause_of(value)}
    assert others and not others & found
    # A.2#2, A.2#14: a Second Chance given to seat 1 before its deal turn (seat 0's dealt Flip Three, on itself,
    # brings two) is a card in front of it by then, as the Flip Three's cards were: the same option decides.
    found = witnessed(played(["FLIP3", "CHANCE", "CHANCE", "5", "6", "8"], [0, 1], ruleset))
    assert option.clause_of(value) in found and not others & found
    # the same Flip Three on seat 0 with no second Second Chance: nobody holds a card before their deal turn
    found = witnessed(played(["FLIP3", "CHANCE", "4", "5", "6", "8"], [0], ruleset))
    assert not ({option.clause_of(value)} | others) & found


@pytest.mark.clause("F7-FLIP3-ASSIGN", "F7-FLIP3-ASSIGN-EACH")
@pytest.mark.parametrize("value", ["assign_all_first", "resolve_each"])
def test_an_assigned_set_aside_card_names_the_resolution_option_value(value: str) -> None:
    ruleset = FLIP7.with_options(set_aside_resolution=value)
    option = ruleset.OPTIONS["set_aside_resolution"]
    found = witnessed(played(["4", "6", "8", "FLIP3", "FREEZE", "3", "+4"], ["hit", 1, 2], ruleset))
    assert option.clause_of(value) in found
    assert not (readings_of(option) - {option.clause_of(value)}) & found
    # no card set aside, nothing assigned: neither reading shown
    plain = witnessed(played(["4", "6", "8", "FLIP3", "1", "2", "3"], ["hit", 1], ruleset))
    assert not readings_of(option) & plain


@pytest.mark.clause("F7-NO-DEAL-VARIANT", "F7-DEAL")
def test_a_round_without_a_deal_is_the_no_deal_variant() -> None:
    found = witnessed(played(["4", "6", "8"], ["hit"], preset("flip7-no-deal")))
    assert "F7-NO-DEAL-VARIANT" in found and "F7-DEAL" not in found
    # E: without a deal, seat 0's first (forced) Hit is a Freeze, played on seat 1, who holds nothing: no deal
    # is under way, so none of the deal's clauses (A.2#2) applies, and seat 1 has no card to keep.
    found = witnessed(played(["FREEZE", "6", "8"], [1], preset("flip7-no-deal")))
    assert not {"F7-DEAL-FREEZE-EMPTY", "F7-DEAL-TARGET-UNDEALT", "F7-FREEZE-KEEPS-CARDS", "F7-DEAL-ACTION-PAUSE",
                "F7-FREEZE-SELF"} & found
    assert "F7-DEAL" in witnessed(played(["4", "6", "8"], ["hit"]))


@pytest.mark.clause("F7-GAME-END", "F7-TIE", "F7-CHALLENGE")
def test_the_end_of_the_game_names_how_it_ended() -> None:
    # A.1#20: target 1, every seat banks its dealt card: the game ends after round 1, seat 2 (8) alone on top.
    ruleset = FLIP7.with_options(target_score=1)
    found = witnessed(played(["4", "6", "8"], ["stay", "stay", "stay"], ruleset))
    assert "F7-GAME-END" in found and not {"F7-TIE", "F7-CHALLENGE", "F7-DISCARD-PILE"} & found
    # A shared win (tie_at_target=shared_win): seats 0 and 2 both bank 8, the most.
    shared = ruleset.with_options(tie_at_target="shared_win")
    assert {"F7-TIE", "F7-GAME-END"} <= witnessed(played(["8", "6", "8"], ["stay", "stay", "stay"], shared))
    # C#1: the challenge ends after its round limit, not at the target.
    challenge = preset("flip7-challenge").with_options(round_limit=1)
    found = witnessed(played(["4", "6"], ["stay", "stay"], challenge, players=2))
    assert "F7-CHALLENGE" in found and "F7-GAME-END" not in found


@pytest.mark.clause("F7-DECK", "F7-CUSTOM-DECK", "F7-TWO-DECKS", "F7-TWO-DECKS-EFFECTS")
def test_the_deck_clauses_follow_the_deck_and_the_player_count() -> None:
    # A.1#1: the official deck is F7-DECK; one +2 more makes it a deck of the ruleset's own (E).
    assert "F7-DECK" in by_hand([]) and "F7-CUSTOM-DECK" not in by_hand([])
    deck = dict(FLIP7.deck)
    deck["+2"] += 1
    custom = dataclasses.replace(FLIP7, deck=tuple(deck.items()))
    assert "F7-CUSTOM-DECK" in by_hand([], ruleset=custom) and "F7-DECK" not in by_hand([], ruleset=custom)
    # A.1#2: more than 18 players take a second deck; 18 do not.
    assert "F7-TWO-DECKS" in by_hand([], players=19)
    assert "F7-TWO-DECKS" not in by_hand([], players=18)
    # A.2#16: with two decks, an x2 that counts (beside a +N card) or a Second Chance kept or given shows how two
    # decks' effects combine; neither alone, nor an x2 in a one-deck game, does.
    row = [(("5", "x2", "+4"), "stayed"), (("3",), "stayed"), (("6",), "stayed")]
    assert "F7-TWO-DECKS-EFFECTS" in by_hand([], row, players=19)
    assert "F7-TWO-DECKS-EFFECTS" not in by_hand([], row, players=18)
    assert "F7-TWO-DECKS-EFFECTS" not in by_hand([], [(("5", "+4"), "stayed")], players=19)
    kept = [START, draw(0, "CHANCE")]
    assert "F7-TWO-DECKS-EFFECTS" in by_hand(kept, players=19)


def small_deck(*texts: str) -> Ruleset:
    """The Flip 7 rules with a deck of one each of ``texts`` (a deck of the ruleset's own, F7-CUSTOM-DECK)."""
    return dataclasses.replace(FLIP7, deck=tuple((text, 1) for text in texts))


@pytest.mark.clause("F7-RESHUFFLE-TABLE-STAYS", "F7-RESHUFFLE-IN-FLIP3")
def test_a_reshuffle_names_what_stays_out_of_the_new_deck() -> None:
    # Eight cards, one each. Round 1: 1 2 3 dealt, everyone stays (their cards go to the discard pile, A.1#19).
    # Round 2, Dealer seat 0: 4 5 6 dealt to seats 1, 2, 0; seat 1 hits 7, seat 2 hits the Flip Three and plays
    # it on seat 0: the deck is empty, the discard pile (1 2 3) becomes the deck while the rows and the Flip
    # Three being resolved stay out of it (A.1#19, A.2#10).
    ruleset = small_deck("1", "2", "3", "4", "5", "6", "7", "FLIP3")
    evidence = played(["1", "2", "3", "4", "5", "6", "7", "FLIP3"], ["stay", "stay", "stay", "hit", "hit", 0],
                      ruleset, reshuffles=[["1", "2", "3"]])
    assert any(e["event"] == "reshuffle" for e in evidence.events)
    found = witnessed(evidence)
    assert {"F7-RESHUFFLE-TABLE-STAYS", "F7-RESHUFFLE-IN-FLIP3", "F7-CUSTOM-DECK"} <= found
    assert not {"F7-STALLED-ROUND", "F7-STALLED-RESHUFFLE", "F7-DECK"} & found
    # Eight Numbers: seat 0's Hit in round 2 needs the reshuffle, no Flip Three under way.
    ruleset = small_deck("1", "2", "3", "4", "5", "6", "7", "8")
    found = witnessed(played(["1", "2", "3", "4", "5", "6", "7", "8"], ["stay", "stay", "stay", "hit", "hit", "hit"],
                             ruleset, reshuffles=[["1", "2", "3"]]))
    assert "F7-RESHUFFLE-TABLE-STAYS" in found and "F7-RESHUFFLE-IN-FLIP3" not in found
    # A reshuffle before any card is in front of anyone keeps nothing on the table (events of another engine).
    early: list[dict[str, Any]] = [START, {"event": "reshuffle", "clause": "F7-RESHUFFLE", "order": ["1", "2"]}]
    assert not {"F7-RESHUFFLE-TABLE-STAYS", "F7-RESHUFFLE-IN-FLIP3"} & by_hand(early)


@pytest.mark.clause("F7-STALLED-ROUND", "F7-STALLED-RESHUFFLE")
@pytest.mark.parametrize("value", ["end", "reshuffle"])
def test_a_reshuffle_of_flip_threes_and_second_chances_only_names_the_stalled_reading(value: str) -> None:
    # A.2#10: a discard pile of Flip Threes and Second Chances only would cycle forever; reshuffling it is the
    # reading stalled_round=reshuffle (under "end" the reference ends the round instead: the events of another
    # engine that reshuffles it still show the option at work).
    ruleset = FLIP7.with_options(stalled_round=value)
    option = ruleset.OPTIONS["stalled_round"]
    readings = readings_of(option)
    dealt = [START, draw(0, "4", "deal")]
    stalled = by_hand([*dealt, {"event": "reshuffle", "clause": "F7-RESHUFFLE", "order": ["FLIP3", "CHANCE"]}],
                      ruleset=ruleset)
    assert stalled & readings == {option.clause_of(value)}
    for order in (["FLIP3", "1"], ["FREEZE", "CHANCE"], []):
        assert not readings & by_hand([*dealt, {"event": "reshuffle", "clause": "F7-RESHUFFLE", "order": order}],
                                      ruleset=ruleset)


@pytest.mark.clause("F7-STAY-NEEDS-CARD")
def test_a_forced_choice_names_the_clause_that_forced_it() -> None:
    # A.1#7: with no deal (seed 000) the first player has no card and must Hit.
    found = witnessed(played(["4", "6", "8"], [], preset("flip7-no-deal")))
    assert "F7-STAY-NEEDS-CARD" in found
    unnamed = {"event": "forced", "clause": "F7-FORCED-CHOICE", "player": 0, "kind": "hit_or_stay",
               "choice": "hit", "because": ""}
    assert by_hand([START, unnamed]) == by_hand([START])


@pytest.mark.clause("F7-CHANCE-ENDS-TURN", "F7-DEAL-ANYWAY")
def test_a_second_chance_used_on_a_deal_card_does_not_end_a_turn() -> None:
    # deal_after_flip3_cards=deal_anyway (A.2#2): seat 1 takes CHANCE 5 6 from seat 0's dealt Flip Three, then is
    # dealt a second 5 anyway and uses the Second Chance: on a deal card, not a Hit (A.2#7; the option
    # second_chance_ends_turn: never for a deal card).
    ruleset = FLIP7.with_options(deal_after_flip3_cards="deal_anyway")
    evidence = played(["FLIP3", "CHANCE", "5", "6", "5", "8"], [1], ruleset)
    assert any(e["event"] == "chance_used" for e in evidence.events)
    found = witnessed(evidence)
    assert "F7-DEAL-ANYWAY" in found and "F7-CHANCE-ENDS-TURN" not in found
