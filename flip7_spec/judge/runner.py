"""Running one case against one engine: pass, fail (first divergence, with its clause), skipped or errored.

A trace case goes through named steps: :func:`play` (the engine plays the case's game), :func:`compare` (the
first divergence, and the first place where only the legal choices differ), :func:`diagnose_divergence` (the
readings that reproduce the engine there), :func:`follow_divergence` (the case followed past it under them,
to the evidence and the next causes) and :func:`explain_divergence` (what the failure says of its causes).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from flip7_spec.errors import ChanceError
from flip7_spec.judge import ERRORED, FAIL, PASS, SKIPPED, compared_differences, strip_options, totals_only
from flip7_spec.judge.case import Case
from flip7_spec.judge.diagnosis import (
    Diagnosis,
    diagnose,
    diagnose_reshuffle,
    diagnose_score,
    diagnoses,
    hand_score_or_none,
    is_reshuffle_problem,
    reference_observations,
)
from flip7_spec.judge.follow import Follow, FollowedPath, Support, possibly
from flip7_spec.judge.legality import first_illegal_offer
from flip7_spec.protocol import Level
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure, Skipped
from flip7_spec.protocol.declared import sent_ruleset, unsupported
from flip7_spec.protocol.schema import message_errors
from flip7_spec.registry import Role, definition_of
from flip7_spec.results import CaseResult, Explanation, FieldDifference, LastAgreed, field_differences
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.compare import (
    Difference,
    blame,
    canonical,
    step_difference,
)
from flip7_spec.trace.document import TraceDocument
from flip7_spec.trace.schema import json_path

HANDSHAKE = "handshake"
"""A case skipped because the engine's handshake does not declare what it needs."""
BY_ENGINE = "engine"
"""A case the handshake covers, skipped by the engine's own ``skipped`` reply."""


def support_problem(hello: dict[str, Any], case: Case) -> str | None:
    """Why ``hello`` says the engine cannot run ``case`` (None when it can): see
    :func:`~flip7_spec.protocol.declared.unsupported`."""
    return unsupported(hello, case.level, case.ruleset)


def run_scoring(engine: EngineAdapter, case: Case, sent: dict[str, Any] | None = None) -> CaseResult:
    """Send the hand and compare the score with the specification's. ``sent`` is the ruleset as the engine is
    sent it (:func:`~flip7_spec.protocol.declared.sent_ruleset`; default: every option)."""
    found = engine.score(case.ruleset.for_engine().to_json() if sent is None else sent, case.hand, case.busted)
    if step_difference(case.expected, found) is None:  # exact: 72.0 and true are not 72 and 1
        return CaseResult(case.id, Level.SCORING, PASS, label=case.label)
    hand = " ".join(case.hand) + (" (busted)" if case.busted else "")
    failure = CaseResult(case.id, Level.SCORING, FAIL, f"score of {hand}", where="$.score", expected=case.expected,
                         found=found, clause=case.clause, label=case.label, hand=tuple(case.hand),
                         busted=case.busted)
    diagnosis = diagnose_score(case.ruleset, case.hand, case.busted, found)
    explain(failure, diagnosis)
    if diagnosis is not None:
        failure.causes = (replace(diagnosis.explanation(), at_step=True, step=None),)
        failure.deviations = diagnosis.ruleset.readings() if diagnosis.ruleset else ()
    return failure


def _compared_decisions(case: Case) -> tuple[int, int | None]:
    """How many of the case's decisions are compared, and the one during which its round ends (a round case
    compares up to the end of its first round, and only the totals there; None for a game case)."""
    document = case.document
    if case.level is Level.ROUND:
        round_end = document.first_round_end()
        if round_end is not None:
            return round_end + 1, round_end
    return len(document.decisions), None


