"""The sources the rule clauses cite, shipped with the package (``bibliography.toml``).

Each :class:`~flip7_spec.clauses.Clause` has a ``source`` text such as ``"S2, S3, S6-C11/C12"`` or
``"community case 13"``; :func:`cited` reads the bibliography keys out of it (``S2``, ``S3``, ``S6``), so
that every citation resolves to an entry of :func:`sources`. ``flip7-spec rules --sources`` prints them,
and docs/rules.md lists them beside the rules.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

NO_SOURCE: Final = ("sources silent", "protocol convention")
"""Phrases by which a clause says that it cites no source: a ruling of this project where the sources say
nothing, or a rule of the protocol rather than of the game."""

_KEY = re.compile(r"\b([SV][0-9]+)(?![0-9])")
_SEED = re.compile(r"\bseed ([0-9]{3})\b", re.IGNORECASE)


@dataclass(frozen=True)
class Source:
    """One entry of the bibliography: ``key`` is how clauses cite it (``S2``, ``V3``, ``seed 004``)."""

    key: str
    title: str
    by: str
    date: str
    read: str
    settles: str
    where: str = ""
    aliases: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The entry as ``rules --sources`` prints it: the key and title, then one indented line a field."""
        out = [f"{self.key}  {self.title}", f"    by: {self.by}", f"    date: {self.date}"]
        if self.where:
            out.append(f"    at: {self.where}")
        out += [f"    read: {self.read}", f"    settles: {self.settles}"]
        return out

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "title": self.title, "by": self.by, "date": self.date, "where": self.where,
                "read": self.read, "settles": self.settles, "aliases": list(self.aliases)}


@cache
def sources() -> dict[str, Source]:
    """Every entry of the shipped bibliography, by key, in the order of the file."""
    text = resources.files("flip7_spec").joinpath("bibliography.toml").read_text(encoding="utf-8")
    entries: dict[str, Source] = {}
    for raw in tomllib.loads(text)["source"]:
        entry = Source(key=raw["key"], title=raw["title"], by=raw["by"], date=raw["date"], read=raw["read"],
                       settles=raw["settles"], where=raw.get("where", ""), aliases=tuple(raw.get("aliases", ())))
        entries[entry.key] = entry
    return entries


def cited(source_text: str) -> list[str]:
    """The bibliography keys a clause's ``source`` text cites, in the order they first appear: ``S``/``V``
    keys (a scenario suffix such as ``S6-R22`` cites ``S6``), ``seed NNN``, and each entry's aliases. A key
    the text names that is not in the bibliography is returned too (:func:`unresolved` reports it)."""
    found: list[tuple[int, str]] = [(m.start(), m.group(1)) for m in _KEY.finditer(source_text)]
    found += [(m.start(), f"seed {m.group(1)}") for m in _SEED.finditer(source_text)]
    lowered = source_text.lower()
    for entry in sources().values():
        for alias in entry.aliases:
            at = lowered.find(alias.lower())
            if at >= 0:
                found.append((at, entry.key))
    keys: list[str] = []
    for _, key in sorted(found):
        if key not in keys:
            keys.append(key)
    return keys


def unresolved(source_text: str) -> str | None:
    """Why a clause's ``source`` text does not resolve to the bibliography (None when it does): a key with no
    entry, or no key at all without saying that no source speaks (:data:`NO_SOURCE`)."""
    keys = cited(source_text)
    missing = [k for k in keys if k not in sources()]
    if missing:
        return f"cites {', '.join(missing)}, which the bibliography does not hold"
    if not keys and not any(phrase in source_text.lower() for phrase in NO_SOURCE):
        return "cites no source of the bibliography and does not say that none speaks"
    return None
