"""The card texts the JSON schemas accept are exactly the canonical card texts of the card tables."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from flip7_spec.cards import card
from flip7_spec.errors import CardError

SCHEMAS = Path(__file__).resolve().parent.parent / "flip7_spec" / "schemas"
WORDS = ["FREEZE", "FLIP3", "CHANCE", "ZERO", "U7", "L13", "ONEMORE", "FLIP4", "SWAP", "STEAL", "DISCARD",
         "JOKER", "FLIP5", "freeze", "Flip Three", "x", "+", "/", "00", "007", "100", "+0", "-0", "x0", "÷2", "X2"]


def card_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every card-text pattern in the shipped schemas that hold cards (the ``$defs`` entry named ``card``): the
    trace's and the protocol's at least."""
    found = []
    for path in sorted(SCHEMAS.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        definition = schema.get("$defs", {}).get("card")
        if definition is not None:
            found.append((path.name, re.compile(definition["pattern"])))
    assert {"protocol-v1.json", "trace-v1.json"} <= {name for name, _ in found}
    return found


def candidates() -> list[str]:
    numbers = [str(v) for v in range(100)]
    modifiers = [f"{sign}{v}" for sign in "+-x/" for v in range(0, 100)]
    return [*numbers, *modifiers, *WORDS]


def is_canonical_card(text: str) -> bool:
    try:
        return card(text).text == text
    except CardError:
        return False


@pytest.mark.parametrize("name, pattern", card_patterns(), ids=lambda v: v if isinstance(v, str) else "")
def test_schema_card_pattern_accepts_exactly_the_canonical_card_texts(name: str, pattern: re.Pattern[str]) -> None:
    disagree = [t for t in candidates() if bool(pattern.fullmatch(t)) != is_canonical_card(t)]
    assert not disagree, f"{name}: the card pattern and the card tables disagree on {disagree}"


def test_every_named_card_is_a_candidate() -> None:
    from flip7_spec.cards import named_card_texts

    assert set(named_card_texts()) <= set(WORDS)
