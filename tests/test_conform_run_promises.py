"""Promises of a conformance run's corpus and machinery that the other tests left unchecked: how aimed games are
steered and kept (flip7_spec/conformance/aimed.py, hunts.py), how generated games vary the declared options
(cases.py), what a corpus holds for the engine it meets and what a run counts (session.py), what a campaign and
a cluster say (campaign.py, cluster.py; docs/campaigns.md), and what becomes of one engine's handshake, smoke
game and failing case (guard.py, smoke.py, engines.py, shrink.py)."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cluster import ClusterError
from flip7_spec.conformance import aimed, engines
from flip7_spec.conformance.aimed import BATCH, aimed_cases
from flip7_spec.conformance.campaign import SETTINGS, Campaign, CampaignError, CaseRunner
from flip7_spec.conformance.cases import GameJob, default_rulesets, game_jobs, generated_game, job_cases, scoring_cases
from flip7_spec.conformance.cluster import ClusterPool
from flip7_spec.conformance.coverage import Coverage
from flip7_spec.conformance.engines import EngineSpec, EngineUnusable, FinishedCase, finish, handshake
from flip7_spec.conformance.hunts import LOW_TARGETS, Aim, _rigged_deck, option_changes
from flip7_spec.conformance.session import Corpus, run
from flip7_spec.conformance.shrink import shrink
from flip7_spec.conformance.smoke import smoke
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import run_case
from flip7_spec.protocol import Level
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure, Observation, ReferenceAdapter
from flip7_spec.results import FAIL, PASS, CaseResult
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.document import TraceDocument

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def ruleset(name: str) -> Ruleset:
    """The preset ``name``, built here (not at import, so that a test sees the code as it runs)."""
    return next(r for r in default_rulesets() if r.name == name)


# ---- aimed games --------------------------------------------------------------------------------------------


def test_a_candidate_that_exercises_no_short_clause_is_never_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """aimed.py: after a batch the candidate worth most is kept "if any is worth something"; a candidate is worth
    something only for the short clauses it exercises. A Flip 7 game can exercise no Vengeance clause, so when
    that is the only clause short, no candidate is kept."""
    monkeypatch.setattr(aimed, "expected_clauses", lambda ruleset, variants=None: (["V-BRUTAL-FLIP7"], []))
    notes: dict[str, dict[str, str]] = {}
    kept = list(aimed_cases([ruleset("flip7")], [3], "0", Coverage(), 1, cap=3 * BATCH, notes=notes))
    assert kept == []
    assert list(notes["flip7"]) == ["V-BRUTAL-FLIP7"]  # still short, with its reason


@pytest.mark.parametrize("name", ["flip7", "vengeance"])
def test_an_aimed_game_plays_a_low_target_from_its_list_and_no_other(name: str) -> None:
    """hunts.py: an engine that takes any target score plays aimed games to one of ``LOW_TARGETS``;
    ``SMALL_INTS`` are the values tried for the other whole-number options, never for the target score, even when
    the clause aimed at is the end of the game, which the target decides."""
    game = ruleset(name)
    end = game.OPTIONS["target_score"].clause
    seen = set()
    for seed in range(200):
        target = option_changes(game, end, {end}, {"target_score": "any"}, random.Random(seed)).get("target_score")
        seen.add(target)
        assert target is None or target in LOW_TARGETS, (seed, target)
    assert seen - {None}, "no aimed game lowered the target"


@pytest.mark.parametrize(("name", "drawing"), [("flip7", "FLIP3"), ("vengeance", "FLIP4")])
def test_a_tangle_hunt_deals_a_drawing_action_in_about_half_its_games(name: str, drawing: str) -> None:
    """hunts.py: a tangle hunt puts, in one game in two, a drawing Action within the deal (its target draws before
    everyone is dealt); a shuffled deck puts one of its few there in fewer than one game in ten."""
    players = 3
    dealt = sum(any(c.text == drawing for c in _rigged_deck(Aim(ruleset(name), players, "tangle", (drawing,)),
                                                              random.Random(seed))[:players])
                for seed in range(200))
    assert dealt >= 70, dealt


# ---- generated games ----------------------------------------------------------------------------------------


def test_generated_games_play_another_declared_value_in_about_half_the_games() -> None:
    """cases.py ``_varied``: one game in two plays one other declared value of one option (so the official rules
    still make up half the games)."""
    jobs = game_jobs([ruleset("flip7")], [4], 60, "0", {"target_score": [200, 50]})
    other = sum(job.ruleset.target_score == 50 for job in jobs)
    assert all(job.ruleset.target_score in (200, 50) for job in jobs)
    assert 15 <= other <= 45, other


# ---- campaigns ----------------------------------------------------------------------------------------------


def scoring_case_list(count: int) -> list[Case]:
    return scoring_cases(ruleset("flip7"))[:count]


def passing_runner(ran: list[str], ahead: bool = False) -> CaseRunner:
    """A runner that passes every case it is given, in order, and notes which it ran; ``ahead``: it takes every
    case before it finishes the first, as a pool of workers takes cases ahead."""
    def runner(cases: Iterator[Case], deliver: Callable[[FinishedCase], None],
               finished: Callable[[Case, FinishedCase], None] | None) -> None:
        for case in list(cases) if ahead else cases:
            ran.append(case.id)
            outcome = FinishedCase([CaseResult(case.id, case.level, PASS, decisions=2)], 2)
            if finished is not None:
                finished(case, outcome)
            deliver(outcome)
    return runner


@pytest.mark.parametrize("ahead", [False, True])
def test_a_resumed_campaign_runs_only_the_cases_not_recorded_and_delivers_all_in_order(tmp_path: Path,
                                                                                        ahead: bool) -> None:
    """campaign.py ``Campaign.run``: the cases already recorded are not run again, their recorded outcomes are
    delivered in their place, and ``deliver`` sees every case's outcome in the order of the cases, whether the
    runner finishes each case before it takes the next or takes them ahead."""
    cases = scoring_case_list(4)
    ids = [c.id for c in cases]
    first = Campaign.open(tmp_path / "c", {"games": 1})
    try:
        first.run(passing_runner([]), iter([cases[1], cases[3]]), lambda outcome: None)
    finally:
        first.close()
    ran: list[str] = []
    delivered: list[str] = []
    again = Campaign.open(tmp_path / "c", {"games": 1})
    try:
        again.run(passing_runner(ran, ahead), iter(cases), lambda outcome: delivered.append(outcome.results[0].case_id))
    finally:
        again.close()
    assert ran == [ids[0], ids[2]]
    assert delivered == ids


def test_a_campaign_folder_another_run_is_using_is_refused(tmp_path: Path) -> None:
    """docs/campaigns.md: two runs never share a campaign; the second is stopped with one line naming the lock."""
    first = Campaign.open(tmp_path / "c", {"games": 1})
    try:
        with pytest.raises(CampaignError, match="another run is using it"):
            Campaign.open(tmp_path / "c", {"games": 1}).close()
    finally:
        first.close()
    Campaign.open(tmp_path / "c", {"games": 1}).close()  # free again once the first run has ended


def test_a_campaign_whose_settings_cannot_be_read_is_refused_naming_the_file(tmp_path: Path) -> None:
    """campaign.py ``Campaign.open``: a folder unreadable as a campaign raises :class:`CampaignError` whose line
    says which folder and which file."""
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / SETTINGS).write_text("{not json", encoding="utf-8")
    with pytest.raises(CampaignError) as raised:
        Campaign.open(tmp_path / "c", {"games": 1})
    assert str(tmp_path / "c") in str(raised.value) and SETTINGS in str(raised.value)


# ---- a cluster's handshake ----------------------------------------------------------------------------------


class Answered:
    """A finished future: ``result()`` gives the worker's answer, or raises it."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def result(self) -> object:
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


