"""Canonical export and lax import of traces.

Export has one form per value: keys sorted, no insignificant whitespace inside a value, non-ASCII kept as
UTF-8, ``\\n`` line ends. A corpus (``.jsonl``) holds one trace per line. A single trace (``.json``) puts each
top-level key on its own line and each step on its own line, so that two traces diff step by step. Import
accepts any valid JSON with any whitespace and key order.
"""

from __future__ import annotations

import json
from typing import Any


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


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
