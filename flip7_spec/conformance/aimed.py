"""Aimed games: generated games steered at the clauses the corpus has not exercised often enough yet.

After the ordinary generated games, the generator plays candidate games on the reference and keeps those
that exercise a clause still short of ``least`` generated cases. Each candidate aims at one short clause (the
scarcer, the likelier; a clause that candidates have missed less likely) and is steered by:

- the declared option values of that clause, and often of a few other short clauses at once;
- a low target score when the engine takes any (a round limit being aimed at is played out);
- one hunt, the likelier the more often it (or a sibling clause's hunt) exercised that clause before:
  a Flip 7 hunt (one player hits while the others stay, and the pile, steered with
  :class:`flip7_spec.steering.PileSteering` as the rare-state scripts do, brings them new Numbers, special
  cards among them, or a drawing Action followed by the Numbers that complete seven); an Action hunt
  (Actions and special cards put on top of the pile before random Hits, so that each Action meets players in
  every state); a tangle hunt (a drawing Action followed by the cards it draws: Actions set aside, a bust);
  a tie, an everyone-busts and a bottom-of-the-pile hunt; and, when the engine takes custom decks, deck
  hunts: a small deck, a tiny deck (about a Number a player and an Action: the piles run out in the first
  round) and a still deck (Numbers worth 0 under a round limit: rounds without a point, endless play);
- more players than one deck serves, or fewer players per deck, for the two-deck clauses.

Candidates are cheap (the reference plays them in a few milliseconds); a kept game costs the engine a case.
They come in batches, and after each batch the one worth most is kept (the short clauses it exercises, the
scarcer the more, per decision). A clause that :data:`MISSES` candidates aimed at it did not exercise is set
aside, so that it does not starve the others; the clauses left short are reported with the reason.

Each candidate is built and played by :mod:`flip7_spec.conformance.hunts`; this module chooses what it aims
at and which candidates are kept. Everything is drawn from :class:`random.Random` instances seeded by the
run's seed: the same ``--seed`` gives the same games. The candidate budget is ``cap`` per ruleset (by default
:data:`RUN_BUDGET` split among the run's rulesets), shared: what a ruleset does not use goes to the rulesets
still short.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.clauses import CLAUSES, clause
from flip7_spec.conformance.cases import GameJob, game_jobs, generated_play, job_cases
from flip7_spec.conformance.coverage import (
    Coverage,
    clauses_of_evidence,
    expected_clauses,
    watch_round_ends,
)
from flip7_spec.conformance.hunts import (
    COSTLY,
    DECK_HUNTS,
    HUNTS,
    Aim,
    AimedGame,
    aimed_game,
    deck_hunt,
    declared_values,
    more_than_a_deck,
    option_changes,
    with_options_or_same,
)
from flip7_spec.errors import Flip7Error
from flip7_spec.evidence import Evidence, RoundEnd
from flip7_spec.judge.case import Case
from flip7_spec.protocol import Level
from flip7_spec.rulesets import Ruleset

DEFAULT_CAP = 400
"""Candidate games per ruleset when a number of cases per clause is asked for (``--min-coverage K``)."""

RUN_BUDGET = 300
"""Candidate games of a default run, split among its rulesets (100 each for three, 60 for five): the
engine's time on the aimed games stays about the same whichever number of rulesets it declares."""

MISSES = 16
"""Aimed candidates a short clause gets without exercising it before the generator sets it aside for the
rest of the ruleset's candidates (and says so, see :func:`aimed_cases`): the others are not starved by one
the hunts cannot reach."""

BATCH = 4
"""Candidates played for each game kept: the one worth most (:func:`_worth`) is kept. A candidate costs
the reference a few milliseconds, a kept game costs the engine a case."""

RESERVE = 8
"""Candidates worth keeping that lost their batch, kept to compete in the next batches (worth is weighed
again as the counts change)."""

CASE_COST = 120
"""The decisions at which a candidate's worth halves (:func:`_worth`): an engine's time on a case grows with
its decisions, so a long game is kept only when it exercises more short clauses than a short one."""

SCARCE = 3
"""The weight of a short clause already exercised by fewer cases than another: each case fewer multiplies
its chance of being aimed at by this."""


