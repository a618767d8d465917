"""Proving a game's theorems about round scoring with z3, and checking them against a scorer.

A game's theorem has an id, a one-line statement and the clauses it covers. It is a property of one hand A,
or of two hands A and B where B is A changed by a step the game defines (one more card of some kind, say).
It is proved of the game's z3 model by showing its negation unsatisfiable, in a fresh ``z3.Context`` with a
timeout (:func:`prove_with`); ``unknown`` is a failure. A theorem about an optimum first finds the bound and
a hand reaching it with z3 ``Optimize``; a theorem that a hand exists is proved by a witness.

The model is then compared with the scorer under test on the hands of its domain. Where they agree
everywhere, every theorem proved of the model holds of the scorer. Where they differ, each theorem is
re-checked on the scorer at those hands (and the steps into and out of them, :func:`scan_differences`): a
violation is a counterexample hand; if there is none the theorem still holds of the scorer; if the re-check
would exceed its budget the result is ``unknown``.

Theorem sets are per game: each game's z3 plug-in (:mod:`flip7_spec.symbolic.plugin`) builds its own, a
:class:`GameTheorems` subclass; :func:`flip7_spec.symbolic.prover.theorem_set` and
:func:`flip7_spec.symbolic.prover.prove` find it from the ruleset.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Generic, Protocol, TypeVar

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Kind
from flip7_spec.play import round_score
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS
from flip7_spec.symbolic.terms import Expr, Scorer, SymbolicError, total

CHECK_BUDGET: Final = 500_000
"""The most property evaluations spent re-checking one theorem on a scorer that differs from the model."""



class ProofStatus(StrEnum):
    """How a theorem stands (its value is what ``flip7-spec prove`` and its JSON report write)."""

    PROVED = "proved"
    """It holds: proved of the model, and of the scorer under test when one is given."""
    COUNTEREXAMPLE = "counterexample"
    """A hand breaks it (the hand is given)."""
    UNKNOWN = "unknown"
    """Neither: z3 gave no answer in time, or a re-check on the scorer would exceed its budget."""


PROVED: Final = ProofStatus.PROVED
COUNTEREXAMPLE: Final = ProofStatus.COUNTEREXAMPLE
UNKNOWN: Final = ProofStatus.UNKNOWN


class NoTheorems(SymbolicError):
    """No theorem set exists for the game of a ruleset."""


H = TypeVar("H")
"""A symbolic hand of a game's model."""

P = TypeVar("P")
"""A concrete hand (point) of a game's domain."""

FORALL: Final = "forall"
MAX: Final = "max"
MIN: Final = "min"
EXISTS: Final = "exists"


@dataclass(frozen=True)
class HandClaim(Generic[H]):
    """What a theorem's property talks about: hand A and its score, hand B and its score for a theorem about
    a step, and the bound found for a theorem about an optimum."""

    a: H
    sa: Expr
    b: H | None = None
    sb: Expr | None = None
    bound: int | None = None

    def after(self) -> tuple[H, Expr]:
        """Hand B and its score. Raises :class:`SymbolicError` for a theorem about one hand."""
        if self.b is None or self.sb is None:
            raise SymbolicError("this property needs hand B: declare the theorem with a step")
        return self.b, self.sb

    def limit(self) -> int:
        """The optimum found. Raises :class:`SymbolicError` for a theorem without one."""
        if self.bound is None:
            raise SymbolicError("this property needs a bound: declare the theorem with an optimum")
        return self.bound


@dataclass(frozen=True)
class HandScore:
    """A concrete hand (canonical card texts), whether it busted, and the score it got."""

    cards: list[str]
    busted: bool
    score: int

    def __str__(self) -> str:
        text = " ".join(self.cards) if self.cards else "(no cards)"
        return f"{text}{' (busted)' if self.busted else ''} -> {self.score}"

    def to_json(self) -> dict[str, Any]:
        """The hand as a JSON value."""
        return {"cards": self.cards, "busted": self.busted, "score": self.score}


