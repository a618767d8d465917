"""Output files that are checked before a run, written whole or not at all, and never shared by two runs.

An output is *reserved* before any work: its folder must exist, it must not be a directory or a device,
nor a file the same run reads, and there must be room to write. Reserving creates ``NAME.partial``
beside it and takes an exclusive lock on it, so a second run writing the same output is refused at once
instead of interleaving with the first. Everything is written to the ``.partial`` file, which replaces
``NAME`` only when the output is complete (:meth:`Output.commit`); a run that fails or is interrupted
removes it (:meth:`Output.discard`) and leaves whatever ``NAME`` held before untouched.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType

from flip7_spec.errors import OutputError

ROOM = 64 * 1024
"""Bytes that must be free beside an output when it is reserved (a full disk is refused before the run)."""

_NO_LOCKS = (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL)


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def check_distinct(outputs: Sequence[tuple[str, Path]], inputs: Iterable[Path] = ()) -> None:
    """Refuse an output that is also an input of the run, or two outputs that are the same file.

    ``outputs`` pairs each path with what it is (``--json``), for the message.
    """
    inputs = list(inputs)
    for position, (what, path) in enumerate(outputs):
        for source in inputs:
            if _same_file(path, source):
                raise OutputError(f"{what} {path}: is also an input of this run; it would be overwritten")
        for other_what, other in outputs[:position]:
            if _same_file(path, other):
                raise OutputError(f"{what} {path}: is also the {other_what} output")


def _probe_room(fd: int, room: int = ROOM) -> None:
    """Raise OSError (ENOSPC, EDQUOT) unless ``room`` bytes can be allocated to ``fd``; leaves it empty."""
    room = max(room, 1)
    try:
        os.posix_fallocate(fd, 0, room)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.EOPNOTSUPP, errno.ENOSYS):
            raise
        os.write(fd, b"\0" * room)  # no fallocate on this file system: a plain write shows the room
        os.fsync(fd)
    os.ftruncate(fd, 0)


def _check_target(path: Path, what: str) -> None:
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {what} {path}: it is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"cannot write {what} {path}: it exists and is not a regular file")
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {what} {path}: no such folder {folder}")


class Output:
    """A reserved output: write to it, then :meth:`commit` or :meth:`discard`. Also a context manager
    that commits on success and discards on any exception (an interrupt included)."""

    def __init__(self, path: Path, what: str, temporary: Path, fd: int) -> None:
        self.path = path
        self.what = what
        self.temporary = temporary
        self._file = os.fdopen(fd, "wb")
        self._done = False

    @classmethod
    def reserve(cls, path: Path, what: str = "output", room: int = ROOM) -> Output:
        """Check ``path`` and reserve it for this run (see the module docstring), making sure ``room`` bytes
        are free beside it; :class:`OutputError` if not."""
        _check_target(path, what)
        temporary = path.with_name(path.name + ".partial")
        for _ in range(3):  # the .partial file may be renamed by a run finishing just now: open it again
            try:
                fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
            except OSError as error:
                raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise OutputError(f"cannot write {what} {path}: another run is writing it ({temporary.name} is "
                                  "locked)") from None
            except OSError as error:
                if error.errno not in _NO_LOCKS:  # a file system without locks: write unlocked
                    os.close(fd)
                    raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
            if _is_at(fd, temporary):
                break
            os.close(fd)
        else:
            raise OutputError(f"cannot write {what} {path}: {temporary.name} keeps being replaced")
        try:
            os.ftruncate(fd, 0)
            _probe_room(fd, room)
        except BaseException as error:  # no room, or an interrupt: the .partial file is ours, remove it
            with contextlib.suppress(OSError):
                temporary.unlink()
            os.close(fd)
            if isinstance(error, OSError):
                raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
            raise
        return cls(path, what, temporary, fd)

    def write(self, text: str) -> None:
        """Append ``text`` (UTF-8; a lone surrogate is written as its JSON escape ``\\udXXX``)."""
        try:
            self._file.write(text.encode("utf-8", "backslashreplace"))
        except OSError as error:
            self.discard()
            raise OutputError(f"cannot write {self.what} {self.path}: {_reason(error)}") from None

    def write_bytes(self, data: bytes) -> None:
        """Append ``data`` as it is (a picture, for one)."""
        try:
            self._file.write(data)
        except OSError as error:
            self.discard()
            raise OutputError(f"cannot write {self.what} {self.path}: {_reason(error)}") from None

    def commit(self) -> None:
        """Make the output complete: flush it to disk, then rename it over ``path`` (atomic)."""
        if self._done:
            return
        try:
            self._file.flush()
            with contextlib.suppress(OSError):
                os.fsync(self._file.fileno())
            os.replace(self.temporary, self.path)  # before closing: the lock is held until it is in place
        except OSError as error:
            self.discard()
            raise OutputError(f"cannot write {self.what} {self.path}: {_reason(error)}") from None
        self._done = True
        with contextlib.suppress(OSError):
            self._file.close()

    def discard(self) -> None:
        """Give the output up: remove the ``.partial`` file; ``path`` keeps what it held before."""
        if self._done:
            return
        self._done = True
        with contextlib.suppress(OSError):
            self.temporary.unlink()
        with contextlib.suppress(OSError):
            self._file.close()

    def __enter__(self) -> Output:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def _is_at(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        here, there = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def write_file(path: Path, text: str, what: str = "output") -> None:
    """Write ``text`` to ``path`` whole or not at all (reserve room for it, write, commit)."""
    with Output.reserve(path, what, room=len(text.encode("utf-8", "backslashreplace"))) as output:
        output.write(text)


def reserve_folder(folder: Path, what: str) -> Path:
    """Create ``folder`` if needed and check that files can be written in it; :class:`OutputError` if not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"cannot write {what} {folder}: it exists and is not a folder") from None
    except OSError as error:
        raise OutputError(f"cannot write {what} {folder}: {_reason(error)}") from None
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".flip7-spec-", suffix=".probe")
    except OSError as error:
        raise OutputError(f"cannot write {what} {folder}: {_reason(error)}") from None
    try:
        _probe_room(fd)
    except OSError as error:
        raise OutputError(f"cannot write {what} {folder}: {_reason(error)}") from None
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(probe)
    return folder
