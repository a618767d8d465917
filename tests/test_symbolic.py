"""Tests of the z3 scoring model, the theorems proved about it and the distinguishing cases."""

from __future__ import annotations

import functools
import itertools
import json
import math
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Card, Kind, card, cards
from flip7_spec.clauses import CLAUSES
from flip7_spec.errors import CardError, RulesetError
from flip7_spec.games.flip7.symbolic.misreadings import FLIP7_MISREADINGS, Flip7Misreading
from flip7_spec.games.flip7.symbolic.model import (
    Agreement,
    Point,
    SymbolicHand,
    compile_exprs,
    domain_of,
    score_function,
)
from flip7_spec.games.flip7.symbolic.theorems import (
    Flip7Theorems,
    check_against_scorer,
    prove_on_model,
)
from flip7_spec.play import check_hand, round_score, score
from flip7_spec.rulesets import Ruleset, load_ruleset, preset, ruleset_from_json
from flip7_spec.symbolic.prover import distinguishing_cases, prove, search_cases, theorem_set
from flip7_spec.symbolic.terms import Scorer, SymbolicError
from flip7_spec.symbolic.theorems import COUNTEREXAMPLE, PROVED, NoTheorems, ProofReport

ROOT = Path(__file__).resolve().parent.parent
SEED_003 = ROOT / "fixtures" / "rulesets" / "seed-003-modifiers.toml"

# A deck built to exercise the model's generality and to keep exhaustive checks small: eight Number values
# (some with one copy, so they cannot be the duplicate of a bust), +N cards with two copies, two x2, an x3.
SMALL = ruleset_from_json({
    "name": "small-x3", "base": "flip7", "options": {"flip7_bonus": 20},
    "deck": {"0": 1, "1": 1, "2": 2, "3": 3, "4": 2, "5": 2, "6": 1, "7": 2,
             "+2": 2, "+5": 1, "x2": 2, "x3": 1, "FREEZE": 2, "FLIP3": 1, "CHANCE": 1},
})
# A deck without x2 or Freeze and without a Flip 7 bonus: several misreadings cannot show in it.
PLAIN = ruleset_from_json({
    "name": "plain", "base": "flip7", "options": {"flip7_bonus": 0},
    "deck": {"0": 1, "1": 1, "2": 2, "3": 2, "4": 3, "5": 1, "6": 2, "+4": 1, "FLIP3": 2},
})
CORE_THEOREMS = {"T-BUST-ZERO", "T-BANK-NEVER-DECREASES", "T-FLIP7-SEVENTH", "T-X2-NUMBERS-ONLY",
                 "T-ADD-NOT-MULTIPLIED", "T-BONUS-NOT-MULTIPLIED", "T-ADD-NEVER-LOWERS", "T-MAX", "T-MIN"}


def deep(*values: Any) -> list[Any]:
    """Parameters that only the deep run takes (``-m slow``): the default run keeps a representative few."""
    return [pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.slow) for v in values]


def seed_003() -> Ruleset:
    """The seed 003 reading of the modifiers (+5 +10 +15 x2): the fixture file, or the same deck built here."""
    if SEED_003.exists():
        return load_ruleset(str(SEED_003))
    deck = {text: count for text, count in preset("flip7").deck if card(text).kind is not Kind.ADD}
    deck.update({"+5": 1, "+10": 1, "+15": 1})
    return ruleset_from_json({"name": "seed-003", "base": "flip7", "deck": deck})


def ruleset_named(name: str) -> Ruleset:
    """A ruleset of these tests by name."""
    if name == "seed-003":
        return seed_003()
    if name == "flip7-bonus-25":
        return preset("flip7").with_options(flip7_bonus=25)
    return {"small": SMALL, "plain": PLAIN}.get(name) or preset(name)


@functools.cache
def report_for(name: str) -> ProofReport:
    """The proof report of a ruleset with the reference scorer, computed once per test run."""
    return prove(ruleset_named(name))


def by_id(report: ProofReport) -> dict[str, int | None]:
    """The value (bound) of each result, by id."""
    return {r.id: r.value for r in report.results}


def misreading(misreading_id: str) -> Flip7Misreading:
    """The misreading with this id."""
    return next(m for m in FLIP7_MISREADINGS if m.id == misreading_id)


