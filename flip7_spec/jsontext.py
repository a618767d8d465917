"""Strict parsing of JSON and TOML text from outside: nothing that a JSON value cannot carry, nothing unbounded.

:func:`parse_json` refuses, with a located one-line :class:`~flip7_spec.errors.InputError`, what Python's
``json`` would accept or choke on: ``NaN`` and ``Infinity`` (not JSON, and they would be written back as
bare ``NaN``), a number that overflows to infinity, a whole number longer than
:data:`~flip7_spec.limits.NUMBER_DIGITS` digits (Python cannot even print one over 4,300 digits), and arrays
or objects nested deeper than :data:`~flip7_spec.limits.NESTING`. :func:`parse_toml` does the same for TOML.

The limits on the parsed value are checked in one pass over its containers, level by level, which costs
a fraction of the parse itself; only a value that breaks one is walked again to find the JSON path of
the problem.
"""

from __future__ import annotations

import json
import math
import tomllib
from typing import Any

from flip7_spec.errors import InputError
from flip7_spec.limits import NESTING, NUMBER_DIGITS

_BIG = 10 ** NUMBER_DIGITS.value


def json_path(parts: tuple[str | int, ...]) -> str:
    """A JSON path such as ``$.steps[3].decision`` (as :func:`flip7_spec.trace.schema.json_path` writes it)."""
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts)


class _Refused(ValueError):
    """A token the parse hooks refuse; carries the message."""


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:40]} is too large for a JSON number")
    return value


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not JSON (a JSON number is finite)")


def _scalar_problem(value: Any) -> str | None:
    kind = type(value)
    if kind is int and not -_BIG < value < _BIG:
        digits = len(str(abs(value)))  # at most 4,300 digits: Python read it
        return f"a whole number of {digits:,} digits is over the limit of {NUMBER_DIGITS.value} digits"
    if kind is float and not math.isfinite(value):
        return f"{value} is not a number JSON can carry (a number must be finite)"
    return None


def _breaks_a_limit(value: Any) -> bool:
    """Whether ``value`` nests deeper than the limit or holds a number over it: one pass, level by level."""
    level = [value] if type(value) in (dict, list) else []
    if not level:
        return _scalar_problem(value) is not None
    depth = 0
    while level:
        depth += 1
        if depth > NESTING.value:
            return True
        deeper: list[Any] = []
        push = deeper.append
        for container in level:
            for item in container.values() if type(container) is dict else container:
                kind = type(item)
                if kind is dict or kind is list:
                    push(item)
                elif (kind is int and not -_BIG < item < _BIG) or (kind is float and not math.isfinite(item)):
                    return True
        level = deeper
    return False


def _locate(value: Any) -> str:
    """The first problem :func:`_breaks_a_limit` found, with its JSON path (the slow walk, on failure only)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if type(item) in (dict, list):
            if len(path) >= NESTING.value:
                shown = json_path(path[:8]) + (" ..." if len(path) > 8 else "")
                return f"{shown}: arrays and objects nested deeper than the limit of {NESTING.value} levels"
            children = list(item.items()) if type(item) is dict else list(enumerate(item))
            stack.extend((child, (*path, key)) for key, child in reversed(children))
            continue
        problem = _scalar_problem(item)
        if problem is not None:
            return f"{json_path(path)}: {problem}"
    return "a value over a limit"


def check_value(value: Any) -> Any:
    """``value`` (parsed JSON or TOML) if it is within the nesting and number limits; else :class:`InputError`."""
    if _breaks_a_limit(value):
        raise InputError(_locate(value))
    return value


def parse_json(text: str) -> Any:
    """Parse ``text`` as one strict JSON value. Raises :class:`InputError` ("line L, column C: what", or the
    JSON path of a value over a limit)."""
    try:
        value = json.loads(text, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as error:
        at_end = error.pos >= len(text.rstrip()) or (
            error.msg.startswith("Unterminated string") and '"' not in text[error.pos + 1:])
        what = "truncated JSON (the text ends inside a value)" if at_end else f"malformed JSON: {error.msg}"
        raise InputError(f"line {error.lineno}, column {error.colno}: {what}") from None
    except _Refused as refused:
        raise InputError(str(refused)) from None
    except RecursionError:  # a thousand levels or so: far over the limit
        raise InputError(f"arrays and objects nested deeper than the limit of {NESTING.value} levels") from None
    except ValueError:  # the only other: a whole number Python refuses to read (over 4,300 digits)
        raise InputError(f"a whole number is over the limit of {NUMBER_DIGITS.value} digits") from None
    return check_value(value)


def parse_toml(text: str) -> dict[str, Any]:
    """Parse ``text`` as a TOML document, with the limits of :func:`parse_json`. Raises :class:`InputError`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not valid TOML: {error}") from None
    except RecursionError:
        raise InputError(f"not valid TOML: nested deeper than the limit of {NESTING.value} levels") from None
    except ValueError:  # a whole number Python refuses to read (over 4,300 digits)
        raise InputError(f"not valid TOML: a whole number is over the limit of {NUMBER_DIGITS.value} digits"
                         ) from None
    check_value(data)
    return data
