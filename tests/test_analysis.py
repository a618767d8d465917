"""flip7_spec.analysis: exact values checked against brute force over every deck order, and the chance of
seven different Numbers before a duplicate against its closed form and against the reference engine."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import prod

import pytest

from flip7_spec import Ruleset, card, preset
from flip7_spec.analysis import (
    AnalysisError,
    SolitaireHand,
    SolitaireOutcome,
    never_stay,
    seven_distinct_probability,
    solitaire,
    solitaire_deck,
    solitaire_ruleset,
    stay_at,
    stay_with_cards,
    threshold_table,
)
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.simulation.simulate_run import SimulationRun, run_experiment

FLIP7_DECK_NUMBERS = {str(v): max(v, 1) for v in range(13)}


def brute_force(deck: list[str], stays: Callable[[SolitaireHand], bool], bonus: int = 15
                ) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Expected score, bust and Flip 7 probabilities and expected cards, following every draw sequence of
    ``deck`` one by one (no two sequences merged) by the rules: a duplicate Number busts (0 points), seven
    different Numbers end the round with the bonus, xN multiplies the Numbers, +N adds, the deck running out
    ends the round with the points banked; the player stays when ``stays``."""

    def follow(left: Counter[str], numbers: tuple[int, ...], multiplier: int, adds: int, drawn: int
               ) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        remaining = sum(left.values())
        if remaining == 0:
            return Fraction(sum(numbers) * multiplier + adds), Fraction(0), Fraction(0), Fraction(drawn)
        totals = [Fraction(0)] * 4
        for text, count in left.items():
            if not count:
                continue
            p = Fraction(count, remaining)
            face = card(text)
            if face.is_number and face.value in numbers:
                outcome = (Fraction(0), Fraction(1), Fraction(0), Fraction(drawn + 1))
            else:
                grown = (*numbers, face.value) if face.is_number else numbers
                times = multiplier * face.value if text.startswith("x") else multiplier
                plus = adds + face.value if text.startswith("+") else adds
                hand = SolitaireHand(frozenset(grown), sum(grown), times, plus, drawn + 1)
                if len(grown) == 7:
                    outcome = (Fraction(hand.round_score + bonus), Fraction(0), Fraction(1), Fraction(drawn + 1))
                elif stays(hand):
                    outcome = (Fraction(hand.round_score), Fraction(0), Fraction(0), Fraction(drawn + 1))
                else:
                    outcome = follow(left - Counter({text: 1}), grown, times, plus, drawn + 1)
            totals = [t + p * o for t, o in zip(totals, outcome, strict=True)]
        return totals[0], totals[1], totals[2], totals[3]

    return follow(Counter(deck), (), 1, 0, 0)


def tiny(deck: dict[str, int]) -> Ruleset:
    return ruleset_from_json({"base": "flip7", "deck": deck})


