"""The trace JSON Schema (Draft 2020-12), shipped in the package, and validation with located errors.

The shipped files leave which texts are cards and which names are games to the registry: a card is the
shared notation or an upper-case word, a game any name. The package validates with the schema as
:func:`load_schema` gives it, where the card pattern lists exactly the registered games' card texts and the
game is one of the registered games (so an unknown card or game is named where it stands, as before).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from flip7_spec.cards import card_text_pattern
from flip7_spec.registry import game_names, revision


def shipped_schema(name: str = "trace-v1.json") -> dict[str, Any]:
    """The schema file ``name`` from ``flip7_spec/schemas``, as shipped (a fresh copy)."""
    text = resources.files("flip7_spec").joinpath("schemas", name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def load_schema(name: str = "trace-v1.json") -> dict[str, Any]:
    """The schema file ``name`` from ``flip7_spec/schemas`` with the registry's card texts and games filled in
    (``$defs.card``'s pattern, ``$defs.game``, where the schema has them), the same object until a game is
    registered or removed."""
    return _filled(name, revision())


@cache
def _filled(name: str, at: int) -> dict[str, Any]:
    schema = shipped_schema(name)
    definitions = schema.get("$defs", {})
    if "card" in definitions:
        definitions["card"]["pattern"] = card_text_pattern()
    if "game" in definitions:
        definitions["game"] = {"enum": game_names()}
    return schema


def _validator(name: str) -> Draft202012Validator:
    return _full_validator(name, revision())


@cache
def _full_validator(name: str, at: int) -> Draft202012Validator:
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


def _envelope_validator(name: str) -> Draft202012Validator:
    """The schema with observations and events reduced to "an object": replay compares each of them with the
    reference's own, which is valid, so checking their inner shape again would only repeat that work."""
    return _envelope_validator_at(name, revision())


@cache
def _envelope_validator_at(name: str, at: int) -> Draft202012Validator:
    schema = json.loads(json.dumps(load_schema(name)))
    for definition in ("observation", "event", "step"):
        schema["$defs"][definition] = {"type": "object"}
    return Draft202012Validator(schema)


def _step_validator(name: str) -> Draft202012Validator:
    return _step_validator_at(name, revision())


@cache
def _step_validator_at(name: str, at: int) -> Draft202012Validator:
    full = load_schema(name)
    return Draft202012Validator({"$schema": full["$schema"], "$defs": full["$defs"], "$ref": "#/$defs/step"})


def step_errors(step: Any, index: int, name: str = "trace-v1.json") -> list[str]:
    """Schema violations of one step (``steps[index]``), as ``PATH: message`` lines."""
    errors = sorted(_step_validator(name).iter_errors(step), key=lambda e: list(map(str, e.absolute_path)))
    return [f"{json_path(['steps', index, *_best(e).absolute_path])}: {_best(e).message}" for e in errors]


def schema_errors(document: Any, name: str = "trace-v1.json", envelope_only: bool = False) -> list[str]:
    """Every schema violation of ``document``, as ``PATH: message`` lines, most relevant first.

    With ``envelope_only``, steps, observations and events are only checked to be objects: replay checks
    each step's shape as it goes (see :func:`step_errors`).
    """
    validator = _envelope_validator(name) if envelope_only else _validator(name)
    errors = sorted(validator.iter_errors(document), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    lines = []
    for error in errors:
        best = _best(error)
        message = best.message if len(best.message) <= 200 else best.message[:197] + "..."
        lines.append(f"{json_path(best.absolute_path)}: {message}")
    return lines
