"""``flip7-spec conform`` catches every mutant engine of ``tests/mutants/``, and blames the clause it breaks.

Each mutant is the reference with one plausible rule bug. For each one a conformance session runs in-process
(scoring cases, the fixtures, and a few generated games on fixed seeds) and must report at least one
failure; a failure must name a clause of the mutant's ``CLAUSES``; every failing generated game must be
saved as a shrunk trace that the reference replays cleanly and that still fails the mutant the same way.
A few mutants also run as child processes, through the protocol.

Each mutant has a fixed seed and a game count just large enough for the generated games alone (without the
aimed games, ``min_coverage=0``; tests/test_mutants_generated.py runs the default corpus) to catch it
(a Flip 7 with an x2, a tie at the top or a 0 in a Flip 7 are rare in generated play, hence their seeds);
a few counts are larger so that the plan also reaches a harder path (a failure at the round case's last
step, a legal-level failure followed by a refused choice). A bug that only shows when no card is left
anywhere is caught on a small deck of the preset's game (:data:`TINY_DECK`), which a full deck never runs
out of.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import shlex
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from flip7_spec.clauses import CLAUSES as REGISTRY
from flip7_spec.conformance import ERRORED, FAIL
from flip7_spec.conformance import session as session_module
from flip7_spec.conformance.cases import scoring_cases
from flip7_spec.conformance.fingerprint import fingerprints
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.judge.case import Case
from flip7_spec.judge.diagnosis import alternatives
from flip7_spec.judge.runner import CaseResult, run_case
from flip7_spec.protocol.adapter import EngineAdapter
from flip7_spec.rulesets import Ruleset, preset, ruleset_from_json
from flip7_spec.trace.replay import replay
from tests.mutants import MUTANTS

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"

TINY_DECK: tuple[tuple[str, int], ...] = tuple((str(value), 1) for value in range(1, 7))
"""The Numbers 1 to 6, once each: a deck that three players hitting run out of within a round."""


@dataclass(frozen=True)
class Plan:
    """How to catch one mutant: the generated games to run (on ``deck`` instead of the preset's deck when
    given: a custom deck has no shipped scoring hands, so such a plan runs no scoring case)."""

    seed: str
    games: int
    ruleset: str = "flip7"
    fails_at_start: bool = False
    deck: tuple[tuple[str, int], ...] = ()

    def rules(self) -> Ruleset:
        """The ruleset of the plan's games: the preset, or the preset's game on the plan's deck."""
        if not self.deck:
            return preset(self.ruleset)
        return ruleset_from_json({"name": f"{self.ruleset}-tiny", "base": self.ruleset,
                                  "description": "a deck run out of within a round", "deck": dict(self.deck)})


