"""Canonical export and lax import of traces.

Export has one form per value: keys sorted, no insignificant whitespace inside a value, non-ASCII kept as
UTF-8, ``\\n`` line ends. A corpus (``.jsonl``) holds one trace per line. A single trace (``.json``) puts each
top-level key on its own line and each step on its own line, so that two traces diff step by step. Import
accepts any valid JSON with any whitespace and key order.
"""

from __future__ import annotations

import json
import re
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; the standard encoder writes the same text
    orjson = None  # type: ignore[assignment]

_VALUE_STARTS = frozenset(b":,[-")
_EXPONENT = re.compile(rb"e[-+][0-9]")


def _has_float(text: bytes) -> bool:
    """Whether orjson's ``text`` holds a float: a number with a fraction (``.``) or an exponent (orjson
    writes its sign: ``e+``, ``e-``). Such text inside a string answers True too, which only sends that
    value to the standard encoder."""
    at = text.find(b".")
    while at >= 0:
        if _ends_number(text, at):
            return True
        at = text.find(b".", at + 1)
    return any(_ends_number(text, match.start()) for match in _EXPONENT.finditer(text))


def _ends_number(text: bytes, at: int) -> bool:
    """Whether digits end at ``at`` that start where a JSON value can (first, or after ``:``, ``,``, ``[``
    or a minus sign)."""
    start = at
    while start and 48 <= text[start - 1] <= 57:
        start -= 1
    return start < at and (start == 0 or text[start - 1] in _VALUE_STARTS)


def _standard(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _compact(value: Any) -> str:
    """The canonical text of ``value``: the standard encoder's, written by orjson (a trace in a fifth of
    the time) wherever the two agree: a value with no float (traces count in whole numbers). What orjson
    refuses (keys that are not strings, integers beyond 64 bits, lone surrogates) and any value with a
    float in it (:func:`_has_float`: the two write some floats differently, ``1e-05`` and ``0.00001``) go to
    the standard encoder. The one difference that text cannot show, NaN and the infinities (orjson writes
    ``null`` where the standard encoder refuses them), cannot reach a trace: nothing that reads JSON or TOML
    here lets them in, and the engine counts in whole numbers."""
    if orjson is not None:
        try:
            text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except TypeError:
            pass
        else:
            if not _has_float(text):
                return text.decode("utf-8")
    return _standard(value)


def dumps_line(trace: dict[str, Any]) -> str:
    """One trace as a single canonical JSON line (with its ``\\n``), for a ``.jsonl`` corpus."""
    return _compact(trace) + "\n"


def dumps_document(trace: dict[str, Any]) -> str:
    """One trace as a canonical ``.json`` document: a top-level key per line, a step per line."""
    lines = ["{"]
    keys = sorted(trace)
    for position, key in enumerate(keys):
        comma = "," if position < len(keys) - 1 else ""
        value = trace[key]
        if key == "steps" and isinstance(value, list) and value:
            lines.append(f"{_compact(key)}:[")
            lines.extend(_compact(step) + ("," if i < len(value) - 1 else "") for i, step in enumerate(value))
            lines.append("]" + comma)
        else:
            lines.append(f"{_compact(key)}:{_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
