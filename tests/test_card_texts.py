"""The card texts the JSON schemas accept are exactly the canonical card texts of the registered games' cards,
and the games' card lists are the one place those texts come from."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from flip7_spec.cards import NOTATION_PATTERN, card, named_card_texts
from flip7_spec.errors import CardError
from flip7_spec.registry import game_definition, game_names
from flip7_spec.trace.schema import load_schema

SCHEMAS = Path(__file__).resolve().parent.parent / "flip7_spec" / "schemas"
NAMES = sorted(path.name for path in SCHEMAS.glob("*.json")
               if "card" in json.loads(path.read_text(encoding="utf-8")).get("$defs", {}))
"""The shipped schemas that hold cards (the report's holds none)."""
assert {"protocol-v1.json", "trace-v1.json"} <= set(NAMES)
WORDS = ["FREEZE", "FLIP3", "CHANCE", "ZERO", "U7", "L13", "ONEMORE", "FLIP4", "SWAP", "STEAL", "DISCARD",
         "JOKER", "FLIP5", "freeze", "Flip Three", "x", "+", "/", "00", "007", "100", "+0", "-0", "x0", "÷2", "X2"]


def candidates() -> list[str]:
    numbers = [str(v) for v in range(100)]
    modifiers = [f"{sign}{v}" for sign in "+-x/" for v in range(0, 100)]
    return [*numbers, *modifiers, *WORDS]


def is_canonical_card(text: str) -> bool:
    try:
        return card(text).text == text
    except CardError:
        return False


def card_pattern(schema: dict[str, object]) -> re.Pattern[str]:
    definitions = schema["$defs"]
    assert isinstance(definitions, dict)
    return re.compile(definitions["card"]["pattern"])


@pytest.mark.parametrize("name", NAMES)
def test_the_loaded_schema_accepts_exactly_the_canonical_card_texts(name: str) -> None:
    pattern = card_pattern(load_schema(name))
    disagree = [t for t in candidates() if bool(pattern.fullmatch(t)) != is_canonical_card(t)]
    assert not disagree, f"{name}: the card pattern and the registered cards disagree on {disagree}"


@pytest.mark.parametrize("name", NAMES)
def test_the_shipped_schema_names_no_card_of_a_game(name: str) -> None:
    # the file keeps the notation and a generic word: a new card of a game needs no edit here
    shipped = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    text = json.dumps(shipped)
    assert not [word for word in named_card_texts() if re.search(rf"\b{word}\b", text)]
    pattern = card_pattern(shipped)
    assert all(pattern.fullmatch(t) for t in candidates() if is_canonical_card(t))
    assert not pattern.fullmatch("freeze") and not pattern.fullmatch("Flip Three")  # canonical texts only
    assert shipped["$defs"]["game"] == {**shipped["$defs"]["game"], "type": "string"}


@pytest.mark.parametrize("name", NAMES)
def test_the_loaded_schema_takes_the_registered_games(name: str) -> None:
    assert load_schema(name)["$defs"]["game"] == {"enum": game_names()}


def test_the_named_texts_are_the_games_own_cards() -> None:
    listed = {t.text for name in game_names() for t in game_definition(name).cards
              if not re.fullmatch(NOTATION_PATTERN, t.text)}
    assert set(named_card_texts()) == listed
    assert {"FREEZE", "FLIP3", "CHANCE", "ZERO", "U7", "L13", "ONEMORE", "FLIP4", "SWAP", "STEAL", "DISCARD"} <= listed


def test_every_named_card_is_a_candidate() -> None:
    assert set(named_card_texts()) <= set(WORDS)
