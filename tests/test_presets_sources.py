"""Each preset as its source says it, and the cards a game's deck may hold.

The presets' fields are pinned field by field in tests/test_official_constants.py (Flip 7's) and below
(Vengeance's), each value read from the source its docstring names: the rule books as RULES.md quotes them
(A.1, B.1, C#1) and the seed summaries' readings (RULES.md section E, docs/vengeance.md "The seed 004 preset").
"""

from __future__ import annotations

import pytest

from flip7_spec.cards import card
from flip7_spec.errors import RulesetError
from flip7_spec.rulesets import preset, preset_names, ruleset_from_json


def test_every_preset_describes_itself_apart_from_the_others() -> None:
    # `flip7-spec rules` and the fixtures' headers show a preset's description: a variant that called itself
    # the official rules (or any other preset) would be shown as that preset
    descriptions = {name: preset(name).description for name in preset_names()}
    assert all(descriptions.values())
    assert len(set(descriptions.values())) == len(descriptions), descriptions


@pytest.mark.clause("F7-CUSTOM-DECK", "F7-DECK")
@pytest.mark.parametrize(("text", "effect"), [
    ("5", True), ("13", True),  # Numbers, those beyond 12 of a custom deck too
    ("+15", True), ("x2", True), ("FREEZE", True), ("FLIP3", True), ("CHANCE", True),
    # Vengeance's cards: its -N and /2 Modifiers, its Actions, its special Numbers (A.1#1 has none of them)
    ("-2", False), ("/2", False), ("STEAL", False), ("FLIP4", False), ("U7", False), ("L13", False), ("ZERO", False),
])
def test_a_flip7_deck_holds_only_cards_with_an_effect_in_flip7(text: str, effect: bool) -> None:
    flip7 = preset("flip7")
    assert flip7.has_effect(card(text)) is effect
    deck = {**dict(flip7.deck), text: 1}
    if effect:
        ruleset_from_json({"name": "custom", "base": "flip7", "deck": deck})
    else:
        with pytest.raises(RulesetError, match=f"card {card(text).text} has no effect in a flip7 game"):
            ruleset_from_json({"name": "custom", "base": "flip7", "deck": deck})


@pytest.mark.clause("V-PLAYERS", "V-TWO-DECKS", "V-GAME-END")
def test_vengeance_is_for_three_players_or_more_one_deck_up_to_18_and_200_to_win() -> None:
    # RULES.md B.1#2: "3+, up to 18 with one deck; a second deck beyond 18"; "Goal: 200 points"
    official = preset("vengeance")
    assert (official.min_players, official.max_players, official.target_score) == (3, 0, 200)  # 0: no maximum
    assert len(official.deck_cards(18)) == 108
    assert len(official.deck_cards(19)) == 2 * 108


# docs/vengeance.md, "vengeance-basic": Numbers 1..13 with v copies of v, -5 x3, -10 x2, /2 x1, and two each of
# Steal, Swap, Discard and Flip Four (105 cards); no special Number, no Just One More
BASIC_DECK = {**{str(v): v for v in range(1, 14)}, "-5": 3, "-10": 2, "/2": 1,
              "STEAL": 2, "SWAP": 2, "DISCARD": 2, "FLIP4": 2}


@pytest.mark.clause("V-BASIC", "V-HALVE-WHOLE-TOTAL", "V-SPECIAL-NUMBERS", "V-SCORE-FLOOR", "V-STEAL-DISCARD-CARDS",
                    "V-DISCARD-CHOOSER", "V-DISCARD-SELF", "V-FLIP4-SELF")
def test_vengeance_basic_differs_from_vengeance_only_where_seed_004_says() -> None:
    import dataclasses

    official, basic = preset("vengeance"), preset("vengeance-basic")
    changed = {f.name: getattr(basic, f.name) for f in dataclasses.fields(basic)
               if f.name not in ("name", "description", "deck") and getattr(basic, f.name) != getattr(official, f.name)}
    assert changed == {
        "min_players": 2, "max_players": 6,  # "Vengeance for 2-6 players"
        "special_numbers": False,  # "no special numbers"
        "negative_scores": True,  # "round and total scores may go negative"
        "steal_discard_cards": "numbers",  # "prenez une carte Chiffre", "défausser une carte Chiffre"
        "discard_chooser": "victim",  # "de son choix"
        "discard_self": False, "flip4_self": False,  # "un adversaire"
        "halve_order": "whole_total",  # "score total divided by 2 (rounded down)"
        "base": "vengeance-basic",
    }
    assert dict(basic.deck) == BASIC_DECK and sum(BASIC_DECK.values()) == 105
    assert basic.target_score == 200  # the seed's "100" is contradicted by every source (RULES.md E)
    assert basic.name == "vengeance-basic"


@pytest.mark.parametrize("name", ["flip7", "flip7-no-deal", "flip7-challenge", "vengeance", "vengeance-basic"])
def test_a_preset_written_out_loads_back_as_itself(name: str) -> None:
    # a trace or a fingerprint names its ruleset by its JSON: loading it must give the same rules, name and text
    ruleset = preset(name)
    again = ruleset_from_json(ruleset.to_json())
    assert again == ruleset
    assert (again.name, again.description, again.base) == (ruleset.name, ruleset.description, ruleset.base)