PLANS: dict[str, Plan] = {
    "x2_doubles_add": Plan("0", 7),
    "x2_doubles_bonus": Plan("18", 8),
    "no_flip7_bonus": Plan("0", 4),
    "zero_not_flip7": Plan("21", 2),
    "flip3_actions_at_once": Plan("0", 2),
    "setaside_passed_on": Plan("1", 1),
    "chance_replacement": Plan("0", 4),
    "chance_two_held": Plan("1", 5),
    "reshuffle_every_round": Plan("0", 1),
    "flip7_ends_own_round": Plan("0", 10),
    "deal_from_dealer": Plan("0", 1, fails_at_start=True),
    "dealer_fixed": Plan("0", 1),
    "bust_scores_cards": Plan("0", 4),
    "frozen_scores_zero": Plan("0", 1),
    "tie_ends_game": Plan("39", 3),
    "freeze_not_self": Plan("0", 4),
    "empty_hand_stay": Plan("0", 2),
    "reshuffle_table_cards": Plan("0", 2),
    "turns_right": Plan("0", 1, fails_at_start=True),
    "bust_discards": Plan("0", 1),
    "flip7_takes_all": Plan("0", 4),
    "spare_chance_discarded": Plan("0", 1),
    "used_chance_stays": Plan("0", 4),
    "freeze_card_discarded": Plan("0", 1),
    "tie_first_seat": Plan("39", 3),
    "reshuffle_each_round": Plan("0", 1),
    "flip3_skips_setaside": Plan("0", 2),
    "chance_ends_flip3": Plan("0", 7),
    "modifiers_flip7": Plan("0", 6),
    "game_ends_at_target": Plan("0", 1),
    "chance_carried_over": Plan("0", 1),
    "bust_keeps_adds": Plan("0", 1),
    "x2_adds_two": Plan("0", 1),
    "frozen_numbers_only": Plan("0", 3),
    "flip3_draws_two": Plan("0", 1),
    "dealer_redeals_all_bust": Plan("2", 1),
    # Vengeance mutants (v_*) change the Vengeance game only, so their generated games are Vengeance games.
    "v_halve_rounds_up": Plan("0", 1, ruleset="vengeance"),
    "v_malus_before_halve": Plan("6", 1, ruleset="vengeance"),
    "v_halve_bonus": Plan("8", 2, ruleset="vengeance"),
    "v_no_floor": Plan("1", 1, ruleset="vengeance"),
    "v_zero_keeps_score": Plan("0", 1, ruleset="vengeance"),
    "v_unlucky7_keeps_modifiers": Plan("12", 1, ruleset="vengeance"),
    "v_lucky13_busts": Plan("0", 1, ruleset="vengeance"),
    "v_stayed_untargetable": Plan("0", 1, ruleset="vengeance"),
    "v_take_never_busts": Plan("6", 1, ruleset="vengeance"),
    "v_flip4_actions_at_once": Plan("3", 1, ruleset="vengeance"),
    "v_onemore_no_stay": Plan("0", 1, ruleset="vengeance"),
    "v_discard_busted": Plan("5", 3, ruleset="vengeance-basic"),
    "v_deal_actions_discarded": Plan("6", 1, ruleset="vengeance"),
    "v_zero_may_stay": Plan("0", 1, ruleset="vengeance"),
    "v_unlucky7_busts_on_7": Plan("1", 3, ruleset="vengeance"),
    "v_lucky13_first": Plan("1", 2, ruleset="vengeance"),
    "v_flip4_numbers_only": Plan("0", 3, ruleset="vengeance"),
    "v_swap_own_card": Plan("0", 2, ruleset="vengeance"),
    "v_modifier_kept": Plan("0", 1, ruleset="vengeance"),
    "v_modifier_to_busted": Plan("1", 3, ruleset="vengeance"),
    "v_deal_actions_after_deal": Plan("0", 1, ruleset="vengeance"),
    "chance_given_to_anyone": Plan("1", 5),
    "deal_to_frozen": Plan("0", 2),
    "chance_saves_and_stays": Plan("0", 4),
    "actions_discarded_early": Plan("0", 1),
    "setaside_dropped_when_out": Plan("159", 1),
    "empty_piles_end_game": Plan("0", 1, deck=TINY_DECK),
    "reshuffle_at_turn_start": Plan("0", 3),
    "v_deal_to_stayed": Plan("0", 2, ruleset="vengeance"),
    "v_actions_discarded_early": Plan("0", 1, ruleset="vengeance"),
    "v_held_dropped_when_stayed": Plan("5", 2, ruleset="vengeance"),
    "v_steal_own_card": Plan("0", 1, ruleset="vengeance"),
    "v_empty_piles_end_game": Plan("0", 1, ruleset="vengeance", deck=TINY_DECK),
    "v_reshuffle_at_turn_start": Plan("0", 3, ruleset="vengeance"),
}

