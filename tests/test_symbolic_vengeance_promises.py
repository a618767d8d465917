"""What the Vengeance scoring model promises beyond its proofs of the presets (flip7_spec/games/vengeance/
symbolic/): the steps between hands read both ways, and every theorem of the option variants the presets do not
play (the /2 halving the whole total with the floor kept) proved of the model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flip7_spec.clauses import CLAUSES
from flip7_spec.games.vengeance.symbolic.model import domain_of
from flip7_spec.games.vengeance.symbolic.theorems import (
    VengeanceTheorems,
    VStep,
    predecessors,
    successors,
    vengeance_theorems,
)
from flip7_spec.rulesets import Ruleset, preset, ruleset_from_json
from tests.test_symbolic_vengeance import TINY


@pytest.mark.parametrize("options", [{}, {"halve_order": "whole_total"}, {"special_numbers": False}],
                         ids=["official", "whole-total", "plain"])
def test_a_step_leads_to_a_hand_exactly_when_that_hand_comes_from_it_by_the_step(options: dict[str, str]) -> None:
    """successors and predecessors are the same relation read both ways, over every hand of a domain."""
    domain = domain_of(TINY.with_options(**options))
    hands = list(domain.points())
    for step in VStep:
        forward = {(a, b) for a in hands for b in successors(domain, a, step)}
        backward = {(a, b) for b in hands for a in predecessors(domain, b, step)}
        assert forward == backward, step


HEAVY_MALUS = ruleset_from_json({
    "name": "heavy-malus", "base": "vengeance", "options": {"halve_order": "whole_total", "flip7_bonus": 0},
    "deck": {"1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "-10": 4, "/2": 1},
})
"""A deck whose -N cards can outweigh a Flip 7 (28 points, no bonus, against 40): the floor then decides."""


@pytest.mark.clause("V-HALVE-WHOLE-TOTAL", "V-SCORE-FLOOR")
@pytest.mark.parametrize("ruleset", [preset("vengeance").with_options(halve_order="whole_total"), HEAVY_MALUS],
                         ids=["official-deck", "heavy-malus"])
def test_every_theorem_of_the_whole_total_halving_with_the_floor_is_proved_of_the_model(ruleset: Ruleset) -> None:
    """The /2 halving the whole total with the floor at 0 kept (neither preset plays that pair), on the official
    deck and on one where a Flip 7 can fall to 0: every theorem holds of the model, among them that the floor
    comes last (VT-FLOOR-LAST), each citing real clauses."""
    report = VengeanceTheorems(ruleset).prove(scorer=None)
    assert report.ok, [(r.id, r.status, r.detail) for r in report.results if not r.proved]
    assert "VT-FLOOR-LAST" in {r.id for r in report.results}
    assert all(r.clauses and set(r.clauses) <= set(CLAUSES) for r in report.results)


@pytest.mark.parametrize(("options", "said"), [({}, "counts once"), ({"flip7_two_13s": "count_both"}, "counts twice"),
                                               ({"halve_order": "whole_total"}, "halves the whole total")])
def test_a_domain_describes_the_options_it_models(options: dict[str, str], said: str) -> None:
    """The one line a proof run prints about its domain says how a Lucky 13 pair counts and what a /2 halves,
    as the ruleset's options say."""
    assert said in domain_of(TINY.with_options(**options)).describe()


@pytest.mark.parametrize(("name", "options"), [("vengeance", {}), ("vengeance-basic", {}),
                                               ("vengeance", {"brutal_mode": True})],
                         ids=["vengeance", "vengeance-basic", "brutal"])
def test_theorems_are_named_as_the_proofs_list_them_and_cite_the_clauses_in_force(
        name: str, options: dict[str, bool]) -> None:
    """Every theorem is a ``VT-`` name listed in docs/proofs.md, with a statement, citing real clauses, and
    none of Brutal Mode's clauses unless Brutal Mode is on."""
    listed = set(re.findall(r"`(VT-[A-Z0-9-]+)`", (Path(__file__).resolve().parents[1] / "docs" / "proofs.md")
                            .read_text(encoding="utf-8")))
    ruleset = preset(name).with_options(**options)
    for theorem in vengeance_theorems(domain_of(ruleset), brutal=ruleset.brutal_mode):
        assert theorem.id in listed and theorem.statement.strip(), theorem.id
        assert theorem.clauses and set(theorem.clauses) <= set(CLAUSES), (theorem.id, theorem.clauses)
        brutal = [c for c in theorem.clauses if c.startswith("V-BRUTAL")]
        assert ruleset.brutal_mode or not brutal, (theorem.id, brutal)
