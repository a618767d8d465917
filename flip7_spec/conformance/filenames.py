"""The names saved failures are written under (``conform --save-failures``): a case id made into a file name
that a shell takes as one word as it is, so that the rerun command and a user's own commands need no quoting."""

from __future__ import annotations

import hashlib
import re
from typing import Final

_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._+-]")
"""Characters a POSIX shell may act on (quotes, commas in braces, spaces, brackets, ...), and any non-ASCII."""
LONGEST: Final = 150
"""Characters of a name before the level and extension at most (file systems allow 255 bytes)."""


def saved_failure_name(case_id: str, level: str) -> str:
    """The file name of the saved failure of ``case_id`` at ``level``: the id with ``/`` and ``:`` written
    ``_`` and ``=`` written ``-`` (``game_flip7_seed-0_game-4_players-4-game.json``), every other character
    a shell would act on (``"``, ``,``, spaces, ...) written ``_`` and then a short digest of the whole id, so
    that two ids never share a name; a long id is cut, with the digest. The id itself is kept inside the file
    (``header.provenance.failure.case_id``)."""
    plain = case_id.replace("/", "_").replace(":", "_").replace("=", "-")
    name = _UNSAFE.sub("_", plain)
    if name != plain or len(name) > LONGEST:
        digest = hashlib.sha256(case_id.encode("utf-8")).hexdigest()[:10]
        name = f"{name[:LONGEST - 11]}-{digest}"
    return f"{name}-{level}.json"
