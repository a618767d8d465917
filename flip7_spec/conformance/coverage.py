"""Clause coverage of a conformance corpus: how many cases exercise each rule clause, per ruleset.

A trace case exercises the clauses its reference events name, plus those its game's witness reads from the
play (:mod:`flip7_spec.evidence`); a round case counts its first round only. A scoring case exercises the
clause it was built for. Each case counts once per clause, and the counts are kept by corpus part
(scoring, fixture, trace, generated) so a report can say where coverage comes from.

A clause is *expected* for a ruleset when the game has it and its option value can be played: its own
value, or one the engine declares (:func:`expected_clauses`); the others are listed with the reason.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.cards import cards
from flip7_spec.clauses import clauses_for
from flip7_spec.evidence import Evidence, RoundEnd, ScoredRow
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.protocol import Level
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset, preset, preset_names
from flip7_spec.trace.document import TraceDocument, document_of


def evidence_of(ruleset: Ruleset, trace: TraceDocument | Mapping[str, Any], first_round_only: bool = False
                ) -> Evidence:
    """The reference's play of ``trace`` (its deck, Dealer, reshuffles and choices), as :class:`Evidence`;
    with ``first_round_only``, up to the end of the first round. Stops quietly at a choice the reference
    refuses (the runner reports such a trace; coverage counts what was played)."""
    document = document_of(trace)
    table = document.table
    players = table.players
    orders = [cards(list(r)) for r in document.reshuffles]
    game = make_game(ruleset, players, cards(list(table.deck)), table.dealer, record=True, reshuffles=orders)
    ends = watch_round_ends(game)
    events = [e.to_json() for e in game.start()]
    for choice in document.choices:
        if game.pending is None or (first_round_only and ends):
            break
        try:
            events.extend(e.to_json() for e in game.apply(choice))
        except Exception:
            break
    evidence = Evidence(ruleset, players, events, tuple(ends), game.over)
    return evidence.first_round() if first_round_only else evidence


def watch_round_ends(game: Game) -> list[RoundEnd]:
    """A list that fills with every round of ``game`` as it is scored (set before the game starts)."""
    ends: list[RoundEnd] = []

    def scored(finished: Game) -> None:
        rows = tuple(ScoredRow(tuple(c.text for c in p.cards), str(p.status)) for p in finished.players)
        ends.append(RoundEnd(finished.round, rows, tuple(finished.last_scores), tuple(finished.totals)))

    game.on_round_end = scored
    return ends


def trace_clauses(ruleset: Ruleset, trace: TraceDocument | Mapping[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The clauses a trace's round case and game case exercise (one replay for both)."""
    evidence = evidence_of(ruleset, trace)
    return clauses_of_evidence(evidence.first_round()), clauses_of_evidence(evidence)


def clauses_of_evidence(evidence: Evidence) -> frozenset[str]:
    """The clauses ``evidence`` exercises: its events' clauses and what its game's witness reads."""
    named = {str(e["clause"]) for e in evidence.events if "clause" in e}
    witnessed = definition_of(evidence.ruleset).clause_witness(evidence)
    return frozenset(named | set(witnessed))


def case_clauses(case: Any, played: dict[int, tuple[Any, Evidence]] | None = None) -> frozenset[str]:
    """The clauses one corpus case exercises (a :class:`~flip7_spec.judge.case.Case`). ``played``
    keeps the reference's play of each trace (by ``id``), so that a trace's round and game cases replay it once."""
    if case.clauses is not None:
        return frozenset(case.clauses)
    if case.level is Level.SCORING:
        return frozenset({case.clause} if case.clause else set())
    if case.trace is None:
        return frozenset()
    try:
        kept = None if played is None else played.get(id(case.trace))
        if kept is not None and kept[0] is case.trace:
            evidence = kept[1]
        else:
            evidence = evidence_of(case.ruleset, case.document)
            if played is not None:
                played.clear()  # only the latest trace: a round case and its game case come together
                played[id(case.trace)] = (case.trace, evidence)
        return clauses_of_evidence(evidence.first_round() if case.level is Level.ROUND else evidence)
    except Exception:  # a trace the reference cannot even start: no coverage (the runner reports it)
        return frozenset()


