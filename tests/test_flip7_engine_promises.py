"""Promises of the Flip 7 reference that only show in rare states: the cards in play when several of one face are
in play at once (each leaves from its own place), and the seat a round's end names as its Flip 7's maker."""

from __future__ import annotations

import pytest

from tests.test_flip7_misreading_promises import FLIP7_CHOICES, FLIP7_DECK, play, round_ends

# Seat 0 is dealt a Flip Three (W) and takes it: its cards are a Flip Three (X), a Freeze (F) and a Flip Three
# (X2), all set aside. Each set-aside card takes effect as soon as it is assigned (set_aside_resolution=
# resolve_each): X to seat 1, who sets aside a Flip Three (Z) and takes 5 and 6; Z to seat 2, who takes 7, sets
# aside a Freeze (F3) and takes 8; F3 to seat 2, who is frozen. Z's and X's set-aside cards are resolved, so
# both leave play; W waits, in play, until F and X2 are resolved too (flip3_card_discard=after_set_aside).
NESTED_DECK = ["FLIP3", "FLIP3", "FREEZE", "FLIP3", "FLIP3", "5", "6", "7", "FREEZE", "8", "9", "10", "11", "12"]
NESTED_OPTIONS = {"flip3_card_discard": "after_set_aside", "set_aside_resolution": "resolve_each"}


@pytest.mark.parametrize("reading", ["", "freeze_card_discarded", "setaside_dropped_when_target_out"])
@pytest.mark.clause("F7-FLIP3-DISCARDED-LATE", "F7-FLIP3-NESTED", "F7-FLIP3-ASSIGN-EACH")
def test_a_flip_three_card_kept_until_its_set_aside_cards_are_resolved_leaves_from_its_own_place(
        reading: str) -> None:
    # In play, in the order they came: W, F, X2 (Z and X have gone). Under readings that do not read the Flip
    # Three card's discard, the same.
    game, _ = play((reading,) if reading else (), NESTED_DECK, [0, 1, 2, 2], **NESTED_OPTIONS)
    assert game.observation()["in_play"] == ["FLIP3", "FREEZE", "FLIP3"]
    assert game.pending is not None and (game.pending.player, str(game.pending.kind), game.pending.card) == \
        (0, "assign", "FREEZE")


# Four players, seat 0 dealt a Flip Three (W) they take: they set aside a Flip Three (X), a Freeze (F) and a Flip
# Three (X2), W is discarded, and each set-aside card takes effect as it is assigned. X goes to seat 1, who takes
# 5, sets aside a Freeze (F') and busts on the next 5.
BUST_DECK = ["FLIP3", "FLIP3", "FREEZE", "FLIP3", "5", "FREEZE", "5", "8", "9", "10", "11", "12", "1", "2"]


@pytest.mark.clause("F7-FLIP3-SETASIDE-BUST")
def test_a_busted_targets_set_aside_card_is_discarded_from_its_own_place() -> None:
    # F' is discarded (F7-FLIP3-SETASIDE-BUST); F and X2 stay in play in the order they came, F to be assigned.
    game, told = play((), BUST_DECK, [0, 1], players=4, dealer=3, set_aside_resolution="resolve_each")
    assert [e.card for e in told[-1] if e.kind == "discard"] == ["FLIP3", "FREEZE"]
    assert game.observation()["in_play"] == ["FREEZE", "FLIP3"]
    assert game.pending is not None and (str(game.pending.kind), game.pending.card) == ("assign", "FREEZE")


@pytest.mark.clause("F7-SETASIDE-PASS-VARIANT")
def test_a_busted_targets_set_aside_card_passed_on_leaves_play_from_its_own_place() -> None:
    # set_aside_on_bust=pass_to_other_active: seat 1 passes F' to seat 2, who is frozen by it; F and X2 stay in
    # play in the order they came.
    game, _ = play((), BUST_DECK, [0, 1, 2], players=4, dealer=3, set_aside_resolution="resolve_each",
                   set_aside_on_bust="pass_to_other_active")
    assert game.observation()["players"][2]["cards"] == ["FREEZE"]
    assert game.observation()["in_play"] == ["FREEZE", "FLIP3"]
    assert game.pending is not None and (str(game.pending.kind), game.pending.card) == ("assign", "FREEZE")


@pytest.mark.clause("F7-FLIP7")
def test_the_round_end_names_the_seat_whose_flip7_ended_it() -> None:
    # Seat 0 makes a Flip 7 at their sixth Hit (see FLIP7_DECK): the round's end names them, and they bank it.
    game, seen = round_ends((), FLIP7_DECK, FLIP7_CHOICES)
    assert seen == [0] and game.round == 2 and game.totals[0] == 1 + 2 + 3 + 4 + 5 + 6 + 7 + 15
    # A round all stayed ends with no Flip 7.
    _, seen = round_ends((), FLIP7_DECK, ["stay", "stay", "stay"])
    assert seen == [None]
