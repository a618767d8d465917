"""The published solitaire threshold table, reproduced by simulation on the reference engine and by the exact
program of flip7_spec.analysis.

The publication: "stay at 20 -> 19.1 points a round, 23.1% busts, 3.4 cards", one player on a fresh deck,
every Action card and the x2 treated as blanks. The figures are quoted as given in issue 17 ("Simulation
for strategy analysts"), which reports trying to reproduce that published analysis; a search of stored
public pages for its source (queries on Flip 7 solitaire threshold tables, expected points, bust rates)
found neither the publication nor its threshold-22 row, so the threshold-22 figures below are derived
here (exactly) and checked by simulation, not quoted.

Which threshold the publication means: staying on the Number cards alone (``threshold-numbers:20``). The
exact values of the two readings settle it: on the round score (+N cards counted) they are 18.745 points,
21.2% busts and 3.23 cards; on the Numbers, 19.072 points, 23.36% busts and 3.377 cards, which round to
the published 19.1 and 3.4.

Precision, reconciled: the issue asks the exact module to agree "to 3 decimals", but the published figures
have one decimal, so agreement with the publication can only be to its own precision. The exact values
are exact (fractions), shown here to 3 decimals; what binds them to the simulation is that each exact
value lies inside the simulation's 95% interval. The published bust rate, 23.1%, is 0.26 points below the
exact 23.36%: more than its rounding allows, and within the sampling error of a Monte Carlo estimate of
about 10^4 rounds (95% half-width 0.83 points at 10,000 rounds), which the published table presumably
is. The test checks it at that precision and says so.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from flip7_spec import load_ruleset
from flip7_spec.analysis import SolitaireOutcome, solitaire, solitaire_deck, stay_at
from flip7_spec.simulation.simulate_run import SimulationRun, run_experiment

BLANKS_RULESET = Path(__file__).resolve().parents[1] / "examples" / "rulesets" / "solitaire-blanks.toml"
ROUNDS = 12_000  # 95% half-widths about ±0.21 points, ±0.76 bust points and ±0.02 cards: ~1.5 s per threshold

PUBLISHED = {20: {"points": 19.1, "bust": 0.231, "cards": 3.4}}
"""The published row, with the precision of each figure (half a unit of its last digit)."""
PRECISION = {"points": 0.05, "bust": 0.0005, "cards": 0.05}
MONTE_CARLO_BUST = 0.0083  # 95% half-width of a bust rate near 23% estimated from 10,000 rounds

DERIVED = {20: (19.072, 0.234, 3.377), 22: (19.342, 0.288, 3.652)}
"""Exact values to 3 decimals (points, bust rate, cards), as this program derives them: the table's rows."""


@cache
def simulated(threshold: int) -> dict[str, tuple[float, float, float]]:
    """Mean and 95% interval of points, bust rate and cards per round on the reference engine."""
    ruleset = load_ruleset(str(BLANKS_RULESET))
    run = SimulationRun(ruleset=ruleset, players=1, games=ROUNDS, seed=f"table-{threshold}", one_round=True,
                        policies=(f"threshold-numbers:{threshold}",))
    summary = run_experiment(run, progress=False)[1].summary()
    points, bust, cards = summary["points_per_round"], summary["bust_rate"], summary["cards_per_round"]
    return {"points": (points["mean"], *points["ci95"]), "bust": (bust["rate"], *bust["ci95"]),
            "cards": (cards["mean"], *cards["ci95"])}


@cache
def exact_outcome(threshold: int) -> SolitaireOutcome:
    return solitaire(solitaire_deck(load_ruleset(str(BLANKS_RULESET)), blanks={"x1"}), stay_at(threshold, on="numbers"))


def exact(threshold: int) -> dict[str, float]:
    outcome = exact_outcome(threshold)
    return {"points": float(outcome.expected_score), "bust": float(outcome.bust_probability),
            "cards": float(outcome.expected_cards)}


@pytest.mark.parametrize("threshold", [20, 22])
def test_simulation_and_exact_program_agree_within_the_95_interval(threshold: int) -> None:
    sim, values = simulated(threshold), exact(threshold)
    for name in ("points", "bust", "cards"):
        _, low, high = sim[name]
        assert low <= values[name] <= high, f"{name}: exact {values[name]:.4f} outside [{low}, {high}]"
    assert tuple(round(values[name], 3) for name in ("points", "bust", "cards")) == DERIVED[threshold]


def test_the_published_row_is_inside_the_simulation_interval() -> None:
    # A published figure stands for every value that rounds to it: that range must meet the interval.
    sim = simulated(20)
    for name, figure in PUBLISHED[20].items():
        _, low, high = sim[name]
        assert figure - PRECISION[name] <= high and figure + PRECISION[name] >= low, name


def test_the_exact_program_agrees_with_the_publication_to_its_precision() -> None:
    values = exact(20)
    assert abs(values["points"] - PUBLISHED[20]["points"]) <= PRECISION["points"]  # 19.072 -> 19.1
    assert abs(values["cards"] - PUBLISHED[20]["cards"]) <= PRECISION["cards"]  # 3.377 -> 3.4
    # 23.36% is not 23.1% rounded: the published bust rate agrees only to a 10^4-round simulation's error
    assert abs(values["bust"] - PUBLISHED[20]["bust"]) > PRECISION["bust"]
    assert abs(values["bust"] - PUBLISHED[20]["bust"]) <= MONTE_CARLO_BUST


def test_the_blanks_deck_is_the_official_deck_with_blanks_for_the_actions_and_x2() -> None:
    # The x1 cards of the ruleset file stand for the 9 Actions and the x2: the same 94 cards, and the same
    # exact values as the official deck with those cards declared blanks.
    from flip7_spec import preset

    ruleset = load_ruleset(str(BLANKS_RULESET))
    assert len(ruleset.deck_cards(1)) == len(preset("flip7").deck_cards(1)) == 94
    official = solitaire(solitaire_deck(preset("flip7")), stay_at(20, on="numbers"))
    blanks_file = exact_outcome(20)
    assert (official.expected_score, official.bust_probability, official.expected_cards) == (
        blanks_file.expected_score, blanks_file.bust_probability, blanks_file.expected_cards)
