"""The distinguishing scoring hands of a ruleset, found by z3 once instead of on every conform run.

The hands that catch known misreadings of the scoring rules are a pure function of the ruleset (its game,
options and deck), and searching them takes seconds. So:

- the presets' hands ship with flip7-spec (``flip7_spec/conformance/data/scoring-hands.json``), written and
  checked by ``flip7-spec fixtures regenerate [--check]``;
- any other ruleset's hands are searched once and kept in the user's cache folder, one file per ruleset,
  named by the ruleset's canonical hash (:func:`ruleset_hash`), under a folder per flip7-spec version;
- ``fresh=True`` (``conform --no-cache``) searches again and reads or writes neither.

The cache cannot lie. Only a search that ran to its end is kept: one cut short by Ctrl-C (z3 takes the
signal and gives up: the signal is given back to the run, which stops as interrupted) or by a z3 time-out
is used for this run only, with one line saying so, and searched again next time. Each entry is written
whole (a temporary file renamed into place), marked complete, and carries a SHA-256 checksum of its
hands, its ruleset's hash and the flip7-spec version that searched it. An entry is read as an input
(regular files only, within :data:`~flip7_spec.limits.CACHE_ENTRY` bytes and the nesting limit); one that
is damaged, incomplete, foreign (another ruleset, version or format) or fails its checksum is set aside
with one line on stderr and searched again. A game without a symbolic model has no hands.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import stat
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from flip7_spec.errors import Flip7Error, InputError
from flip7_spec.inputs import read_document
from flip7_spec.limits import CACHE_ENTRY
from flip7_spec.outputs import write_file
from flip7_spec.rulesets import Ruleset, preset, preset_names
from flip7_spec.terminal import printable

DATA_FILE = "scoring-hands.json"
FORMAT = 1
"""The format of the shipped file."""
CACHE_FORMAT = 2
"""The format of a cache entry (1: before entries were marked complete and checksummed)."""
CACHE_VARIABLE = "FLIP7_SPEC_CACHE_DIR"
"""An environment variable naming the cache folder to use instead of the user's cache folder."""


@dataclass(frozen=True)
class ScoringHand:
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
    def from_json(value: dict[str, Any]) -> ScoringHand:
        return ScoringHand(str(value["id"]), str(value["misreading"]), str(value["clause"]),
                    tuple(str(c) for c in value["cards"]), bool(value["busted"]), int(value["expected"]))


def ruleset_hash(ruleset: Ruleset) -> str:
    """The SHA-256 of what decides a ruleset's scoring hands: its game, option values and deck, as canonical
    JSON. Two rulesets that differ only in name or description have the same hash."""
    document = {"game": ruleset.game, "options": ruleset.options(), "deck": [list(pair) for pair in ruleset.deck]}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class IncompleteSearch(Flip7Error):
    """A search that did not run to its end (z3 timed out or was cancelled): its hands must not be cached."""


def search(ruleset: Ruleset) -> list[ScoringHand]:
    """Run the z3 searches for ``ruleset`` (seconds). A game without a symbolic model gives no hands.

    Raises :class:`IncompleteSearch` when a search does not finish; a Ctrl-C that z3 took while searching
    is raised again in the run (``KeyboardInterrupt``) where the run handles signals."""
    from flip7_spec.symbolic.prover import distinguishing_cases, plugin_of

    try:
        if plugin_of(ruleset) is None:
            return []
        import z3  # type: ignore[import-untyped, unused-ignore]

        # z3 would take a Ctrl-C for itself, give up the search or, between two checks, lose it: the
        # signal goes to the run instead, which stops once the check under way returns.
        z3.set_param("ctrl_c", False)
        found = distinguishing_cases(ruleset)
    except Exception as error:  # z3 gave no answer, or the model cannot represent the ruleset
        reason = str(error)
        if "canceled" in reason:  # z3 caught a Ctrl-C meant for the run: hand it back
            signal.raise_signal(signal.SIGINT)  # raises here in the main thread unless SIGINT is ignored
            raise IncompleteSearch("the search was interrupted") from None
        raise IncompleteSearch(f"the search did not finish ({type(error).__name__}: {reason})") from None
    return [ScoringHand(c.id, c.misreading, c.clause, tuple(c.cards), c.busted, c.expected) for c in found]


def shipped_path() -> Path:
    """Where the presets' hands ship: package data of :mod:`flip7_spec.conformance`."""
    return Path(str(resources.files("flip7_spec.conformance"))) / "data" / DATA_FILE


