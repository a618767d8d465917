"""The official numbers, written out by hand from the rule books as quoted in RULES.md, so that changing a
default of the reference (the target, the bonus, a card count, a printed example) fails here.

Flip 7 (RULES.md A.1#1, #3, #11, #17; S1 page 1: "94 CARDS", "twelve 12's ... one 1; there is even one 0",
the 200 goal, the +15 bonus). Flip 7: With a Vengeance (RULES.md B.1#1, #2, #6, #20).
"""

from __future__ import annotations

from collections import Counter

import pytest

from flip7_spec.cards import cards
from flip7_spec.conformance import cases as cases_module
from flip7_spec.conformance.cases import scoring_cases
from flip7_spec.fixtures import full_deck
from flip7_spec.play import new_game, round_score
from flip7_spec.rulesets import preset

# RULES.md A.1#1: one 0, v copies of each v from 1 to 12 (twelve 12s ... one 1), one each of +2 +4 +6 +8 +10
# and x2, three each of Freeze, Flip Three and Second Chance.
FLIP7_COUNTS = {
    "0": 1, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "11": 11, "12": 12,
    "+2": 1, "+4": 1, "+6": 1, "+8": 1, "+10": 1, "x2": 1, "FREEZE": 3, "FLIP3": 3, "CHANCE": 3,
}

# RULES.md B.1#1: The Zero; v copies of v from 1 to 13, one 7 being the Unlucky 7 and one 13 the Lucky 13;
# one each of -2 -4 -6 -8 -10 and /2; two each of the five Actions.
VENGEANCE_COUNTS = {
    "ZERO": 1, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 6, "U7": 1, "8": 8, "9": 9, "10": 10,
    "11": 11, "12": 12, "13": 12, "L13": 1, "-2": 1, "-4": 1, "-6": 1, "-8": 1, "-10": 1, "/2": 1,
    "ONEMORE": 2, "FLIP4": 2, "SWAP": 2, "STEAL": 2, "DISCARD": 2,
}


@pytest.mark.clause("F7-DECK")
def test_the_flip7_deck_is_the_94_cards_of_the_rule_book() -> None:
    deck = Counter(c.text for c in preset("flip7").deck_cards(3))
    assert dict(deck) == FLIP7_COUNTS
    assert sum(FLIP7_COUNTS.values()) == 94  # "94 CARDS": 79 Numbers, 6 modifiers, 9 Actions
    assert sum(deck[str(v)] for v in range(13)) == 79


@pytest.mark.clause("F7-TWO-DECKS")
def test_more_than_18_players_play_with_two_decks() -> None:
    # RULES.md A.1#2: a second deck for more than 18 players
    assert len(preset("flip7").deck_cards(18)) == 94
    assert Counter(c.text for c in preset("flip7").deck_cards(19)) == Counter(
        {text: 2 * count for text, count in FLIP7_COUNTS.items()})


def test_the_vengeance_deck_is_the_108_cards_of_the_rule_book() -> None:
    deck = Counter(c.text for c in preset("vengeance").deck_cards(3))
    assert dict(deck) == VENGEANCE_COUNTS
    assert sum(VENGEANCE_COUNTS.values()) == 108  # 92 Numbers, 6 modifiers, 10 Actions


@pytest.mark.clause("F7-GAME-END", "F7-FLIP7-BONUS", "F7-PLAYERS")
@pytest.mark.parametrize("name", ["flip7", "flip7-no-deal", "vengeance"])
def test_the_target_is_200_and_the_bonus_15(name: str) -> None:
    ruleset = preset(name)
    assert (ruleset.target_score, ruleset.flip7_bonus, ruleset.min_players) == (200, 15, 3)  # "3+" players


@pytest.mark.clause("F7-CHALLENGE")
def test_the_challenge_is_200_points_in_fewer_than_5_rounds() -> None:
    # RULES.md C#1: "Party of two or less?" try to score 200 points in under 5 rounds
    challenge = preset("flip7-challenge")
    assert (challenge.target_score, challenge.round_limit, challenge.max_players) == (200, 4, 2)