@dataclass
class TheoremResult:
    """The outcome of one theorem: ``status`` is ``proved``, ``counterexample`` or ``unknown``.

    ``hands`` holds the counterexample (hand A, then B for a step), or for a bound the hand reaching it.
    ``method`` says how it was established: ``z3`` (a proof of the model, carried over to the scorer),
    or ``enumeration`` for the comparison of the scorer with the model on every hand.
    """

    id: str
    statement: str
    clauses: tuple[str, ...]
    status: ProofStatus
    seconds: float
    hands: list[HandScore] = field(default_factory=list)
    detail: str = ""
    method: str = "z3"
    value: int | None = None

    @property
    def proved(self) -> bool:
        """Whether the theorem was proved."""
        return self.status == PROVED

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON value."""
        return {
            "id": self.id, "statement": self.statement, "clauses": list(self.clauses), "status": self.status,
            "seconds": round(self.seconds, 3), "hands": [h.to_json() for h in self.hands],
            "detail": self.detail, "method": self.method, "value": self.value,
        }


@dataclass
class ProofReport:
    """Every result of a theorem set for one ruleset and scorer; the first result is the model/scorer check."""

    ruleset: str
    game: str
    domain: str
    scorer: str
    results: list[TheoremResult]

    @property
    def ok(self) -> bool:
        """Whether every theorem was proved and the scorer matches the model."""
        return all(r.proved for r in self.results)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON value."""
        return {"ruleset": self.ruleset, "game": self.game, "domain": self.domain, "scorer": self.scorer,
                "ok": self.ok, "results": [r.to_json() for r in self.results]}


