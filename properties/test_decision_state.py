"""The decision state: legal choices exist exactly while the game is not over, every asked decision has at
least two choices, and an illegal choice is refused without changing the game."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.errors import IllegalDecision
from flip7_spec.events import Choice
from flip7_spec.strategies import GameRecord, played_games, rare_games
from flip7_spec.testing import check_consistency, fingerprint, walk

GAMES = st.one_of(played_games(), rare_games("tie_at_target"), rare_games("all_bust"))


@pytest.mark.clause("F7-GAME-END", "F7-FORCED-CHOICE", "F7-WINNER", "F7-TIE", "F7-ACTIVE", "F7-SCORE-BUST")
@given(GAMES)
def test_legal_choices_exist_exactly_while_the_game_is_not_over(record: GameRecord) -> None:
    over_seen = False
    for step in walk(record):
        game = step.game
        assert not over_seen, "a decision was made after the game was over"
        check_consistency(game)
        assert bool(game.legal()) == (not game.over)
        over_seen = game.over
    assert over_seen == record.over


@pytest.mark.clause("F7-STAY-NEEDS-CARD", "F7-HIT-STAY", "F7-DEAL-STAY-INSTEAD")
@given(played_games())
def test_stay_is_offered_only_to_a_player_with_a_card(record: GameRecord) -> None:
    for step in walk(record):
        game = step.game
        pending = game.pending
        if game.ruleset.game == "flip7" and pending is not None and pending.kind == "hit_or_stay":
            assert game.players[pending.player].cards, "a player with no card is asked to Hit or Stay"
            assert tuple(pending.options) == ("hit", "stay")


def _not_an_option(options: list[Choice]) -> list[Choice]:
    taken = {json.dumps(o, sort_keys=True) for o in options}
    candidates: list[Choice] = ["hit", "stay", -1, 99, True, None, "1", {"player": 0, "index": 99}]
    return [c for c in candidates if json.dumps(c, sort_keys=True) not in taken]


@pytest.mark.clause("F7-FORCED-CHOICE", "F7-ACTION-TARGET", "F7-CHANCE-GIVE")
@given(played_games(), st.data())
def test_an_illegal_choice_is_refused_and_changes_nothing(record: GameRecord, data: st.DataObject) -> None:
    steps = list(range(len(record.choices) + 1))
    stop = data.draw(st.sampled_from(steps), label="checked step")
    for index, step in enumerate(walk(record)):
        if index != stop:
            continue
        game = step.game
        before = fingerprint(game)
        for wrong in _not_an_option(game.legal()):
            with pytest.raises(IllegalDecision) as refused:
                game.apply(wrong)
            assert refused.value.legal == game.legal()
            assert fingerprint(game) == before, f"the refused choice {wrong!r} changed the game"
        break