class FakeClient:
    """A client of a cluster whose workers answer the engine check as ``answers`` (by worker address) says."""

    def __init__(self, answers: dict[str, object]) -> None:
        self.answers = answers

    def scheduler_info(self, n_workers: int = 5) -> dict[str, object]:
        return {"workers": {address: {} for address in self.answers}}

    def submit(self, function: Callable[..., object], *args: object, workers: list[str], **options: object
               ) -> Answered:
        (address,) = workers
        return Answered(self.answers[address])


def cluster_hello(answers: dict[str, object]) -> str:
    """The one line with which the cluster's check of the engine stops, given the workers' answers."""
    with pytest.raises((ClusterError, EngineUnusable)) as raised:
        ClusterPool(FakeClient(answers), EngineSpec(command="engine"), None).hello()
    return str(raised.value)


def test_a_cluster_without_workers_is_refused_in_a_line_that_says_so() -> None:
    assert "no worker" in cluster_hello({})


def test_a_cluster_that_cannot_check_the_engine_says_why() -> None:
    """cluster.py ``hello``: a failure of the check itself (the cluster lost, say) is named with its cause."""
    line = cluster_hello({"tcp://a:1": OSError("the scheduler went away")})
    assert "the scheduler went away" in line and "OSError" in line


def test_workers_answering_other_handshakes_are_named_with_what_each_answered() -> None:
    """cluster.py module docstring: the handshake on every worker must answer what the others answer; the
    line that stops the run names the workers and the engine each one runs."""
    line = cluster_hello({"tcp://a:1": ("ok", {"name": "first-engine", "version": "1.0"}),
                          "tcp://b:2": ("ok", {"name": "second-engine", "version": "2.0"})})
    assert "tcp://a:1" in line and "tcp://b:2" in line
    assert "first-engine 1.0" in line and "second-engine 2.0" in line


