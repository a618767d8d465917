"""The distinguishing scoring hands of a ruleset, found by z3 once instead of on every conform run.

The hands that catch known misreadings of the scoring rules are a pure function of the ruleset (its game,
options and deck), and searching them takes seconds. So:

- the presets' hands ship with flip7-spec (``flip7_spec/conformance/data/scoring-hands.json``), written and
  checked by ``flip7-spec fixtures regenerate [--check]``;
- any other ruleset's hands are searched once and kept in the user's cache folder, one file per ruleset,
  named by the ruleset's canonical hash (:func:`ruleset_hash`), under a folder per flip7-spec version;
- ``fresh=True`` (``conform --no-cache``) searches again and reads or writes neither.

A search that fails (a game without a symbolic model) gives no hands, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from flip7_spec.outputs import write_file
from flip7_spec.rulesets import Ruleset, preset, preset_names

DATA_FILE = "scoring-hands.json"
FORMAT = 1
CACHE_VARIABLE = "FLIP7_SPEC_CACHE_DIR"
"""An environment variable naming the cache folder to use instead of the user's cache folder."""


@dataclass(frozen=True)
class Hand:
    """One distinguishing hand: the specification scores ``cards`` (busted or not) as ``expected``, the
    misreading that breaks ``clause`` scores it otherwise."""

    id: str
    misreading: str
    clause: str
    cards: tuple[str, ...]
    busted: bool
    expected: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "misreading": self.misreading, "clause": self.clause, "cards": list(self.cards),
                "busted": self.busted, "expected": self.expected}

    @staticmethod
    def from_json(value: dict[str, Any]) -> Hand:
        return Hand(str(value["id"]), str(value["misreading"]), str(value["clause"]),
                    tuple(str(c) for c in value["cards"]), bool(value["busted"]), int(value["expected"]))


def ruleset_hash(ruleset: Ruleset) -> str:
    """The SHA-256 of what decides a ruleset's scoring hands: its game, option values and deck, as canonical
    JSON. Two rulesets that differ only in name or description have the same hash."""
    document = {"game": ruleset.game, "options": ruleset.options(), "deck": [list(pair) for pair in ruleset.deck]}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def search(ruleset: Ruleset) -> list[Hand]:
    """Run the z3 searches for ``ruleset`` (seconds). A game without a symbolic model gives no hands."""
    from flip7_spec.symbolic.prover import distinguishing_cases

    try:
        found = distinguishing_cases(ruleset)
    except Exception:  # a game without a symbolic model (or one z3 cannot finish) contributes no hands
        return []
    return [Hand(c.id, c.misreading, c.clause, tuple(c.cards), c.busted, c.expected) for c in found]


def shipped_path() -> Path:
    """Where the presets' hands ship: package data of :mod:`flip7_spec.conformance`."""
    return Path(str(resources.files("flip7_spec.conformance"))) / "data" / DATA_FILE


@cache
def _shipped() -> dict[str, tuple[str, tuple[Hand, ...]]]:
    """The shipped hands by preset name, each with the hash of the ruleset they were searched for."""
    try:
        document = json.loads(shipped_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return {}
    out = {}
    for name, entry in document.get("rulesets", {}).items():
        out[name] = (str(entry["hash"]), tuple(Hand.from_json(h) for h in entry["hands"]))
    return out


def cache_dir() -> Path:
    """The folder of cached hands: ``$FLIP7_SPEC_CACHE_DIR`` if set, else the user's cache folder; in both, a
    subfolder per flip7-spec version (a new version may search differently)."""
    from flip7_spec import __version__

    configured = os.environ.get(CACHE_VARIABLE)
    if configured:
        base = Path(configured)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("flip7-spec"))
    return base / __version__ / "scoring-hands"


def _read_cached(path: Path, digest: str) -> tuple[Hand, ...] | None:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("format") != FORMAT or document.get("hash") != digest:
            return None
        return tuple(Hand.from_json(h) for h in document["hands"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # a missing, partial or foreign file is searched again and rewritten


def _write_cached(path: Path, ruleset: Ruleset, digest: str, hands: tuple[Hand, ...]) -> None:
    document = {"format": FORMAT, "hash": digest, "ruleset": ruleset.to_json(), "hands": [h.to_json() for h in hands]}
    # An unwritable cache only costs the search next time; it must not stop the run.
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.partial")
        temporary.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        temporary.replace(path)


_memory: dict[str, tuple[Hand, ...]] = {}


def hands_for(ruleset: Ruleset, fresh: bool = False) -> tuple[Hand, ...]:
    """The distinguishing hands of ``ruleset``: shipped for a preset whose hash matches, else from the disk
    cache, else searched (and then cached). ``fresh`` always searches and touches no file."""
    if fresh:
        return tuple(search(ruleset))
    digest = ruleset_hash(ruleset)
    if digest in _memory:
        return _memory[digest]
    shipped = _shipped().get(ruleset.name)
    if shipped is not None and shipped[0] == digest:
        hands = shipped[1]
    else:
        path = cache_dir() / f"{digest}.json"
        cached = _read_cached(path, digest)
        if cached is None:
            hands = tuple(search(ruleset))
            _write_cached(path, ruleset, digest, hands)
        else:
            hands = cached
    _memory[digest] = hands
    return hands


def shipped_document() -> str:
    """The text the shipped file should hold: every preset's hands, searched now (tens of seconds)."""

    rulesets = {}
    for name in preset_names():
        ruleset = preset(name)
        rulesets[name] = {"hash": ruleset_hash(ruleset), "hands": [h.to_json() for h in search(ruleset)]}
    document = {"format": FORMAT, "generator": "flip7-spec fixtures regenerate", "rulesets": rulesets}
    return json.dumps(document, indent=1, sort_keys=True) + "\n"


def regenerate_shipped(check: bool = False) -> tuple[Path, bool]:
    """Search every preset's hands and compare with the shipped file; unless ``check``, write it when it
    differs. Returns the file and whether it was (or, with ``check``, would be) changed."""
    path = shipped_path()
    text = shipped_document()
    try:
        current: str | None = path.read_text(encoding="utf-8")
    except OSError:
        current = None
    changed = current != text
    if changed and not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, text, "scoring hands")  # whole or not at all
        _shipped.cache_clear()
        _memory.clear()
    return path, changed
