"""The card model and its one canonical text form.

Every card has exactly one canonical text, used by traces, the protocol and the CLI. The core reads the
notation every game of the family shares:

=================  ==============  =========================================
card               canonical text  notes
=================  ==============  =========================================
Number card        ``0`` … ``99``  its value
+N modifier        ``+2``, ``+10`` adds N to the round score
xN modifier        ``x2``          multiplies the sum of Number cards
-N modifier        ``-2`` … ``-10`` subtracts N
halving modifier   ``/2``          halves the sum of Number cards, rounded down
=================  ==============  =========================================

Every other card is a game's own: a game lists its cards (:class:`CardType`: text, kind, face value, name,
what it makes a player draw, the clauses it enables) in its definition, and registering the game teaches
this module to read their texts (``FREEZE``, ``FLIP3``, ``ONEMORE``, ...: an upper-case word each) and
their spelled-out aliases. A game with a card of a kind of its own creates the :class:`Kind` it dispatches
on; nothing here changes.

Reading is lax (case, surrounding spaces and the aliases, such as ``Flip Three`` or ``÷2``); writing always
produces the canonical text. Card objects are interned: two cards with the same text are the same object,
so identity comparison is valid and cheap.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Final

from flip7_spec.errors import CardError


class Family(Enum):
    """The three families of cards every game of the family has: what a card is, whatever it does."""

    NUMBER = "number"
    MODIFIER = "modifier"
    ACTION = "action"


_KINDS: dict[str, Kind] = {}


class _KindClass(type):
    """Kinds looked up as attributes of :class:`Kind` and listed by iterating it, as when ``Kind`` was an enum
    of the built-in games' kinds (``Kind.FREEZE``, ``for kind in Kind``): code written against the earlier
    release keeps working, whichever game registered the kind."""

    def __getattr__(cls, attribute: str) -> Kind:
        known = _KINDS.get(attribute.lower()) if attribute.isupper() else None
        if known is None:
            raise AttributeError(f"no card kind {attribute} (the registered games' kinds: "
                                 f"{', '.join(sorted(k.upper() for k in _KINDS))})")
        return known

    def __iter__(cls) -> Iterator[Kind]:
        return iter(list(_KINDS.values()))

    def __len__(cls) -> int:
        return len(_KINDS)


class Kind(metaclass=_KindClass):
    """What a card does; the rules dispatch on it by identity (``c.kind is Kind.ADD``).

    The core's kinds are those of the shared notation (:attr:`NUMBER`, :attr:`ADD`, :attr:`MULTIPLY`,
    :attr:`SUBTRACT`, :attr:`HALVE`); a game makes its own with ``Kind(name, family)`` (Flip 7's Freeze,
    Vengeance's Steal, ...). Kinds are interned by name: asking for a name again gives the same object, and
    a name given a second family is refused.
    """

    __slots__ = ("family", "name")

    name: str
    family: Family

    NUMBER: ClassVar[Kind]
    ADD: ClassVar[Kind]
    MULTIPLY: ClassVar[Kind]
    SUBTRACT: ClassVar[Kind]
    HALVE: ClassVar[Kind]

    def __new__(cls, name: str, family: Family) -> Kind:
        known = _KINDS.get(name)
        if known is not None:
            if known.family is not family:
                raise ValueError(f"card kind {name!r} is a {known.family.value} kind already, not a {family.value}")
            return known
        made = object.__new__(cls)
        made.name = name
        made.family = family
        _KINDS[name] = made
        return made

    def __repr__(self) -> str:
        return f"Kind({self.name!r})"

    @property
    def value(self) -> str:
        """The kind's name (what ``Kind.X.value`` gave when kinds were an enum)."""
        return self.name

    def __reduce__(self) -> tuple[object, tuple[str, Family]]:
        return (Kind, (self.name, self.family))

    def __copy__(self) -> Kind:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Kind:
        return self


Kind.NUMBER = Kind("number", Family.NUMBER)
Kind.ADD = Kind("add", Family.MODIFIER)
Kind.MULTIPLY = Kind("multiply", Family.MODIFIER)
Kind.SUBTRACT = Kind("subtract", Family.MODIFIER)
Kind.HALVE = Kind("halve", Family.MODIFIER)


@dataclass(frozen=True, slots=True)
class CardType:
    """One card of a game, as the game lists it in its definition (its deck holds copies of it).

    ``text`` is the canonical text: either the shared notation (``7``, ``+4``, ``x2``, ``-2``, ``/2``; the
    kind and value must be the notation's) or a word of the game's own (upper case letters and digits,
    starting with a letter). The consumers read the rest instead of listing card texts again: the pages
    show ``label`` (and ``caption``) and name it by ``name``; steering and the strategies read ``draws``
    and ``kept``; coverage reads ``clauses``.
    """

    text: str
    kind: Kind
    value: int = 0
    """The face value: a Number's value, a modifier's amount, 0 for an Action."""
    name: str = ""
    """The full name (``Flip Three``); empty for a card of the notation, which is named by its text."""
    label: str = ""
    """What the card's face shows on a page (``Flip 3``); empty: the name."""
    caption: str = ""
    """A word under the face of a Number with an effect of its own (``unlucky``)."""
    special: Enum | None = None
    """For a Number with an effect of its own, the game's marker of that effect (compared by identity)."""
    draws: int = 0
    """How many cards it makes a player draw at once (Flip Three 3, Just One More 1)."""
    kept: bool = False
    """Whether it stays in front of the player who takes it until the round ends (a Freeze, a Second
    Chance not yet used)."""
    aliases: tuple[str, ...] = ()
    """Spellings read as this card (any case): ``Flip Three``, ``FLIP_THREE``."""
    clauses: tuple[str, ...] = ()
    """The clauses only a deck holding this card can exercise (any card listing a clause will do)."""


class Card:
    """One card face. Build cards with :func:`card`; never instantiate directly."""

    __slots__ = ("is_action", "is_modifier", "is_number", "kind", "special", "text", "value")

    def __init__(self, text: str, kind: Kind, value: int, special: Enum | None = None) -> None:
        self.text: Final = text
        self.kind: Final = kind
        self.value: Final = value
        self.special: Final = special
        self.is_number: Final = kind.family is Family.NUMBER
        self.is_modifier: Final = kind.family is Family.MODIFIER
        self.is_action: Final = kind.family is Family.ACTION

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


NOTATION_PATTERN: Final = r"0|[1-9][0-9]?|[+\-x][1-9][0-9]?|/2"
"""The canonical texts of the shared notation, as a regular expression (an alternation, unanchored)."""
WORD_PATTERN: Final = f"[{string.ascii_uppercase}][0-9{string.ascii_uppercase}]*"
"""The shape of the text of a game's own card: an upper-case letter, then upper-case letters and digits."""
_NOTATION_ALIASES: Final = {"÷2": "/2", "X2": "x2", "×2": "x2"}
_MODIFIER_PATTERN: Final = re.compile(r"^([+\-x/])([1-9][0-9]?)$")
_NUMBER_PATTERN: Final = re.compile(r"^(0|[1-9][0-9]?)$")
_WORD: Final = re.compile(WORD_PATTERN)

_TYPES: dict[str, CardType] = {}
"""The games' own card texts, in registration order, with the first registered type of each."""
_OWNERS: dict[str, list[str]] = {}
"""For each of the games' own card texts, the games that list it."""
_ALIASES: dict[str, str] = dict(_NOTATION_ALIASES)
_BUILT: dict[str, Card] = {}
"""Every card built for a game's own text: a game registered again gets the same objects back."""
_INTERNED: dict[str, Card] = {}


def _notation(text: str) -> Card | None:
    """The card the shared notation writes ``text`` (canonical), or None."""
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
    return None


def _build(text: str) -> Card:
    listed = _TYPES.get(text)
    if listed is not None:
        built = _BUILT.get(text)
        if built is None or (built.kind, built.value, built.special) != (listed.kind, listed.value, listed.special):
            built = _BUILT[text] = Card(text, listed.kind, listed.value, listed.special)
        return built
    written = _notation(text)
    if written is not None:
        return written
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise CardError(f"unknown card {shown!r}; expected a number 0-99, +N, -N, xN, /2 or one of "
                    f"{', '.join(named_card_texts())}")


def named_card_texts() -> list[str]:
    """The canonical texts of the registered games' own cards (the Actions, the special Numbers), sorted."""
    return sorted(_TYPES)


def card_text_pattern() -> str:
    """A regular expression (anchored) of exactly the canonical card texts: the notation and the registered
    games' own cards, in registration order."""
    return "^(" + "|".join([NOTATION_PATTERN, *(re.escape(t) for t in _TYPES)]) + ")$"


def card_type(text: str) -> CardType | None:
    """The type a registered game lists for its own card ``text`` (canonical), or None for the notation's
    cards and unknown texts."""
    return _TYPES.get(text)


def _check_types(game: str, types: Sequence[CardType]) -> None:
    seen: set[str] = set()
    for listed in types:
        where = f"game {game}: card {listed.text!r}"
        if listed.text in seen:
            raise CardError(f"{where} is listed twice")
        seen.add(listed.text)
        written = _notation(listed.text)
        if written is not None:
            if (written.kind, written.value) != (listed.kind, listed.value) or listed.special is not None \
                    or listed.aliases:
                raise CardError(f"{where} is written in the shared notation: its kind and value are the notation's "
                                "and it has no special effect or alias")
            continue
        if not _WORD.fullmatch(listed.text):
            raise CardError(f"{where}: a game's own card is written as one upper-case word (letters and digits)")
        if _ALIASES.get(listed.text, listed.text) != listed.text:
            raise CardError(f"{where} is read as {_ALIASES[listed.text]} already")
        known = _TYPES.get(listed.text)
        if known is not None and (known.kind, known.value, known.special) != (listed.kind, listed.value,
                                                                               listed.special):
            raise CardError(f"{where} is another card already (of kind {known.kind.name})")
        for alias in listed.aliases:
            key = alias.strip().upper()
            meant = _ALIASES.get(key, key if key in _TYPES else listed.text)
            if meant != listed.text:
                raise CardError(f"{where}: the alias {alias!r} reads as {meant} already")


def register_card_types(game: str, types: Sequence[CardType]) -> None:
    """Teach the reader a game's own cards (``types`` that are not the shared notation) and their aliases.

    A card another game lists already is shared when it is the same card (kind, value, special effect).
    Raises :class:`CardError`, registering nothing, for a type the reader cannot take. Called by
    :func:`flip7_spec.registry.register_game`.
    """
    _check_types(game, types)
    for listed in types:
        if _notation(listed.text) is not None:
            continue
        _TYPES.setdefault(listed.text, listed)
        _OWNERS.setdefault(listed.text, []).append(game)
        for alias in listed.aliases:
            _ALIASES[alias.strip().upper()] = listed.text


def unregister_card_types(game: str) -> None:
    """Forget the cards only ``game`` lists (and every spelling read as them)."""
    gone = set()
    for text, owners in list(_OWNERS.items()):
        if game in owners:
            owners.remove(game)
            if not owners:
                del _OWNERS[text]
                del _TYPES[text]
                gone.add(text)
    for alias, text in list(_ALIASES.items()):
        if text in gone:
            del _ALIASES[alias]
    for spelling, known in list(_INTERNED.items()):
        if known.text in gone:
            del _INTERNED[spelling]


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
    if upper in _TYPES:
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
