"""Output files that are checked before a run, written whole or not at all, and never shared by two runs.

An output is *reserved* before any work: its folder must exist, it must not be a directory, a device or a
symbolic link, nor a file the same run reads, and there must be room to write. Reserving creates a
temporary file of its own beside it, ``.NAME.RANDOM.partial``, exclusively (``mkstemp``: ``O_CREAT |
O_EXCL``, so a file or a symbolic link someone planted at any name is never opened, followed, truncated or
removed), and claims the output for this run, so a second run writing the same output is refused at once.
Everything is written to the temporary file, which is renamed over ``NAME`` only when the output is
complete (:meth:`Output.commit`; the rename replaces ``NAME`` itself, never a file a link at ``NAME`` points
to); a run that fails or is interrupted removes it (:meth:`Output.discard`) and leaves whatever ``NAME``
held before untouched.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import socket
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType

from flip7_spec.errors import OutputError

ROOM = 64 * 1024
"""Bytes that must be free beside an output when it is reserved (a full disk is refused before the run)."""

TEMPORARY_SUFFIX = ".partial"
"""The end of every temporary file's name (``.NAME.RANDOM.partial``)."""

_NAME_PART = 100
"""Characters of the output's name kept in its temporary file's name, which must stay a valid file name."""


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except (OSError, RuntimeError, ValueError):
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


def check_target(path: Path, what: str) -> None:
    """Refuse ``path`` as an output unless it can be replaced by a regular file: its folder must exist, and
    it must be absent or a regular file (not a directory, a device, a FIFO or a symbolic link, which an
    output never follows); :class:`OutputError` if not. Nothing is created."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
    if mode is not None and stat.S_ISLNK(mode):
        raise OutputError(f"cannot write {what} {path}: it is a symbolic link (an output never follows one; "
                          "name the file itself)")
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {what} {path}: it is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"cannot write {what} {path}: it exists and is not a regular file")
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {what} {path}: no such folder {folder}")


def _umask() -> int:
    """The process's umask, read without changing it where Linux shows it (``os.umask`` sets it for a moment,
    which another thread creating a file then would see)."""
    with contextlib.suppress(OSError, ValueError, StopIteration), \
            open("/proc/self/status", encoding="ascii", errors="replace") as status:
        return int(next(line for line in status if line.startswith("Umask:")).split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class _Claim:
    """This run's claim on an output: an abstract Unix socket named after the output's folder (device and
    inode) and name. Binding it fails while another process holds it, and the kernel frees it when the
    process ends, however it ends, so no file is created and no stale claim outlives a killed run. Where
    abstract sockets do not exist (not Linux), nothing is claimed: the outputs stay whole, the last run to
    finish wins."""

    def __init__(self, path: Path, what: str) -> None:
        self._socket: socket.socket | None = None
        try:
            folder = os.stat(path.parent)
        except OSError as error:
            raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
        key = f"{folder.st_dev}:{folder.st_ino}:{path.name}".encode("utf-8", "surrogateescape")
        address = "\0flip7-spec-output-" + hashlib.sha256(key).hexdigest()[:40]
        try:
            claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        except (OSError, AttributeError):
            return
        try:
            claim.bind(address)
        except OSError as error:
            claim.close()
            if error.errno == errno.EADDRINUSE:
                raise OutputError(f"cannot write {what} {path}: another run is writing it") from None
            return  # no abstract sockets here
        self._socket = claim

    def release(self) -> None:
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.close()
            self._socket = None


class Output:
    """A reserved output: write to it, then :meth:`commit` or :meth:`discard`. Also a context manager
    that commits on success and discards on any exception (an interrupt included)."""

    def __init__(self, path: Path, what: str, temporary: Path, fd: int, claim: _Claim) -> None:
        self.path = path
        self.what = what
        self.temporary = temporary
        """The file being written: this run's own, created exclusively beside ``path``."""
        self._file = os.fdopen(fd, "wb")
        self._claim = claim
        self._done = False

    @classmethod
    def reserve(cls, path: Path, what: str = "output", room: int = ROOM) -> Output:
        """Check ``path`` and reserve it for this run (see the module docstring), making sure ``room`` bytes
        are free beside it; :class:`OutputError` if not."""
        check_target(path, what)
        claim = _Claim(path, what)
        try:
            fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:_NAME_PART]}.",
                                        suffix=TEMPORARY_SUFFIX)
        except OSError as error:
            claim.release()
            raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
        temporary = Path(name)
        try:
            os.fchmod(fd, 0o666 & ~_umask())  # the mode a file created the usual way would have
            _probe_room(fd, room)
        except BaseException as error:  # no room, or an interrupt: the temporary file is ours, remove it
            with contextlib.suppress(OSError):
                temporary.unlink()
            os.close(fd)
            claim.release()
            if isinstance(error, OSError):
                raise OutputError(f"cannot write {what} {path}: {_reason(error)}") from None
            raise
        return cls(path, what, temporary, fd, claim)

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
            os.replace(self.temporary, self.path)  # replaces a link at path, never follows it
        except OSError as error:
            self.discard()
            raise OutputError(f"cannot write {self.what} {self.path}: {_reason(error)}") from None
        self._done = True
        with contextlib.suppress(OSError):
            self._file.close()
        self._claim.release()

    def discard(self) -> None:
        """Give the output up: remove this run's temporary file; ``path`` keeps what it held before."""
        if self._done:
            return
        self._done = True
        with contextlib.suppress(OSError):
            self.temporary.unlink()
        with contextlib.suppress(OSError):
            self._file.close()
        self._claim.release()

    def __enter__(self) -> Output:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


NAME_BYTES = 200
"""The longest file name (UTF-8 bytes) :func:`fit_file_name` gives: under the 255 of common file systems."""


def fit_file_name(name: str, limit: int = NAME_BYTES) -> str:
    """``name`` itself when it is at most ``limit`` bytes, else its start, a hash of the whole name (so two
    long names stay apart) and its suffix: a name made from user input (a long seed) stays a valid one."""
    if len(name.encode("utf-8", "surrogateescape")) <= limit:
        return name
    suffix = Path(name).suffix if len(Path(name).suffix) <= 16 else ""
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    room = limit - len(suffix.encode("utf-8")) - len(digest) - 1
    head = name[: len(name) - len(suffix)].encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return f"{head}-{digest}{suffix}"


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