# The clause each mutant's bug breaks (one of its CLAUSES), as literal markers for the clause coverage.
MARKS: dict[str, pytest.MarkDecorator] = {
    "x2_doubles_add": pytest.mark.clause("F7-MOD-X2"),
    "x2_doubles_bonus": pytest.mark.clause("F7-MOD-X2"),
    "no_flip7_bonus": pytest.mark.clause("F7-FLIP7-BONUS"),
    "zero_not_flip7": pytest.mark.clause("F7-FLIP7-ZERO"),
    "flip3_actions_at_once": pytest.mark.clause("F7-FLIP3-SETASIDE"),
    "setaside_passed_on": pytest.mark.clause("F7-FLIP3-SETASIDE-BUST"),
    "chance_replacement": pytest.mark.clause("F7-CHANCE-ENDS-TURN"),
    "chance_two_held": pytest.mark.clause("F7-CHANCE-GIVE"),
    "reshuffle_every_round": pytest.mark.clause("F7-DISCARD-PILE"),
    "flip7_ends_own_round": pytest.mark.clause("F7-FLIP7"),
    "deal_from_dealer": pytest.mark.clause("F7-DEAL-ORDER"),
    "dealer_fixed": pytest.mark.clause("F7-DEALER-ROTATION"),
    "bust_scores_cards": pytest.mark.clause("F7-SCORE-BUST"),
    "frozen_scores_zero": pytest.mark.clause("F7-FREEZE"),
    "tie_ends_game": pytest.mark.clause("F7-TIE"),
    "freeze_not_self": pytest.mark.clause("F7-FREEZE-SELF"),
    "empty_hand_stay": pytest.mark.clause("F7-STAY-NEEDS-CARD"),
    "reshuffle_table_cards": pytest.mark.clause("F7-RESHUFFLE-TABLE-STAYS"),
    "turns_right": pytest.mark.clause("F7-DEAL-ORDER"),
    "bust_discards": pytest.mark.clause("F7-BUST-CARDS-STAY"),
    "flip7_takes_all": pytest.mark.clause("F7-FLIP7-OTHERS-BANK"),
    "spare_chance_discarded": pytest.mark.clause("F7-CHANCE-GIVE"),
    "used_chance_stays": pytest.mark.clause("F7-CHANCE-USE"),
    "freeze_card_discarded": pytest.mark.clause("F7-FREEZE-KEEPS-CARDS"),
    "tie_first_seat": pytest.mark.clause("F7-TIE"),
    "reshuffle_each_round": pytest.mark.clause("F7-DISCARD-PILE"),
    "flip3_skips_setaside": pytest.mark.clause("F7-FLIP3-COUNTS-ALL"),
    "chance_ends_flip3": pytest.mark.clause("F7-CHANCE-ENDS-TURN"),
    "modifiers_flip7": pytest.mark.clause("F7-MOD-NO-BUST"),
    "game_ends_at_target": pytest.mark.clause("F7-GAME-END"),
    "chance_carried_over": pytest.mark.clause("F7-CHANCE-ROUND-END"),
    "bust_keeps_adds": pytest.mark.clause("F7-SCORE-BUST"),
    "x2_adds_two": pytest.mark.clause("F7-MOD-X2"),
    "frozen_numbers_only": pytest.mark.clause("F7-FREEZE"),
    "flip3_draws_two": pytest.mark.clause("F7-FLIP3"),
    "dealer_redeals_all_bust": pytest.mark.clause("F7-DEALER-ROTATION"),
    "v_halve_rounds_up": pytest.mark.clause("V-SCORE"),
    "v_malus_before_halve": pytest.mark.clause("V-SCORE"),
    "v_halve_bonus": pytest.mark.clause("V-SCORE"),
    "v_no_floor": pytest.mark.clause("V-SCORE-FLOOR"),
    "v_zero_keeps_score": pytest.mark.clause("V-ZERO-SCORE"),
    "v_unlucky7_keeps_modifiers": pytest.mark.clause("V-UNLUCKY7-WIPE"),
    "v_lucky13_busts": pytest.mark.clause("V-LUCKY13-PAIR"),
    "v_stayed_untargetable": pytest.mark.clause("V-STAYED-TARGET"),
    "v_take_never_busts": pytest.mark.clause("V-BUST-BY-ACTION"),
    "v_flip4_actions_at_once": pytest.mark.clause("V-FLIP4-HOLD"),
    "v_onemore_no_stay": pytest.mark.clause("V-ONEMORE-STAY"),
    "v_discard_busted": pytest.mark.clause("V-BUST-OUT-OF-PLAY"),
    "v_deal_actions_discarded": pytest.mark.clause("V-ACTION-MANDATORY"),
    "v_zero_may_stay": pytest.mark.clause("V-ZERO-MUST-HIT"),
    "v_unlucky7_busts_on_7": pytest.mark.clause("V-UNLUCKY7-NO-BUST"),
    "v_lucky13_first": pytest.mark.clause("V-LUCKY13-PAIR"),
    "v_flip4_numbers_only": pytest.mark.clause("V-FLIP4"),
    "v_swap_own_card": pytest.mark.clause("V-SWAP"),
    "v_modifier_kept": pytest.mark.clause("V-MOD-TARGET"),
    "v_modifier_to_busted": pytest.mark.clause("V-MOD-TARGET"),
    "v_deal_actions_after_deal": pytest.mark.clause("V-DEAL-PAUSE"),
    "chance_given_to_anyone": pytest.mark.clause("F7-CHANCE-GIVE"),
    "deal_to_frozen": pytest.mark.clause("F7-DEAL-FREEZE-EMPTY"),
    "chance_saves_and_stays": pytest.mark.clause("F7-CHANCE-ENDS-TURN"),
    "actions_discarded_early": pytest.mark.clause("F7-FLIP3-DISCARDED"),
    "setaside_dropped_when_out": pytest.mark.clause("F7-FLIP3-ASSIGN"),
    "empty_piles_end_game": pytest.mark.clause("F7-EMPTY-DECK"),
    "reshuffle_at_turn_start": pytest.mark.clause("F7-RESHUFFLE"),
    "v_deal_to_stayed": pytest.mark.clause("V-DEAL-ALWAYS"),
    "v_actions_discarded_early": pytest.mark.clause("V-ACTION-AT-ONCE"),
    "v_held_dropped_when_stayed": pytest.mark.clause("V-STAYED-TARGET"),
    "v_steal_own_card": pytest.mark.clause("V-STEAL"),
    "v_empty_piles_end_game": pytest.mark.clause("V-EMPTY-DECK"),
    "v_reshuffle_at_turn_start": pytest.mark.clause("V-RESHUFFLE"),
}

