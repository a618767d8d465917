"""Reading input files (rulesets, traces, fixture sources) with bounded time and memory.

Only regular files are read: a named pipe (FIFO) would wait forever for a writer and a device such as
``/dev/zero`` never ends, so both are refused before a byte is read. A file is read up to its limit and
no further, and text must be UTF-8; every refusal is one :class:`~flip7_spec.errors.InputError` line that
names the file (and the line and column where that makes sense).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO, Any

from flip7_spec.errors import InputError
from flip7_spec.jsontext import parse_json, parse_toml
from flip7_spec.limits import SOURCE_FILE, Limit

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _not_regular(mode: int) -> str:
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def open_regular(path: Path) -> IO[bytes]:
    """Open ``path`` for binary reading. Raises :class:`InputError` unless it is a readable regular file.

    The file is opened without blocking (a FIFO would otherwise wait for a writer here) and checked on
    the open descriptor, so what is checked is what is read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = _not_regular(mode)
        advice = "; give trace files (.json or .jsonl)" if kind == "a directory" else "; save it to a file first"
        raise InputError(f"{path}: is {kind}, not a regular file{advice}")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_bytes(path: Path, limit: Limit) -> bytes:
    """The bytes of the regular file ``path``; :class:`InputError` if it is larger than ``limit``."""
    with open_regular(path) as handle:
        try:
            data = handle.read(limit.value + 1)
        except OSError as error:
            raise InputError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(data) > limit.value:
        raise InputError(f"{path}: the file is larger than the limit of {limit.text} ({limit.name})")
    return data


def decode(data: bytes) -> str:
    """``data`` as UTF-8 text. Raises :class:`InputError` ("line L, column C: not UTF-8 text ...")."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(f"line {line}, column {column}: not UTF-8 text (byte 0x{data[error.start]:02x})") from None


def read_document(path: Path, limit: Limit) -> Any:
    """The parsed content of a TOML (``.toml``) or JSON (any other name) file, read within ``limit``."""
    data = read_bytes(path, limit)
    try:
        text = decode(data)
        return parse_toml(text) if path.suffix.lower() == ".toml" else parse_json(text)
    except InputError as error:
        raise InputError(f"{path}: {error}") from None


def read_ruleset_document(path: Path) -> Any:
    """The parsed content of a ruleset file (TOML or JSON), within :data:`~flip7_spec.limits.SOURCE_FILE`."""
    return read_document(path, SOURCE_FILE)
