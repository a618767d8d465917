"""Where two observations differ: JSON paths read into parts, every differing field listed, and the test
that tells a table cell or a card whether it lies in a differing region."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

Path = tuple[str | int, ...]

ABSENT: Final = "(absent)"
"""How a value missing on one side is written (an extra card, a key one side lacks)."""

_PART: Final = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


@dataclass(frozen=True, slots=True)
class Difference:
    """One differing field: ``path`` inside the observation (or the whole JSON path when the value is not
    an observation's, such as ``$.score``), what the reference expected and what the engine gave."""

    path: Path
    expected: Any
    found: Any


def parse_path(path: Any) -> Path:
    """The parts of a JSON path (``$.steps[3].observation.players[0].cards[1]``) or of a list of parts."""
    if isinstance(path, (list, tuple)):
        return tuple(p if isinstance(p, int) and not isinstance(p, bool) else str(p) for p in path)
    if not isinstance(path, str):
        return ()
    return tuple(name if name else int(index) for name, index in _PART.findall(path))


def in_observation(path: Any) -> Path:
    """The part of ``path`` inside the observation: what follows its last ``observation`` part (the whole
    path when it names none, as the paths a report gives relative to the observation do)."""
    parts = parse_path(path)
    for position in range(len(parts) - 1, -1, -1):
        if parts[position] == "observation":
            return parts[position + 1:]
    return parts


def path_text(path: Path) -> str:
    """``players[2].cards[3]``: a path inside the observation, written as a person reads it."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(the whole observation)"


def field_shape(path: Path) -> str:
    """The path with its indices dropped (``players[].total``): what failures of one kind share."""
    out = ""
    for part in path:
        out += "[]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(the whole observation)"


def _walk(expected: Any, found: Any, path: Path, out: list[Difference], limit: int) -> None:
    if len(out) >= limit:
        return
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in list(expected) + [k for k in found if k not in expected]:
            _walk(expected.get(key, ABSENT), found.get(key, ABSENT), (*path, key), out, limit)
        return
    if isinstance(expected, list) and isinstance(found, list):
        for index in range(max(len(expected), len(found))):
            left = expected[index] if index < len(expected) else ABSENT
            right = found[index] if index < len(found) else ABSENT
            _walk(left, right, (*path, index), out, limit)
        return
    same_type = type(expected) is type(found) or (_number(expected) and _number(found))
    if not same_type or expected != found:
        out.append(Difference(path, expected, found))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def all_differences(expected: Any, found: Any, options: bool = True, totals_only: bool = False,
                    limit: int = 200) -> list[Difference]:
    """Every leaf where ``found`` differs from ``expected`` (at most ``limit``), in reading order.

    ``options=False`` leaves out ``pending.options`` (compared only at the legal level); ``totals_only``
    keeps only the players' totals (what a round case compares at its last step). ``1`` and ``true`` differ.
    """
    out: list[Difference] = []
    _walk(expected, found, (), out, limit)
    if not options:
        out = [d for d in out if d.path[:2] != ("pending", "options")]
    if totals_only:
        out = [d for d in out if len(d.path) >= 3 and d.path[0] == "players" and d.path[2] == "total"]
    return out


def touches(path: Path, differing: Iterable[Path]) -> bool:
    """Whether the element at ``path`` differs: it lies inside a differing region or holds one."""
    size = len(path)
    for other in differing:
        common = min(size, len(other))
        if path[:common] == other[:common]:
            return True
    return False


def under(path: Path, differing: Sequence[Path]) -> list[Path]:
    """The differing paths strictly inside ``path``."""
    return [d for d in differing if len(d) > len(path) and d[:len(path)] == path]