class TheoremSet(Protocol):
    """The theorems of one game for one ruleset."""

    def describe(self) -> str:
        """One line describing the hands the theorems range over."""

    def theorems(self) -> Sequence[Any]:
        """The theorems, in the order they are proved."""

    def prove(self, scorer: Scorer | None = round_score, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> ProofReport:
        """Prove every theorem and check it against ``scorer`` (``None``: of the model only)."""


# ---------------------------------------------------------------------------------------------------------
# Steps between hands: the modifier counts every game's steps share
# ---------------------------------------------------------------------------------------------------------


def one_more_modifier(ctx: Any, before: Sequence[Expr], after: Sequence[Expr], modifiers: Sequence[Any],
                      kind: Kind) -> list[Expr]:
    """Constraints saying that the modifier counts ``after`` are ``before`` with one more card of ``kind``."""
    relation = []
    added = []
    for x, y, m in zip(before, after, modifiers, strict=True):
        if m.kind is kind:
            relation.append(y >= x)
            added.append(y - x)
        else:
            relation.append(x == y)
    return [*relation, total(ctx, added) == 1]


def modifier_steps(mods: tuple[int, ...], modifiers: Sequence[Any], kind: Kind,
                   delta: int) -> Iterator[tuple[int, ...]]:
    """The modifier counts ``mods`` with one card of ``kind`` more (``delta`` 1) or fewer (``delta`` -1)."""
    for i, m in enumerate(modifiers):
        if m.kind is kind and mods[i] + delta >= 0:
            changed = list(mods)
            changed[i] += delta
            yield tuple(changed)


# ---------------------------------------------------------------------------------------------------------
# Properties every game's theorems use
# ---------------------------------------------------------------------------------------------------------


def bust_zero(c: HandClaim[Any]) -> Expr:
    """A busted hand A scores 0 (the hand needs a ``busted`` Boolean)."""
    return z3.Implies(c.a.busted, c.sa == 0)


def at_most(c: HandClaim[Any]) -> Expr:
    """Hand A scores at most the bound found (the property of a ``max`` theorem)."""
    return c.sa <= c.limit()


def at_least(c: HandClaim[Any]) -> Expr:
    """Hand A scores at least the bound found (the property of a ``min`` theorem)."""
    return c.sa >= c.limit()


# ---------------------------------------------------------------------------------------------------------
# Proving
# ---------------------------------------------------------------------------------------------------------


@dataclass
class ModelProof(Generic[P]):
    """The outcome of a theorem proved of the model: the bound or witness score and the hand for an optimum
    or an existence."""

    status: ProofStatus
    seconds: float
    bound: int | None = None
    witness: P | None = None
    hands: list[HandScore] = field(default_factory=list)
    detail: str = ""


class GameTheorem(Protocol):
    """What proving needs of a theorem of any game."""

    @property
    def kind(self) -> str:
        """``forall``, ``max``, ``min`` or ``exists``."""

    @property
    def step(self) -> Any:
        """The step from hand A to hand B, or ``None`` for a theorem about one hand."""

    @property
    def prop(self) -> Callable[[Any], Expr]:
        """Builds the property from a :class:`HandClaim`."""


def hand_score(domain: Any, point: Any, score: int) -> HandScore:
    """A concrete hand of ``domain`` and the score it got."""
    return HandScore([c.text for c in domain.cards(point)], point.busted, score)


def prove_with(theorem: GameTheorem, domain: Any, timeout_ms: int, new_hand: Callable[[Any, Any, str], Any],
               relation: Callable[[Any, Any, Any], list[Expr]], optimum: str | None = None) -> ModelProof[Any]:
    """Prove ``theorem`` of a game's model in a fresh context with a timeout: a theorem about every hand by
    showing its negation unsatisfiable, after z3 ``Optimize`` found the bound (``max``, ``min``) or the
    witness (``exists``). ``new_hand(domain, ctx, name)`` builds a symbolic hand and ``relation`` the
    constraints of a step; ``optimum`` names what z3 looked for when it found none (default: the kind)."""
    started = time.perf_counter()
    ctx = z3.Context()
    a = new_hand(domain, ctx, "A")
    b = new_hand(domain, ctx, "B") if theorem.step is not None else None
    sa = z3.Int("score(A)", ctx)
    sb = z3.Int("score(B)", ctx) if b is not None else None
    bound: int | None = None
    witness: Any = None
    if theorem.kind in (MAX, MIN, EXISTS):
        optimizer = z3.Optimize(ctx=ctx)
        optimizer.set(timeout=timeout_ms)
        optimizer.add(*a.constraints(), sa == a.score)
        if theorem.kind == EXISTS:
            optimizer.add(theorem.prop(HandClaim(a, sa)))
        elif theorem.kind == MAX:
            optimizer.maximize(a.score)
        else:
            optimizer.minimize(a.score)
        optimizer.minimize(a.size)
        optimizer.minimize(a.canonical_weight())
        answer = optimizer.check()
        if answer == z3.unsat and theorem.kind == EXISTS:
            return ModelProof(COUNTEREXAMPLE, time.perf_counter() - started,
                              detail="z3 proved that no hand of the model has this property")
        if answer != z3.sat:
            return ModelProof(UNKNOWN, time.perf_counter() - started,
                              detail=f"z3 found no {optimum or theorem.kind}: {optimizer.reason_unknown()}")
        found = optimizer.model()
        bound = int(found.eval(a.score, model_completion=True).as_long())
        witness = a.point_in(found)
        if theorem.kind == EXISTS:
            return ModelProof(PROVED, time.perf_counter() - started, bound, witness,
                              [hand_score(domain, witness, bound)])
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", timeout_ms)
    solver.add(*a.constraints(), sa == a.score)
    if b is not None and sb is not None and theorem.step is not None:
        solver.add(*b.constraints(), sb == b.score, *relation(theorem.step, a, b))
    solver.add(z3.Not(theorem.prop(HandClaim(a, sa, b, sb, bound))))
    answer = solver.check()
    seconds = time.perf_counter() - started
    if answer == z3.unsat:
        hands = [hand_score(domain, witness, bound)] if witness is not None and bound is not None else []
        return ModelProof(PROVED, seconds, bound, witness, hands)
    if answer == z3.sat:
        found = solver.model()
        hands = [hand_score(domain, a.point_in(found), int(found.eval(sa, model_completion=True).as_long()))]
        if b is not None and sb is not None:
            scored_b = int(found.eval(sb, model_completion=True).as_long())
            hands.append(hand_score(domain, b.point_in(found), scored_b))
        return ModelProof(COUNTEREXAMPLE, seconds, bound, witness, hands,
                          "the specification model itself breaks the theorem")
    return ModelProof(UNKNOWN, seconds, bound, witness, detail=f"z3 gave no answer: {solver.reason_unknown()}")


def property_function(theorem: GameTheorem, bound: int | None, domain: Any, new_hand: Callable[[Any, Any, str], Any],
                      compile_fn: Callable[[list[Expr], list[Expr]], Callable[..., tuple[Any, ...]]]
                      ) -> tuple[Any, Callable[..., tuple[Any, ...]]]:
    """A symbolic hand A and ``theorem``'s property compiled to Python: its arguments are the values of
    hand A's inputs, then of hand B's for a step, then the scores of A (and B)."""
    ctx = z3.Context()
    a = new_hand(domain, ctx, "A")
    b = new_hand(domain, ctx, "B") if theorem.step is not None else None
    sa = z3.Int("score(A)", ctx)
    sb = z3.Int("score(B)", ctx) if b is not None else None
    inputs = a.inputs() + (b.inputs() if b is not None else []) + [sa] + ([sb] if sb is not None else [])
    return a, compile_fn(inputs, [theorem.prop(HandClaim(a, sa, b, sb, bound))])


def scan_differences(theorem: GameTheorem, proof: ModelProof[P], domain: Any, ordered: Sequence[P],
                     differences: int, holds: Callable[..., tuple[Any, ...]], values: Callable[[P], tuple[Any, ...]],
                     scored: Callable[[P], int], successors: Callable[[Any, P, Any], Iterator[P]],
                     predecessors: Callable[[Any, P, Any], Iterator[P]], budget: int
                     ) -> tuple[ProofStatus, list[HandScore], str]:
    """Re-check a theorem proved of the model at the hands ``ordered`` where the scorer differs (and the
    steps into and out of them), with ``scored`` giving the scorer's score of a hand."""
    if proof.witness is not None and scored(proof.witness) != proof.bound:
        got = scored(proof.witness)
        return (COUNTEREXAMPLE, [hand_score(domain, proof.witness, got)],
                f"the scorer gives {got} where the bound {proof.bound} is reached")
    evaluations = 0
    for point in ordered:
        if theorem.step is None:
            pairs: list[tuple[P, P | None]] = [(point, None)]
        else:
            step = theorem.step
            pairs = [*((point, after) for after in successors(domain, point, step)),
                     *((before, point) for before in predecessors(domain, point, step))]
        for first, second in pairs:
            evaluations += 1
            if evaluations > budget:
                return (UNKNOWN, [], f"the scorer differs from the model at {differences} hands; "
                        f"no violation of this theorem in the first {budget} checks")
            if second is None:
                ok = holds(*values(first), scored(first))[0]
            else:
                ok = holds(*values(first), *values(second), scored(first), scored(second))[0]
            if not ok:
                hands = [hand_score(domain, p, scored(p)) for p in (first, second) if p is not None]
                return COUNTEREXAMPLE, hands, "the scorer under test breaks the theorem"
    return (PROVED, [], f"the scorer differs from the model at {differences} hands, "
            "none of which breaks this theorem")


def scorer_name(scorer: Scorer) -> str:
    """The dotted name of a scorer, as the reports give it."""
    module = getattr(scorer, "__module__", None)
    name = getattr(scorer, "__qualname__", None) or repr(scorer)
    return f"{module}.{name}" if module else name


D = TypeVar("D")
"""A game's hand domain."""


class GameTheorems(Generic[D]):
    """The theorems of one game for one ruleset: what proving every theorem and checking it against a scorer
    shares between games. A game gives its theorems and how to prove one, to compare a scorer with its model
    and to re-check a theorem on a scorer that differs from the model."""

    def __init__(self, ruleset: Ruleset, domain: D) -> None:
        self.ruleset = ruleset
        self.domain = domain

    def describe(self) -> str:
        """One line: the hand domain."""
        domain: Any = self.domain
        return f"{domain.describe()}; {domain.size()} hands"

    def theorems(self) -> Sequence[Any]:
        """The theorems, in the order they are proved."""
        raise NotImplementedError

    def prove_one(self, theorem: Any, timeout_ms: int) -> ModelProof[Any]:
        """Prove ``theorem`` of the model."""
        raise NotImplementedError

    def compare(self, scorer: Scorer, name: str, limit: int) -> tuple[Any, TheoremResult]:
        """Compare ``scorer`` (called ``name``) with the model: the agreement and its result row."""
        raise NotImplementedError

    def recheck(self, theorem: Any, proof: ModelProof[Any], agreement: Any, scorer: Scorer,
                budget: int) -> tuple[ProofStatus, list[HandScore], str]:
        """Re-check a theorem proved of the model on a scorer that differs from it."""
        raise NotImplementedError

    def prove_all(self, scorer: Scorer | None, timeout_ms: int, limit: int, budget: int) -> ProofReport:
        """Compare ``scorer`` with the model (``limit`` bounds the comparison), then prove every theorem and
        re-check it on the scorer where the scorer differs from the model (at most ``budget`` checks)."""
        domain: Any = self.domain
        results = []
        agreement: Any = None
        name = "none (the model only)"
        if scorer is not None:
            name = scorer_name(scorer)
            agreement, row = self.compare(scorer, name, limit)
            results.append(row)
        for theorem in self.theorems():
            proof = self.prove_one(theorem, timeout_ms)
            status, hands, detail, seconds = proof.status, proof.hands, proof.detail, proof.seconds
            if status == PROVED and agreement is not None and scorer is not None and not agreement.agrees:
                started = time.perf_counter()
                status, found, detail = self.recheck(theorem, proof, agreement, scorer, budget)
                seconds += time.perf_counter() - started
                hands = found or hands
            statement = theorem.statement
            if proof.bound is not None and proof.witness is not None:
                witness = " ".join(c.text for c in domain.cards(proof.witness)) or "no cards"
                statement = statement.format(value=proof.bound, witness=witness)
            results.append(TheoremResult(theorem.id, statement, theorem.clauses, status, seconds, hands, detail,
                                         value=proof.bound))
        return ProofReport(self.ruleset.name, self.ruleset.game, self.describe(), name, results)