@functools.cache
def brute_scores(name: str) -> list[int]:
    """round_score of every hand of the domain of the ruleset called ``name``."""
    ruleset = ruleset_named(name)
    domain = domain_of(ruleset)
    return [round_score(ruleset, hand, busted) for _, _, _, busted, hand, _ in domain.walk()]


# ---------------------------------------------------------------------------------------------------------
# Broken scorers
# ---------------------------------------------------------------------------------------------------------


def doubles_adds(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> int:
    """A scorer that lets the xN cards multiply the +N cards too."""
    steps = score(ruleset, hand, busted)
    if busted:
        return 0
    factor = math.prod(c.value for c in hand if c.kind is Kind.MULTIPLY)
    adds = steps.after_modifiers - steps.after_multiplier
    return (steps.number_sum + adds) * factor + steps.bonus


def forgets_bonus(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> int:
    """A scorer that never adds the Flip 7 bonus."""
    steps = score(ruleset, hand, busted)
    return steps.total - steps.bonus


# ---------------------------------------------------------------------------------------------------------
# Theorems
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.clause("F7-SCORE", "F7-SCORE-BUST", "F7-BUST", "F7-MOD-X2", "F7-MOD-ADD", "F7-MOD-ONLY",
                    "F7-FLIP7", "F7-FLIP7-BONUS", "F7-FLIP7-ZERO", "F7-BANK", "F7-FREEZE", "F7-CUSTOM-DECK",
                    "F7-NO-DEAL-VARIANT")
@pytest.mark.parametrize("name", ["flip7", *deep("flip7-no-deal"), "seed-003", "small"])
def test_every_theorem_proves(name: str) -> None:
    report = report_for(name)
    failed = [(r.id, r.status, r.detail, [str(h) for h in r.hands]) for r in report.results if not r.proved]
    assert failed == []
    assert report.ok
    ids = {r.id for r in report.results}
    assert ids >= CORE_THEOREMS
    assert "C-MODEL-MATCHES-SCORER" in ids
    for result in report.results:
        assert result.clauses and set(result.clauses) <= set(CLAUSES), result.id


@pytest.mark.clause("F7-SCORE", "F7-FLIP7-BONUS", "F7-MOD-X2", "F7-MOD-ADD", "F7-CUSTOM-DECK", "F7-SCORE-BUST")
@pytest.mark.parametrize("name", ["flip7", "seed-003", "small", *deep("flip7-bonus-25")])
def test_bounds_are_exact_and_follow_the_ruleset(name: str) -> None:
    ruleset = ruleset_named(name)
    report = report_for(name)
    results = {r.id: r for r in report.results}
    scores = brute_scores(name)
    assert results["T-MAX"].value == max(scores)
    assert results["T-MIN"].value == min(scores)
    for bound in ("T-MAX", "T-MIN"):
        (witness,) = results[bound].hands
        assert round_score(ruleset, cards(witness.cards), witness.busted) == results[bound].value
        assert " ".join(witness.cards) in results[bound].statement or not witness.cards
    assert f"{ruleset.flip7_bonus}-point" in results["T-FLIP7-SEVENTH"].statement
    reference = report_for("flip7")
    same_scoring = ruleset.deck == preset("flip7").deck and ruleset.flip7_bonus == preset("flip7").flip7_bonus
    if not same_scoring:
        # a ruleset that scores differently proves different bounds, witnesses or statements
        before = {(r.id, r.statement) for r in reference.results if r.id.startswith("T-")}
        after = {(r.id, r.statement) for r in report.results if r.id.startswith("T-")}
        assert before != after
    if max(scores) != max(brute_scores("flip7")):
        assert by_id(report)["T-MAX"] != by_id(reference)["T-MAX"]


@pytest.mark.clause("F7-TWO-DECKS", "F7-TWO-DECKS-EFFECTS", "F7-MOD-X2", "F7-SCORE")
def test_two_decks_theorems_prove_of_the_model() -> None:
    ruleset = preset("flip7")
    two = Flip7Theorems(ruleset, players=ruleset.players_per_deck + 1).prove(scorer=None)
    assert [r.id for r in two.results if not r.proved] == []
    one = report_for("flip7")
    results = {r.id: r for r in two.results}
    (witness,) = results["T-MAX"].hands
    hand = cards(witness.cards)
    check_hand(ruleset, hand, ruleset.players_per_deck + 1)
    assert round_score(ruleset, hand) == results["T-MAX"].value
    one_deck = by_id(one)["T-MAX"]
    assert results["T-MAX"].value is not None and one_deck is not None
    assert results["T-MAX"].value > one_deck  # every modifier is in play twice


@pytest.mark.clause("F7-MOD-X2", "F7-FLIP7-BONUS", "F7-SCORE")
@pytest.mark.parametrize("scorer", [doubles_adds, *deep(forgets_bonus)], ids=lambda f: f.__name__)
def test_a_broken_scorer_fails_a_theorem_with_a_counterexample(scorer: Scorer) -> None:
    ruleset = preset("flip7")
    report = Flip7Theorems(ruleset).prove(scorer, budget=5_000)
    assert not report.ok
    results = {r.id: r for r in report.results}
    assert results["C-MODEL-MATCHES-SCORER"].status == COUNTEREXAMPLE
    failing = [r for r in report.results if r.id.startswith("T-") and r.status == COUNTEREXAMPLE]
    assert failing
    for result in failing:
        assert result.hands
        # each hand is reported with the score the broken scorer gives it, and since the reference scorer
        # satisfies the theorem, at least one of them is scored differently by the reference
        for hand in result.hands:
            assert scorer(ruleset, cards(hand.cards), hand.busted) == hand.score
        assert any(round_score(ruleset, cards(h.cards), h.busted) != h.score for h in result.hands), result.id


@pytest.mark.clause("F7-MOD-X2", "F7-MOD-ADD", "F7-MOD-ONLY", "F7-FLIP7-ZERO", "F7-FREEZE", "F7-SCORE-BUST",
                    "F7-MOD-NO-BUST", "F7-TWO-DECKS-EFFECTS")
@pytest.mark.parametrize("wrong", [*FLIP7_MISREADINGS[:2], *deep(*FLIP7_MISREADINGS[2:])], ids=lambda m: m.id)
def test_every_misreading_breaks_a_theorem(wrong: Flip7Misreading) -> None:
    report = Flip7Theorems(SMALL).prove(wrong.score, budget=5_000)
    broken = [r.id for r in report.results if r.id.startswith("T-") and r.status == COUNTEREXAMPLE]
    assert broken, [(r.id, r.status) for r in report.results]


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-MOD-ADD", "F7-FLIP7", "F7-FREEZE")
@pytest.mark.slow
def test_rechecks_on_a_scorer_agree_with_the_proofs() -> None:
    # Every hand marked as differing, with the model's own score: the concrete re-check must then visit every
    # hand and step, and find no violation of a theorem z3 proved of the model.
    domain = domain_of(SMALL)
    model = score_function(domain)
    everything = {p: model(p) for p in domain.points()}
    agreement = Agreement(domain, len(everything), True, everything, 0.0)
    for theorem in Flip7Theorems(SMALL).theorems():
        proof = prove_on_model(theorem, domain, 20_000)
        assert proof.status == PROVED, theorem.id
        status, hands, detail = check_against_scorer(theorem, proof, agreement, 10**7)
        assert (theorem.id, status, hands) == (theorem.id, PROVED, []), detail


@pytest.mark.clause("F7-SCORE")
def test_no_theorems_for_other_games(toy_game: str) -> None:
    other = preset(toy_game)
    with pytest.raises(NoTheorems, match=f"no theorems exist for the game {other.game}"):
        theorem_set(other)
    with pytest.raises(SymbolicError):
        distinguishing_cases(other)


# ---------------------------------------------------------------------------------------------------------
# The model against the implementation
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.clause("F7-SCORE", "F7-SCORE-BUST", "F7-MOD-X2", "F7-MOD-ADD", "F7-MOD-ONLY", "F7-FLIP7",
                    "F7-FLIP7-BONUS", "F7-FLIP7-ZERO", "F7-FREEZE-KEEPS-CARDS")
def test_model_agrees_with_round_score_on_the_whole_flip7_domain() -> None:
    started = time.perf_counter()
    ruleset = preset("flip7")
    domain = domain_of(ruleset)
    hand = SymbolicHand(domain, z3.Context())
    model = compile_exprs(hand.inputs(), [hand.score])
    numbers = [(v, card(str(v))) for v in range(13)]
    modifiers = [c for c in cards("+2 +4 +6 +8 +10 x2")]
    rows = [(tuple(c in chosen for c in modifiers), list(chosen))
            for k in range(len(modifiers) + 1) for chosen in itertools.combinations(modifiers, k)]
    freeze = card("FREEZE")
    compared = 0
    mismatches = []
    for k in range(8):
        for subset in itertools.combinations(numbers, k):
            held = frozenset(v for v, _ in subset)
            number_cards = [c for _, c in subset]
            for counts, mod_cards in rows:
                mods = tuple(int(x) for x in counts)
                for frozen, busted in ((False, False), (False, True), (True, False)):
                    if frozen and k == 7:
                        continue
                    hand_cards = number_cards + mod_cards + ([freeze] if frozen else [])
                    expected = round_score(ruleset, hand_cards, busted)
                    got = model(*hand.values(Point(held, mods, frozen, busted)))[0]
                    steps = score(ruleset, hand_cards, busted).total  # the breakdown must add up the same
                    compared += 1
                    if not got == expected == steps:
                        mismatches.append((hand_cards, busted, expected, got, steps))
    seconds = time.perf_counter() - started
    assert mismatches == []
    # every subset of at most 7 of the 13 values, times the 64 modifier subsets, busted or not or frozen
    assert compared == sum(math.comb(13, k) for k in range(8)) * 64 * 3 - math.comb(13, 7) * 64
    assert seconds < 60


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-FLIP7-BONUS", "F7-SCORE-BUST")
def test_hand_constraints_give_round_score_through_z3() -> None:
    # The official worked examples (RULES.md A.1#17) and a sample of the domain, solved by z3 itself from
    # the constraints of a concrete hand; the compiled evaluation used elsewhere must give the same score.
    ruleset = preset("flip7")
    domain = domain_of(ruleset)
    ctx = z3.Context()
    hand = SymbolicHand(domain, ctx)
    compiled = compile_exprs(hand.inputs(), [hand.score])
    examples = [(cards("3 11 5 7 10"), False), (cards("3 11 5 7 10 x2"), False), (cards("3 11 5 7 10 +10"), False),
                (cards("3 11 5 7 10 9 4"), False), (cards("4 9 +6 9"), True), (cards("x2"), False),
                (cards("+8 FREEZE"), False)]
    sample = [(domain.cards(p), p.busted) for i, p in enumerate(domain.points()) if i % 4999 == 0]
    assert len(sample) > 100
    for hand_cards, busted in examples + sample:
        solver = z3.Solver(ctx=ctx)
        solver.add(*hand.constraints(), *hand.constraints_for(hand_cards, busted))
        assert solver.check() == z3.sat
        solved = solver.model().eval(hand.score, model_completion=True).as_long()
        point = domain.point(hand_cards, busted)
        assert solved == compiled(*hand.values(point))[0] == round_score(ruleset, hand_cards, busted)


@pytest.mark.clause("F7-BUST", "F7-CHANCE-ROUND-END", "F7-TWO-DECKS", "F7-CUSTOM-DECK")
def test_hands_outside_the_model_are_rejected() -> None:
    domain = domain_of(preset("flip7"))
    for texts, busted in [("3 CHANCE", False), ("3 3", False), ("x2 x2", False), ("FREEZE FREEZE", False),
                          ("0 1 2 3 4 5 6 FREEZE", False), ("1 1", True), ("3 3 3", True), ("FLIP3", False)]:
        with pytest.raises(CardError):
            domain.point(cards(texts), busted)
    assert domain_of(preset("flip7"), 19).point(cards("x2 x2")).mods[-1] == 2
    with pytest.raises(SymbolicError):  # a deck holding a card the model has no meaning for
        domain_of(replace(preset("flip7"), deck=(("1", 1), ("-2", 1))))
    with pytest.raises(RulesetError, match="has no effect in a flip7 game"):  # and no ruleset file can build one
        ruleset_from_json({"name": "minus", "base": "flip7", "deck": {"1": 1, "-2": 1}})
    with pytest.raises(SymbolicError):
        domain_of(replace(preset("flip7"), game="vengeance"))


@pytest.mark.clause("F7-BUST", "F7-FLIP7", "F7-FREEZE", "F7-CUSTOM-DECK")
def test_domain_enumeration_matches_its_constraints() -> None:
    domain = domain_of(SMALL)
    hand = SymbolicHand(domain, z3.Context())
    inside = compile_exprs(hand.inputs(), hand.constraints())
    superset = itertools.product(
        (frozenset(s) for k in range(len(domain.numbers) + 1) for s in itertools.combinations(domain.numbers, k)),
        itertools.product(*(range(m.copies + 2) for m in domain.modifiers)),
        (False, True), (False, True))
    valid = set()
    for numbers, mods, frozen, busted in superset:
        point = Point(numbers, mods, frozen, busted)
        expected = all(inside(*hand.values(point)))
        assert domain.valid(point) == expected, point
        if expected:
            valid.add(point)
    listed = list(domain.points())
    assert len(listed) == len(set(listed)) == domain.size()
    assert set(listed) == valid
    assert sum(1 for _ in domain.walk()) == domain.size()
    assert set(domain.points(4)) == {p for p in valid if p.size <= 4}
    for point in listed[::97]:
        assert domain.point(domain.cards(point), point.busted) == point


@pytest.mark.clause("F7-MOD-X2", "F7-FLIP7-ZERO", "F7-FREEZE", "F7-SCORE-BUST", "F7-MOD-ONLY")
def test_misreading_terms_match_their_python_rules() -> None:
    domain = domain_of(SMALL)
    hand = SymbolicHand(domain, z3.Context())
    terms = compile_exprs(hand.inputs(), [m.symbolic(hand) for m in FLIP7_MISREADINGS])
    for point in domain.points():
        hand_cards = domain.cards(point)
        python = tuple(m.score(SMALL, hand_cards, point.busted) for m in FLIP7_MISREADINGS)
        assert terms(*hand.values(point)) == python, hand_cards


# ---------------------------------------------------------------------------------------------------------
# Distinguishing cases
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.clause("F7-MOD-X2", "F7-MOD-ADD", "F7-MOD-ONLY", "F7-FLIP7-ZERO", "F7-MOD-NO-BUST", "F7-FREEZE",
                    "F7-SCORE-BUST", "F7-TWO-DECKS-EFFECTS", "F7-CUSTOM-DECK")
@pytest.mark.parametrize(("name", "players"), [*deep(("flip7", None), ("seed-003", None)), ("small", None),
                                               *deep(("flip7", 19))])
def test_cases_distinguish_and_are_smallest(name: str, players: int | None) -> None:
    ruleset = ruleset_named(name)
    domain = domain_of(ruleset, players)
    cases = distinguishing_cases(ruleset, players)
    assert cases
    for case in cases:
        wrong = misreading(case.id)
        hand = cards(case.cards)
        assert [c.text for c in hand] == case.cards  # canonical texts
        expected = round_score(ruleset, hand, case.busted)
        got = wrong.score(ruleset, hand, case.busted)
        assert (case.expected, case.misreading_score) == (expected, got)
        assert expected != got
        assert case.clause == wrong.clause in CLAUSES
        if not case.busted:
            check_hand(ruleset, hand, case.players)
    # smallest: no hand with fewer cards tells the misreading from the specification
    if players is None:
        longest = max(len(c.cards) for c in cases)
        larger = [[misreading(c.id) for c in cases if len(c.cards) > n] for n in range(longest)]
        for _, _, _, busted, smaller, _ in domain.walk():
            if len(smaller) < longest:
                expected = round_score(ruleset, smaller, busted)
                for wrong in larger[len(smaller)]:
                    assert wrong.score(ruleset, smaller, busted) == expected, (wrong.id, smaller)
    else:  # with two decks the domain is large: check the cases of at most three cards
        for case in (c for c in cases if len(c.cards) <= 3):
            wrong = misreading(case.id)
            for point in domain.points(len(case.cards) - 1):
                smaller = domain.cards(point)
                assert wrong.score(ruleset, smaller, point.busted) == round_score(ruleset, smaller, point.busted)
    if players is not None:
        assert "MR-X2-NO-STACK" in {c.id for c in cases}


@pytest.mark.clause("F7-MOD-X2", "F7-FLIP7-BONUS", "F7-FREEZE", "F7-CUSTOM-DECK")
def test_misreadings_without_a_case_cannot_show_in_the_ruleset() -> None:
    searches = search_cases(PLAIN)
    missing = [s.misreading for s in searches if s.case is None]
    domain = domain_of(PLAIN)
    for _, _, _, busted, hand, _ in domain.walk():
        for wrong in missing:
            assert wrong.score(PLAIN, hand, busted) == round_score(PLAIN, hand, busted)
    assert "MR-X2-NO-STACK" in {s.misreading.id for s in search_cases(preset("flip7")) if s.case is None}
    plain = {m.id for m in missing}
    assert {"MR-X2-DOUBLES-ADDS", "MR-FREEZE-AS-BUST", "MR-ZERO-NOT-COUNTED"} <= plain


@pytest.mark.clause("F7-MOD-X2", "F7-FLIP7-BONUS", "F7-FLIP7-ZERO", "F7-SCORE-BUST", "F7-FREEZE")
def test_cases_are_data_computed_fast() -> None:
    ruleset = preset("flip7")
    started = time.perf_counter()
    cases = distinguishing_cases(ruleset)
    seconds = time.perf_counter() - started
    assert seconds < 30
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids))
    for required in ("MR-X2-DOUBLES-ADDS", "MR-X2-DOUBLES-BONUS", "MR-X2-DOUBLES-TOTAL", "MR-BONUS-ANY-7-CARDS",
                     "MR-FREEZE-IGNORES-MODS", "MR-ZERO-NOT-COUNTED", "MR-BUST-KEEPS-ADDS"):
        assert required in ids
    decoded = json.loads(json.dumps([c.to_json() for c in cases]))
    assert [d["cards"] for d in decoded] == [c.cards for c in cases]
    assert distinguishing_cases(ruleset) == cases  # the same answer every time