PROCESS_MUTANTS = ("dealer_fixed", "no_flip7_bonus", "flip3_actions_at_once")


def mutant(name: str) -> ModuleType:
    """The mutant module ``tests.mutants.NAME``."""
    return importlib.import_module(f"tests.mutants.{name}")


def params(names: tuple[str, ...]) -> list[object]:
    """One parameter per mutant, with its clause marker."""
    return [pytest.param(name, marks=[MARKS[name]], id=name) for name in names]


Results = list[CaseResult]


@pytest.fixture(scope="module", autouse=True)
def scoring_cases_once() -> Iterator[None]:
    """The z3 search for distinguishing hands takes seconds and gives the same cases every time: do it
    once per ruleset for the whole module."""
    memo: dict[Ruleset, list[Case]] = {}

    def cached(ruleset: Ruleset) -> list[Case]:
        if ruleset not in memo:
            memo[ruleset] = scoring_cases(ruleset)
        return list(memo[ruleset])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "scoring_cases", cached)
        yield


PASSED: dict[str, list[Case]] = {}
"""Per mutant, the cases its session passed (what its fingerprint is checked against)."""


def plan_corpus(name: str, ruleset: Ruleset | None = None) -> Corpus:
    """The corpus of a mutant's plan (under ``ruleset`` instead of the plan's preset when given)."""
    plan = PLANS[name]
    return Corpus(rulesets=[ruleset or plan.rules()], games=plan.games, seed=plan.seed, min_coverage=0,
                  fixtures=FIXTURES if FIXTURES.is_dir() else None, scoring=not plan.deck)


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[Results, Path]]:
    """Run (once per module) the conformance session of a mutant; returns its results and save folder."""
    done: dict[str, tuple[Results, Path]] = {}
    root = tmp_path_factory.mktemp("shrunk")

    def session(name: str) -> tuple[Results, Path]:
        if name not in done:
            save = root / name
            passed: list[Case] = []
            _, results, _ = run(EngineSpec(python=f"tests.mutants.{name}:Engine"), plan_corpus(name), save=save,
                                passed=passed)
            done[name] = (results, save)
            PASSED[name] = passed
        return done[name]

    return session


