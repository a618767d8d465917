"""Observations are canonical JSON; ``Game.after`` is pure and ``Game.copy`` independent."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.strategies import GameRecord, played_games, rare_games
from flip7_spec.testing import check_canonical, fingerprint, sorted_reshuffle, walk


@pytest.mark.clause("F7-ROW", "F7-FORCED-CHOICE")
@given(st.one_of(played_games(), rare_games("chance_passed")))
def test_observations_are_canonical_json(record: GameRecord) -> None:
    for step in walk(record):
        observation = step.game.observation()
        check_canonical(observation)
        assert set(observation) == {"round", "dealer", "draw_pile", "discard_pile", "in_play", "players",
                                    "pending", "over", "winners"}
        for event in step.events:
            check_canonical(event.to_json())


@pytest.mark.clause("F7-FORCED-CHOICE")
@given(played_games(), st.data())
def test_after_is_pure_and_copy_is_independent(record: GameRecord, data: st.DataObject) -> None:
    stop = data.draw(st.integers(0, len(record.choices)), label="checked step")
    for index, step in enumerate(walk(record)):
        if index < stop:
            continue
        game = step.game
        game.reshuffler = sorted_reshuffle
        before = fingerprint(game)
        twin = game.copy()
        assert fingerprint(twin) == before
        if game.pending is not None:
            choice = game.legal()[data.draw(st.integers(0, len(game.legal()) - 1), label="choice")]
            successor, events = game.after(choice)
            assert fingerprint(game) == before, "Game.after changed the game it was called on"
            twin_events = twin.apply(choice)
            assert fingerprint(twin) == fingerprint(successor), "after() differs from copy() then apply()"
            assert [e.to_json() for e in events] == [e.to_json() for e in twin_events]
            assert fingerprint(game) == before, "applying a decision to a copy changed the original"
        twin.pile.clear()
        twin.players[0].cards.clear()
        twin.totals[0] -= 1
        assert fingerprint(game) == before, "changing a copy changed the original"
        break
