"""Traces: the same inputs give the same bytes, and export -> import -> replay conforms."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flip7_spec.strategies import SCENARIOS, GameRecord, conform_games, played_games, rare_games
from flip7_spec.testing import walk
from flip7_spec.trace.canonical import dumps_document, dumps_line
from flip7_spec.trace.record import trace_choices, trace_reshuffles
from flip7_spec.trace.replay import CONFORM, replay

GAMES = st.one_of(played_games(max_decisions=150), *(rare_games(name, then=10) for name in SCENARIOS))


@pytest.mark.clause("F7-DECK", "F7-RESHUFFLE")
@given(GAMES)
def test_the_same_inputs_give_the_same_trace_bytes(record: GameRecord) -> None:
    first = dumps_line(record.trace())
    again = dumps_line(record.trace())
    assert first == again
    unrecorded, _ = record.new_game(record=False)
    recorded = [step.game.observation() for step in walk(record)]
    observations = [unrecorded.observation()]
    for choice in record.choices:
        unrecorded.apply(choice)
        observations.append(unrecorded.observation())
    assert observations == recorded, "recording events changes how the game plays"


@pytest.mark.clause("F7-DECK", "F7-RESHUFFLE", "F7-FORCED-CHOICE")
@given(GAMES)
def test_export_import_replay_conforms(record: GameRecord) -> None:
    trace = record.trace()
    document = dumps_document(trace)
    imported = json.loads(document)
    assert dumps_document(imported) == document, "export is not canonical"
    assert json.loads(dumps_line(imported)) == imported
    assert trace_choices(imported) == [json.loads(json.dumps(c)) for c in record.choices]
    assert trace_reshuffles(imported) == [list(order) for order in record.orders]
    result = replay(imported)
    assert result.status == CONFORM, result.divergence or result.error
    assert result.level == "observations"
    assert result.complete == record.over
    assert result.steps == len(record.choices)


@pytest.mark.clause("F7-DECK", "F7-GAME-END", "V-DECK")
@settings(max_examples=10)
@given(conform_games())
def test_conform_games_are_canonical_complete_and_replay(trace: dict[str, Any]) -> None:
    """The games conform sends to engines: canonical, complete, and conforming on the reference."""
    document = dumps_document(trace)
    assert dumps_document(json.loads(document)) == document
    result = replay(json.loads(document))
    assert result.status == CONFORM, result.divergence or result.error
    assert result.complete and "footer" in trace