@pytest.mark.clause("F7-CHALLENGE", "F7-DEAL")
@pytest.mark.parametrize("name, differences", [
    # C#1: the challenge is for "two or less" players, and "under 5 rounds" is a limit of 4
    ("flip7-challenge", {"min_players": 1, "max_players": 2, "round_limit": 4}),
    # seed 000's reading: the Dealer deals no card; every other rule is the official game's
    ("flip7-no-deal", {"initial_deal": False}),
])
def test_a_variant_preset_differs_from_flip7_only_where_its_source_says(name: str, differences: dict[str, object]
                                                                         ) -> None:
    import dataclasses

    official, variant = preset("flip7"), preset(name)
    changed = {f.name: getattr(variant, f.name) for f in dataclasses.fields(variant)
               if f.name not in ("name", "description") and getattr(variant, f.name) != getattr(official, f.name)}
    assert changed == differences
    assert variant.name == name and variant.description


@pytest.mark.clause("F7-FLIP7-BONUS")
def test_seven_different_numbers_score_their_sum_plus_15() -> None:
    # 1+2+3+4+5+6+7 = 28, and the bonus of 15 (RULES.md A.1#11)
    assert round_score(preset("flip7"), cards("1 2 3 4 5 6 7")) == 43
    assert round_score(preset("flip7"), cards("1 2 3 4 5 6")) == 21  # six: no bonus


# The rule book's printed figures (RULES.md A.1#17, "Official worked examples"), copied from the rule book,
# not from the reference.
PRINTED = {"official-sum": 36, "official-x2": 72, "official-plus10": 46, "official-flip7": 64}


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-MOD-ADD", "F7-FLIP7-BONUS")
def test_conform_scores_the_worked_examples_with_the_printed_figures() -> None:
    cases = {c.id.rsplit(":", 1)[1]: c for c in scoring_cases(preset("flip7"))
             if c.label == "official worked example"}
    assert {name: case.expected for name, case in cases.items()} == PRINTED
    assert cases["official-x2"].hand == ["3", "11", "5", "7", "10", "x2"]
    assert cases["official-flip7"].hand == ["3", "11", "5", "7", "10", "9", "4"]


def test_the_printed_figures_do_not_depend_on_the_reference_scorer(monkeypatch: pytest.MonkeyPatch) -> None:
    # a reference that scored every hand -1 would still be checked against the rule book's figures
    monkeypatch.setattr(cases_module, "round_score", lambda *args, **kwargs: -1)
    cases = {c.id.rsplit(":", 1)[1]: c.expected for c in cases_module.scoring_cases(preset("flip7"))
             if c.label == "official worked example"}
    assert cases == PRINTED


@pytest.mark.clause("F7-FLIP7-BONUS")
def test_a_custom_bonus_changes_the_flip7_example_by_the_difference() -> None:
    # the printed 64 is 49 + 15; with a bonus of 20 the same hand scores 49 + 20 = 69
    ruleset = preset("flip7").with_options(flip7_bonus=20)
    case = next(c for c in scoring_cases(ruleset) if c.id.endswith("official-flip7"))
    assert case.expected == 69


@pytest.mark.clause("F7-GAME-END", "F7-WINNER")
@pytest.mark.parametrize(("before", "over"), [(190, True), (189, False)])
def test_the_game_ends_at_the_end_of_a_round_reaching_200(before: int, over: bool) -> None:
    # Seat 0 starts the round with ``before`` points and banks 10 (a single 10): 200 ends the game, 199 not.
    ruleset = preset("flip7")
    deck = full_deck(ruleset, 3, ["10", "4", "6"])  # dealer 2: the deal goes to seats 0, 1, 2
    game, _ = new_game(ruleset, 3, deck, dealer=2)
    game.totals[0] = before
    for _ in range(3):
        game.apply("stay")  # each seat stays on its deal card
    assert game.totals == [before + 10, 4, 6]
    assert game.over is over
    if over:
        assert game.winners == [0]
    else:
        assert game.round == 2
