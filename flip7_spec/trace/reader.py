"""Reading traces from files: one ``.json`` document, or a ``.jsonl`` corpus of one trace per line.

Reading never raises for bad content: each trace comes back with its location (``file`` or ``file:line``)
and either the parsed value or a one-line error naming the line and column. Only a file that cannot be
opened at all raises :class:`TraceFileError`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flip7_spec.errors import Flip7Error

MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 64 * 1024 * 1024


class TraceFileError(Flip7Error):
    """A trace file that cannot be read at all (missing, a directory, unreadable, wrong kind)."""


@dataclass(frozen=True, slots=True)
class TraceSource:
    """One trace as read: where it came from, and the parsed JSON or why it could not be parsed."""

    file: str
    line: int | None
    trace: Any = None
    error: str | None = None

    @property
    def location(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


def _parse(text: str, file: str, line: int | None) -> TraceSource:
    try:
        return TraceSource(file, line, trace=json.loads(text))
    except json.JSONDecodeError as error:
        at_end = error.pos >= len(text.rstrip()) or (
            error.msg.startswith("Unterminated string") and '"' not in text[error.pos + 1:])
        what = "truncated JSON (the text ends inside a value)" if at_end else f"malformed JSON: {error.msg}"
        row = error.lineno if line is None else line
        return TraceSource(file, line, error=f"line {row}, column {error.colno}: {what}")


def is_corpus(path: Path) -> bool:
    """Whether ``path`` names a corpus (JSON Lines) rather than one document."""
    return path.suffix.lower() in (".jsonl", ".ndjson")


def read_traces(path: Path) -> Iterator[TraceSource]:
    """Every trace in ``path``, in order, each with its location. Streams corpora line by line."""
    name = str(path)
    if not path.exists():
        raise TraceFileError(f"{name}: no such file")
    if path.is_dir():
        raise TraceFileError(f"{name}: is a directory; give trace files (.json or .jsonl)")
    try:
        handle = path.open("rb")
    except OSError as error:
        raise TraceFileError(f"{name}: cannot read ({error.strerror})") from None
    with handle:
        if not is_corpus(path):
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
            if len(data) > MAX_DOCUMENT_BYTES:
                yield TraceSource(name, None, error=f"file is larger than {MAX_DOCUMENT_BYTES // 2**20} MiB; "
                                                   "write many games as a .jsonl corpus")
                return
            text = _decode(data)
            if text is None:
                yield TraceSource(name, None, error="not UTF-8 text")
                return
            if not text.strip():
                yield TraceSource(name, None, error="empty file")
                return
            yield _parse(text, name, None)
            return
        for number, raw in enumerate(_lines(handle), start=1):
            if raw is None:
                yield TraceSource(name, number, error=f"line longer than {MAX_LINE_BYTES // 2**20} MiB")
                continue
            text = _decode(raw)
            if text is None:
                yield TraceSource(name, number, error="not UTF-8 text")
                continue
            if not text.strip():
                continue
            yield _parse(text, name, number)


def _decode(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _lines(handle: Any) -> Iterator[bytes | None]:
    """Lines of a binary file; None for a line over the size limit (which is skipped, not held)."""
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = handle.readline(MAX_LINE_BYTES + 1)
            yield None
            continue
        yield raw
