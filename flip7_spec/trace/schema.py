"""The trace JSON Schema (Draft 2020-12), shipped in the package, and validation with located errors."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError


@cache
def load_schema(name: str = "trace-v1.json") -> dict[str, Any]:
    """The schema file ``name`` from ``flip7_spec/schemas``."""
    text = resources.files("flip7_spec").joinpath("schemas", name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def json_path(parts: Any) -> str:
    """A JSON path such as ``$.steps[3].decision.choice`` from a sequence of keys and indices."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _best(error: ValidationError) -> ValidationError:
    # For anyOf/oneOf failures, the deepest sub-error usually names the real problem.
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def schema_errors(document: Any, name: str = "trace-v1.json") -> list[str]:
    """Every schema violation of ``document``, as ``PATH: message`` lines, most relevant first."""
    validator = _validator(name)
    errors = sorted(validator.iter_errors(document), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    lines = []
    for error in errors:
        best = _best(error)
        message = best.message if len(best.message) <= 200 else best.message[:197] + "..."
        lines.append(f"{json_path(best.absolute_path)}: {message}")
    return lines