@dataclass(frozen=True, slots=True)
class Played:
    """A trace case as the engine played it: the decisions and reshuffle orders it was sent, the observations
    the reference expects and those the engine returned (at the start, then after each decision it took), and
    what stopped it before its last decision (None: nothing did)."""

    case: Case
    reshuffles: list[list[str]]
    decisions: list[dict[str, Any]]
    """The decisions the engine was sent (``player``, ``kind``, ``choice``; a part the trace lacks left out)."""
    choices: list[Any]
    indices: list[int]
    """The index in the trace's ``steps`` of each decision."""
    round_end: int | None
    """The decision during which a round case's round ends (only the totals are compared after it); None for a
    game case."""
    expected: list[Any]
    """The reference's observations the case compares (None where the trace records none)."""
    found: list[Any]
    stopped: Exception | None

    def step_index(self, position: int) -> int | None:
        """The trace's step index of the decision that led to ``position`` (None for the start)."""
        return None if position == 0 else self.indices[position - 1]


@dataclass(frozen=True, slots=True)
class Divergence:
    """A place where the engine's observation differs from the reference's: ``position`` (0 the start, k after
    decision k), the first ``difference``, both observations as they were compared there (``expected`` and
    ``found``: only the totals at a round case's last step, ``totals`` then true; the legal choices still in)."""

    position: int
    difference: Difference
    expected: Any
    found: Any
    totals: bool


@dataclass(frozen=True, slots=True)
class Comparison:
    """What the step-by-step comparison of a trace case found (see :func:`compare`)."""

    divergence: Divergence | None
    """The first divergence at the case's level (the legal choices left out); None when every compared
    observation the engine returned agrees."""
    legal: Divergence | None
    """With the ``legal`` level: the first place before :attr:`divergence` where only the legal choices
    differ; None otherwise."""


def play(engine: EngineAdapter, case: Case, sent: dict[str, Any] | None = None) -> Played:
    """Play the case's game on the engine: its deck, dealer, reshuffle orders and decisions (those a round case
    compares, up to the end of its first round), the ruleset as ``sent``. Raises what stopped the start (an
    :class:`EngineFailure` located there, or :class:`Skipped`); an engine that replies skipped later has
    failed (:attr:`Played.stopped`), since the protocol allows skipped for start and score only."""
    document = case.document
    table = document.table
    end, round_end = _compared_decisions(case)
    ruleset_json = case.ruleset.for_engine().to_json() if sent is None else sent  # the engine plays its own deviations
    expected = document.observations(end)
    decisions = [{"player": s.player, "kind": s.kind, "choice": s.choice} for s in document.decisions[:end]]
    decisions = [{k: v for k, v in d.items() if v is not None} for d in decisions]
    indices = [s.index for s in document.decisions]
    reshuffles = [list(order) for order in document.reshuffles]
    found, stopped = engine.play_game(ruleset_json, table.players, table.dealer, list(table.deck), reshuffles,
                                      decisions)
    if not found and stopped is not None:
        raise _located(stopped, 0)  # the start itself failed or was skipped
    if isinstance(stopped, Skipped):  # after a started game
        stopped = EngineFailure(f"the engine replied skipped in the middle of a game, after {len(found) - 1} "
                                f"decisions ({stopped}); skipped is an answer to start or score only",
                                stderr=stopped.stderr)
    return Played(case, reshuffles, decisions, [d["choice"] for d in decisions], indices, round_end, expected,
                  found, stopped)


def compare(played: Played, legal: bool) -> Comparison:
    """Compare the engine's observations with the reference's, position by position, as exact JSON values:
    the first divergence at the case's level (the legal choices left out; only the totals at a round case's
    last step) and, when ``legal``, the first position before it where only the legal choices differ. A
    position whose observation the trace does not record is not compared."""
    round_end = played.round_end
    legal_problem: Divergence | None = None
    for position, (expected, found) in enumerate(zip(played.expected, played.found, strict=False)):
        if expected is None:
            continue
        if canonical(expected) == canonical(found):  # exact JSON equality (true is not 1), at C speed
            continue
        step = None if position == 0 else position - 1
        at_round_end = round_end is not None and step == round_end
        if at_round_end:
            expected, found = totals_only(expected), totals_only(found)
        difference = step_difference(strip_options(expected), strip_options(found))
        if difference is not None:
            return Comparison(Divergence(position, difference, expected, found, at_round_end), legal_problem)
        if legal and legal_problem is None:
            options_difference = step_difference(expected, found)
            if options_difference is not None:
                legal_problem = Divergence(position, options_difference, expected, found, at_round_end)
    return Comparison(None, legal_problem)


