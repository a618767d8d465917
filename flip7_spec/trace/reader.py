"""Reading traces from files: one ``.json`` document, or a ``.jsonl`` corpus of one trace per line.

Reading never raises for bad content: each trace comes back with its location (``file`` or ``file:line``)
and either the parsed value or a one-line error naming the line and column (parsing is strict: see
:mod:`flip7_spec.jsontext`). Only a file that cannot be opened at all, or is not a regular file (a FIFO
would wait forever, ``/dev/zero`` never ends), raises :class:`TraceFileError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flip7_spec.errors import InputError
from flip7_spec.inputs import decode, open_regular
from flip7_spec.jsontext import parse_json
from flip7_spec.limits import CORPUS_LINE, TRACE_FILE, show_bytes

MAX_DOCUMENT_BYTES = TRACE_FILE.value
MAX_LINE_BYTES = CORPUS_LINE.value


class TraceFileError(InputError):
    """A trace file that cannot be read at all (missing, a directory or another file that is not a regular
    file, unreadable)."""


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


def _parse(data: bytes, file: str, line: int | None) -> TraceSource | None:
    """The trace in ``data`` (None for a blank line of a corpus); errors name the file's line and column."""
    try:
        text = decode(data)
        if not text.strip():
            return None if line is not None else TraceSource(file, line, error="empty file")
        return TraceSource(file, line, trace=parse_json(text))
    except InputError as error:
        message = str(error)
        if line is not None and message.startswith("line 1, "):  # a corpus line: its own line number
            message = f"line {line}, {message[len('line 1, '):]}"
        elif line is not None and message.startswith("line "):
            message = f"line {line}: {message}"
        return TraceSource(file, line, error=message)


def is_corpus(path: Path) -> bool:
    """Whether ``path`` names a corpus (JSON Lines) rather than one document."""
    return path.suffix.lower() in (".jsonl", ".ndjson")


def read_traces(path: Path) -> Iterator[TraceSource]:
    """Every trace in ``path``, in order, each with its location. Streams corpora line by line."""
    name = str(path)
    try:
        handle = open_regular(path)
    except InputError as error:
        raise TraceFileError(str(error)) from None
    with handle:
        if not is_corpus(path):
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
            if len(data) > MAX_DOCUMENT_BYTES:
                yield TraceSource(name, None, error=f"file is larger than the limit of "
                                                   f"{show_bytes(MAX_DOCUMENT_BYTES)} ({TRACE_FILE.name}); "
                                                   "write many games as a .jsonl corpus")
                return
            parsed = _parse(data, name, None)
            assert parsed is not None
            yield parsed
            return
        for number, raw in enumerate(_lines(handle), start=1):
            if raw is None:
                yield TraceSource(name, number, error=f"line longer than the limit of {show_bytes(MAX_LINE_BYTES)} "
                                                      f"({CORPUS_LINE.name})")
                continue
            source = _parse(raw, name, number)
            if source is not None:
                yield source


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
