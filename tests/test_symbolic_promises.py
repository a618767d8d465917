"""What the Flip 7 scoring model promises about its hands and steps (flip7_spec/games/flip7/symbolic/): the steps
between hands read both ways, a step the deck can make is one some hand makes, the weight orders every hand of
a domain apart, theorems are named as docs/proofs.md names them and cite real clauses, and a domain too large
to compare says so with its size."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from flip7_spec.cards import Kind
from flip7_spec.clauses import CLAUSES
from flip7_spec.games.flip7.symbolic.model import Point, compare_with_scorer, domain_of
from flip7_spec.games.flip7.symbolic.theorems import (
    Flip7Theorems,
    Step,
    flip7_theorems,
    predecessors,
    step_applies,
    successors,
)
from flip7_spec.play import round_score
from flip7_spec.rulesets import preset, ruleset_from_json
from flip7_spec.symbolic.theorems import UNKNOWN

TINY = ruleset_from_json({
    "name": "tiny", "base": "flip7", "options": {"flip7_bonus": 15},
    "deck": {"1": 1, "2": 2, "3": 1, "+2": 1, "+4": 1, "x2": 1, "FREEZE": 1, "FLIP3": 1},
})
"""A deck whose domain is small enough to walk whole: Numbers (one with two copies, so a bust), both kinds of
modifier and a Freeze, so that every step applies."""

NO_TIMES = ruleset_from_json({
    "name": "no-times", "base": "flip7", "options": {"flip7_bonus": 15},
    "deck": {"1": 1, "2": 2, "+2": 1, "FLIP3": 1},
})
"""A deck without an xN card or a Freeze: the TIMES and UNFREEZE steps cannot be made."""


@pytest.mark.parametrize("ruleset", [TINY, NO_TIMES], ids=["tiny", "no-times"])
def test_a_step_leads_to_a_hand_exactly_when_that_hand_comes_from_it_by_the_step(ruleset: object) -> None:
    """successors and predecessors are the same relation read both ways, over every hand of the domain."""
    domain = domain_of(ruleset)  # type: ignore[arg-type]
    hands = list(domain.points())
    for step in Step:
        forward = {(a, b) for a in hands for b in successors(domain, a, step)}
        backward = {(a, b) for b in hands for a in predecessors(domain, b, step)}
        assert forward == backward, step


@pytest.mark.parametrize("ruleset", [TINY, NO_TIMES], ids=["tiny", "no-times"])
def test_a_step_applies_exactly_when_some_hand_of_the_domain_can_take_it(ruleset: object) -> None:
    domain = domain_of(ruleset)  # type: ignore[arg-type]
    hands = list(domain.points())
    for step in Step:
        made = any(next(successors(domain, a, step), None) is not None for a in hands)
        assert step_applies(domain, step) == made, step


def test_each_step_changes_only_what_it_names() -> None:
    """A Number step adds one Number value, a PLUS or TIMES step one modifier of its kind, UNFREEZE only drops
    the Freeze: the rest of the hand is the same."""
    domain = domain_of(TINY)
    kinds = {i: m.kind for i, m in enumerate(domain.modifiers)}
    for a in domain.points():
        for step in Step:
            for b in successors(domain, a, step):
                assert b.busted == a.busted
                if step is Step.NUMBER:
                    assert len(b.numbers - a.numbers) == 1 and a.numbers < b.numbers and b.mods == a.mods
                    assert b.frozen == a.frozen
                elif step is Step.UNFREEZE:
                    assert (a.frozen, b.frozen) == (True, False) and (a.numbers, a.mods) == (b.numbers, b.mods)
                else:
                    grown = [i for i, (x, y) in enumerate(zip(a.mods, b.mods, strict=True)) if y != x]
                    assert len(grown) == 1 and b.mods[grown[0]] == a.mods[grown[0]] + 1
                    assert kinds[grown[0]] is (Kind.ADD if step is Step.PLUS else Kind.MULTIPLY), (step, kinds)
                    assert (a.numbers, a.frozen) == (b.numbers, b.frozen)


def test_the_weight_orders_every_hand_of_a_domain_apart() -> None:
    """The weight is a total order on hands: no two hands of the domain share one."""
    domain = domain_of(TINY)
    by_weight: dict[int, list[Point]] = defaultdict(list)
    for hand in domain.points():
        by_weight[domain.weight(hand)].append(hand)
    assert all(len(hands) == 1 for hands in by_weight.values()), \
        [hands for hands in by_weight.values() if len(hands) > 1][:3]


@pytest.mark.parametrize("name", ["flip7", "flip7-no-deal", "flip7-challenge"])
def test_theorems_are_named_as_the_proofs_list_them_and_cite_real_clauses(name: str) -> None:
    """Every theorem's id is a ``T-`` name in capitals, each listed in docs/proofs.md, with a statement, and
    every clause it cites is one of the rules' clauses."""
    from pathlib import Path

    listed = set(re.findall(r"`(T-[A-Z0-9-]+)`", (Path(__file__).resolve().parents[1] / "docs" / "proofs.md")
                            .read_text(encoding="utf-8")))
    for theorem in flip7_theorems(domain_of(preset(name))):
        assert re.fullmatch(r"T-[A-Z0-9]+(-[A-Z0-9]+)*", theorem.id), theorem.id
        assert theorem.id in listed, theorem.id
        assert isinstance(theorem.statement, str) and theorem.statement.strip(), theorem.id  # what a report prints
        assert theorem.clauses and all(c in CLAUSES for c in theorem.clauses), (theorem.id, theorem.clauses)


def test_a_domain_larger_than_the_limit_is_not_compared_and_says_how_large_it_is() -> None:
    domain = domain_of(TINY)
    size = domain.size()
    agreement = compare_with_scorer(domain, TINY, round_score, size - 1)
    assert (agreement.complete, agreement.hands, agreement.differences) == (False, size, {})
    assert not agreement.agrees
    agreement, result = Flip7Theorems(TINY).compare(round_score, "round_score", size - 1)
    assert not agreement.complete and result.status == UNKNOWN
    assert result.method == "enumeration"  # the comparison is by enumerating hands, not a z3 proof
    assert result.clauses == ("F7-SCORE",) and f"{size} hands, more than {size - 1}" in result.detail
    agreement, result = Flip7Theorems(TINY).compare(round_score, "round_score", size)
    assert agreement.complete and agreement.agrees and result.clauses == ("F7-SCORE",)
    assert result.method == "enumeration"
