"""Strategy-analysis speed: one-round experiments on the reference engine, and the exact program.

- One-round experiments: ``run_experiment`` with ``--rounds N --fresh-deck`` semantics, one player on the
  solitaire-blanks deck under ``threshold-numbers:20`` (the published table's setting), rounds per second.
  Baseline: the same rounds as plain games of one round (``play_games`` on the one-round ruleset, no
  per-round statistics), to show what the statistics cost.
- Exact program: ``solitaire`` for the same setting, hands (program states) per second.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.support import SEED, report, timed
from flip7_spec import load_ruleset
from flip7_spec.analysis import solitaire, solitaire_deck, stay_at
from flip7_spec.simulation.policy_specs import make_policy
from flip7_spec.simulation.simulate import play_games
from flip7_spec.simulation.simulate_run import SimulationRun, one_round_ruleset, run_experiment

ROUNDS = 5_000
BLANKS = str(Path(__file__).resolve().parents[1] / "examples" / "rulesets" / "solitaire-blanks.toml")


def test_one_round_plain_games(benchmark: Any) -> None:
    ruleset = one_round_ruleset(load_ruleset(BLANKS))
    policy = make_policy("threshold-numbers:20")
    durations, _ = timed(benchmark, lambda: sum(1 for _ in play_games(ruleset, 1, policy, SEED, range(ROUNDS))),
                         rounds=3)
    report(benchmark, "one-round games (no statistics)", "rounds", ROUNDS, durations)


def test_one_round_experiments(benchmark: Any) -> None:
    run = SimulationRun(ruleset=load_ruleset(BLANKS), players=1, games=ROUNDS, seed=SEED, one_round=True,
                        policies=("threshold-numbers:20",))
    durations, (_, rounds) = timed(benchmark, lambda: run_experiment(run, progress=False), rounds=3)
    assert rounds.rounds == ROUNDS
    report(benchmark, "simulate --rounds --fresh-deck", "rounds", ROUNDS, durations,
           baseline="one-round games (no statistics)")


def test_exact_solitaire_program(benchmark: Any) -> None:
    deck = solitaire_deck(load_ruleset(BLANKS), blanks={"x1"})
    durations, outcome = timed(benchmark, lambda: solitaire(deck, stay_at(20, on="numbers")), rounds=3)
    report(benchmark, "exact solitaire, threshold-numbers:20", "states", outcome.states, durations)
