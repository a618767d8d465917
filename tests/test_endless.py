"""Rulesets and states under which a game could never end are refused or ended under a named clause; a
rejected call leaves the game as it was; a reshuffler's order is checked; cards of one face in play keep
their order."""

from __future__ import annotations

import random

import pytest

from flip7_spec.cards import Card
from flip7_spec.errors import ChanceError, LimitError, SetupError
from flip7_spec.events import Event
from flip7_spec.play import new_game
from flip7_spec.rulesets import Ruleset, preset, ruleset_from_json
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.simulation.simulate import play_game


def custom(deck: dict[str, int], **options: object) -> Ruleset:
    return ruleset_from_json({"name": "custom", "base": "flip7", "deck": deck, "options": options})


def deck_with_top(ruleset: Ruleset, players: int, top: list[str]) -> list[str]:
    rest = sorted(c.text for c in ruleset.deck_cards(players))
    for text in top:
        rest.remove(text)
    return top + rest


@pytest.mark.clause("F7-TARGET-UNREACHABLE")
@pytest.mark.parametrize("deck", [{"0": 1}, {"0": 10, "FREEZE": 3}, {"0": 2, "x2": 1, "FLIP3": 3}])
def test_a_ruleset_whose_deck_scores_nothing_is_refused(deck: dict[str, int]) -> None:
    # 0s score 0, a Freeze or Flip Three scores nothing, x2 doubles a sum of 0, and fewer than seven different
    # Numbers never make a Flip 7: no hand scores a point, so no total ever reaches 200.
    ruleset = custom(deck)
    texts = [c.text for c in ruleset.deck_cards(3)]
    with pytest.raises(SetupError, match=r"can never be reached.*F7-TARGET-UNREACHABLE"):
        new_game(ruleset, 3, texts)
    # with a round limit the game ends after that round anyway: it is made
    game, _ = new_game(custom(deck, round_limit=2), 3, texts, reshuffler=list)
    assert game.round >= 1


def test_one_card_that_scores_is_enough() -> None:
    # a single 5 (or +2) scores a point: the target can be reached, so the ruleset is playable
    for deck in ({"0": 3, "5": 1}, {"0": 3, "+2": 1}):
        ruleset = custom(deck)
        new_game(ruleset, 3, [c.text for c in ruleset.deck_cards(3)], reshuffler=list)


def cycle_game(stalled_round: str) -> tuple[list[Event], object]:
    """One player, one 5, two Flip Threes and two Second Chances: after the deal (5) the player keeps a
    Second Chance and hits a Flip Three, which it must play on itself."""
    ruleset = custom({"5": 1, "FLIP3": 2, "CHANCE": 2}, min_players=1, stalled_round=stalled_round)
    rng = random.Random(7)

    def reshuffler(discard: list[Card]) -> list[Card]:
        rng.shuffle(discard)
        return discard

    game, _ = new_game(ruleset, 1, ["5", "CHANCE", "FLIP3", "FLIP3", "CHANCE"], reshuffler=reshuffler)
    game.apply("hit")
    return game.apply("hit"), game


@pytest.mark.clause("F7-ENDLESS", "F7-STALLED-RESHUFFLE")
def test_play_that_only_cycles_ends_the_game() -> None:
    # Under stalled_round = reshuffle the lone player's Flip Three brings a Flip Three (set aside, then played
    # on itself, alone) and a Second Chance (discarded: it holds one, nobody else is in); the two come back
    # through the discard pile in either order, for ever, and no decision is ever asked. After ten times the
    # 5-card deck drawn the round ends and is scored (the 5), and the game ends with the only player winning.
    events, game = cycle_game("reshuffle")
    assert game.over and game.winners == [0] and game.totals == [5]  # type: ignore[attr-defined]
    empty = [e for e in events if e.kind == "empty_deck"]
    assert [e.clause for e in empty] == ["F7-ENDLESS"]
    assert events[-1].kind == "game_end" and events[-1].clause == "F7-ENDLESS"
    draws = sum(e.kind == "draw" for e in events)
    assert draws == 10 * 5  # counted from the second Hit (a decision): fifty draws, the 51st finds play endless
    # under the default reading the discard pile of a Second Chance alone ends the round, and the game goes on
    events, game = cycle_game("end")
    ends = [e.clause for e in events if e.kind == "empty_deck"]
    assert ends and set(ends) == {"F7-STALLED-ROUND"}
    assert not game.over  # type: ignore[attr-defined]