def failures(results: Results) -> list[CaseResult]:
    return [r for r in results if r.outcome == FAIL]


def generated(result: CaseResult) -> bool:
    return result.case_id.startswith(("round:", "game:"))


def test_every_mutant_has_a_plan_and_a_marker() -> None:
    assert set(PLANS) == set(MARKS) == set(MUTANTS)
    assert len(MUTANTS) >= 15


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_module_is_complete(name: str) -> None:
    """A docstring naming the bug and its clause, CLAUSES of real ids, an Engine adapter, a __main__ guard."""
    module = mutant(name)
    assert module.__doc__ and module.__doc__.startswith("Mutant:")
    clauses = module.CLAUSES
    assert clauses and clauses <= set(REGISTRY), f"unknown clause ids: {sorted(clauses - set(REGISTRY))}"
    assert len(clauses) <= 3, "keep the acceptable clauses tight"
    assert any(c in module.__doc__ for c in clauses), "the docstring names the clause the bug breaks"
    assert MARKS[name].args[0] in clauses
    assert isinstance(module.Engine(), EngineAdapter)
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    assert 'if __name__ == "__main__":\n    serve(Engine())' in source


@pytest.mark.parametrize("name", params(MUTANTS))
def test_conform_catches_the_mutant(name: str, sessions: Callable[[str], tuple[Results, Path]]) -> None:
    results, _ = sessions(name)
    assert failures(results), f"no case failed against {name}: {len(results)} results"
    assert any(generated(r) for r in failures(results)), "the generated games alone catch it too"


@pytest.mark.parametrize("name", params(MUTANTS))
def test_failure_names_the_broken_clause(name: str, sessions: Callable[[str], tuple[Results, Path]]) -> None:
    results, _ = sessions(name)
    allowed = mutant(name).CLAUSES
    blamed = sorted({str(r.clause) for r in failures(results)})
    assert any(r.clause in allowed for r in failures(results)), (
        f"{name} breaks {sorted(allowed)}, but conform blamed {blamed}")


@pytest.mark.parametrize("name", params(MUTANTS))
def test_mutant_never_errors(name: str, sessions: Callable[[str], tuple[Results, Path]]) -> None:
    """A mutant is the reference with one bug and never crashes: every case passes, fails or is skipped."""
    results, _ = sessions(name)
    errored = [f"{r.case_id} [{r.level}]: {r.message}" for r in results if r.outcome == ERRORED]
    assert not errored, "\n".join(errored)


def readings_of(result: CaseResult) -> set[str]:
    """The readings the diagnosis named for a failure (every cause it followed, or the one diagnosis), with
    the readings each cause fits as well."""
    return {str(r) for cause in result.readings() for r in (cause.reading, *cause.also) if r is not None}


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_readings_are_known(name: str) -> None:
    """READINGS names readings the diagnosis can give for the mutant's game: option values or catalogue
    misreadings."""
    readings = mutant(name).READINGS
    known = {diagnosis.reading for diagnosis in alternatives(PLANS[name].rules())}
    assert readings, "a mutant declares the readings that explain it"
    assert readings <= known, f"unknown readings: {sorted(readings - known)}"


@pytest.mark.parametrize("name", params(MUTANTS))
def test_diagnosis_names_the_mutants_reading(name: str, sessions: Callable[[str], tuple[Results, Path]]) -> None:
    """Every failing generated game of the mutant is explained by one of its READINGS: the reference, replayed
    under it, reproduces the mutant, so the diagnosis names the bug instead of guessing its clause."""
    results, _ = sessions(name)
    expected = mutant(name).READINGS
    failing = [r for r in failures(results) if generated(r)]
    assert failing
    for result in failing:
        named = readings_of(result)
        assert named & expected, f"{result.case_id}: {name} plays {sorted(expected)}; the diagnosis named " \
                                 f"{sorted(named) or 'none (a guess)'}"


