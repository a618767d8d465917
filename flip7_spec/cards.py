"""The card model and its one canonical text form.

Every card has exactly one canonical text, used by traces, the protocol and the CLI:

=================  ==============  =========================================
card               canonical text  notes
=================  ==============  =========================================
Number card        ``0`` … ``13``  its value
+N modifier        ``+2``, ``+10`` adds N to the round score
xN modifier        ``x2``          multiplies the sum of Number cards
-N modifier        ``-2`` … ``-10`` subtracts N (Vengeance)
halving modifier   ``/2``          halves the sum of Number cards, rounded down (Vengeance)
Freeze             ``FREEZE``
Flip Three         ``FLIP3``
Second Chance      ``CHANCE``
The Zero           ``ZERO``        a Number card of value 0 (Vengeance)
Unlucky 7          ``U7``          a Number card of value 7 (Vengeance)
Lucky 13           ``L13``         a Number card of value 13 (Vengeance)
Just One More      ``ONEMORE``     (Vengeance)
Flip Four          ``FLIP4``       (Vengeance)
Swap               ``SWAP``        (Vengeance)
Steal              ``STEAL``       (Vengeance)
Discard            ``DISCARD``     (Vengeance)
=================  ==============  =========================================

Reading is lax (case, surrounding spaces and a few spelled-out aliases such as ``Flip Three`` or
``÷2``); writing always produces the canonical text. Card objects are interned: two cards with the same
text are the same object, so identity comparison is valid and cheap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum
from typing import Final

from flip7_spec.errors import CardError


class Kind(Enum):
    """What a card does; the rules dispatch on this."""

    NUMBER = "number"
    ADD = "add"
    MULTIPLY = "multiply"
    SUBTRACT = "subtract"
    HALVE = "halve"
    FREEZE = "freeze"
    FLIP_THREE = "flip_three"
    SECOND_CHANCE = "second_chance"
    JUST_ONE_MORE = "just_one_more"
    FLIP_FOUR = "flip_four"
    SWAP = "swap"
    STEAL = "steal"
    DISCARD = "discard"


MODIFIER_KINDS: Final = frozenset({Kind.ADD, Kind.MULTIPLY, Kind.SUBTRACT, Kind.HALVE})
ACTION_KINDS: Final = frozenset(
    {
        Kind.FREEZE,
        Kind.FLIP_THREE,
        Kind.SECOND_CHANCE,
        Kind.JUST_ONE_MORE,
        Kind.FLIP_FOUR,
        Kind.SWAP,
        Kind.STEAL,
        Kind.DISCARD,
    }
)


class Special(Enum):
    """The Vengeance Number cards with an effect of their own."""

    ZERO = "zero"
    UNLUCKY_7 = "unlucky7"
    LUCKY_13 = "lucky13"


class Card:
    """One card face. Build cards with :func:`card`; never instantiate directly."""

    __slots__ = ("is_action", "is_modifier", "is_number", "kind", "special", "text", "value")

    def __init__(self, text: str, kind: Kind, value: int, special: Special | None = None) -> None:
        self.text: Final = text
        self.kind: Final = kind
        self.value: Final = value
        self.special: Final = special
        self.is_number: Final = kind is Kind.NUMBER
        self.is_modifier: Final = kind in MODIFIER_KINDS
        self.is_action: Final = kind in ACTION_KINDS

    def __repr__(self) -> str:
        return f"card({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (card, (self.text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self


_ACTION_TEXTS: Final = {
    "FREEZE": Kind.FREEZE,
    "FLIP3": Kind.FLIP_THREE,
    "CHANCE": Kind.SECOND_CHANCE,
    "ONEMORE": Kind.JUST_ONE_MORE,
    "FLIP4": Kind.FLIP_FOUR,
    "SWAP": Kind.SWAP,
    "STEAL": Kind.STEAL,
    "DISCARD": Kind.DISCARD,
}
_SPECIAL_NUMBERS: Final = {
    "ZERO": (0, Special.ZERO),
    "U7": (7, Special.UNLUCKY_7),
    "L13": (13, Special.LUCKY_13),
}
_ALIASES: Final = {
    "FLIPTHREE": "FLIP3",
    "FLIP THREE": "FLIP3",
    "FLIP_THREE": "FLIP3",
    "SECONDCHANCE": "CHANCE",
    "SECOND CHANCE": "CHANCE",
    "SECOND_CHANCE": "CHANCE",
    "JUSTONEMORE": "ONEMORE",
    "JUST ONE MORE": "ONEMORE",
    "JUST ONE MORE!": "ONEMORE",
    "FLIP FOUR": "FLIP4",
    "FLIP FOUR!": "FLIP4",
    "FLIPFOUR": "FLIP4",
    "THE ZERO": "ZERO",
    "UNLUCKY 7": "U7",
    "LUCKY 13": "L13",
    "÷2": "/2",
    "X2": "x2",
    "×2": "x2",
}
_MODIFIER_PATTERN: Final = re.compile(r"^([+\-x/])([1-9][0-9]?)$")
_NUMBER_PATTERN: Final = re.compile(r"^(0|[1-9][0-9]?)$")
_INTERNED: dict[str, Card] = {}


def _build(text: str) -> Card:
    if text in _ACTION_TEXTS:
        return Card(text, _ACTION_TEXTS[text], 0)
    if text in _SPECIAL_NUMBERS:
        value, special = _SPECIAL_NUMBERS[text]
        return Card(text, Kind.NUMBER, value, special)
    if _NUMBER_PATTERN.match(text):
        return Card(text, Kind.NUMBER, int(text))
    match = _MODIFIER_PATTERN.match(text)
    if match:
        sign, amount = match.group(1), int(match.group(2))
        if sign == "+":
            return Card(text, Kind.ADD, amount)
        if sign == "-":
            return Card(text, Kind.SUBTRACT, amount)
        if sign == "x":
            return Card(text, Kind.MULTIPLY, amount)
        if amount == 2:
            return Card(text, Kind.HALVE, amount)
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise CardError(f"unknown card {shown!r}; expected a number 0-99, +N, -N, xN, /2 or one of "
                    f"{', '.join(sorted([*_ACTION_TEXTS, *_SPECIAL_NUMBERS]))}")


def named_card_texts() -> list[str]:
    """The canonical texts of the cards written as words (the Actions and the special Numbers), sorted."""
    return sorted([*_ACTION_TEXTS, *_SPECIAL_NUMBERS])


def canonical_text(text: str) -> str:
    """Return the canonical text of a card written laxly (any case, spaces, known aliases).

    Raises :class:`CardError` when the text names no card.
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be written as a string, not {type(text).__name__}")
    stripped = text.strip()
    upper = stripped.upper()
    if upper in _ALIASES:
        return _ALIASES[upper]
    if upper in _ACTION_TEXTS or upper in _SPECIAL_NUMBERS:
        return upper
    if stripped[:1] in "Xx×" and stripped[1:].isdigit():
        return "x" + stripped[1:]
    if stripped.startswith("÷"):
        return "/" + stripped[1:]
    return stripped.replace("−", "-")