def diagnose_divergence(played: Played, position: int) -> list[Diagnosis]:
    """Every reading (see :func:`~flip7_spec.judge.diagnosis.diagnoses`) under which the reference, replaying
    the case, shows what the engine showed up to and including ``position`` (compared as the case compares
    them), simplest first; empty when no known reading does."""
    case = played.case
    return diagnoses(case.ruleset, case.document.table, played.reshuffles, played.choices, played.found,
                     position, _projection(played.round_end))


def follow_divergence(played: Played, position: int, fields: int, matches: Sequence[Diagnosis]
                      ) -> tuple[Follow, FollowedPath]:
    """The case followed past its first divergence at ``position`` (where ``fields`` fields differ): under the
    readings of ``matches`` (the simplest path they lead to), or with the differing fields set aside when no
    reading explains it, up to the next divergences (see :class:`~flip7_spec.judge.follow.Follow`). Returns
    the follow, which names the causes, and the path it kept."""
    case = played.case
    follow = Follow(case.ruleset, case.document.table, played.reshuffles, played.choices, played.found,
                    played.indices, _projection(played.round_end))
    follow.fields[position] = fields
    return follow, (follow.path(matches, position) if matches else follow.unexplained(position))


def explain_divergence(failure: CaseResult, follow: Follow, path: FollowedPath, ruleset: Ruleset) -> None:
    """Say on ``failure`` what explains its divergence: the first cause of ``path`` (see :func:`explain`),
    every cause the case was followed to, and the deviations of the readings it was followed under."""
    explain(failure, path.causes[0], path.supports[0], ruleset)
    failure.causes = follow.causes(path)
    failure.deviations = path.ruleset.readings()


def run_trace(engine: EngineAdapter, case: Case, legal: bool, sent: dict[str, Any] | None = None
              ) -> list[CaseResult]:
    """Replay the case's trace on the engine, comparing observations; the first divergence fails it.

    Returns the result at the case's level and, when ``legal``, at the ``legal`` level too: the legal choices
    are compared while everything else matched, and every observation the engine returned is held to the
    game's judge of legal choices (:class:`_Judged`), after a divergence too. ``sent`` is the ruleset as the
    engine is sent it (:func:`~flip7_spec.protocol.declared.sent_ruleset`; default: every option).

    The steps: :func:`play`, :func:`compare`, then at a divergence :func:`diagnose_divergence`,
    :func:`follow_divergence` and :func:`explain_divergence`.
    """
    played = play(engine, case, sent)
    judged = _Judged(played, legal)
    comparison = compare(played, legal)
    legal_problem = None if comparison.legal is None else _legal_failure(played, comparison.legal)
    divergence = comparison.divergence
    if divergence is not None:
        _check_observation(played, divergence.position)
        failure = _divergence_failure(played, divergence, case.level)
        matches = diagnose_divergence(played, divergence.position)
        follow, path = follow_divergence(played, divergence.position, len(failure.differences or ()), matches)
        explain_divergence(failure, follow, path, case.ruleset)
        return [failure, *judged.results(legal_problem)]
    stopped = played.stopped
    if stopped is not None:
        if legal_problem is None and is_reshuffle_problem(stopped):
            return [_reshuffle_failure(played, stopped)]
        if legal_problem is None:
            located = _located(stopped, len(played.found))
            if isinstance(located, EngineFailure):
                located.agreed = _last_agreed(played.expected, played.found, len(played.found))
            raise located
        # The engine offered other choices, then refused one the rules allow: a rules failure at both levels.
        refused = CaseResult(case.id, case.level, FAIL, f"the engine refused a legal choice: {stopped}",
                             step=legal_problem.step, where=legal_problem.where, expected=legal_problem.expected,
                             found=legal_problem.found, clause=legal_problem.clause, decision=legal_problem.decision,
                             label=case.label, decisions=legal_problem.decisions)
        _copy_explanations(legal_problem, refused)
        return [refused, legal_problem]
    decisions = len(played.decisions)
    results = [CaseResult(case.id, case.level, PASS, decisions=decisions, label=case.label)]
    if legal:
        results.extend(judged.results(legal_problem) or [CaseResult(case.id, Level.LEGAL, PASS,
                                                                    decisions=decisions, label=case.label)])
    return results