# ---------------------------------------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m flip7_spec`` with ``args``."""
    return subprocess.run([sys.executable, "-m", "flip7_spec", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=False)


@pytest.mark.clause("F7-SCORE", "F7-MOD-X2", "F7-FLIP7-BONUS", "F7-SCORE-BUST", "F7-BANK")
@pytest.mark.slow
def test_prove_command_proves_everything_within_a_minute() -> None:
    started = time.perf_counter()
    done = run_cli("prove")
    seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stdout + done.stderr
    assert seconds < 60
    for theorem in CORE_THEOREMS | {"C-MODEL-MATCHES-SCORER"}:
        assert theorem in done.stdout
    for case in distinguishing_cases(preset("flip7")):
        assert case.id in done.stdout


@pytest.mark.clause("F7-SCORE", "F7-CUSTOM-DECK")
def test_prove_command_json_for_a_ruleset_file() -> None:
    ruleset = seed_003()
    target = str(SEED_003) if SEED_003.exists() else "flip7"
    done = run_cli("prove", "--ruleset", target, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ok"] is True and data["ruleset"] == (ruleset.name if SEED_003.exists() else "flip7")
    assert {r["id"] for r in data["results"]} >= CORE_THEOREMS
    assert all(r["status"] == "proved" for r in data["results"])
    assert [c["id"] for c in data["cases"]] == [c.id for c in distinguishing_cases(load_ruleset(target))]


@pytest.mark.clause("F7-SCORE")
def test_prove_command_bad_input_exits_2(tmp_path: Path) -> None:
    minus = tmp_path / "minus.json"
    minus.write_text(json.dumps({"name": "minus", "base": "flip7", "deck": {"1": 1, "-2": 1}}), encoding="utf-8")
    for args in (["--ruleset", "no-such-ruleset"], ["--timeout-ms", "0"], ["--ruleset", str(minus)]):
        done = run_cli("prove", *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr


@pytest.mark.clause("F7-SCORE")
def test_the_spec_and_the_cli_do_not_load_z3() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys, flip7_spec, flip7_spec.cli, flip7_spec.symbolic; "
                           "print('z3' in sys.modules)"], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "False"