def card(text: str) -> Card:
    """Return the interned card for ``text`` (read laxly). Raises :class:`CardError` if unknown, or if
    ``text`` is no text at all."""
    try:
        found = _INTERNED.get(text)
    except TypeError:  # unhashable: a list or a dict where a card's text belongs
        found = None
    if found is not None:
        return found
    if not isinstance(text, str):
        raise CardError(f"a card is named by its text (str), not {type(text).__name__}: {text!r:.60}")
    canonical = canonical_text(text)
    found = _INTERNED.get(canonical)
    if found is None:
        found = _build(canonical)
        _INTERNED[canonical] = found
    if len(text) <= 12:  # a lax spelling is remembered too, unless it is long (padding could grow this forever)
        _INTERNED[text] = found
    return found


def cards(texts: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Parse several cards: a list of texts, or one string of texts separated by spaces or commas."""
    if isinstance(texts, str):
        texts = [t for t in re.split(r"[\s,]+", texts) if t]
    elif not isinstance(texts, Iterable):
        raise CardError(f"cards are a string of card texts or a list of them, not {type(texts).__name__}")
    return [card(t) for t in texts]


def texts(hand: list[Card] | tuple[Card, ...]) -> list[str]:
    """The canonical texts of ``hand``, in order."""
    return [c.text for c in hand]