@dataclass(frozen=True, slots=True)
class Unreachable:
    """A clause of a ruleset's game that the corpus cannot exercise, and why."""

    clause: str
    reason: str


def _value_requirements(ruleset: Ruleset) -> dict[str, tuple[str, list[Any]]]:
    """clause id -> (option, the values under which it applies), for the clauses that options' values choose
    between (``Option.value_clauses``)."""
    out: dict[str, tuple[str, list[Any]]] = {}
    for name, option in ruleset.OPTIONS.items():
        if not option.value_clauses:
            continue
        values = option.values() or [getattr(ruleset, name), *option.value_clauses]
        for value in values:
            out.setdefault(option.clause_of(value), (name, []))[1].append(value)
    return out


def _playable(ruleset: Ruleset, option: str, value: Any, variants: Mapping[str, Any] | None) -> bool:
    own = getattr(ruleset, option)
    if type(own) is type(value) and own == value:
        return True
    if variants is None:
        return True
    declared = variants.get(option)
    return declared == "any" or (isinstance(declared, list) and any(
        type(v) is type(value) and v == value for v in declared))


def expected_clauses(ruleset: Ruleset, variants: Mapping[str, Any] | None = None
                     ) -> tuple[list[str], list[Unreachable]]:
    """The clauses of ``ruleset``'s game the corpus can exercise for it, and those it cannot, with the reason.

    ``variants`` are the option values the engine declares (None: every value). A clause chosen by an option
    value is expected when that value is the ruleset's own or declared. A clause about the deck composition
    (option ``deck``) is expected only for its own deck: the witness names the one a game plays. A clause about
    particular cards (``GameDefinition.clause_cards``) is expected only when the deck holds one of them.
    """
    requirements = _value_requirements(ruleset)
    definition = definition_of(ruleset)
    in_deck = {text for text, count in ruleset.deck if count > 0}
    expected: list[str] = []
    missing: list[Unreachable] = []
    for clause in clauses_for(ruleset.game):
        needs = definition.clause_cards.get(clause.id)
        if needs and not needs & in_deck:
            missing.append(Unreachable(clause.id, f"the deck of {ruleset.name} has no {' or '.join(sorted(needs))}"))
            continue
        if clause.option == "deck" and clause.id not in definition_of(ruleset).clause_witness(_empty_evidence(ruleset)):
            missing.append(Unreachable(clause.id, "needs a ruleset with another deck (--ruleset FILE)"))
            continue
        needed = requirements.get(clause.id)
        if needed is not None:
            option, values = needed
            if not any(_playable(ruleset, option, v, variants) for v in values):
                shown = " or ".join(f"{option}={json.dumps(v)}" for v in values)
                missing.append(Unreachable(clause.id, f"belongs to {shown}, which the engine does not declare"))
                continue
        expected.append(clause.id)
    return expected, missing


def _empty_evidence(ruleset: Ruleset) -> Evidence:
    return Evidence(ruleset, max(ruleset.min_players, 1), (), (), False)