def _check_observation(played: Played, position: int) -> None:
    """Raise an :class:`EngineFailure` when the engine's observation at ``position`` is not an observation of
    the protocol at all (a divergence there is the engine's error, not a rules failure)."""
    observed = played.found[position]
    problems = message_errors(observed, "observation")
    if problems:
        step_index = played.step_index(position)
        at = "the start" if step_index is None else f"step {step_index}"
        stopped = played.stopped
        broken = EngineFailure(f"observation breaks the protocol at {at}: {problems[0]}",
                               raw=json.dumps(observed)[:2000], at=position,
                               in_sync=stopped is None or getattr(stopped, "in_sync", False))
        broken.agreed = _last_agreed(played.expected, played.found, position)
        raise broken


def _divergence_failure(played: Played, divergence: Divergence, level: Level) -> CaseResult:
    """The case's failure at ``level`` (its own, or ``legal``, where only the legal choices differ) at
    ``divergence``: its first differing field with the clause the trace's events blame, both whole observations
    and every differing field (the legal choices among them only at the ``legal`` level), not yet explained."""
    case, position = played.case, divergence.position
    prefix = case.document.path(position)
    failure = _failure(case, level, played.step_index(position), prefix, divergence.difference,
                       divergence.expected, position)
    _observations(failure, played.expected[position], played.found[position], divergence.totals)
    failure.differences = field_differences(prefix, compared_differences(divergence.expected, divergence.found,
                                                                         legal=level is Level.LEGAL))
    return failure


def _legal_failure(played: Played, problem: Divergence) -> CaseResult:
    """The case's ``legal`` failure where the comparison found only the legal choices differing, with its
    differences and the reading that explains it (or its clause marked as a guess)."""
    failure = _divergence_failure(played, problem, Level.LEGAL)
    explain(failure, diagnose(played.case.ruleset, played.case.document.table, played.reshuffles, played.choices,
                              played.found, problem.position, _projection(played.round_end, legal=True)))
    return failure


def _located(error: Exception, at: int) -> Exception:
    """The error that stopped a game at its request ``at`` (0 the start, k the k-th decision) as an
    :class:`EngineFailure` that says so (an in-process engine's own exception by its type and message);
    a :class:`Skipped` start as it is."""
    if isinstance(error, Skipped):
        return error
    failure = error if isinstance(error, EngineFailure) else EngineFailure(f"{type(error).__name__}: {error}")
    failure.at = at
    return failure


def _last_agreed(expected: list[Any], found: list[Any], before: int) -> tuple[int, Any] | None:
    """The last place before ``before`` whose observation the case compared, and the engine's observation there
    (every compared place before a failure agreed, or the case would have failed there); None when the case
    compared none (the trace records no observation there)."""
    for position in range(min(before, len(found)) - 1, -1, -1):
        if position < len(expected) and expected[position] is not None:
            return position, found[position]
    return None


def _observations(failure: CaseResult, expected: Any, found: Any, totals: bool) -> None:
    """Keep both whole observations at a divergence in ``failure``, for reports that show the two tables side by
    side; ``compared`` says when only the totals were compared (a round case's last step shows the next round
    already dealt)."""
    failure.expected_observation, failure.found_observation = expected, found
    if totals:
        failure.compared = "totals"


def _copy_explanations(source: CaseResult, target: CaseResult) -> None:
    """What ``source`` shows of its divergence (observations, differences, readings, blame), on ``target``."""
    for name in ("differences", "expected_observation", "found_observation", "compared", "diagnosis", "causes",
                 "blame", "base", "fits_none", "deviations"):
        setattr(target, name, getattr(source, name))


