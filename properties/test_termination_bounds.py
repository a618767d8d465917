"""Every round and every game ends within a stated bound (docs/properties.md, "Bounds").

Per round: every decision is paid for by a card drawn in the round or by a player leaving it. A Hit draws
one card (or finds both piles empty, which ends the round); a Stay takes an active player out for the rest of
the round; every other decision is about one revealed card (base game: the target of a Freeze or Flip Three,
the receiver of a spare Second Chance, the assignment of a set-aside card; Vengeance: the target of a
Modifier or Action, the card of a Steal, the pair of a Swap, and up to two for a Discard), plus, in Brutal
Mode, one per Flip 7. So, with ``D`` the cards drawable in the round (the draw pile when it starts, plus every
reshuffled pile), ``n`` players, ``k`` the most decisions one card causes (1 base game, 2 Vengeance) and
``b`` 1 under Brutal Mode:

    decisions(round) <= (1 + k) * (D + 1) + n * (1 + b)

Per game, under threshold policies in the base game (stay at ``t`` points or more): a player who stays banks
the round score they stayed with (nothing can reach a stayed player), so every round in which somebody
stays banks at least ``t``. Totals never fall, so after ``ceil((n * (T - 1) + 1) / t)`` such rounds some total
is at least the target ``T``. Hence:

    rounds(game) <= ceil((n * (T - 1) + 1) / t) + (rounds where nobody stayed) + (tie rounds)
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.strategies import (
    GameRecord,
    game_setups,
    play,
    played_games,
    rare_games,
    rulesets,
    threshold_chooser,
)
from flip7_spec.testing import walk


@pytest.mark.clause("F7-ROUND-END", "F7-EMPTY-DECK", "F7-RESHUFFLE", "F7-HIT-STAY", "F7-FORCED-CHOICE")
@given(st.one_of(played_games(), rare_games("reshuffle_in_flip3"), rare_games("two_decks")))
def test_decisions_per_round_are_bounded_by_the_cards_drawable(record: GameRecord) -> None:
    ruleset = record.setup.ruleset
    n = record.setup.players
    per_card = 1 if ruleset.game == "flip7" else 2
    pile = len(record.setup.deck)  # followed through the events: a draw takes one, a reshuffle refills it
    drawable = draws = attempts_failed = decisions = 0
    rounds = 0
    for step in walk(record):
        decisions += step.decision is not None
        for event in step.events:
            if event.kind == "round_start":
                drawable, draws, attempts_failed, decisions = pile, 0, 0, 0
            elif event.kind == "draw":
                pile -= 1
                draws += 1
            elif event.kind == "reshuffle":
                # when_emptied: the last card is taken, then the reshuffle is recorded before that card's draw
                taken = int(event.clause == step.game.CLAUSES.reshuffle_emptied)
                assert pile == taken, f"a reshuffle with {pile - taken} cards still in the draw pile"
                pile = len(event.get("order")) + taken
                drawable += pile - taken
            elif event.kind == "empty_deck":
                attempts_failed += 1
            elif event.kind == "round_end":
                rounds += 1
                assert draws <= drawable and attempts_failed <= 1
                brutal = bool(getattr(ruleset, "brutal_mode", False))  # a last decision per Flip 7
                assert decisions <= (1 + per_card) * (draws + attempts_failed) + n * (1 + brutal), (
                    f"round {rounds}: {decisions} decisions for {draws} cards drawn and {n} players")
                assert decisions <= (1 + per_card) * (drawable + 1) + n * (1 + brutal)
        assert pile == len(step.game.pile), "the draw and reshuffle events do not account for the draw pile"
    assert rounds == sum(1 for e in record.all_events() if e.kind == "round_end")


@st.composite
def threshold_games(draw: st.DrawFn) -> tuple[GameRecord, int]:
    threshold = draw(st.integers(10, 40), label="threshold")
    setup = draw(game_setups(rulesets(games=("flip7",), targets=(200, 100, 50, 25))))
    record, _ = play(draw, setup, threshold_chooser(threshold), max_decisions=5_000)
    return record, threshold


@pytest.mark.clause("F7-GAME-END", "F7-BANK", "F7-HIT-STAY", "F7-TIE")
@given(threshold_games())
def test_rounds_per_game_are_bounded_under_threshold_policies(game_and_threshold: tuple[GameRecord, int]) -> None:
    record, threshold = game_and_threshold
    assert record.over, f"a threshold-{threshold} game did not end within 5000 decisions"
    n = record.setup.players
    target = record.setup.ruleset.target_score
    rounds = 0
    idle = 0
    ties = 0
    stayed = False
    for event in record.all_events():
        if event.kind == "round_start":
            stayed = False
        elif event.kind == "stay":
            stayed = True
        elif event.kind == "round_end":
            rounds += 1
            idle += not stayed
        elif event.kind == "tie":
            ties += 1
    needed = math.ceil((n * (target - 1) + 1) / threshold)
    assert rounds <= needed + idle + ties, (
        f"{rounds} rounds: more than {needed} productive + {idle} without a Stay + {ties} tie rounds")