@dataclass
class Hunting:
    """What the aimed candidates of one ruleset have shown so far: per hunt, how many were played and how
    many exercised each clause; per clause, how many candidates aimed at it missed it."""

    played: Counter[str] = field(default_factory=Counter)
    produced: dict[str, Counter[str]] = field(default_factory=dict)
    misses: Counter[str] = field(default_factory=Counter)
    hunts: dict[str, Counter[str]] = field(default_factory=dict)
    """Per clause, the hunts of the candidates aimed at it."""
    producers: dict[str, set[str]] = field(default_factory=dict)
    """Per clause, the hunts that exercised it at least once."""
    missed_by: dict[str, Counter[str]] = field(default_factory=dict)
    """Per clause, the hunts of the candidates aimed at it that missed it."""

    def record(self, aimed_at: str, hunt: str, found: frozenset[str]) -> None:
        """Count one candidate aimed at ``aimed_at`` with ``hunt`` that exercised ``found``."""
        self.played[hunt] += 1
        self.produced.setdefault(hunt, Counter()).update(found)
        for c in found:
            self.producers.setdefault(c, set()).add(hunt)
        self.hunts.setdefault(aimed_at, Counter())[hunt] += 1
        if aimed_at not in found:
            self.misses[aimed_at] += 1
            self.missed_by.setdefault(aimed_at, Counter())[hunt] += 1

    def rate(self, hunt: str, clause: str) -> float:
        """The share of ``hunt``'s candidates that exercised ``clause`` (0 before any was played)."""
        played = self.played[hunt]
        return self.produced.get(hunt, Counter())[clause] / played if played else 0.0

    def affinity(self, hunt: str, clause_id: str) -> float:
        """How likely ``hunt`` seems to exercise ``clause_id``: its share of candidates that did, or half its
        best share for a sibling clause (one that names the same option: another reading of the same rule)
        when that is more."""
        own = self.rate(hunt, clause_id)
        return max([own, *(0.5 * self.rate(hunt, c) for c in _siblings(clause_id))])

    def target(self, short: Sequence[str], counts: Mapping[str, int], rng: random.Random) -> str:
        """The clause the next candidate aims at, among ``short`` (not empty): the fewer cases a clause has,
        the likelier (:data:`SCARCE`), and a clause some hunt has exercised before is likelier than one
        that candidates have missed so far."""
        least = min(counts.get(c, 0) for c in short)
        weights = []
        for c in short:
            known = max((self.rate(h, c) for h in self.producers.get(c, ())), default=0.0)
            weights.append(SCARCE ** (least - counts.get(c, 0)) * (1.0 + 4.0 * known) / (1.0 + self.misses[c]))
        return rng.choices(sorted(short), [w for _, w in sorted(zip(short, weights, strict=True))])[0]

    def reason(self, clause: str) -> str:
        """Why ``clause`` was set aside: the candidates aimed at it and their hunts."""
        tried = self.hunts.get(clause, Counter())
        hunts = ", ".join(f"{h} {n}" for h, n in sorted(tried.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"not exercised by {self.misses[clause]} aimed candidate games ({hunts})"


@functools.cache
def _siblings(clause_id: str) -> tuple[str, ...]:
    """The other clauses that name the same option as ``clause_id`` (none when it names none)."""
    option = clause(clause_id).option if clause_id in CLAUSES else None
    return () if option is None else tuple(c.id for c in CLAUSES.values() if c.option == option and c.id != clause_id)


def _aim(ruleset: Ruleset, players: Sequence[int], aimed_at: str, short: set[str],
         variants: Mapping[str, Any] | None, decks: bool, rng: random.Random, hunting: Hunting) -> Aim:
    """The next candidate, aimed at ``aimed_at``: its option values, player count and hunt (a hunt that
    exercised that clause or a sibling before is likelier, the likelier the more often it did
    (:meth:`Hunting.affinity`); one that missed it when aimed at it less likely, so that a clause no hunt
    has exercised yet meets each in turn)."""
    changes = option_changes(ruleset, aimed_at, short, variants, rng)
    try:
        steered = ruleset.with_options(**changes) if changes else ruleset
    except Flip7Error:
        steered = ruleset
    hunts = [h for h in HUNTS if decks or h not in DECK_HUNTS]
    missed = hunting.missed_by.get(aimed_at, Counter())
    weights = [(COSTLY.get(h, 1.0) + 8.0 * hunting.affinity(h, aimed_at)) / (1.0 + missed[h]) ** 2 for h in hunts]
    hunt = rng.choices(hunts, weights)[0]
    if hunt == "tie" and declared_values(variants, "target_score") == "any":
        steered = with_options_or_same(steered, target_score=rng.randint(1, 8))
    if hunt in ("tangle", "all_bust") and declared_values(variants, "target_score") == "any" \
            and not steered.round_limit:
        steered = with_options_or_same(steered, target_score=rng.choice((1, 15)))  # what they steer: in round 1
    low = max(steered.min_players, 1)
    high = steered.max_players or max(players)
    counts = [min(max(p, low), high) for p in players]
    count = rng.choice(counts)
    if hunt in DECK_HUNTS:
        made = deck_hunt(steered, hunt, count, variants, rng)
        if made is None:
            hunt = "free"
        else:
            steered = made
    if hunt == "bottom" and steered.target_score < ruleset.target_score:
        steered = with_options_or_same(steered, target_score=ruleset.target_score)  # the game must last the whole pile
    if "TWO-DECKS" in aimed_at or (any("TWO-DECKS" in c for c in short) and rng.random() < 0.3):
        count, steered = more_than_a_deck(steered, count, variants, rng)
    deck = steered.deck_cards(count)
    specials = sorted({c.text for c in deck if not c.is_number or c.special is not None or c.value == 0})
    return Aim(steered, count, hunt, tuple(specials))


def _worth(gained: set[str] | frozenset[str], counts: Mapping[str, int], least: int, decisions: int) -> float:
    """What keeping a candidate is worth: for each short clause it exercises (``gained``), :data:`SCARCE`
    times more for each case fewer that clause has, divided by ``1 + decisions / CASE_COST``."""
    return sum(float(SCARCE) ** (least - 1 - counts.get(c, 0)) for c in gained) / (1.0 + decisions / CASE_COST)


class _RulesetAim:
    """The aimed candidates of one ruleset: what they have learned, and the clauses set aside."""

    def __init__(self, ruleset: Ruleset, players: Sequence[int], seed: str, coverage: Coverage, least: int,
                 variants: Mapping[str, Any] | None, decks: bool, misses: int = MISSES) -> None:
        self.ruleset, self.players, self.seed, self.coverage, self.least = ruleset, players, seed, coverage, least
        self.variants, self.decks, self.misses = variants, decks, misses
        self.expected, _ = expected_clauses(ruleset, variants)
        self.rng = random.Random(f"{seed}:aimed:{ruleset.name}")
        self.hunting = Hunting()
        self.set_aside: dict[str, str] = {}
        self.index = 0  # candidates played so far
        self.reserve: list[tuple[int, AimedGame, frozenset[str]]] = []  # worth keeping, not kept yet

    def wanting(self) -> set[str]:
        """The expected clauses still short of ``least`` cases."""
        return set(self.coverage.short(self.ruleset.name, self.expected, self.least))

    def done(self) -> bool:
        """Whether no clause is left to aim at (every one has its cases, or is set aside)."""
        return not self.wanting() - set(self.set_aside)

    def batch(self, allowance: int) -> Iterator[tuple[Case, frozenset[str]]]:
        """Play up to :data:`BATCH` candidates (at most ``allowance``), then keep the one worth most among
        them and the reserve, if any is worth something."""
        wanting = self.wanting()
        counts = self.coverage.counts.get(self.ruleset.name, Counter())
        hunting = self.hunting
        for _ in range(min(BATCH, allowance)):
            aims = sorted(wanting - set(self.set_aside))
            if not aims:
                break
            aimed_at = hunting.target(aims, counts, self.rng)
            aim = _aim(self.ruleset, self.players, aimed_at, wanting, self.variants, self.decks, self.rng, hunting)
            found: frozenset[str] = frozenset()
            try:
                aim.ruleset.check_players(aim.players)
                played = aimed_game(aim, self.seed, self.index)
                found = clauses_of_evidence(played.evidence)
                self.reserve.append((self.index, played, found))
            except Flip7Error:
                pass  # a combination of options the reference refuses, or a game that would not end
            hunting.record(aimed_at, aim.hunt, found)
            if hunting.misses[aimed_at] >= self.misses and aimed_at not in found:
                self.set_aside[aimed_at] = hunting.reason(aimed_at)
            self.index += 1
        ranked = sorted(((_worth(wanting & f, counts, self.least, len(g.record.plies)), i, g, f)
                         for i, g, f in self.reserve), key=lambda entry: (-entry[0], entry[1]))
        ranked = [entry for entry in ranked if entry[0] > 0]
        self.reserve = [(i, g, f) for _, i, g, f in ranked[1:RESERVE + 1]]
        if not ranked:
            return
        _, kept, played, found = ranked[0]
        try:
            trace = played.trace()
        except Flip7Error:
            return
        # The game case only: it holds the first round too, and the engine replays each aimed game once.
        job = GameJob(played.aim.ruleset, played.aim.players, f"{self.seed}:aimed", kept)
        case = next(c for c in job_cases(job, trace) if c.level is Level.GAME)
        self.coverage.add(self.ruleset, "generated", found)
        yield case, found

    def notes(self, spent: bool) -> dict[str, str]:
        """Each expected clause still short, with the reason (``spent``: the candidate budget ran out)."""
        left = {}
        for clause_id in sorted(self.wanting()):
            aimed = self.hunting.hunts.get(clause_id, Counter()).total()
            left[clause_id] = self.set_aside.get(clause_id) or (
                f"the budget of aimed candidate games was spent ({self.index} for {self.ruleset.name}, {aimed} "
                f"aimed at it)" if spent else "no aimed candidate game could be played")
        return left


def aimed_cases(rulesets: Sequence[Ruleset], players: Sequence[int], seed: str, coverage: Coverage,
                least: int, variants: Mapping[str, Any] | None = None, cap: int = DEFAULT_CAP,
                decks: bool = True, notes: dict[str, dict[str, str]] | None = None,
                ) -> Iterator[tuple[Case, frozenset[str]]]:
    """Aimed games for each ruleset until every expected clause is exercised by ``least`` cases of
    ``coverage`` (which is updated with the cases kept), within a budget of ``cap`` candidates per ruleset:
    each ruleset plays up to ``cap``, then the candidates the others left unplayed go, a batch at a time, to
    the rulesets still short. Each kept game gives a game case (seed ``SEED:aimed``), with the clauses it
    exercises. ``decks`` says whether the engine takes custom decks (the deck hunts need them).

    Candidates come in batches of :data:`BATCH`; after each batch the candidate worth most is kept, among
    the batch and the best :data:`RESERVE` earlier ones not kept yet (:func:`_worth`: the short clauses it
    exercises, the scarcer the more, per engine cost). A clause that :data:`MISSES` candidates aimed at it
    (or a tenth of ``cap``, when more) did not exercise is set aside for the rest of the ruleset's
    candidates. ``notes`` (when given) receives, per ruleset name, each expected clause still short of
    ``least`` cases at the end, with the reason: set aside after so many candidates, or the budget spent."""
    misses = max(MISSES, cap // 10)
    aims = [_RulesetAim(r, players, seed, coverage, least, variants, decks, misses) for r in rulesets]
    for aim in aims:
        while aim.index < cap and not aim.done():
            yield from aim.batch(cap - aim.index)
    spare = sum(max(0, cap - aim.index) for aim in aims)
    while spare > 0:
        short = [aim for aim in aims if not aim.done()]
        if not short:
            break
        for aim in short:
            before = aim.index
            yield from aim.batch(min(BATCH, spare))
            spare -= aim.index - before
            if spare <= 0:
                break
    if notes is not None:
        for aim in aims:
            notes[aim.ruleset.name] = aim.notes(spent=spare <= 0 or aim.index >= cap)


def played_clauses(job: GameJob) -> tuple[dict[str, Any], tuple[frozenset[str], frozenset[str]]]:
    """A generated game's trace, and the clauses its round case and its game case exercise, read from the
    play itself (the same as :func:`~flip7_spec.conformance.coverage.trace_clauses` of the trace, without
    playing it again)."""
    ends: list[list[RoundEnd]] = []
    played = generated_play(job.ruleset, job.players, job.seed, job.index,
                            watch=lambda game: ends.append(watch_round_ends(game)))
    events = [e.to_json() for e in played.all_events()]
    evidence = Evidence(job.ruleset, job.players, events, tuple(ends[0]), played.over)
    trace = played.trace()
    return trace, (clauses_of_evidence(evidence.first_round()), clauses_of_evidence(evidence))


def generated_and_aimed(rulesets: Sequence[Ruleset], players: Sequence[int], games: int, seed: str,
                        variants: Mapping[str, Any] | None, least: int, cap: int, decks: bool,
                        levels: frozenset[str]) -> Iterator[Case]:
    """The corpus's generated part: ``games`` generated games (their cases at ``levels``, each with the clauses
    it exercises), then aimed games until each expected clause has ``least`` generated cases (at most ``cap``
    candidates per ruleset; none when ``least`` is 0 or the game level is not run). The last case carries
    the aim's notes (:attr:`Case.shortfalls`): per ruleset, the clauses still short of ``least`` generated
    cases and why."""
    aiming = Coverage(own=frozenset(r.name for r in rulesets))
    held: Case | None = None  # the latest case, yielded once the next one comes (the last carries the notes)
    for job in game_jobs(rulesets, players, games, seed, variants):
        trace, clauses = played_clauses(job)
        for case in job_cases(job, trace):
            case.clauses = clauses[0] if case.level is Level.ROUND else clauses[1]
            if case.level in levels:
                aiming.add(case.ruleset, "generated", case.clauses)
                if held is not None:
                    yield held
                held = case
    if games and least > 0 and Level.GAME in levels:
        notes: dict[str, dict[str, str]] = {}
        for case, found in aimed_cases(rulesets, players, seed, aiming, least, variants, cap, decks, notes):
            case.clauses = found
            if held is not None:
                yield held
            held = case
        if held is not None:
            held.shortfalls = notes
    if held is not None:
        yield held


__all__ = [
    "BATCH",
    "CASE_COST",
    "DEFAULT_CAP",
    "MISSES",
    "RESERVE",
    "RUN_BUDGET",
    "SCARCE",
    "Hunting",
    "aimed_cases",
    "generated_and_aimed",
    "played_clauses",
]