def _failure(case: Case, level: Level, step_index: int | None, prefix: list[str | int], difference: Any,
             expected: Any, position: int) -> CaseResult:
    document = case.document
    events = document.events_at(position)
    step = document.step_at(position)
    decision = None if step is None else step.decision
    clause = blame(difference.path, events, Role.HIT_STAY, definition_of(case.ruleset), expected)
    where = json_path([*prefix, "observation", *difference.path])
    return CaseResult(case.id, level, FAIL, "observation differs", step=step_index, where=where,
                      expected=difference.expected, found=difference.found, clause=clause, decision=decision,
                      label=case.label, decisions=position)


class _Judged:
    """The ``legal`` level beyond the step-by-step comparison: the first observation the engine returned (the
    start, then after each decision, past a divergence too) whose offered choices are not those the game's
    judge says the rules allow at that state (:mod:`flip7_spec.judge.legality`)."""

    def __init__(self, played: Played, legal: bool) -> None:
        self.played = played
        self.offer = first_illegal_offer(played.case.ruleset, played.found) if legal else None

    def results(self, compared: CaseResult | None) -> list[CaseResult]:
        """The case's ``legal`` failure, if any (a list of at most one): the judge's, unless the comparison
        found one (``compared``) at the same step or earlier."""
        offer = self.offer
        if offer is None or (compared is not None and compared.decisions <= offer.position):
            return [compared] if compared is not None else []
        played, position = self.played, offer.position
        case = played.case
        step_index = played.step_index(position)
        where = json_path([*case.document.path(position), "observation", "pending", "options"])
        step = case.document.step_at(position)
        decision = None if step is None else step.decision
        failure = CaseResult(case.id, Level.LEGAL, FAIL, "the choices offered are not those the rules allow",
                             step=step_index, where=where, expected=offer.allowed, found=offer.offered,
                             clause=offer.clause, decision=decision, label=case.label, decisions=position)
        _observations(failure, offer.allowed_observation(), offer.observation, False)
        failure.differences = (FieldDifference(where, offer.allowed, offer.offered),)
        diagnosis = diagnose(case.ruleset, case.document.table, played.reshuffles, played.choices, played.found,
                             position, _projection(played.round_end, legal=True))
        if diagnosis is not None:
            explain(failure, diagnosis)
            return [failure]
        failure.blame = "rules"  # no reading named, but the clause is the rules' own, not a guess
        failure.causes = (Explanation(f"the engine offers choices the rules do not allow: clause {offer.clause} at "
                                      f"{where}", reading=None, at_step=True, step=step_index, where=where),)
        return [failure]


def _projection(round_end: int | None, legal: bool = False) -> Any:
    """What a case compares at each position: the totals only at a round case's last step, and the legal
    choices only at the ``legal`` level."""
    def project(at: int, observation: Any) -> Any:
        if round_end is not None and at - 1 == round_end:
            observation = totals_only(observation)
        return observation if legal else strip_options(observation)

    return project


def reproduces_case(case: Case, ruleset: Ruleset) -> bool:
    """Whether the reference under ``ruleset`` shows exactly what ``case`` expects, compared as the case
    compares an engine (its level's projection; the legal choices left out): the score of a scoring case, the
    observation at every step of a trace case. False when ``ruleset`` refuses one of the case's decisions or
    cannot use its reshuffle orders (an engine that accepted them does not play ``ruleset``)."""
    if case.level is Level.SCORING:
        found = hand_score_or_none(ruleset, case.hand, case.busted)
        return found is not None and step_difference(case.expected, found) is None
    document = case.document
    end, round_end = _compared_decisions(case)
    expected = document.observations(end)
    choices = document.choices[:end]
    seen = reference_observations(ruleset, document.table, document.reshuffles, choices, len(expected))
    if len(seen) < len(expected):
        return False
    project = _projection(round_end)
    return all(want is None or canonical(project(at, want)) == canonical(project(at, got))
               for at, (want, got) in enumerate(zip(expected, seen, strict=True)))


