"""Validation of protocol messages against ``schemas/protocol-v1.json``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from flip7_spec.registry import revision
from flip7_spec.trace.schema import json_path, load_schema


def _validator(definition: str) -> Draft202012Validator:
    return _validator_at(definition, revision())


@cache
def _validator_at(definition: str, at: int) -> Draft202012Validator:
    schema = dict(load_schema("protocol-v1.json"))
    schema["$ref"] = f"#/$defs/{definition}"
    return Draft202012Validator(schema)


def message_errors(message: Any, definition: str) -> list[str]:
    """Schema violations of ``message`` against the protocol definition ``definition`` (e.g. ``reply``)."""
    return [f"{json_path(e.absolute_path)}: {e.message}" for e in _validator(definition).iter_errors(message)]


def request_errors(request: Any) -> list[str]:
    """Schema violations of a request."""
    return message_errors(request, "request")


RESHUFFLE_PROBLEMS = ("no_order", "not_a_permutation")
"""The values of an ``errored`` reply's ``reshuffle.problem``."""


@dataclass(frozen=True, slots=True)
class ReshuffleProblem:
    """The optional ``reshuffle`` field of an ``errored`` reply (``#/$defs/reshuffle_problem``): the engine
    could not use the reshuffle orders it was given. An addition to protocol v1 that an older adapter never
    sends; conform reports either this field or a message starting ``reshuffle:`` as a reshuffle failure."""

    problem: str
    """``no_order``: a reshuffle was needed and no order was left; ``not_a_permutation``: the next order is
    not a permutation of the engine's discard pile."""
    discard_pile: tuple[str, ...]
    """The cards the engine holds in its discard pile at that moment (in any order)."""
    index: int | None = None
    """Which order of the start's ``reshuffles`` (from 0): the one that does not fit, or for ``no_order`` the
    one needed."""

    @classmethod
    def from_json(cls, value: Any) -> ReshuffleProblem:
        """The field as an engine sent it; :class:`ValueError` naming the first schema violation (a JSON
        path inside the field) when it breaks the schema."""
        problems = message_errors(value, "reshuffle_problem")
        if problems:
            raise ValueError(problems[0])
        return cls(value["problem"], tuple(value["discard_pile"]), value.get("index"))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"problem": self.problem, "discard_pile": list(self.discard_pile)}
        if self.index is not None:
            out["index"] = self.index
        return out
