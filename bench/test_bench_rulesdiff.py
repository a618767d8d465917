"""What a rules diff costs: every reading of each game's official rules (each other value of each option with
a list of values, each misreading of the catalogue) diffed against them, one at a time, with the settings
docs/readings.md is written with (a budget of games, not seconds: the work is the same on any machine).

The figure is the time of one reading's diff: the median and the worst over the readings of each game, and
which reading is the worst. A reading whose smallest game is within the bound is found by the exhaustive
search at once; one whose game lies beyond it spends the exhaustive search's share of the budget, then the
aimed and Hypothesis-drawn games and the shrinking; one with no difference spends the whole budget.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.support import Durations, note, report
from flip7_spec.registry import game_definition, game_names
from flip7_spec.rulesdiff.every import diff_reading, readings_of
from flip7_spec.rulesdiff.readings_doc import doc_settings
from flip7_spec.rulesets import preset


def test_diffing_each_reading_against_the_official_rules(benchmark: Any) -> None:
    timings: dict[str, list[tuple[float, float, str, bool, int]]] = {}  # wall, CPU, reading, told apart, games

    def every_game() -> None:
        for name in game_names():
            base = preset(game_definition(name).presets[0][0])
            rows = timings.setdefault(name, [])
            for reading in readings_of(base):
                wall, cpu = time.perf_counter(), time.process_time()
                row = diff_reading(base, reading, doc_settings(), matters=False)
                rows.append((time.perf_counter() - wall, time.process_time() - cpu, reading.text, row.differs,
                             row.result.used))

    benchmark.pedantic(every_game, rounds=1, iterations=1)
    for name, rows in timings.items():
        walls = [r[0] for r in rows]
        cpus = [r[1] for r in rows]
        worst = max(rows, key=lambda r: r[1])
        found = sum(r[3] for r in rows)
        figure = report(benchmark, f"diff every {name} reading", "readings", len(rows),
                        Durations([sum(walls)], [sum(cpus)]), readings=len(rows), found=found,
                        median_cpu=round(statistics.median(cpus), 2), worst_cpu=round(worst[1], 2),
                        worst_reading=worst[2], median_games=int(statistics.median(r[4] for r in rows)))
        note(f"{name}: {len(rows)} readings diffed against {preset(game_definition(name).presets[0][0]).name}, "
             f"{found} told apart: median {statistics.median(cpus):.2f} s CPU ({statistics.median(walls):.2f} s "
             f"wall), worst {worst[1]:.2f} s CPU ({worst[2]}), all {sum(cpus):.1f} s CPU")
        assert figure.count == len(rows) == len(readings_of(preset(game_definition(name).presets[0][0])))
