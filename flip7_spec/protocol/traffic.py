"""The protocol traffic: every line sent to an engine process and received from it, and every line the engine
writes to stderr, for a person reading what happened and a program replaying it.

Two listeners, either or both:

- Python logging: the logger ``flip7_spec.protocol`` (:data:`LOGGER`) at DEBUG, one record per line, its
  message ``CASE DIR LINE`` and the fields of :func:`record` as the record's attributes (``extra``).
- a recording (``conform --log-protocol FILE``): each process of a run (the command's own, worker 0, and each
  ``-j`` worker) writes its records as JSON Lines to a part file of its own in one folder, so that no two
  processes ever write the same file; :func:`merged` reads the parts back in time order for the one file.

A record (docs/protocol.md, "Seeing the traffic")::

    {"t": "2025-06-01T09:30:00.123456Z", "worker": 1, "engine": 4242, "case": "fixture:flip7/bust-basic",
     "dir": "send", "line": "{\\"seq\\":2,\\"cmd\\":\\"start\\",...}"}

Nothing is formatted while nobody listens: the process client asks :func:`listening` once per request or
game, and only then calls :func:`note` for each line.
"""

from __future__ import annotations

import contextlib
import heapq
import json
import logging
import os
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

LOGGER: Final = logging.getLogger("flip7_spec.protocol")
"""Every line sent to and received from an engine process, at DEBUG."""

SEND: Final = "send"
RECV: Final = "recv"
STDERR: Final = "stderr"
"""The directions of a record: a request line sent, a reply line received, a line the engine wrote to stderr."""

FLUSH_BYTES = 1 << 16
"""Records a process keeps in memory at most before it writes them to its part."""
FLUSH_SECONDS = 0.5
"""Seconds a record waits at most before it is written (when the next one comes): a worker killed while its
engine hangs loses only the records of the last moment."""

_recorder: _Recorder | None = None
_folder: Path | None = None  # the folder of the recording this process takes part in
_worker = 0


def part_name(worker: int) -> str:
    """The file of a recording's folder that the process of ``worker`` writes."""
    return f"worker-{worker}.jsonl"


class _Recorder:
    """One process's part of a recording: records kept in memory and appended to its own file by whole lines.

    Written with ``os.write`` on a descriptor of its own and never by a Python file object, so that a process
    forked from this one (a ``-j`` worker) cannot write records of its parent when it drops its copy."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o600)
        self.owner = os.getpid()
        self.pending: list[str] = []
        self.size = 0
        self.case: str | None = None
        self.written = time.monotonic()
        self.lock = threading.Lock()  # the stderr reader of an engine notes from its own thread

    def add(self, fields: dict[str, Any]) -> None:
        text = json.dumps(fields, ensure_ascii=False) + "\n"
        with self.lock:
            self.pending.append(text)
            self.size += len(text)
            now = time.monotonic()
            # A new case writes the last one's records: each case's records are on disk once the next begins.
            if self.size >= FLUSH_BYTES or fields["case"] != self.case or now - self.written >= FLUSH_SECONDS:
                self._write()
                self.written = now
            self.case = fields["case"]

    def flush(self) -> None:
        with self.lock:
            self._write()

    def _write(self) -> None:
        if not self.pending or os.getpid() != self.owner:
            return
        data = "".join(self.pending).encode("utf-8", "backslashreplace")
        self.pending.clear()
        self.size = 0
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view):]

    def close(self) -> None:
        self.flush()
        with contextlib.suppress(OSError):
            os.close(self.fd)


def listening() -> bool:
    """Whether a line must be noted: a recording is on in this process, or the logger takes DEBUG records."""
    return _recorder is not None or LOGGER.isEnabledFor(logging.DEBUG)


def timestamp(seconds: float) -> str:
    """``seconds`` since the epoch in ISO 8601, UTC, to the microsecond (``2025-06-01T09:30:00.123456Z``):
    one fixed width, so that text order is time order."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def record(direction: str, line: str, case: str | None, engine: int | None) -> dict[str, Any]:
    """One record: ``t`` (when), ``worker`` (0 the command's own process, N the N-th ``-j`` worker
    started), ``engine`` (the engine process's pid), ``case`` (the id of the case being run, None outside
    one: the handshake, ``quit``), ``dir`` (:data:`SEND`, :data:`RECV` or :data:`STDERR`) and ``line`` (the
    line without its newline)."""
    return {"t": timestamp(time.time()), "worker": _worker, "engine": engine, "case": case, "dir": direction,
            "line": line}


def note(direction: str, line: str, case: str | None, engine: int | None) -> None:
    """Give one line to whoever listens (:func:`listening`)."""
    fields = record(direction, line, case, engine)
    recorder = _recorder
    if recorder is not None:
        recorder.add(fields)
    if LOGGER.isEnabledFor(logging.DEBUG):
        LOGGER.debug("%s %s %s", case or "-", direction, line, extra=fields)


def record_in(folder: Path, worker: int = 0) -> None:
    """Record this process's lines in ``folder`` (its part :func:`part_name`), as worker ``worker``."""
    global _recorder, _folder, _worker
    stop()
    _worker = worker
    _recorder = _Recorder(folder / part_name(worker))
    _folder = folder


def become_worker(number: int) -> None:
    """In a ``-j`` worker process just forked: its records say ``worker`` ``number``, and when its parent was
    recording, it records in the same folder, in its own part. What the parent had not written yet is
    the parent's to write: it is dropped here, never written twice."""
    global _recorder, _worker
    _worker = number
    folder = _folder
    inherited, _recorder = _recorder, None
    if inherited is not None:
        inherited.pending.clear()
        with contextlib.suppress(OSError):
            os.close(inherited.fd)  # this process's copy of the parent's descriptor only
        if folder is not None:
            record_in(folder, number)


def stop() -> None:
    """Stop recording in this process, having written every record it kept."""
    global _recorder, _folder
    recorder, _recorder = _recorder, None
    _folder = None
    if recorder is not None:
        recorder.close()


def merged(folder: Path) -> Iterator[str]:
    """Every record of a recording's parts (each line ending with a newline), in time order; records of the
    same moment keep the order of their part, and the parts the order of their workers."""
    parts = sorted(folder.glob("worker-*.jsonl"), key=lambda p: int(p.stem.partition("-")[2] or 0))

    def lines(path: Path) -> Iterator[tuple[str, str]]:
        with path.open(encoding="utf-8", errors="replace") as part:
            for line in part:
                if line.endswith("\n"):  # a worker killed in the middle of a write leaves no half record
                    yield json.loads(line)["t"], line

    for _, line in heapq.merge(*(lines(p) for p in parts), key=lambda pair: pair[0]):
        yield line


__all__ = ["LOGGER", "RECV", "SEND", "STDERR", "become_worker", "listening", "merged", "note", "record",
           "record_in", "stop", "timestamp"]