# ---- what a corpus holds, what a run counts -----------------------------------------------------------------


def test_a_corpus_settled_for_an_engine_plays_the_presets_it_declares() -> None:
    """session.py ``Corpus.for_engine``: with no rulesets given, the presets the engine declares (and those only)."""
    settled = Corpus().for_engine({"rulesets": ["flip7-no-deal"], "options": {}})
    assert [r.name for r in settled.ruleset_list] == ["flip7-no-deal"]


def test_a_saved_trace_runs_at_the_levels_asked_for_only() -> None:
    """session.py ``Corpus.trace_list``: a ``--trace`` file's cases at the levels the run checks (``--levels``)."""
    trace = FIXTURES / "flip7" / "bust-basic.json"
    at_game = Corpus(traces=[trace], levels=frozenset({Level.GAME})).trace_list()
    assert [case.level for case in at_game] == [Level.GAME]  # the fixture is a game case
    assert Corpus(traces=[trace], levels=frozenset({Level.ROUND})).trace_list() == []


def test_the_fixtures_count_in_the_coverage_as_the_fixture_part() -> None:
    """session.py ``Corpus.cases``: each case is counted in the coverage, by corpus part, as it is yielded; the
    reports show the fixtures' part as ``fixture``."""
    corpus = Corpus(rulesets=[ruleset("flip7")], games=0, fixtures=FIXTURES, scoring=False, min_coverage=0)
    cases = list(corpus.cases())
    assert cases and all(case.id.startswith("fixture:") for case in cases)
    assert set(corpus.coverage.by_part["flip7"]) == {"fixture"}
    assert sum(corpus.coverage.by_part["flip7"]["fixture"].values()) > 0


