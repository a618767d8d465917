"""Plausible misreadings of a game's scoring rules, and the smallest hands that tell each from the specification.

A misreading is a scoring rule that some engine, score counter or rules summary could plausibly implement
instead of the official one. Each game's z3 plug-in (:mod:`flip7_spec.symbolic.plugin`) writes its
misreadings twice: as a Python scorer with the signature of :func:`flip7_spec.play.round_score`, and as a z3
term over the game's scoring model (:class:`SymbolicMisreading`). For each, z3 finds a hand with the fewest cards on
which the misreading's score differs from the specification's (and, among those, one on which the
misreading's score also differs from as many other misreadings' as possible, so that a wrong score names its
misreading: :func:`smallest_case`). The result is data, :class:`ScoringCase`, that the conformance runner
sends to engines at the ``scoring`` level.

Nothing is cached: the cases are computed at run time, in well under a second per misreading.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.errors import CardError
from flip7_spec.play import check_hand, round_score
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic.terms import Expr, Scorer, SymbolicError, total


class CaseHand(Protocol):
    """What the search needs of a symbolic hand of a game's model."""

    domain: Any
    score: Expr
    size: Expr

    def constraints(self) -> list[Expr]:
        """The conditions for the variables to describe a hand of the domain."""

    def canonical_weight(self) -> Expr:
        """A weight that differs between any two hands."""

    def point_in(self, model: Any) -> Any:
        """The hand a z3 model assigns to the variables."""


H = TypeVar("H", bound=CaseHand)
"""A symbolic hand of a game's model."""


@dataclass(frozen=True)
class SymbolicMisreading(Generic[H]):
    """A wrong scoring rule: ``score`` computes it in Python, ``symbolic`` builds it as a z3 term over a
    symbolic hand of the game's model.

    ``clause`` is the id of the clause it breaks; ``source`` says where the reading comes from.
    """

    id: str
    misreading: str
    clause: str
    source: str
    score: Scorer
    symbolic: Callable[[H], Expr]


@dataclass(frozen=True)
class ScoringCase:
    """A hand on which a misreading scores differently from the specification.

    ``cards`` are canonical card texts (a busted hand ends with its duplicate Number); ``expected`` is the
    specification's score, computed by :func:`flip7_spec.play.round_score`; ``misreading_score`` is what
    the misreading gives. ``players`` is a player count for which the hand is possible (more than
    ``players_per_deck`` when it needs a second deck).
    """

    id: str
    misreading: str
    clause: str
    cards: list[str]
    busted: bool
    expected: int
    misreading_score: int
    players: int

    def to_json(self) -> dict[str, Any]:
        """The case as a JSON value."""
        return {"id": self.id, "misreading": self.misreading, "clause": self.clause, "cards": self.cards,
                "busted": self.busted, "expected": self.expected, "misreading_score": self.misreading_score,
                "players": self.players}


@dataclass(frozen=True)
class CaseSearch:
    """The outcome of the search for one misreading: its case, or ``None`` when no hand of the ruleset
    tells it from the specification (for example a misreading about a card the deck lacks)."""

    misreading: SymbolicMisreading[Any]
    case: ScoringCase | None
    seconds: float


# ---------------------------------------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------------------------------------


def smallest_case(ruleset: Ruleset, players: int | None, misreading: SymbolicMisreading[H],
                  rivals: Sequence[SymbolicMisreading[H]], timeout_ms: int, new_hand: Callable[[Any], H]) -> CaseSearch:
    """Search a hand with the fewest cards on which ``misreading`` scores differently from the specification,
    and among those the one that also tells it from the most ``rivals``.

    ``new_hand`` builds the symbolic hand of the ruleset's model in a z3 context; each misreading's
    ``symbolic`` gives its score of that hand. Raises :class:`SymbolicError` when z3 gives no answer in
    ``timeout_ms``, or when the hand found cannot occur or is scored differently by the Python scorers.
    """
    started = time.perf_counter()
    ctx = z3.Context()
    hand = new_hand(ctx)
    domain = hand.domain
    wrong = misreading.symbolic(hand)
    # the fewest cards, by iterative deepening: every smaller size is proved to have no distinguishing hand
    deepen = z3.Solver(ctx=ctx)
    deepen.set("timeout", timeout_ms)
    deepen.add(*hand.constraints(), wrong != hand.score)
    size = 0
    while True:
        answer = deepen.check(hand.size == size)
        if answer == z3.sat:
            break
        if answer != z3.unsat:
            raise SymbolicError(f"{misreading.id}: z3 gave no answer for hands of {size} cards in {timeout_ms} ms "
                                f"({deepen.reason_unknown()})")
        size += 1
        if size > domain.size_limit():
            return CaseSearch(misreading, None, time.perf_counter() - started)
    # among hands of that size: one that also tells this misreading from the most others, then a fixed one
    optimizer = z3.Optimize(ctx=ctx)
    optimizer.set(timeout=timeout_ms)
    optimizer.add(*hand.constraints(), wrong != hand.score, hand.size == size)
    others = [r.symbolic(hand) for r in rivals if r.id != misreading.id]
    if others:
        one, zero = z3.IntVal(1, ctx), z3.IntVal(0, ctx)
        optimizer.maximize(total(ctx, [z3.If(other != wrong, one, zero) for other in others]))
    optimizer.minimize(hand.canonical_weight())
    if optimizer.check() != z3.sat:
        raise SymbolicError(f"{misreading.id}: z3 found no best hand of {size} cards in {timeout_ms} ms "
                            f"({optimizer.reason_unknown()})")
    found = optimizer.model()
    point = hand.point_in(found)
    cards = domain.cards(point)
    count = players if players is not None else ruleset.min_players
    if not point.busted:
        try:
            check_hand(ruleset, cards, count)
        except CardError as error:
            raise SymbolicError(f"{misreading.id}: the hand found cannot occur: {error}") from None
    expected = round_score(ruleset, cards, point.busted)
    got = misreading.score(ruleset, cards, point.busted)
    modelled = int(found.eval(hand.score, model_completion=True).as_long())
    modelled_wrong = int(found.eval(wrong, model_completion=True).as_long())
    texts = " ".join(c.text for c in cards)
    if expected != modelled:
        raise SymbolicError(f"round_score gives {expected} for {texts}, the scoring model {modelled}")
    if got != modelled_wrong:
        raise SymbolicError(f"{misreading.id}: its Python rule gives {got} for {texts}, its z3 term {modelled_wrong}")
    case = ScoringCase(misreading.id, misreading.misreading, misreading.clause, [c.text for c in cards],
                       point.busted, expected, got, count)
    return CaseSearch(misreading, case, time.perf_counter() - started)
