"""The record of a played game: written from the game's own history, the same game however it was played, and
the trace written from it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from flip7_spec.play import make_game, new_game
from flip7_spec.rulesets import preset
from flip7_spec.simulation.policies import random_policy, threshold_policy
from flip7_spec.simulation.simulate import game_rng, play_game, record_game
from flip7_spec.trace.canonical import dumps_line
from flip7_spec.trace.record import GameRecord, record_choices
from flip7_spec.trace.replay import CONFORM, replay


@pytest.mark.parametrize("name", ["flip7", "vengeance"])
def test_recording_plays_the_same_game_and_keeps_every_decision(name: str) -> None:
    ruleset = preset(name)
    for index in range(6):
        policy = random_policy if index % 2 else threshold_policy(20)
        game = play_game(ruleset, 4, policy, game_rng("record", index))
        record = record_game(ruleset, 4, policy, game_rng("record", index), observe=True, seed=f"record:{index}")
        assert (record.totals, record.winners, record.rounds, record.over) == \
            (tuple(game.totals), tuple(game.winners), game.round, True)
        assert not game.history and len(record.observations) == len(record.plies) + 1
        assert [list(o) for o in record.orders] == \
            [list(e.get("order")) for e in record.all_events() if e.kind == "reshuffle"]
        result = replay(record.trace())
        assert (result.status, result.level, result.complete, result.steps) == \
            (CONFORM, "observations", True, len(record.plies))


def test_the_trace_of_a_record_is_the_trace_of_its_choices_replayed() -> None:
    ruleset = preset("flip7")
    record = record_game(ruleset, 3, random_policy, game_rng("again", 2), seed="again:2", generator="g")
    assert not record.observations
    s = record.setup
    again = record_choices(s.ruleset, s.players, s.dealer, s.deck, record.choices,
                           [list(o) for o in record.orders], seed="again:2", generator="g")
    assert dumps_line(record.observed().trace()) == dumps_line(again)
    assert "observation" not in record.trace()["start"]


def test_a_partial_game_has_no_footer_and_the_record_names_the_ruleset_as_given() -> None:
    ruleset = replace(preset("flip7"), deviations=('reshuffle_moment="when_emptied"',))
    deck = ruleset.deck_cards(3)
    random.Random(5).shuffle(deck)
    game, _ = new_game(ruleset, 3, deck, reshuffler=lambda discard: sorted(discard, key=lambda c: c.text))
    assert game.ruleset.reshuffle_moment == "when_emptied" and game.named_ruleset is ruleset
    game.apply(game.legal()[0])
    record = GameRecord.of(game)
    assert record.setup.ruleset is ruleset and not record.over and len(record.plies) == 1
    trace = record.trace(description="two", clauses=["F7-DECK", "F7-DEAL", "F7-DECK"])
    assert "footer" not in trace and trace["header"]["clauses"] == ["F7-DEAL", "F7-DECK"]
    assert trace["header"]["ruleset"] == ruleset.to_json()


def test_a_game_without_history_or_with_misfitting_observations_has_no_record() -> None:
    ruleset = preset("flip7")
    deck = ruleset.deck_cards(3)
    unrecorded = make_game(ruleset, 3, deck, 0, record=False)
    unrecorded.start()
    with pytest.raises(ValueError, match="no history"):
        GameRecord.of(unrecorded)
    recorded, _ = new_game(ruleset, 3, deck)
    with pytest.raises(ValueError, match="observations"):
        GameRecord.of(recorded, observations=[recorded.observation(), recorded.observation()])


def test_a_restacked_pile_is_the_deck_the_record_starts_from() -> None:
    ruleset = preset("flip7")
    deck = ruleset.deck_cards(3)
    game, _ = new_game(ruleset, 3, deck)
    drawn = len(deck) - len(game.pile)
    top_first = game.draw_pile()
    game.restack(top_first[::-1])
    assert list(game.initial_deck) == [*deck[:drawn], *top_first[::-1]]
    assert game.draw_pile() == top_first[::-1]
    with pytest.raises(ValueError, match="cards of the draw pile"):
        game.restack(top_first[1:])