@cache
def _shipped() -> dict[str, tuple[str, tuple[ScoringHand, ...]]]:
    """The shipped hands by preset name, each with the hash of the ruleset they were searched for."""
    try:
        document = json.loads(shipped_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        return {}
    out = {}
    for name, entry in document.get("rulesets", {}).items():
        out[name] = (str(entry["hash"]), tuple(ScoringHand.from_json(h) for h in entry["hands"]))
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


def notice(text: str) -> None:
    """Say one line about the cache on stderr (a damaged entry set aside, a search not kept)."""
    print(f"flip7-spec: warning: {printable(text)}", file=sys.stderr, flush=True)


def _checksum(digest: str, version: str, hands: list[dict[str, Any]]) -> str:
    """The SHA-256 that binds an entry's hands to its ruleset's hash and the version that searched them."""
    body = json.dumps({"hash": digest, "version": version, "hands": hands}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _read_cached(path: Path, digest: str) -> tuple[ScoringHand, ...] | None:
    """The hands of a complete entry for ``digest`` by this version, or None: nothing there (silently), or
    an entry that cannot be trusted (one line, then it is searched again and replaced)."""
    from flip7_spec import __version__

    try:
        path.lstat()
    except FileNotFoundError:
        return None
    except OSError as error:
        notice(f"scoring-hands cache {path}: cannot read it ({_reason(error)}); searching again")
        return None
    try:
        document = read_document(path, CACHE_ENTRY)
        if not isinstance(document, dict):
            raise ValueError("not a JSON object")
        if document.get("format") != CACHE_FORMAT or document.get("version") != __version__:
            raise ValueError("written by another version of flip7-spec")
        if document.get("hash") != digest:
            raise ValueError("the entry of another ruleset")
        if document.get("complete") is not True:
            raise ValueError("an incomplete search")
        raw = document.get("hands")
        if not isinstance(raw, list) or document.get("checksum") != _checksum(digest, __version__, raw):
            raise ValueError("its checksum does not match its content")
        return tuple(ScoringHand.from_json(h) for h in raw)
    except (InputError, ValueError, KeyError, TypeError, AttributeError) as error:
        notice(f"scoring-hands cache {path}: set aside ({error}); searching again")
        return None


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def _write_cached(path: Path, ruleset: Ruleset, digest: str, hands: tuple[ScoringHand, ...]) -> None:
    """Keep the hands of a complete search: written whole to a temporary file of this run's own, marked
    complete and checksummed, then renamed over whatever was there (never through a link)."""
    from flip7_spec import __version__

    raw = [h.to_json() for h in hands]
    document = {"format": CACHE_FORMAT, "version": __version__, "hash": digest, "complete": True,
                "checksum": _checksum(digest, __version__, raw), "ruleset": ruleset.to_json(), "hands": raw}
    # An unwritable cache only costs the search next time; it must not stop the run.
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode: int | None = path.lstat().st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            return
        if mode is not None and not stat.S_ISREG(mode):  # a FIFO or a link set aside: a file takes its place
            path.unlink()
        write_file(path, json.dumps(document, indent=1, sort_keys=True) + "\n", "scoring-hands cache entry")


_memory: dict[str, tuple[ScoringHand, ...]] = {}


def hands_for(ruleset: Ruleset, fresh: bool = False) -> tuple[ScoringHand, ...]:
    """The distinguishing hands of ``ruleset``: shipped for a preset whose hash matches, else from the disk
    cache, else searched (and then cached, when the search ran to its end). ``fresh`` always searches and
    touches no file. A search that did not finish gives no hands for this run, with one line saying so."""
    if fresh:
        return _searched(ruleset)[0]
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
            hands, complete = _searched(ruleset)
            if complete:  # else not cached: the next run searches again
                _write_cached(path, ruleset, digest, hands)
        else:
            hands = cached
    _memory[digest] = hands
    return hands


def _searched(ruleset: Ruleset) -> tuple[tuple[ScoringHand, ...], bool]:
    """The hands :func:`search` finds and whether the search ran to its end (one line when it did not)."""
    try:
        return tuple(search(ruleset)), True
    except IncompleteSearch as error:
        notice(f"scoring hands of {ruleset.name}: {error}; this run lacks its distinguishing hands "
               "(not cached: searched again next run)")
        return (), False


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