def test_a_run_counts_the_decisions_of_every_case() -> None:
    """session.py ``run``: returns the decisions made, those of every case's results (but the legality checks,
    which replay the decisions of a case already counted)."""
    corpus = Corpus(rulesets=[ruleset("flip7")], games=2, seed="0", players=(3,), scoring=False, min_coverage=0)
    _, results, decisions = run(EngineSpec(python="flip7_spec.protocol.adapter:ReferenceAdapter"), corpus)
    counted = [r.decisions for r in results if r.level != Level.LEGAL]
    assert len([d for d in counted if d > 0]) >= 2
    assert decisions == sum(counted)


# ---- one engine, one case -----------------------------------------------------------------------------------


class SilentAtHello(ReferenceAdapter):
    """An in-process engine that never answers the handshake."""

    def hello(self) -> dict[str, Any]:
        time.sleep(30)
        return super().hello()


def test_an_in_process_engine_silent_at_the_handshake_is_unusable_in_a_line_naming_the_handshake() -> None:
    """guard.py, engines.py ``handshake``: an in-process engine's every call is bounded by the timeout; the
    message of an engine that cannot be used says what it did not answer."""
    started = time.monotonic()
    with pytest.raises(EngineUnusable) as raised:
        handshake(EngineSpec(python=f"{__name__}:SilentAtHello", timeout=0.5))
    assert time.monotonic() - started < 10
    assert "no answer to hello within 0.5 s" in str(raised.value)


class ErrorsAtStart(ReferenceAdapter):
    """An in-process engine that fails at the start of every game."""

    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
              reshuffles: Sequence[Sequence[str]]) -> Observation:
        raise EngineFailure("this engine cannot start a game")


def smoke_lines(python: str) -> tuple[bool | None, list[str]]:
    lines: list[str] = []
    return smoke(lambda: handshake(EngineSpec(python=python)), lines.append, lambda result: []), lines


def test_smoke_calls_a_game_that_differs_a_difference_and_a_game_that_errors_one_that_did_not_run() -> None:
    """smoke.py: the smoke game either differs from the reference (the adapter works, the engine answers
    otherwise) or does not run at all (an error); the line says which."""
    conforms, lines = smoke_lines("tests.mutants.dealer_fixed:Engine")
    assert conforms is False
    assert any(line.startswith("smoke: the adapter works, but ") and line.endswith(" differs:") for line in lines)
    conforms, lines = smoke_lines(f"{__name__}:ErrorsAtStart")
    assert conforms is False
    assert any(line.startswith("smoke: ") and line.endswith(" did not run:") for line in lines), lines
    assert not any("adapter works" in line for line in lines)


def generated_failure(python: str, level: Level) -> tuple[EngineAdapter, dict[str, Any], Case]:
    """The engine ``python`` and the first generated Flip 7 game it fails at ``level`` (by seed, 4 players)."""
    engine, hello = handshake(EngineSpec(python=python))
    for index in range(20):
        case = next(c for c in job_cases(GameJob(ruleset("flip7"), 4, "0", index),
                                         generated_game(ruleset("flip7"), 4, "0", index)) if c.level is level)
        if any(r.outcome == FAIL for r in run_case(engine, case, hello)):
            return engine, hello, case
    raise AssertionError(f"{python} fails no generated game")


def test_a_finished_case_keeps_its_case_only_when_it_failed() -> None:
    """engines.py ``FinishedCase``: ``case`` is kept only when a result failed or errored (reports show the game
    up to the divergence)."""
    engine, hello, case = generated_failure("tests.mutants.dealer_fixed:Engine", Level.GAME)
    try:
        failed = finish(engine, hello, case, None)
        assert failed.case is case
        reference, own = handshake(EngineSpec(python="flip7_spec.protocol.adapter:ReferenceAdapter"))
        try:
            assert finish(reference, own, case, None).case is None
        finally:
            reference.close()
    finally:
        engine.close()


