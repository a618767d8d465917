"""The simulator's fast path plays the same games as the public interface.

:meth:`Game.play_out` makes each decision inside the game's own loop; it must leave every game exactly as
calling :meth:`Game.apply` with the same choices does, refuse an illegal choice as ``apply`` does, and
:class:`RoundStats`, which counts each seat's rounds by outcome, must report what adding them one by one
reports, however the rounds are split between workers.
"""

from __future__ import annotations

import random

import pytest

from flip7_spec.errors import IllegalDecision
from flip7_spec.events import Choice, Decision
from flip7_spec.machine import Game
from flip7_spec.rulesets import preset
from flip7_spec.simulation.intervals import Moments
from flip7_spec.simulation.policies import random_policy, threshold_policy
from flip7_spec.simulation.round_stats import RoundStats
from flip7_spec.simulation.simulate import _dealt, game_rng


def _state(game: Game) -> tuple[object, ...]:
    return (game.totals, game.winners, game.round, game.dealer, game._choices, game.over,
            [c.text for c in game.pile], [c.text for c in game.discard])


@pytest.mark.parametrize("name", ["flip7", "vengeance", "flip7-no-deal", "vengeance-basic"])
def test_play_out_plays_what_apply_plays(name: str) -> None:
    ruleset = preset(name)
    for index in range(12):
        policy = threshold_policy(15 + index) if index % 3 else random_policy
        played = []
        for fast in (True, False):
            rng = game_rng("play-out", index)
            game = _dealt(ruleset, 3 + index % 4, rng)
            game.start()
            if fast:
                game.play_out(lambda g, d, rng=rng, policy=policy: policy(g, d, rng))
            else:
                while not game.over:
                    assert game.pending is not None
                    game.apply(policy(game, game.pending, rng))
            played.append(_state(game))
        assert played[0] == played[1]
        assert played[0][5]  # the game is over


def test_play_out_refuses_an_illegal_choice_and_stays_at_the_decision() -> None:
    game = _dealt(preset("flip7"), 3, game_rng("play-out", 1))
    game.start()
    asked: list[Decision] = []

    def stubborn(g: Game, decision: Decision) -> Choice:
        asked.append(decision)
        return "fold"

    with pytest.raises(IllegalDecision, match="'fold' is not a legal choice"):
        game.play_out(stubborn)
    assert game.pending is asked[-1] and not game.over
    game.apply(game.pending.options[0])  # the game goes on from where it stood


def test_play_out_is_for_games_that_keep_no_history() -> None:
    game = _dealt(preset("flip7"), 3, game_rng("play-out", 2), record=True)
    game.start()
    with pytest.raises(ValueError, match="record=False"):
        game.play_out(lambda g, d: d.options[0])
    unstarted = _dealt(preset("flip7"), 3, game_rng("play-out", 2))
    with pytest.raises(ValueError, match="started"):
        unstarted.play_out(lambda g, d: d.options[0])


def _rounds(count: int) -> list[Game]:
    """``count`` finished rounds' games, each standing at its round's end (as the round-end hook sees it)."""
    seen: list[Game] = []
    rng = random.Random(7)
    while len(seen) < count:
        game = _dealt(preset("flip7").with_options(target_score=0, tie_at_target="shared_win"), 4, rng)

        def keep(g: Game) -> None:
            seen.append(g.copy())

        game.on_round_end = keep
        game.start()
        game.play_out(lambda g, d: random_policy(g, d, rng))
    return seen[:count]


def test_round_stats_report_what_adding_rounds_one_by_one_reports() -> None:
    rounds = _rounds(120)
    whole = RoundStats(4)
    for game in rounds:
        whole.add_round(game)
    halves = RoundStats(4), RoundStats(4)
    for index, game in enumerate(rounds):
        halves[index % 2].add_round(game)
    merged = RoundStats(4)
    merged.merge(halves[0])
    merged.merge(halves[1])
    # the per-seat figures are the same as a Moments fed each round in turn
    for seat, tally in enumerate(whole.seats):
        points, cards = Moments(), Moments()
        for game in rounds:
            points.add(game.last_scores[seat])
            cards.add(len(game.players[seat].cards))
        assert (tally.points, tally.cards) == (points, cards)
        assert tally.busts == sum(g.last_busted[seat] for g in rounds)
        assert tally.flip7s == sum(g.last_flip7 == seat for g in rounds)
    assert sum(whole.points_seen.values()) == sum(whole.cards_seen.values()) == 4 * len(rounds)
    assert merged.rounds == whole.rounds and merged.seats == whole.seats
    assert merged.points_seen == whole.points_seen and merged.cards_seen == whole.cards_seen


def test_fewer_collections_raises_the_first_threshold_and_puts_it_back() -> None:
    import gc

    from flip7_spec.collector import fewer_collections

    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with fewer_collections(5_000):
            assert gc.get_threshold() == (5_000, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        with pytest.raises(RuntimeError), fewer_collections(5_000):
            raise RuntimeError("the work failed")
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(20_000, 10, 10)
        with fewer_collections(5_000):  # never lowers a threshold someone raised
            assert gc.get_threshold() == (20_000, 10, 10)
    finally:
        gc.set_threshold(*saved)
