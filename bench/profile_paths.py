"""Where the time goes: cProfile over one benchmarked path, as shares of the total.

Run from the repository root::

    python -m bench.profile_paths                       # the headline: 3 players, whole games, stay at 20
    python -m bench.profile_paths --path replay --top 12
    python -m bench.profile_paths --path all            # every path, one after the other

Paths: ``simulate`` (whole 3-player games as ``flip7-spec simulate`` plays them, statistics kept),
``simulate-out`` (4-player games recorded with observations and written as ``.jsonl`` lines),
``replay-file`` (``flip7-spec replay``'s work on a ``.jsonl`` file of 4-player games with observations),
``replay-bare`` (the same games recorded without observations), ``games`` (``play_game``, no history kept,
the headline), ``recorded`` (``record_game``, history kept),
``first-rounds`` (a fresh game per round), ``export`` (``GameRecord.trace`` + ``dumps_line``), ``replay``
(:func:`flip7_spec.trace.replay.replay` of traces with observations), ``conform`` (``run_case`` against the
in-process reference adapter) and ``scoring`` (``round_score`` over random hands). Each table lists the
functions with the most *own* time (``tottime``) and, for a few entry points, the share of the total spent
inside them (``cumtime``). cProfile adds a fixed cost to every call, so shares of small, often-called
functions are overstated; the ranking is what matters.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.support import SEED, trace_corpus_of
from flip7_spec.rulesets import preset
from flip7_spec.simulation.policies import threshold_policy

ROOT = Path(__file__).resolve().parents[1]

# For each path: the entry points whose cumulative share is shown, as (file suffix, function name).
KEY_FUNCTIONS: dict[str, list[tuple[str, str]]] = {
    "games": [("engine.py", "apply"), ("engine.py", "_run"), ("engine.py", "_end_round"),
              ("engine.py", "_start_round"), ("engine.py", "deal_to"), ("engine.py", "round_score"),
              ("scoring.py", "round_score"), ("policies.py", "policy"), ("rulesets.py", "deck_cards"),
              ("random.py", "shuffle"), ("engine.py", "start")],
    "replay": [("replay.py", "replay"), ("schema.py", "schema_errors"), ("replay.py", "_check_outcome"),
               ("engine.py", "observation"), ("compare.py", "first_difference"), ("engine.py", "apply")],
    "conform": [("runner.py", "run_case"), ("adapter.py", "decide"), ("engine.py", "observation"),
                ("compare.py", "first_difference"), ("engine.py", "apply"), ("adapter.py", "start")],
    "export": [("record.py", "trace"), ("canonical.py", "dumps_line")],
}
KEY_FUNCTIONS["simulate"] = KEY_FUNCTIONS["games"] + [("simulate.py", "_play_out"),
                                                     ("round_stats.py", "add_round")]
KEY_FUNCTIONS["simulate-out"] = [("simulate.py", "_play_out"), ("engine.py", "observation"),
                                 ("record.py", "trace"), ("canonical.py", "dumps_line"), ("engine.py", "apply")]
KEY_FUNCTIONS["replay-file"] = KEY_FUNCTIONS["replay"] + [("jsontext.py", "parse_json"),
                                                          ("reader.py", "read_traces")]
KEY_FUNCTIONS["replay-bare"] = KEY_FUNCTIONS["replay-file"]
KEY_FUNCTIONS["recorded"] = KEY_FUNCTIONS["games"] + [("events.py", "__init__")]
KEY_FUNCTIONS["first-rounds"] = KEY_FUNCTIONS["games"]


def workload(path: str, size: int) -> Callable[[], Any]:
    """The function profiled for ``path``, doing ``size`` units of work (games, traces or hands)."""
    ruleset = preset("flip7")
    policy = threshold_policy(20)
    if path in ("simulate", "simulate-out"):
        from flip7_spec.simulation.simulate_run import SimulationRun, _play_chunk

        out = Path("unused.jsonl") if path == "simulate-out" else None  # _play_chunk returns the lines
        run = SimulationRun(ruleset, 3 if path == "simulate" else 4, size, SEED, out=out)
        return lambda: _play_chunk(run, 0, size)
    if path in ("replay-file", "replay-bare"):
        import tempfile

        from flip7_spec.simulation.simulate_run import SimulationRun, run_simulation
        from flip7_spec.trace.reader import read_traces
        from flip7_spec.trace.replay import replay

        file = Path(tempfile.mkdtemp()) / "games.jsonl"
        run_simulation(SimulationRun(ruleset, 4, size, SEED, out=file, observations=path == "replay-file"),
                       progress=False)
        return lambda: [replay(s.trace) for s in read_traces(file)]
    if path in ("games", "recorded"):
        from bench.test_bench_games import play_batch

        return lambda: play_batch(ruleset, 3, policy, size, path == "recorded")
    if path == "first-rounds":
        from bench.test_bench_games import play_first_rounds

        return lambda: play_first_rounds(ruleset, 3, policy, size)
    if path == "scoring":
        from bench.test_bench_scoring import random_hands
        from flip7_spec.play import round_score

        hands = random_hands(ruleset, size)
        return lambda: [round_score(ruleset, h, b) for h, b in hands]
    if path == "export":
        from flip7_spec.trace.canonical import dumps_line
        played = trace_corpus_of(ruleset, policy, size).played
        return lambda: [dumps_line(p.trace()) for p in played]
    if path == "replay":
        from flip7_spec.trace.replay import replay

        traces = trace_corpus_of(ruleset, policy, size).traces
        return lambda: [replay(t) for t in traces]
    if path == "conform":
        from flip7_spec.conformance.cases import generated_cases
        from flip7_spec.judge.runner import run_case
        from flip7_spec.protocol.adapter import ReferenceAdapter, reference_hello

        cases = list(generated_cases([ruleset], (3, 4, 5, 6), size, SEED))
        engine = ReferenceAdapter()
        hello = reference_hello()
        return lambda: [run_case(engine, c, hello) for c in cases]
    raise SystemExit(f"unknown path {path!r}")


DEFAULT_SIZES = {"simulate": 2000, "simulate-out": 100, "replay-file": 100, "replay-bare": 100,
                 "games": 2000, "recorded": 1000, "first-rounds": 5000, "scoring": 50_000, "export": 100,
                 "replay": 20, "conform": 20}


def _short(key: tuple[str, int, str]) -> str:
    filename, line, name = key
    if filename == "~":
        return name
    file = Path(filename)
    try:
        shown = str(file.relative_to(ROOT))
    except ValueError:
        shown = file.name
    return f"{shown}:{line}({name})"


def profile(path: str, size: int, top: int) -> list[str]:
    """Profile ``path`` and return the report lines."""
    target = workload(path, size)
    target()  # warm caches (schema validators, interned cards) outside the profile
    profiler = cProfile.Profile()
    profiler.enable()
    target()
    profiler.disable()
    stats: Any = pstats.Stats(profiler)
    # The outermost call (the profiled lambda) holds everything: its cumulative time is the total.
    total = max(cumtime for _, _, _, cumtime, _ in stats.stats.values())
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])
    lines = [f"== {path}: {size} units, {total:.3f} s under cProfile", "own time (tottime), share of total:"]
    for key, (_, calls, tottime, cumtime, _) in rows[:top]:
        share, inside = 100 * tottime / total, 100 * cumtime / total
        lines.append(f"  {share:5.1f}%  {inside:5.1f}% cum  {calls:>9}  {_short(key)}")
    wanted = KEY_FUNCTIONS.get(path, [])
    if wanted:
        lines.append("time inside (cumtime), share of total:")
        for suffix, name in wanted:
            for key, (_, calls, _, cumtime, _) in stats.stats.items():
                if key[0].endswith(suffix) and key[2] == name:
                    lines.append(f"  {100 * cumtime / total:5.1f}%  {calls:>9}  {_short(key)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--path", default="games", choices=[*DEFAULT_SIZES, "all"])
    parser.add_argument("--size", type=int, help="units of work (default: per path)")
    parser.add_argument("--top", type=int, default=15, help="functions listed by own time")
    args = parser.parse_args()
    for path in DEFAULT_SIZES if args.path == "all" else [args.path]:
        for line in profile(path, args.size or DEFAULT_SIZES[path], args.top):
            print(line)
        print()


if __name__ == "__main__":
    main()
