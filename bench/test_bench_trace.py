"""Trace export and import: traces per second (and megabytes per second) over the shared corpus.

The corpus holds whole 3-player games with events and observations (the richest detail, what
``flip7-spec simulate --out`` writes by default). Baselines: ``json.dumps`` with default settings for
export (what canonical form costs), ``json.loads`` alone for import.
"""

from __future__ import annotations

import json
from typing import Any

from bench.support import TraceCorpus, report, timed
from flip7_spec.trace.canonical import dumps_document, dumps_line
from flip7_spec.trace.replay import detail_level

ROUNDS = 7


def _megabytes(corpus: TraceCorpus) -> float:
    return round(corpus.size / 1e6, 3)


def test_record_traces(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """``GameRecord.trace``: a recorded game to a trace object (before any JSON)."""
    played = trace_corpus.played
    durations, traces = timed(benchmark, lambda: [p.trace() for p in played], ROUNDS)
    assert traces == trace_corpus.traces
    report(benchmark, "GameRecord.trace", "traces", len(played), durations)


def test_export_plain_json(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """Baseline: ``json.dumps(trace)`` with default settings (unsorted keys, ASCII, spaces)."""
    traces = trace_corpus.traces
    durations, out = timed(benchmark, lambda: [json.dumps(t) for t in traces], ROUNDS)
    assert len(out) == len(traces)
    report(benchmark, "json.dumps (plain)", "traces", len(traces), durations,
           megabytes=_megabytes(trace_corpus))


def test_export_line(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """``dumps_line``: one canonical ``.jsonl`` line per trace."""
    traces = trace_corpus.traces
    durations, out = timed(benchmark, lambda: [dumps_line(t) for t in traces], ROUNDS)
    assert out == trace_corpus.lines
    figure = report(benchmark, "dumps_line", "traces", len(traces), durations, baseline="json.dumps (plain)",
                    megabytes=_megabytes(trace_corpus))
    benchmark.extra_info["megabytes_per_second"] = round(trace_corpus.size / 1e6 / figure.seconds, 1)


def test_export_document(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """``dumps_document``: one canonical ``.json`` document per trace (a step per line)."""
    traces = trace_corpus.traces
    durations, out = timed(benchmark, lambda: [dumps_document(t) for t in traces], ROUNDS)
    assert [json.loads(d) for d in out[:3]] == [json.loads(line) for line in trace_corpus.lines[:3]]
    report(benchmark, "dumps_document", "traces", len(traces), durations, baseline="json.dumps (plain)")


def test_import_plain_json(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """Baseline: ``json.loads`` of each line (each parsed trace dropped at once, as in the next test)."""
    lines = trace_corpus.lines
    durations, out = timed(benchmark, lambda: [len(json.loads(line)) for line in lines], ROUNDS)
    assert len(out) == len(lines)
    report(benchmark, "json.loads", "traces", len(lines), durations)


def test_import(benchmark: Any, trace_corpus: TraceCorpus) -> None:
    """``json.loads`` and ``detail_level``: reading a corpus line and finding what it records."""
    lines = trace_corpus.lines
    durations, levels = timed(benchmark, lambda: [detail_level(json.loads(line)) for line in lines], ROUNDS)
    assert set(levels) == {"observations"}
    figure = report(benchmark, "json.loads + detail_level", "traces", len(lines), durations,
                    baseline="json.loads", megabytes=_megabytes(trace_corpus))
    benchmark.extra_info["megabytes_per_second"] = round(trace_corpus.size / 1e6 / figure.seconds, 1)
