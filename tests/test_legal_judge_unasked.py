"""The ``legal`` level's judges judge only the decisions their game asks: a decision kind paired with a card
the rules never ask it about is not judged (None), rather than held to the choices of another decision. The
judges' promise (``flip7_legal_options``, ``vengeance_legal_options``): "None when there is nothing to judge:
... a decision [the game] never asks (a kind or a card it has no such decision about)"."""

from __future__ import annotations

from typing import Any

import pytest

from flip7_spec.registry import definition_of
from flip7_spec.rulesets import preset


def table(pending: dict[str, Any], *rows: tuple[str, str]) -> dict[str, Any]:
    """A canonical observation: ``rows`` are (cards separated by spaces, status)."""
    return {"round": 1, "dealer": 0, "draw_pile": 50, "discard_pile": 0, "in_play": [],
            "players": [{"cards": cards.split(), "status": status, "round_score": 0, "total": 0}
                        for cards, status in rows],
            "pending": pending, "over": False, "winners": []}


def asked(player: int, kind: str, card: str | None = None) -> dict[str, Any]:
    return {"player": player, "kind": kind, "card": card, "options": []}


FLIP7_ROWS = (("4", "active"), ("5", "active"), ("", "active"))


@pytest.mark.clause("F7-HIT-STAY", "F7-ACTION-TARGET", "F7-CHANCE-GIVE", "F7-FLIP3-ASSIGN")
@pytest.mark.parametrize(("kind", "card"), [
    ("target", None),  # F7-ACTION-TARGET: a target is always chosen for a Freeze or a Flip Three
    ("assign", None),
    ("give", None),
    ("hit_or_stay", "FREEZE"),  # F7-HIT-STAY: the turn's choice is about no card
    ("give", "FREEZE"),  # F7-CHANCE-GIVE: only a spare Second Chance is given
    ("give", "FLIP3"),
    ("assign", "CHANCE"),  # F7-FLIP3-SETASIDE: a Second Chance is taken at once, never set aside
    ("target", "5"),
])
def test_flip7_a_decision_about_the_wrong_card_is_not_judged(kind: str, card: str | None) -> None:
    flip7 = preset("flip7")
    assert definition_of(flip7).legal_options(flip7, table(asked(0, kind, card), *FLIP7_ROWS)) is None


VENGEANCE_ROWS = (("4 -2", "active"), ("5 9", "active"), ("8", "stayed"))


@pytest.mark.clause("V-HIT-STAY", "V-STEAL", "V-DISCARD", "V-SWAP")
@pytest.mark.parametrize(("kind", "card"), [
    ("hit_or_stay", "STEAL"),  # V-HIT-STAY: the turn's choice is about no card
    ("card", "SWAP"),  # V-SWAP: a Swap picks two cards (a "swap" decision), never one
    ("card", "FLIP4"),  # only Steal and Discard pick one card
    ("card", "ONEMORE"),
    ("swap", "DISCARD"),  # only a Swap picks a pair
    ("swap", "STEAL"),
])
def test_vengeance_a_decision_about_the_wrong_card_is_not_judged(kind: str, card: str | None) -> None:
    vengeance = preset("vengeance")
    assert definition_of(vengeance).legal_options(vengeance, table(asked(0, kind, card), *VENGEANCE_ROWS)) is None


@pytest.mark.clause("V-STAY-MINIMUM")
@pytest.mark.parametrize(("row", "legal"), [
    ("4", ["hit"]), ("4 -2 /2", ["hit"]),  # one Number, whatever else: not two Numbers
    ("4 9", ["hit", "stay"]),
])
def test_vengeance_two_numbers_to_stay_means_two_number_cards(row: str, legal: list[str]) -> None:
    two_numbers = preset("vengeance").with_options(stay_minimum="two_numbers")
    observation = table(asked(0, "hit_or_stay"), (row, "active"), ("5", "active"), ("8", "active"))
    assert definition_of(two_numbers).legal_options(two_numbers, observation) == legal
