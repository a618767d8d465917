"""What an engine's handshake may declare: known options with allowed values, checked before any case runs."""

from __future__ import annotations

import json
from typing import Any

from flip7_spec.rulesets import Option, all_options


class DeclarationError(ValueError):
    """A handshake that declares an option or value flip7-spec does not know; the message names what is allowed."""


def _allowed_text(option: Option) -> str:
    values = option.values()
    return ", ".join(json.dumps(v) for v in values) if values is not None else 'whole numbers >= 0, or "any"'


def _valid(option: Option, value: Any) -> bool:
    values = option.values()
    if values is not None:
        return any(type(value) is type(v) and value == v for v in values)
    return type(value) is int and value >= 0


def check_declarations(hello: dict[str, Any]) -> None:
    """Raise :class:`DeclarationError` unless every option ``hello`` declares is known and each declared value is
    one of its allowed values (or the option is declared ``"any"``)."""
    options = hello.get("options", {})
    if not isinstance(options, dict):
        raise DeclarationError(f"hello.options: expected an object of option: [values], got {json.dumps(options)}")
    known = all_options()
    for name, declared in options.items():
        option = known.get(name)
        if option is None:
            raise DeclarationError(f"hello.options.{name}: unknown option; options are {', '.join(sorted(known))}")
        if declared == "any":
            continue
        if not isinstance(declared, list):
            raise DeclarationError(f"hello.options.{name}: expected a list of values or 'any', got "
                                   f"{json.dumps(declared)}")
        for value in declared:
            if not _valid(option, value):
                raise DeclarationError(f"hello.options.{name}: {json.dumps(value)} is not a value of {name}; "
                                       f"allowed: {_allowed_text(option)}")