def test_rounds_that_bank_points_without_a_decision_are_not_endless() -> None:
    # Two players and a single 5: each round deals the 5 and ends (nothing else to draw), with no decision;
    # the 5 is banked every round, so the game goes on until a total reaches 200 and ends under F7-WINNER.
    ruleset = custom({"5": 1}, min_players=1)
    game, events = new_game(ruleset, 2, ["5"], reshuffler=list)
    assert game.over and max(game.totals) >= 200
    assert events[-1].clause == "F7-WINNER"


def test_a_game_whose_players_never_end_it_stops_at_the_decision_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two players, one 1 each: every round both bank 1, so they tie at every total and (tie_at_target = play
    # another round) the game can never end, whatever they choose. The simulator stops it at the limit.
    monkeypatch.setattr("flip7_spec.simulation.simulate.MAX_DECISIONS_PER_GAME", 300)
    ruleset = custom({"1": 2}, min_players=1, target_score=5)
    with pytest.raises(LimitError, match="did not end within 300 decisions"):
        play_game(ruleset, 2, threshold_policy(15), random.Random(0))


def test_in_play_keeps_the_order_of_identical_flip_threes() -> None:
    # Seat 1 is dealt a Flip Three (A) and plays it on seat 2, whose three cards are a Flip Three (B, set
    # aside), a Freeze (set aside) and the 1. A waits in play for its set-aside cards (after_set_aside).
    # B is assigned to seat 1 and resolved at once (resolve_each): a Freeze and a Flip Three (C) set aside,
    # and the 2; B waits in play too. The Freeze freezes seat 0; C goes to seat 2, draws 3 4 5 and is
    # discarded; B's set-aside cards are all resolved, so B is discarded. What stays in play, in the order it
    # came: A and the first Freeze.
    ruleset = preset("flip7").with_options(flip3_card_discard="after_set_aside", set_aside_resolution="resolve_each")
    top = ["FLIP3", "FLIP3", "FREEZE", "1", "FREEZE", "FLIP3", "2", "3", "4", "5"]
    game, _ = new_game(ruleset, 3, deck_with_top(ruleset, 3, top), dealer=0)
    for choice in (2, 1, 0):
        game.apply(choice)
    assert game.observation()["in_play"] == ["FLIP3", "FLIP3", "FREEZE", "FLIP3"]  # A, B, the Freeze, C
    events = game.apply(2)
    assert [e.card for e in events if e.kind == "discard"] == ["FLIP3", "FLIP3"]  # C, then B
    assert game.observation()["in_play"] == ["FLIP3", "FREEZE"]


def test_a_reshuffler_that_adds_cards_is_refused() -> None:
    ruleset = preset("flip7")
    extra = ruleset.deck_cards(3)[:10]
    game, _ = new_game(ruleset, 3, [c.text for c in ruleset.deck_cards(3)],
                       reshuffler=lambda discard: discard + extra)
    with pytest.raises(ChanceError, match="not a permutation"):
        while game.pending is not None:
            game.apply(game.pending.options[0])


def test_a_rejected_call_leaves_the_game_as_it_was() -> None:
    # With no reshuffle order, the call that needs one is refused: the game is exactly as before it, and
    # once the order is supplied the same call goes on as in a game that had it from the start.
    ruleset = preset("flip7")
    texts = [c.text for c in ruleset.deck_cards(3)]
    game, _ = new_game(ruleset, 3, texts)
    while True:
        before = game.observation()
        choice = game.pending.options[0]  # type: ignore[union-attr]
        try:
            game.apply(choice)
        except ChanceError:
            break
    assert game.observation() == before
    with pytest.raises(ChanceError):
        game.apply(choice)
    assert game.observation() == before
    discard = game.discard
    order = sorted(discard, key=lambda c: c.text)
    twin, _ = new_game(ruleset, 3, texts, reshuffles=[order])
    for ply in game.history:
        twin.apply(ply.choice)
    game.supply_reshuffle(order)
    assert game.apply(choice) == twin.apply(choice)
    assert game.observation() == twin.observation()