@pytest.mark.parametrize(
    ("deck", "rule"),
    [
        ({"1": 1, "2": 2, "3": 2, "+2": 1, "x2": 1, "x1": 1}, stay_at(4, on="numbers")),
        ({"1": 1, "2": 2, "3": 2, "+2": 1, "x2": 1, "x1": 1}, stay_at(5, on="score")),
        ({"1": 1, "2": 2, "3": 2, "+2": 1, "x2": 1, "x1": 1}, stay_with_cards(3)),
        ({"0": 1, "1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 2}, never_stay),
        ({"0": 1, "1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "x1": 1}, stay_at(14, on="numbers")),
    ],
    ids=["numbers-threshold", "score-threshold", "cards", "always-hit-flip7", "blank-flip7"],
)
def test_exact_values_equal_brute_force_over_every_deck_order(deck: dict[str, int],
                                                               rule: Callable[[SolitaireHand], bool]) -> None:
    # "x1" is kept as a modifier here (blanks=()), so the brute force's multiplication by 1 is what it does
    outcome = solitaire(solitaire_deck(tiny(deck), blanks=()), rule)
    texts = [text for text, count in deck.items() for _ in range(count)]
    assert (outcome.expected_score, outcome.bust_probability, outcome.flip7_probability,
            outcome.expected_cards) == brute_force(texts, rule)
    assert sum(outcome.score_distribution.values()) == 1 == sum(outcome.cards_distribution.values())


def test_blanks_followed_one_by_one_or_spread_afterwards_give_the_same_exact_values() -> None:
    # A rule that reads SolitaireHand.cards makes the program follow every blank; stay_at lets it merge them and spread
    # the card counts afterwards (negative hypergeometric positions): both must agree to the last fraction.
    ruleset = tiny({"1": 1, "2": 2, "3": 3, "4": 2, "+2": 1, "x2": 1, "FREEZE": 2, "CHANCE": 1})
    deck = solitaire_deck(ruleset, blanks={"FREEZE", "CHANCE", "x2"})
    merged = solitaire(deck, stay_at(5, on="numbers"))
    followed = solitaire(deck, lambda hand: hand.number_sum >= 5)  # a plain function: assumed to read cards
    def figures(outcome: SolitaireOutcome) -> tuple[object, ...]:
        return (outcome.expected_score, outcome.bust_probability, outcome.flip7_probability,
                outcome.expected_cards, outcome.score_distribution, outcome.cards_distribution)

    assert figures(merged) == figures(followed)
    assert merged.states < followed.states


def test_seven_distinct_numbers_before_a_duplicate_is_0_0866() -> None:
    # Closed form: sum over every set S of 7 different values of 7! * prod(copies of v in S) / (79)_7, the
    # chance that the first seven Number cards are the seven values of S in some order.
    copies = [1, *range(1, 13)]  # the one 0, then v copies of v
    falling = prod(range(79, 72, -1))
    closed = Fraction(sum(prod(c) for c in itertools.combinations(copies, 7)) * 5040, falling)
    exact = seven_distinct_probability(preset("flip7"))
    assert exact == closed
    assert round(float(exact), 4) == 0.0866


def test_the_reference_engine_matches_the_seven_distinct_probability() -> None:
    # Numbers only, one player who never stays (no number sum reaches 1000): a round ends on a bust or on a
    # Flip 7, so the Flip 7 rate estimates the same probability; 10,000 rounds give a 95% interval of about
    # ±0.55 points, which must hold the exact value.
    numbers_only = ruleset_from_json({"base": "flip7", "options": {"min_players": 1}, "deck": FLIP7_DECK_NUMBERS})
    run = SimulationRun(ruleset=numbers_only, players=1, games=10_000, seed="seven", one_round=True,
                        policies=("threshold-numbers:1000",))
    rounds = run_experiment(run, progress=False)[1].summary()
    low, high = rounds["flip7_rate"]["ci95"]
    assert low <= float(seven_distinct_probability(preset("flip7"))) <= high
    assert rounds["bust_rate"]["rate"] + rounds["flip7_rate"]["rate"] == pytest.approx(1.0)


def test_cards_with_effects_the_program_does_not_follow_are_refused() -> None:
    with pytest.raises(AnalysisError, match="FLIP3"):
        solitaire_deck(preset("flip7"), blanks={"FREEZE", "CHANCE"})
    # Vengeance's own cards have effects the program does not follow: its -N and /2, its special Numbers
    with pytest.raises(AnalysisError, match="card -10 has effects"):
        solitaire_deck(preset("vengeance"))
    with pytest.raises(AnalysisError, match="card L13 has effects"):
        solitaire_deck(preset("vengeance"), blanks={"-2", "-4", "-6", "-8", "-10", "/2"}, numbers_only=True)
    with pytest.raises(AnalysisError, match="vengeance has no xN card"):
        solitaire_ruleset(preset("vengeance"))
    with pytest.raises(AnalysisError, match="expected 'score' or 'numbers'"):
        stay_at(20, on="cards")


def test_a_state_space_over_the_limit_is_refused_before_it_is_explored(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget counts each layer of draws before expanding it: a computation that would pass the limit
    stops at once with the limit named, however large the rest of the state space."""
    import importlib

    from flip7_spec.limits import Limit

    module = importlib.import_module("flip7_spec.analysis.solitaire")  # the module, not its function

    small = Limit("analysis steps", 5_000, "steps", "a test's budget")
    monkeypatch.setattr(module, "ANALYSIS_STEPS", small)
    deck = module.solitaire_deck(preset("flip7"))
    with pytest.raises(module.AnalysisError, match=r"more than 5,000 steps \(analysis steps\)"):
        module.solitaire(deck, module.never_stay)
    # a rule that ends every round at once stays within it: the budget bounds work, not decks
    assert module.solitaire(deck, module.stay_with_cards(1)).bust_probability == 0


def test_the_documented_exact_values_and_threshold_table() -> None:
    """docs/simulation.md's example and its table of exact values: the same figures from ``summary`` and from
    ``threshold_table``, on the Numbers and on the round score."""
    deck = solitaire_deck(preset("flip7"))
    assert solitaire(deck, stay_at(20, on="numbers")).summary(4) == {
        "expected_score": 19.0725, "bust_probability": 0.2336, "flip7_probability": 0.0, "expected_cards": 3.377,
        "states": 16960}
    rows = {("numbers", t): o for t, o in threshold_table(preset("flip7"), [20, 22]).items()}
    rows[("score", 20)] = threshold_table(preset("flip7"), [20], on="score")[20]
    shown = {key: (round(float(o.expected_score), 3), round(100 * float(o.bust_probability), 2),
                   round(float(o.expected_cards), 3)) for key, o in rows.items()}
    assert shown == {("numbers", 20): (19.072, 23.36, 3.377), ("numbers", 22): (19.342, 28.83, 3.652),
                     ("score", 20): (18.745, 21.22, 3.235)}
    # six decimals unless asked otherwise: the chance of seven different Numbers is 0.0866 (0.086610)
    seven = solitaire(solitaire_deck(preset("flip7"), numbers_only=True), never_stay).summary()
    assert seven["flip7_probability"] == round(float(seven_distinct_probability(preset("flip7"))), 6) == 0.08661


@pytest.mark.parametrize(
    ("deck", "options", "rule"),
    [
        ({"1": 1, "2": 1, "3": 1, "+4": 1, "x2": 1, "x1": 1, "FREEZE": 2}, {}, never_stay),
        ({"1": 1, "2": 1, "3": 1, "+4": 1, "x2": 1, "x1": 1, "FREEZE": 2}, {}, stay_with_cards(3)),
        ({"1": 1, "2": 2, "3": 1, "+4": 1, "x2": 1, "FREEZE": 3}, {}, stay_at(5)),
        ({**{str(v): 1 for v in range(7)}, "FREEZE": 2}, {"flip7_bonus": 20}, never_stay),
    ],
    ids=["whole-deck-drawn", "blank-read-as-a-card", "score-by-default", "other-bonus"],
)
def test_exact_values_with_blanks_equal_brute_force(deck: dict[str, int], options: dict[str, int],
                                                    rule: Callable[[SolitaireHand], bool]) -> None:
    """Blanks (drawn, nothing else), a round that draws the whole deck and scores the hand (F7-EMPTY-DECK), a
    rule that counts the blanks among the cards, stay_at's default (the round score), the ruleset's own Flip 7
    bonus: the exact values are the brute force's, as fractions."""
    ruleset = ruleset_from_json({"base": "flip7", "deck": deck, "options": options})
    outcome = solitaire(solitaire_deck(ruleset, blanks={"FREEZE"}), rule)
    texts = [text for text, count in deck.items() for _ in range(count)]
    figures = (outcome.expected_score, outcome.bust_probability, outcome.flip7_probability, outcome.expected_cards)
    assert figures == brute_force(texts, rule, bonus=ruleset.flip7_bonus)
    assert all(type(f) is Fraction for f in figures)


def test_stay_with_cards_stays_from_that_many_cards_and_a_table_uses_its_blanks() -> None:
    rule = stay_with_cards(3)
    assert [rule(SolitaireHand(frozenset({1}), 1, 1, 0, cards)) for cards in (2, 3, 4)] == [False, True, True]
    blanks = {"FREEZE", "FLIP3", "CHANCE"}  # the x2 keeps its effect
    table = threshold_table(preset("flip7"), [15], blanks=blanks)[15]
    alone = solitaire(solitaire_deck(preset("flip7"), blanks), stay_at(15, on="numbers"))
    assert table.expected_score == alone.expected_score != threshold_table(preset("flip7"), [15])[15].expected_score
