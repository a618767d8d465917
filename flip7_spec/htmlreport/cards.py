"""Card faces for the HTML pages: the family a card text belongs to, what it shows, and its full name.

The families are told apart without colour as well: a Number shows its value, a modifier its sign
(``+4``, ``×2``, ``−4``, ``÷2``), an Action a word; the Numbers with an effect of their own add a caption
(Vengeance's ``zero``, ``unlucky``, ``lucky``). A game's own card shows what its game lists for it
(:class:`~flip7_spec.cards.CardType`: label, caption, name).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from flip7_spec.cards import Kind, card, card_type
from flip7_spec.errors import CardError

NUMBER: Final = "number"
SPECIAL: Final = "special"
MODIFIER: Final = "modifier"
NEGATIVE: Final = "negative"
ACTION: Final = "action"
UNKNOWN: Final = "unknown"
MISSING: Final = "missing"

@dataclass(frozen=True, slots=True)
class CardFace:
    """How one card is drawn: ``family`` (a CSS class), ``label`` (what it shows), ``note`` (a caption or
    empty), ``name`` (the full name, with the canonical text), ``differs`` (marked as differing)."""

    text: str
    family: str
    label: str
    note: str
    name: str
    differs: bool = False


def face(text: Any, differs: bool = False) -> CardFace:
    """The face of the card written ``text`` (any value: one that names no card is drawn as itself)."""
    if not isinstance(text, str):
        return CardFace(str(text), UNKNOWN, str(text), "", f"not a card: {text!r}", differs)
    try:
        parsed = card(text)
    except CardError:
        return CardFace(text, UNKNOWN, text, "", f"unknown card {text!r}", differs)
    canonical = parsed.text
    listed = card_type(canonical)
    if listed is not None:
        name = listed.name or canonical.title()
        label = listed.label or name
        family = SPECIAL if parsed.is_number else ACTION if parsed.is_action else MODIFIER
        return CardFace(canonical, family, label, listed.caption, f"{name} ({canonical})", differs)
    if parsed.is_number:
        return CardFace(canonical, NUMBER, canonical, "", f"Number {canonical}", differs)
    amount = parsed.value
    if parsed.kind is Kind.ADD:
        return CardFace(canonical, MODIFIER, f"+{amount}", "", f"modifier +{amount}", differs)
    if parsed.kind is Kind.MULTIPLY:
        return CardFace(canonical, MODIFIER, f"×{amount}", "", f"modifier x{amount}", differs)
    if parsed.kind is Kind.SUBTRACT:
        return CardFace(canonical, NEGATIVE, f"−{amount}", "", f"modifier -{amount}", differs)
    return CardFace(canonical, NEGATIVE, f"÷{amount}", "", f"halving modifier /{amount}", differs)


def missing(differs: bool = True) -> CardFace:
    """The placeholder where the other side has a card and this side none."""
    return CardFace("", MISSING, "∅", "", "no card here (the other side has one)", differs)
