"""Known misreadings: named variants of a game's reference that engines are known to play by mistake.

A misreading is a small subclass of the game's reference class (a *mixin* overriding one hook or one card's
effect) with a one-line description and the clause it breaks. The diagnosis plays the reference under each
misreading to find the ones that reproduce an engine's observations; a ruleset's ``deviations`` name the
misreadings (and the option readings, as ``option=value``) that an engine is known to play, and the reference
plays them too (:func:`game_class_for`), so that a fingerprint of an engine's deviations is a ruleset.

Each game registers its catalogue with :func:`register_misreadings`; nothing here knows any game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar, cast

from flip7_spec.errors import InputError, RulesetError
from flip7_spec.jsontext import parse_json

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Misreading:
    """A named variant of a game's reference: ``mixin`` is placed before the reference class."""

    name: str
    game: str
    family: str
    description: str
    clause: str
    mixin: type

    def describe(self) -> str:
        return f"{self.name}: {self.description}"


_CATALOGUES: dict[str, dict[str, Misreading]] = {}


def register_misreadings(game: str, misreadings: Iterable[Misreading]) -> None:
    """Add ``misreadings`` to ``game``'s catalogue (a name may be registered once per game)."""
    catalogue = _CATALOGUES.setdefault(game, {})
    for misreading in misreadings:
        if misreading.game != game:
            raise ValueError(f"misreading {misreading.name} belongs to {misreading.game}, not {game}")
        if misreading.name in catalogue:
            raise ValueError(f"misreading {misreading.name} is registered twice for {game}")
        catalogue[misreading.name] = misreading
    _composed.cache_clear()


def unregister_misreadings(game: str) -> None:
    """Forget ``game``'s catalogue (for tests that register a game of their own)."""
    _CATALOGUES.pop(game, None)
    _composed.cache_clear()


def catalogue(game: str) -> Mapping[str, Misreading]:
    """``game``'s misreadings by name, in the order they were registered (empty for a game with none)."""
    return _CATALOGUES.get(game, {})


def misreading(game: str, name: str) -> Misreading:
    """The misreading ``name`` of ``game``; :class:`RulesetError` naming the known ones otherwise."""
    known = catalogue(game)
    if name not in known:
        listed = ", ".join(known) or "none"
        raise RulesetError(f"unknown misreading {name!r} of {game}; known: {listed}")
    return known[name]


# ---- deviations: the readings a ruleset adds to the reference ------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Deviation:
    """One reading a ruleset's ``deviations`` name (and a fingerprint's, and a result's): an option read at a
    value (``reshuffle_moment="when_emptied"``: :attr:`option` and :attr:`value`), or a misreading of the game's
    catalogue by its name (:attr:`misreading`). Written as :attr:`text`; read from it once, by :meth:`parse`.

    Two readings are equal when their texts are, and a reading equals its text, so code written when a result's
    ``deviations`` were strings (``'freeze_not_self' in result.deviations``) reads them the same way."""

    name: str
    """The option's name, or the misreading's."""
    value: Any = None
    is_option: bool = False

    @classmethod
    def parse(cls, text: str) -> Deviation:
        """The reading ``text`` names: ``name=value`` (the value JSON, strict and bounded: no NaN, no number
        over the digit limit, no deep nesting; :class:`RulesetError` otherwise) or a misreading's name."""
        name, sep, value = text.partition("=")
        if not sep:
            return cls(text)
        try:
            return cls(name, parse_json(value), True)
        except InputError as error:
            shown = text if len(text) <= 60 else text[:60] + "..."
            raise RulesetError(f"deviation {shown!r}: the value after = must be JSON within the limits "
                               f"(e.g. reshuffle_moment=\"when_emptied\"): {error}") from None

    @classmethod
    def of_option(cls, name: str, value: Any) -> Deviation:
        return cls(name, value, True)

    @property
    def option(self) -> str | None:
        """The option read, or None for a misreading."""
        return self.name if self.is_option else None

    @property
    def misreading(self) -> str | None:
        """The misreading's name, or None for an option's reading."""
        return None if self.is_option else self.name

    @property
    def text(self) -> str:
        """The reading as a ruleset's ``deviations`` write it: ``name=value`` with the value as JSON, or the
        misreading's name."""
        return f"{self.name}={json.dumps(self.value)}" if self.is_option else self.name

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deviation):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)


def option_deviation(name: str, value: Any) -> str:
    """The deviation text of an option reading: ``name=value`` with the value as JSON."""
    return Deviation.of_option(name, value).text


def split_deviation(text: str) -> tuple[str, Any] | None:
    """``(option, value)`` for an option reading ``name=value``; None for a misreading's name
    (:meth:`Deviation.parse`, whose errors it raises)."""
    reading = Deviation.parse(text)
    return (reading.name, reading.value) if reading.is_option else None


def option_deviations(deviations: Iterable[Deviation]) -> dict[str, Any]:
    """The option readings among ``deviations``, by option (a later one wins)."""
    return {d.name: d.value for d in deviations if d.is_option}


def misreading_names(deviations: Iterable[Deviation]) -> tuple[str, ...]:
    """The catalogue misreadings among ``deviations``, in order."""
    return tuple(d.name for d in deviations if not d.is_option)


def game_class_for(base: type[T], game: str, names: tuple[str, ...]) -> type[T]:
    """The reference class ``base`` with the mixins of misreadings ``names`` of ``game`` in front (the first
    named is the outermost). Built once per combination."""
    if not names:
        return base
    return cast("type[T]", _composed(cast(object, base), game, names))


@cache
def _composed(base: object, game: str, names: tuple[str, ...]) -> type:
    assert isinstance(base, type)
    mixins = tuple(misreading(game, name).mixin for name in names)
    return type(f"{base.__name__}As_{'_'.join(names)}", (*mixins, base), {})
