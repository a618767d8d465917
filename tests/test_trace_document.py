"""The typed view of a trace (flip7_spec/trace/document.py): read once from the JSON the package writes, it
gives back exactly what the trace holds, and replays it to any decision."""

from __future__ import annotations

import pytest

from flip7_spec.conformance.cases import generated_cases
from flip7_spec.rulesets import preset
from flip7_spec.trace.document import ChanceStep, DecisionStep, TraceDocument, TraceShapeError, add_provenance
from flip7_spec.trace.record import trace_choices, trace_reshuffles

FLIP7 = preset("flip7")


def some_traces() -> list[dict]:
    """Generated games of both games, some with reshuffles (long games at 4 players)."""
    out = []
    for ruleset in (FLIP7, preset("vengeance")):
        for case in generated_cases([ruleset], [4], 3, "doc"):
            if case.level == "game" and case.trace is not None:
                out.append(case.trace)
    return out


def test_a_document_holds_what_the_trace_holds() -> None:
    for trace in some_traces():
        document = TraceDocument.of(trace)
        header, steps = trace["header"], trace["steps"]
        assert (document.table.players, document.table.dealer, list(document.table.deck)) == \
            (header["players"], header["dealer"], header["deck"])
        assert document.ruleset_json == header["ruleset"]
        assert len(document.steps) == len(steps)
        for typed, raw in zip(document.steps, steps, strict=True):
            if isinstance(typed, ChanceStep):
                assert list(typed.order) == raw["reshuffle"]
            else:
                assert isinstance(typed, DecisionStep)
                assert typed.decision == raw["decision"] and typed.observation == raw.get("observation")
        assert document.choices == trace_choices(trace)
        assert [list(o) for o in document.reshuffles] == trace_reshuffles(trace)
        assert document.footer == trace.get("footer")
        assert document.observations()[0] == trace["start"]["observation"]


def test_a_document_replays_to_any_decision_with_the_recorded_observations() -> None:
    trace = some_traces()[0]
    document = TraceDocument.of(trace)
    ruleset = FLIP7
    for k in (0, 1, len(document.decisions) // 2, len(document.decisions)):
        assert document.game_at(ruleset, k).observation() == document.observations(k)[k]


def test_a_cut_is_a_partial_trace_up_to_the_step() -> None:
    trace = some_traces()[0]
    document = TraceDocument.of(trace)
    step = document.decisions[2].index
    cut = TraceDocument.of(document.cut(step))
    assert cut.footer is None and cut.decisions[-1].index == step and len(cut.decisions) == 3
    assert TraceDocument.of(document.cut(None)).decisions == ()


def test_values_not_shaped_as_a_trace_are_refused_in_one_line() -> None:
    for value in (None, [], {"header": {}}, {"header": {"players": 3, "deck": []}, "steps": [{"other": 1}]},
                  {"header": {"players": 3, "deck": []}, "steps": [{"decision": {"player": 0}}]}):
        with pytest.raises(TraceShapeError):
            TraceDocument.of(value)
        assert TraceDocument.maybe(value) is None


def test_provenance_is_added_to_the_header() -> None:
    trace = some_traces()[0]
    add_provenance(trace, rerun="flip7-spec conform ...")
    assert TraceDocument.of(trace).provenance["rerun"] == "flip7-spec conform ..."
