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
from collections.abc import Iterable, Mapping, Sequence
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


def option_deviation(name: str, value: Any) -> str:
    """The deviation text of an option reading: ``name=value`` with the value as JSON."""
    return f"{name}={json.dumps(value)}"


def split_deviation(text: str) -> tuple[str, Any] | None:
    """``(option, value)`` for an option reading ``name=value``; None for a misreading's name."""
    name, sep, value = text.partition("=")
    if not sep:
        return None
    try:  # strict and bounded: no NaN, no number over the digit limit, no deep nesting
        return name, parse_json(value)
    except InputError as error:
        shown = text if len(text) <= 60 else text[:60] + "..."
        raise RulesetError(f"deviation {shown!r}: the value after = must be JSON within the limits "
                           f"(e.g. reshuffle_moment=\"when_emptied\"): {error}") from None


def option_deviations(deviations: Sequence[str]) -> dict[str, Any]:
    """The option readings among ``deviations``, by option (a later one wins)."""
    out: dict[str, Any] = {}
    for text in deviations:
        split = split_deviation(text)
        if split is not None:
            out[split[0]] = split[1]
    return out


def misreading_names(deviations: Sequence[str]) -> tuple[str, ...]:
    """The catalogue misreadings among ``deviations``, in order."""
    return tuple(text for text in deviations if "=" not in text)


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
