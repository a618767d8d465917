"""What every game's z3 model is built from: the types of z3 terms and scorers, the error of the prover, the
z3 sum, conjunction and disjunction of a list, and a compiler of z3 terms to Python functions.

z3 has no type information, so z3 expressions are typed :data:`Expr` (``Any``) here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import z3  # type: ignore[import-untyped, unused-ignore]

from flip7_spec.cards import Card
from flip7_spec.errors import Flip7Error

Expr = Any
"""A z3 expression (``BoolRef`` or ``ArithRef``); z3 ships no type information."""

Scorer = Callable[[Any, Sequence[Card], bool], int]
"""A round scorer with the signature of :func:`flip7_spec.play.round_score`."""


class SymbolicError(Flip7Error):
    """A ruleset or hand a scoring model cannot represent, or a solver that gave no answer in time."""


def total(ctx: Any, terms: Sequence[Expr]) -> Expr:
    """The z3 sum of ``terms`` (0 when there are none)."""
    return z3.Sum(list(terms)) if terms else z3.IntVal(0, ctx)


def every(ctx: Any, conditions: Sequence[Expr]) -> Expr:
    """The z3 conjunction of ``conditions`` (true when there are none)."""
    return z3.And(*conditions, ctx) if conditions else z3.BoolVal(True, ctx)


def some(ctx: Any, conditions: Sequence[Expr]) -> Expr:
    """The z3 disjunction of ``conditions`` (false when there are none)."""
    return z3.Or(*conditions, ctx) if conditions else z3.BoolVal(False, ctx)


# ---------------------------------------------------------------------------------------------------------
# Evaluating z3 terms fast: a small compiler to Python
# ---------------------------------------------------------------------------------------------------------

def _div(a: int, b: int) -> int:
    """SMT-LIB integer division (the remainder is never negative)."""
    q = a // b
    return q if a - q * b >= 0 else q + 1


Templates = dict[int, Callable[[list[str]], str]]
"""Python source for each z3 operation a compiler knows, from the source of its arguments."""

COMMON_TEMPLATES: Final[Templates] = {
    z3.Z3_OP_ADD: lambda a: "(" + " + ".join(a) + ")",
    z3.Z3_OP_SUB: lambda a: "(" + " - ".join(a) + ")",
    z3.Z3_OP_MUL: lambda a: "(" + " * ".join(a) + ")",
    z3.Z3_OP_UMINUS: lambda a: f"(-{a[0]})",
    z3.Z3_OP_ITE: lambda a: f"({a[1]} if {a[0]} else {a[2]})",
    z3.Z3_OP_AND: lambda a: "(" + " and ".join(a) + ")",
    z3.Z3_OP_OR: lambda a: "(" + " or ".join(a) + ")",
    z3.Z3_OP_NOT: lambda a: f"(not {a[0]})",
    z3.Z3_OP_IMPLIES: lambda a: f"((not {a[0]}) or {a[1]})",
    z3.Z3_OP_EQ: lambda a: f"({a[0]} == {a[1]})",
    z3.Z3_OP_IFF: lambda a: f"({a[0]} == {a[1]})",
    z3.Z3_OP_XOR: lambda a: f"({a[0]} != {a[1]})",
    z3.Z3_OP_LE: lambda a: f"({a[0]} <= {a[1]})",
    z3.Z3_OP_LT: lambda a: f"({a[0]} < {a[1]})",
    z3.Z3_OP_GE: lambda a: f"({a[0]} >= {a[1]})",
    z3.Z3_OP_GT: lambda a: f"({a[0]} > {a[1]})",
}
"""The integer and Boolean operations every compiler of z3 terms knows."""


def compile_with(templates: Templates, inputs: Sequence[Expr],
                 outputs: Sequence[Expr]) -> Callable[..., tuple[Any, ...]]:
    """A Python function computing the values of the z3 terms ``outputs`` from values of the variables
    ``inputs`` (positional, in order), for terms built from the operations of ``templates``.

    Each shared subterm is evaluated once. Raises :class:`SymbolicError` for an operation it does not know, a
    distinct of more than two terms, a division by anything but a positive constant, or a variable missing
    from ``inputs``.
    """
    names: dict[int, str] = {x.get_id(): f"a{i}" for i, x in enumerate(inputs)}
    lines: list[str] = []

    def visit(e: Expr) -> str:
        key = e.get_id()
        if key in names:
            return names[key]
        if z3.is_int_value(e):
            return repr(int(e.as_long()))
        if z3.is_true(e):
            return "True"
        if z3.is_false(e):
            return "False"
        kind = e.decl().kind()
        template = templates.get(kind)
        if template is None:
            raise SymbolicError(f"cannot evaluate the z3 term {e.decl().name()} ({e.sexpr()[:60]})")
        if kind == z3.Z3_OP_DISTINCT and e.num_args() != 2:
            raise SymbolicError("cannot evaluate a z3 distinct of more than two terms")
        if kind == z3.Z3_OP_IDIV and not (z3.is_int_value(e.arg(1)) and e.arg(1).as_long() > 0):
            raise SymbolicError("cannot evaluate a z3 division by anything but a positive constant")
        text = template([visit(c) for c in e.children()])
        name = f"t{len(lines)}"
        lines.append(f"    {name} = {text}")
        names[key] = name
        return name

    results = [visit(e) for e in outputs]
    params = ", ".join(f"a{i}" for i in range(len(inputs)))
    source = f"def compiled({params}):\n" + "\n".join(lines) + f"\n    return ({', '.join(results)},)\n"
    namespace: dict[str, Any] = {"_div": _div}
    exec(compile(source, "<z3 terms>", "exec"), namespace)
    function: Callable[..., tuple[Any, ...]] = namespace["compiled"]
    return function


def compiled_score(hand: Any, compile_fn: Callable[[list[Expr], list[Expr]], Callable[..., tuple[Any, ...]]]
                   ) -> Callable[[Any], int]:
    """The round score of the symbolic ``hand`` as a Python function of a point, compiled by ``compile_fn``."""
    compiled = compile_fn(hand.inputs(), [hand.score])

    def score(point: Any) -> int:
        return int(compiled(*hand.values(point))[0])

    return score
