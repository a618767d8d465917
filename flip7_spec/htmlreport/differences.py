"""Where a failure's differences lie on the page: JSON paths read into parts, written as a person reads them,
and the test that tells a table cell or a card whether it lies in a differing region.

Which fields differ is decided by the run's comparison (:func:`flip7_spec.judge.compared_differences`), and a
result records them (``CaseResult.differences``); this module only places them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from flip7_spec.trace.compare import Difference

Path = tuple[str | int, ...]

_PART: Final = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


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


__all__ = ["Difference", "Path", "field_shape", "in_observation", "parse_path", "path_text", "touches", "under"]