@dataclass
class Coverage:
    """Per ruleset name, how many cases exercise each clause, in all and by corpus part."""

    counts: dict[str, Counter[str]] = field(default_factory=dict)
    by_part: dict[str, dict[str, Counter[str]]] = field(default_factory=dict)
    rulesets: dict[str, Ruleset] = field(default_factory=dict)
    own: frozenset[str] = frozenset()
    """The names of the run's own rulesets: each counts under its own name even when it starts from a preset
    (a ruleset file, a fingerprint), since the summary and the aimed games look it up so."""
    shortfalls: dict[str, dict[str, str]] = field(default_factory=dict)
    """Per ruleset name, the clauses the aimed games left short of their target number of generated cases,
    with the reason (from the last generated case, :attr:`~flip7_spec.judge.case.Case.shortfalls`)."""
    unchecked: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    """Per skip reason, per ruleset name, the clauses the cases skipped for that reason would have exercised
    (see :meth:`skipped`)."""
    _played: dict[int, tuple[Any, Evidence]] = field(default_factory=dict, repr=False)
    _cases: dict[str, tuple[str, str, frozenset[str]]] = field(default_factory=dict, repr=False)
    """Per case id counted by :meth:`add_case`: the ruleset name it counts under, its part and its clauses."""

    def add(self, ruleset: Ruleset, part: str, clauses: Iterable[str]) -> str:
        """Count one case of ``part`` that exercises ``clauses`` under ``ruleset``, counted under the name of its
        preset: option variants of a preset add up, and a ruleset file that is not one of the run's own
        (:attr:`own`; a fixture's small deck, say) counts for the preset it starts from. Returns that name."""
        presets = preset_names()
        own = ruleset.name in presets or ruleset.name in self.own or not ruleset.base
        name = ruleset.name if own else ruleset.base
        if name not in self.rulesets:
            self.rulesets[name] = preset(name) if name in presets else ruleset
        self.counts.setdefault(name, Counter()).update(set(clauses))
        self.by_part.setdefault(name, {}).setdefault(part, Counter()).update(set(clauses))
        return name

    def skipped(self, case_id: str, reason: str) -> None:
        """Take back the count of a case :meth:`add_case` counted that did not run (every result skipped): a
        skipped case checks nothing. Its clauses are kept under ``reason`` in :attr:`unchecked`."""
        entry = self._cases.pop(case_id, None)
        if entry is None:
            return
        name, part, clauses = entry
        for counter in (self.counts.get(name), self.by_part.get(name, {}).get(part)):
            if counter is not None:
                counter.subtract(clauses)
                for clause in clauses:
                    if counter[clause] <= 0:
                        del counter[clause]
        self.unchecked.setdefault(reason, {}).setdefault(name, set()).update(clauses)

    def left_unchecked(self, reason: str) -> list[str]:
        """The clauses only cases skipped for ``reason`` would have exercised: no case that ran reached them
        (per ruleset, the ruleset-qualified clause ids in order)."""
        out: list[str] = []
        for name, clauses in self.unchecked.get(reason, {}).items():
            reached = self.counts.get(name, Counter())
            out.extend(c for c in sorted(clauses) if reached[c] <= 0 and c not in out)
        return out

    def add_case(self, case: Any, part: str) -> frozenset[str]:
        """Count ``case`` (see :func:`case_clauses`) and keep the aim's notes it carries; returns its clauses.
        A case that then does not run is taken back with :meth:`skipped`."""
        found = case_clauses(case, self._played)
        name = self.add(case.ruleset, part, found)
        self._cases[str(case.id)] = (name, part, found)
        notes = getattr(case, "shortfalls", None)
        if notes:
            for name, left in notes.items():
                self.shortfalls.setdefault(name, {}).update(left)
        return found

    def short(self, name: str, expected: Sequence[str], least: int) -> list[str]:
        """The clauses of ``expected`` exercised by fewer than ``least`` cases of ruleset ``name``."""
        counts = self.counts.get(name, Counter())
        return [c for c in expected if counts[c] < least]


