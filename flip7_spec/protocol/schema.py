"""Validation of protocol messages against ``schemas/protocol-v1.json``."""

from __future__ import annotations

from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from flip7_spec.trace.schema import json_path, load_schema


@cache
def _validator(definition: str) -> Draft202012Validator:
    schema = dict(load_schema("protocol-v1.json"))
    schema["$ref"] = f"#/$defs/{definition}"
    return Draft202012Validator(schema)


def message_errors(message: Any, definition: str) -> list[str]:
    """Schema violations of ``message`` against the protocol definition ``definition`` (e.g. ``reply``)."""
    return [f"{json_path(e.absolute_path)}: {e.message}" for e in _validator(definition).iter_errors(message)]


def request_errors(request: Any) -> list[str]:
    """Schema violations of a request."""
    return message_errors(request, "request")