def test_a_failure_whose_shrinking_fails_is_kept_with_the_error_named(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """engines.py ``finish``: shrinking must never lose the failure itself; the result then says why nothing
    was saved, naming the error."""
    engine, hello, case = generated_failure("tests.mutants.dealer_fixed:Engine", Level.GAME)

    def broken(*args: object) -> dict[str, Any]:
        raise RuntimeError("the shrinker broke")

    monkeypatch.setattr(engines, "shrink", broken)
    try:
        outcome = finish(engine, hello, case, tmp_path)
    finally:
        engine.close()
    (failed,) = [r for r in outcome.results if r.outcome == FAIL]
    assert failed.shrunk == "(shrinking failed: RuntimeError: the shrinker broke)"
    assert not list(tmp_path.iterdir())


def test_a_trace_handed_to_a_writer_is_named_as_it_would_be_saved() -> None:
    """engines.py ``finish``: ``writer`` is handed each saved trace instead of the file system (a cluster worker
    hands them back, and the command writes them under ``save``): its path is the one in the result."""
    engine, hello, case = generated_failure("tests.mutants.dealer_fixed:Engine", Level.GAME)
    written: list[tuple[Path, str]] = []
    save = Path("failures-not-written")
    try:
        outcome = finish(engine, hello, case, save, writer=lambda path, text: written.append((path, text)))
    finally:
        engine.close()
    assert not save.exists()
    (failed,) = [r for r in outcome.results if r.outcome == FAIL]
    ((path, text),) = written
    assert path.parent == save and failed.shrunk == str(path)
    assert json.loads(text)["header"]["provenance"]["failure"]["clause"] == failed.clause


def test_a_failure_in_a_later_round_is_shrunk_to_that_round_played_first() -> None:
    """shrink.py: a failure is saved as a small trace that still fails with its clause; a round that fails
    whichever round it is (a Frozen player banking nothing, F7-FREEZE) is played again as the first round of a
    fresh game, its cards on top of the deck, instead of the whole game up to it."""
    engine, hello = handshake(EngineSpec(python="tests.mutants.frozen_scores_zero:Engine"))
    try:
        for index in range(20):
            case = next(c for c in job_cases(GameJob(ruleset("flip7"), 4, "0", index),
                                             generated_game(ruleset("flip7"), 4, "0", index)) if c.level is Level.GAME)
            failed = [r for r in run_case(engine, case, hello) if r.outcome == FAIL]
            step = failed[0].step if failed else None
            rounds = [d.round or 0 for d in case.document.decisions if step is not None and d.index <= step]
            if rounds and max(rounds) >= 2:
                break
        else:
            raise AssertionError("no generated game fails after its first round")
        small = shrink(case, failed[0], lambda c: run_case(engine, c, hello))
        assert {d.round for d in TraceDocument.of(small).decisions} == {1}  # one round, the first
        again = run_case(engine, Case(case.id + " (shrunk)", Level.GAME, case.ruleset, trace=small), hello)
        assert any(r.outcome == FAIL and r.clause == "F7-FREEZE" for r in again)
    finally:
        engine.close()


class NotesItsProcess(ReferenceAdapter):
    """The reference, noting in the file ``$PIDS_NOTED`` the process that builds each instance."""

    def __init__(self) -> None:
        super().__init__()
        with open(os.environ["PIDS_NOTED"], "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")


def test_an_isolated_run_with_one_worker_runs_its_cases_in_one_worker_process(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """session.py ``run``: ``isolated`` runs the cases in a worker process even with one worker; one worker, one
    engine at a time (the handshake's own engine, in this process, is closed before the worker starts)."""
    noted = tmp_path / "pids"
    monkeypatch.setenv("PIDS_NOTED", str(noted))
    corpus = Corpus(rulesets=[ruleset("flip7")], games=3, seed="0", players=(3,), scoring=False, min_coverage=0)
    _, results, _ = run(EngineSpec(python=f"{__name__}:NotesItsProcess"), corpus, workers=1, isolated=True)
    assert len({r.case_id for r in results}) == 6
    pids = set(noted.read_text(encoding="utf-8").split()) - {str(os.getpid())}
    assert len(pids) == 1, pids