@dataclass(frozen=True, slots=True)
class RulesetCoverage:
    """The coverage of one ruleset as reports show it."""

    ruleset: str
    expected: tuple[str, ...]
    counts: Mapping[str, int]
    by_part: Mapping[str, Mapping[str, int]]
    unreachable: tuple[Unreachable, ...]
    shortfalls: Mapping[str, str] = field(default_factory=dict)
    """The expected clauses the aimed games left short of their target of generated cases, with the reason."""

    @property
    def reached(self) -> list[str]:
        return [c for c in self.expected if self.counts.get(c, 0) > 0]

    @property
    def unreached(self) -> list[str]:
        return [c for c in self.expected if self.counts.get(c, 0) == 0]

    @property
    def least(self) -> int:
        """The fewest cases that exercise a reached clause (0 when none is reached)."""
        reached = [self.counts[c] for c in self.reached]
        return min(reached) if reached else 0

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "expected": len(self.expected), "reached": len(self.reached),
                "least": self.least, "counts": {c: self.counts.get(c, 0) for c in self.expected},
                "by_part": {part: dict(sorted(c.items())) for part, c in self.by_part.items()},
                "unreached": self.unreached,
                "unreachable": [{"clause": u.clause, "reason": u.reason} for u in self.unreachable],
                "short_of_aim": [{"clause": c, "generated": self.generated(c), "reason": r}
                                 for c, r in sorted(self.shortfalls.items())]}

    def generated(self, clause: str) -> int:
        """How many generated cases exercise ``clause``."""
        return self.by_part.get("generated", {}).get(clause, 0)


def summarise(coverage: Coverage, variants: Mapping[str, Any] | None = None,
              rulesets: Sequence[Ruleset] | None = None) -> list[RulesetCoverage]:
    """One :class:`RulesetCoverage` per ruleset of ``rulesets`` (default: every ruleset counted, in the order
    first counted; a fixture's own ruleset is counted under its own name)."""
    out = []
    chosen = [(r.name, r) for r in rulesets] if rulesets is not None else list(coverage.rulesets.items())
    for name, ruleset in chosen:
        expected, unreachable = expected_clauses(ruleset, variants)
        counts = coverage.counts.get(name, Counter())
        parts = {part: {c: n for c, n in counter.items()} for part, counter in coverage.by_part.get(name, {}).items()}
        left = {c: r for c, r in coverage.shortfalls.get(name, {}).items() if c in expected}
        out.append(RulesetCoverage(name, tuple(expected), dict(counts), parts, tuple(unreachable), left))
    return out


def coverage_lines(summaries: Sequence[RulesetCoverage], verbose: bool = False, aimed: int = 0,
                   explain: bool = False, chosen: bool = False) -> list[str]:
    """The coverage section of the terminal summary: one line per ruleset, then its unreached clauses. When
    games were aimed at ``aimed`` generated cases per clause, the clauses left short of that: each with its
    count and the reason when ``explain`` or ``verbose``, else one line that says how many. A run of
    ``chosen`` cases (saved traces, a folder of fixtures without generated games, ``--only``) reaches few
    clauses by design: it shows the rulesets it reached and lists no unreached clause unless ``verbose``."""
    lines = []
    if chosen and not verbose:
        reached = [s for s in summaries if s.reached]
        for s in reached:
            lines.append(f"coverage {s.ruleset}: {len(s.reached)} of {len(s.expected)} clauses reached")
        if any(s.unreached for s in summaries):
            lines.append("  (a run of chosen cases reaches few clauses by design: the others are not listed; "
                         "-v lists them)")
        return lines
    for s in summaries:
        lines.append(f"coverage {s.ruleset}: {len(s.reached)} of {len(s.expected)} clauses reached, "
                     f"at least {s.least} case{'s' if s.least != 1 else ''} each")
        if s.unreached:
            lines.append(f"  unreached: {', '.join(s.unreached)}")
        if aimed > 0 and s.shortfalls:
            if explain or verbose:
                lines.append(f"  short of {aimed} generated cases (the aimed games could not reach them):")
                for c, reason in sorted(s.shortfalls.items()):
                    n = s.generated(c)
                    lines.append(f"    {c}: {n} generated case{'s' if n != 1 else ''}; {reason}")
            else:
                lines.append(f"  {len(s.shortfalls)} clause{'s' if len(s.shortfalls) != 1 else ''} short of "
                             f"{aimed} generated cases (-v or --min-coverage {aimed} lists them, with the reason)")
        if verbose:
            for u in s.unreachable:
                lines.append(f"  not expected: {u.clause}: {u.reason}")
    return lines