def _reshuffle_failure(played: Played, stopped: Exception) -> CaseResult:
    """The engine could not use the reshuffle orders it was given: it reshuffles at another moment, or other
    cards, than the reference. A failure of the reshuffle clause (or of the reading it plays), not an error.
    What the engine found is its structured ``errored.reshuffle`` when it sent one (the problem, its discard
    pile), else its message."""
    case, found, indices, decisions = played.case, played.found, played.indices, played.decisions
    step = len(found) - 1
    step_index = indices[step] if 0 <= step < len(indices) else None
    decision = decisions[step] if 0 <= step < len(decisions) else None
    found_text: Any = str(stopped)[:500]
    if isinstance(stopped, EngineFailure) and stopped.reshuffle is not None:
        found_text = stopped.reshuffle.to_json()
    elif isinstance(stopped, ChanceError) and stopped.reshuffle is not None:  # an in-process engine
        found_text = dict(stopped.reshuffle)
    failure = CaseResult(case.id, case.level, FAIL, f"the engine cannot use the reshuffle orders: {stopped}",
                         step=step_index, where="$.reshuffles",
                         expected="the reshuffles the reference needs, at the moments it needs them",
                         found=found_text,
                         clause=definition_of(case.ruleset).clause_of(Role.RESHUFFLE),
                         decision=decision, label=case.label, decisions=len(found) - 1)
    diagnosis = diagnose_reshuffle(case.ruleset, case.document.table, played.reshuffles, played.choices, found,
                                   _projection(played.round_end))
    # One fact only (the reading needs another reshuffle there too): a possible reading, not a claim.
    at = len(found) - 1
    explain(failure, diagnosis, Support(at, 1, 1, None, False), case.ruleset)
    if diagnosis is not None:
        assert failure.diagnosis is not None
        failure.causes = (replace(failure.diagnosis, at_step=True, step=step_index),)
    return failure


def explain(failure: CaseResult, diagnosis: Diagnosis | None, support: Support | None = None,
            ruleset: Ruleset | None = None) -> None:
    """Name the reading that explains ``failure`` (its clause replaces the blamed one), as a claim when its
    ``support`` confirms it and as *possibly* that reading otherwise; or mark the blamed clause as a guess when
    no known reading reproduces the engine (saying so when the clause is an option's and the engine fits
    none of its readings)."""
    if ruleset is not None:
        failure.base = ruleset.base or ruleset.name
    if diagnosis is None:
        failure.blame = "guess"
        failure.message += " (no known reading reproduces the engine; the clause is a guess)"
        if ruleset is not None and failure.clause is not None:
            fits_none = none_of_the_readings(ruleset, failure.clause)
            if fits_none:
                failure.fits_none = fits_none
                failure.message += f"; {fits_none}"
        return
    named = diagnosis.explanation()
    if support is not None:
        named = replace(named, evidence=support.evidence())
    if diagnosis.ruleset is not None:
        failure.base = diagnosis.ruleset.base or diagnosis.ruleset.name
    failure.clause = diagnosis.clause
    if support is not None and not support.confirmed:
        failure.blame = "possible"
        failure.diagnosis = replace(named, text=possibly(named.text, support))
        failure.message += f"; {failure.diagnosis.text}"
        return
    failure.diagnosis = named
    failure.blame = "diagnosed"
    failure.message += f"; {diagnosis.describe()}"


def none_of_the_readings(ruleset: Ruleset, clause: str) -> str | None:
    """When ``clause`` states one reading of an option of ``ruleset``'s game: a line saying the engine fits
    none of that option's readings (the reference reproduced it under none of them)."""
    for name, option in ruleset.OPTIONS.items():
        values = option.values()
        if values is None:
            continue
        if clause == option.clause or clause in option.value_clauses.values():
            shown = ", ".join(json.dumps(v) for v in values)
            return (f"none of the readings of {name} ({shown}) reproduces the engine either: if the difference "
                    f"is about {name}, the engine plays a reading no known value gives")
    return None