@pytest.mark.parametrize("name", params(tuple(n for n in MUTANTS if not PLANS[n].fails_at_start)))
def test_shrunk_traces_replay_and_still_fail(name: str, sessions: Callable[[str], tuple[Results, Path]]) -> None:
    """Each failing generated case is saved shrunk; the reference accepts it; the mutant still fails it.

    (A failure at the start observation is not saved: see test_failure_at_the_start_is_saved.)"""
    results, save = sessions(name)
    failing = [r for r in failures(results) if generated(r) and r.step is not None]
    assert failing
    engine = mutant(name).Engine()
    hello = engine.hello()
    for result in failing:
        assert result.shrunk and Path(result.shrunk).is_file(), f"{result.case_id}: shrunk = {result.shrunk!r}"
        path = Path(result.shrunk)
        assert path.parent == save
        trace = json.loads(path.read_text(encoding="utf-8"))
        checked = replay(trace)
        assert checked.ok, f"{path.name}: {checked.status} {checked.error or checked.divergence}"
        level = result.case_id.split(":", 1)[0]
        case = Case(f"replay:{path.name}", level, ruleset_from_json(trace["header"]["ruleset"]), trace=trace)
        again = [r for r in run_case(engine, case, hello) if r.level == result.level]
        assert again and again[0].outcome == FAIL, f"{path.name} no longer fails {name}: {again}"
        assert again[0].clause == result.clause, (path.name, again[0].where, result.where)
    # the failing fixtures are saved beside them, whole (named after the fixture)
    generated_files = [p for p in save.glob("*.json") if not p.name.startswith("fixture_")]
    assert len(generated_files) == len({r.shrunk for r in failing})


@pytest.mark.parametrize("name", params(PROCESS_MUTANTS))
def test_conform_catches_the_mutant_as_a_process(name: str, monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """The same session through ``python -m tests.mutants.NAME`` and the protocol gives the same verdicts."""
    monkeypatch.chdir(REPO)
    plan = PLANS[name]
    corpus = Corpus(rulesets=[plan.rules()], games=plan.games, seed=plan.seed, min_coverage=0,
                    fixtures=FIXTURES if FIXTURES.is_dir() else None, scoring=not plan.deck)
    command = f"{shlex.quote(sys.executable)} -m tests.mutants.{name}"
    hello, results, decisions = run(EngineSpec(command=command, timeout=20.0), corpus, save=tmp_path)
    assert hello["protocol"] == 1
    assert decisions > 0
    assert not [r for r in results if r.outcome == ERRORED], [r.message for r in results if r.outcome == ERRORED]
    assert any(r.clause in mutant(name).CLAUSES for r in failures(results))
    _, in_process, _ = run(EngineSpec(python=f"tests.mutants.{name}:Engine"), corpus)
    verdicts = sorted((r.case_id, r.level, r.outcome, r.clause, r.where) for r in results)
    assert verdicts == sorted((r.case_id, r.level, r.outcome, r.clause, r.where) for r in in_process)


def test_reference_adapter_passes_the_same_plans() -> None:
    """The reference itself passes every case the mutants fail: the failures are the bugs', not the corpus's."""
    seen: set[tuple[str, int, str, tuple[tuple[str, int], ...]]] = set()
    for plan in PLANS.values():
        key = (plan.seed, plan.games, plan.ruleset, plan.deck)
        if key in seen:
            continue
        seen.add(key)
        corpus = Corpus(rulesets=[plan.rules()], games=plan.games, seed=plan.seed, scoring=False,
                        min_coverage=0)
        _, results, _ = run(EngineSpec(python="flip7_spec.protocol.adapter:ReferenceAdapter"), corpus)
        assert results and all(r.outcome == "pass" for r in results), key


@pytest.mark.clause("F7-STAY-NEEDS-CARD")
def test_missing_value_is_reported_as_absent(sessions: Callable[[str], tuple[Results, Path]]) -> None:
    """A row shorter than expected is reported as found '<absent>', and the result is JSON."""
    results, _ = sessions("empty_hand_stay")
    for result in failures(results):
        json.dumps(result.to_json())
    assert any("<absent>" in (r.expected, r.found) for r in failures(results))


@pytest.mark.clause("F7-DEAL-ORDER")
def test_failure_at_the_start_is_saved(sessions: Callable[[str], tuple[Results, Path]]) -> None:
    """A generated game whose very first observation differs is saved too (it is the smallest trace of all)."""
    results, _ = sessions("deal_from_dealer")
    at_start = [r for r in failures(results) if generated(r) and r.step is None]
    assert at_start
    assert all(r.shrunk and Path(r.shrunk).is_file() for r in at_start)


def one_reading_fingerprint(name: str, results: Results) -> Ruleset:
    """The mutant's fingerprint on its plan's preset, checked to be exactly one of its READINGS.

    (The fixtures of the game's other presets may need another reading beside it: a mutant that ignores an
    option those presets set plays two readings there, and the fingerprint of that preset says so.)"""
    base = PLANS[name].ruleset
    found = fingerprints(results, PASSED[name])
    assert base in found, f"no fingerprint on {base}: {sorted(found)}"
    named = set(found[base].readings)
    assert len(named) == 1 and named <= mutant(name).READINGS, f"{name} plays {sorted(mutant(name).READINGS)}; " \
                                                               f"the fingerprint says {sorted(named)}"
    return found[base].ruleset


@pytest.mark.parametrize("name", params(MUTANTS))
def test_the_fingerprint_is_exactly_the_mutants_reading(name: str,
                                                         sessions: Callable[[str], tuple[Results, Path]]) -> None:
    """A mutant plays one reading: its fingerprint is that reading alone, checked against the cases it passed."""
    results, _ = sessions(name)
    one_reading_fingerprint(name, results)


def _corpus_passes_under_the_fingerprint(name: str, results: Results) -> None:
    """Run again against the reference under the fingerprints (the plan's preset's, and those of the other
    presets whose fixtures the mutant fails: conform writes one per preset), the mutant passes every case."""
    one_reading_fingerprint(name, results)
    rulesets = [f.ruleset for f in fingerprints(results, PASSED[name]).values() if f.readings]
    corpus = dataclasses.replace(plan_corpus(name), rulesets=rulesets)
    _, again, _ = run(EngineSpec(python=f"tests.mutants.{name}:Engine"), corpus)
    wrong = [f"{r.case_id} [{r.level}] {r.outcome}: {r.message}" for r in again if r.outcome in (FAIL, ERRORED)]
    assert not wrong, "\n".join(wrong[:5])
    assert any(r.outcome == "pass" for r in again)


FINGERPRINT_SAMPLE = ("dealer_fixed", "x2_doubles_add", "freeze_not_self", "tie_first_seat", "v_no_floor",
                      "v_swap_own_card")


@pytest.mark.parametrize("name", params(FINGERPRINT_SAMPLE))
def test_the_corpus_under_the_fingerprint_passes(name: str, sessions: Callable[[str], tuple[Results, Path]]) -> None:
    """Run again against a reference that plays the fingerprint, the mutant passes every case (a sample in the
    default run; every mutant with ``-m slow``)."""
    results, _ = sessions(name)
    _corpus_passes_under_the_fingerprint(name, results)


@pytest.mark.slow
@pytest.mark.parametrize("name", params(tuple(n for n in MUTANTS if n not in FINGERPRINT_SAMPLE)))
def test_the_corpus_under_the_fingerprint_passes_for_every_mutant(
        name: str, sessions: Callable[[str], tuple[Results, Path]]) -> None:
    results, _ = sessions(name)
    _corpus_passes_under_the_fingerprint(name, results)