def _errored(engine: EngineAdapter, case: Case, failure: EngineFailure) -> CaseResult:
    """An errored result: the engine's message, raw reply and stderr excerpt (up to the failing reply), and
    where the error came. In a trace case, as for a failure, the step (its index in the trace's ``steps``)
    and the decision of the request that failed, ``where`` naming that step (``$.start`` for the start).
    A scoring case has no trace: it carries the hand, and the ruleset as sent, to ask the engine again.
    A trace case that errored after the engine answered part of its game carries ``last_agreed``: the last
    observation the engine and the reference agreed on before the error, its step (None: the start) and
    its JSON path in the trace, so that a report shows the table as it stood (:func:`last_agreed`)."""
    stderr = failure.stderr
    through = None if failure.at is None else engine.stderr_through(failure.at)
    if through is not None:
        stderr = through
    result = CaseResult(case.id, case.level, ERRORED, str(failure), raw=failure.raw, stderr=stderr,
                        label=case.label)
    if case.trace is not None and failure.at is not None:
        document = case.document
        result.decisions = failure.at
        if failure.at == 0:
            result.where = json_path(["start"])
        elif (step := document.step_at(failure.at)) is not None:
            result.step = step.index
            result.decision = step.decision
            result.where = json_path(["steps", step.index])
        if failure.agreed is not None:
            result.last_agreed = last_agreed(document, *failure.agreed)
    elif case.level is Level.SCORING:
        result.hand, result.busted, result.ruleset = tuple(case.hand), case.busted, case.ruleset.for_engine().to_json()
    return result


def last_agreed(document: TraceDocument, position: int, observation: Any) -> LastAgreed:
    """An errored result's ``last_agreed``: the observation at ``position`` of the game (0 the start, k after
    its k-th decision), its ``step`` in the trace (None for the start) and ``where`` (its JSON path)."""
    step = document.step_at(position)
    return LastAgreed(None if step is None else step.index, json_path([*document.path(position), "observation"]),
                      observation)


def run_case(engine: EngineAdapter, case: Case, hello: dict[str, Any]) -> list[CaseResult]:
    """Run one case; never raises for anything the engine does (crash, hang, garbage, exception). The engine
    is told the case's id while it runs it (a process engine's traffic records it)."""
    engine.case = case.id
    try:
        return _run_case(engine, case, hello)
    finally:
        engine.case = None


def _run_case(engine: EngineAdapter, case: Case, hello: dict[str, Any]) -> list[CaseResult]:
    started = time.perf_counter()
    problem = support_problem(hello, case)
    if problem is not None:
        results = [CaseResult(case.id, case.level, SKIPPED, problem, label=case.label, skipped_by=HANDSHAKE)]
    else:
        try:
            sent = sent_ruleset(case.ruleset, hello)  # only the options the engine declared
            if case.level is Level.SCORING:
                results = [run_scoring(engine, case, sent)]
            else:
                results = run_trace(engine, case, Level.LEGAL in hello.get("levels", []), sent)
        except Skipped as skipped:
            results = [CaseResult(case.id, case.level, SKIPPED, str(skipped), label=case.label,
                                  skipped_by=BY_ENGINE)]
        except EngineFailure as failure:
            results = [_errored(engine, case, failure)]
            if not failure.in_sync:  # a crash, a timeout, garbage: the engine's state is unknown
                engine.restart()
        except Exception as error:  # an in-process engine's own exception
            engine.restart()
            results = [_errored(engine, case, EngineFailure(f"{type(error).__name__}: {error}"))]
    elapsed = time.perf_counter() - started
    for result in results:
        result.seconds = round(elapsed, 4)
    return results


__all__ = ["BY_ENGINE", "HANDSHAKE", "CaseResult", "Comparison", "Divergence", "Played", "compare",
           "diagnose_divergence", "explain", "explain_divergence", "follow_divergence", "last_agreed",
           "none_of_the_readings", "play", "reproduces_case", "run_case", "run_scoring", "run_trace",
           "support_problem"]
"""(``CaseResult`` is handed on, as the runner's module handed it on before the judge had a package.)"""
