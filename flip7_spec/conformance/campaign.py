"""A campaign directory: a conformance run that records each finished case as it completes and, run again
with the same arguments, runs only the cases not yet recorded.

The directory holds:

- ``campaign.json``: the arguments that decide the cases and their verdicts (the engine, the corpus, the
  timeout, where failures are saved; not the worker count, the cluster or the report files) and the engine's
  handshake, written once when the campaign starts. A run with other arguments, or whose engine answers
  another handshake, is refused with one line: its results would not be those of the same campaign.
- ``cases.jsonl``: one line per finished case, appended and flushed to disk (``fsync``) before the case
  counts as done: its id and its results as the JSON report writes them. A line cut short by a crash
  mid-write is dropped when the campaign is opened again (that case runs again).
- ``campaign.lock``: locked while a run uses the directory, so two runs never append to one campaign.

Cases are deterministic by id and seed, so a case recorded by an earlier run is delivered again from its
line, in its place among the cases, and the reports of a resumed campaign are those of a run that was never
interrupted. An interrupted run loses at most the cases that were running.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.engines import FinishedCase
from flip7_spec.errors import Flip7Error
from flip7_spec.judge.case import Case
from flip7_spec.results import CaseResult

SETTINGS = "campaign.json"
JOURNAL = "cases.jsonl"
LOCK = "campaign.lock"

FORMAT = 1
"""The version of the directory's layout (written in ``campaign.json``)."""

FILE_CONTENTS = "file_contents"
"""The argument that holds the digests of the run's ruleset and trace files (present only when there are
some)."""

Deliver = Callable[[FinishedCase], None]
Finished = Callable[[Case, FinishedCase], None]
CaseRunner = Callable[[Iterator[Case], Deliver, Finished | None], None]
"""Runs cases and delivers their outcomes in the order of the cases, telling ``finished`` of each case as
soon as it finishes (one process, a pool of processes, a cluster)."""


class CampaignError(Flip7Error):
    """A campaign directory that cannot be used: other arguments, another engine, unreadable, or in use."""


def result_to_json(result: CaseResult) -> dict[str, Any]:
    """A result as one line of the journal records it (as the JSON report writes it)."""
    return result.to_json()


def result_from_json(record: Mapping[str, Any]) -> CaseResult:
    """The result :func:`result_to_json` recorded (a journal of an earlier release, which listed its extra
    fields under ``extra``, reads the same)."""
    return CaseResult.from_json(dict(record))


@dataclass
class _Recorded:
    results: list[CaseResult]
    decisions: int


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (a ruleset or trace file a campaign reads: a changed file is another
    campaign); ``missing`` when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


@dataclass
class Campaign:
    """An open campaign directory (see the module docstring). Open it with :meth:`open`, then run cases
    through :meth:`run`; :meth:`close` releases its lock."""

    directory: Path
    arguments: dict[str, Any]
    recorded: dict[str, _Recorded] = field(default_factory=dict)
    hello: dict[str, Any] | None = None
    _lock: int | None = field(default=None, repr=False)
    _journal: int | None = field(default=None, repr=False)
    _flags: Mapping[str, str] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, directory: Path, arguments: dict[str, Any], flags: Mapping[str, str] | None = None) -> Campaign:
        """Open (or start) the campaign in ``directory`` for a run with ``arguments`` (JSON values, by option
        name; ``flags`` names each option as the command line writes it, for the message). Raises
        :class:`CampaignError` for a directory started with other arguments, unreadable, or in use."""
        campaign = cls(directory, json.loads(json.dumps(arguments, sort_keys=True)), _flags=dict(flags or {}))
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CampaignError(f"--campaign {directory}: cannot use it: {_reason(error)}") from None
        if not directory.is_dir():
            raise CampaignError(f"--campaign {directory}: it is not a folder")
        campaign._take_lock()
        try:
            campaign._settle()
            campaign._read_journal()
        except BaseException:
            campaign.close()
            raise
        return campaign

    def _take_lock(self) -> None:
        try:
            fd = os.open(self.directory / LOCK, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as error:
            raise CampaignError(f"--campaign {self.directory}: cannot use it: {_reason(error)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise CampaignError(f"--campaign {self.directory}: another run is using it ({LOCK} is locked)") from None
        except OSError as error:
            if error.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):  # no locks here: go on unlocked
                os.close(fd)
                raise CampaignError(f"--campaign {self.directory}: cannot use it: {_reason(error)}") from None
        self._lock = fd

    def _settle(self) -> None:
        """Write the settings of a new campaign, or check this run's arguments against those recorded."""
        path = self.directory / SETTINGS
        if not path.exists():
            if (self.directory / JOURNAL).exists():
                raise CampaignError(f"--campaign {self.directory}: it holds {JOURNAL} without {SETTINGS}: not a "
                                    "campaign this version can resume; use another folder")
            _write_whole(path, json.dumps({"format": FORMAT, "arguments": self.arguments}, indent=2,
                                          sort_keys=True) + "\n")
            return
        try:
            settings = json.loads(path.read_text(encoding="utf-8"))
            recorded = settings["arguments"]
            self.hello = settings.get("hello")
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise CampaignError(f"--campaign {self.directory}: cannot read {SETTINGS}: {error}") from None
        if settings.get("format") != FORMAT:
            raise CampaignError(f"--campaign {self.directory}: written by another version of flip7-spec "
                                f"(format {settings.get('format')}); use another folder")
        # This version's deciding arguments (every one is present, None when not given), and the files' contents;
        # an argument an earlier version recorded that no longer decides anything (an output's path) is left out.
        names = set(self.arguments) | (set(recorded) & {FILE_CONTENTS})
        changed = [name for name in sorted(names, key=str) if recorded.get(name) != self.arguments.get(name)]
        if changed:
            name = changed[0]
            flag = self._flags.get(name, name)
            more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
            raise CampaignError(f"--campaign {self.directory}: started with other arguments: {flag} "
                                f"{_shown(recorded.get(name))} there, {_shown(self.arguments.get(name))} here{more}; "
                                "run it with the same arguments to resume, or use another folder")

    def _read_journal(self) -> None:
        """Read the recorded cases; drop a last line cut short by a crash mid-write."""
        path = self.directory / JOURNAL
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as error:
            raise CampaignError(f"--campaign {self.directory}: cannot open {JOURNAL}: {_reason(error)}") from None
        self._journal = fd
        with open(os.dup(fd), "rb") as journal:
            data = journal.read()
        whole = data.rfind(b"\n") + 1
        if whole < len(data):
            os.ftruncate(fd, whole)  # a line cut short: its case never counted as done
        for number, line in enumerate(data[:whole].splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                results = [result_from_json(r) for r in entry["results"]]
                self.recorded[str(entry["id"])] = _Recorded(results, int(entry["decisions"]))
            except (ValueError, KeyError, TypeError) as error:
                raise CampaignError(f"--campaign {self.directory}: {JOURNAL} line {number} is not a recorded "
                                    f"case ({type(error).__name__}: {error})") from None

    def begin(self, hello: dict[str, Any]) -> None:
        """Check the engine's handshake against the one the campaign started with (recording it on the
        first run); :class:`CampaignError` when it differs (another engine or version plays other cases)."""
        hello = json.loads(json.dumps(hello))
        if self.hello is None:
            path = self.directory / SETTINGS
            settings = json.loads(path.read_text(encoding="utf-8"))
            settings["hello"] = hello
            _write_whole(path, json.dumps(settings, indent=2, sort_keys=True) + "\n")
            self.hello = hello
        elif self.hello != hello:
            raise CampaignError(f"--campaign {self.directory}: the engine's handshake differs from the one the "
                                f"campaign started with (was {_shown(self.hello)[:200]}); use another folder")

    def record(self, case: Case, outcome: FinishedCase) -> None:
        """Append the finished case to the journal and flush it to disk; it counts as done from here on."""
        assert self._journal is not None
        line = json.dumps({"id": case.id, "decisions": outcome.decisions,
                           "results": [result_to_json(r) for r in outcome.results]},
                          sort_keys=True, ensure_ascii=True, default=str) + "\n"
        data = line.encode("ascii")
        try:
            written = os.write(self._journal, data)
            while written < len(data):
                written += os.write(self._journal, data[written:])
            os.fsync(self._journal)
        except OSError as error:
            raise CampaignError(f"--campaign {self.directory}: cannot record a case in {JOURNAL}: "
                                f"{_reason(error)}") from None
        self.recorded[case.id] = _Recorded(outcome.results, outcome.decisions)

    def run(self, runner: CaseRunner, cases: Iterator[Case], deliver: Deliver) -> None:
        """Run ``cases`` through ``runner`` except those already recorded, whose recorded outcomes are
        delivered in their place: ``deliver`` sees every case's outcome in the order of ``cases``. Each case
        that finishes is recorded as it finishes. When the run stops early, the outcomes that finished are
        delivered (in order) before the stop goes on."""
        slots: deque[tuple[str, list[FinishedCase | None]]] = deque()  # every case taken, in order
        fresh: dict[str, list[FinishedCase | None]] = {}
        finished_ids: dict[int, str] = {}

        def flush(all_finished: bool = False) -> None:
            while slots:
                _, slot = slots[0]
                if slot[0] is None and not all_finished:
                    return
                slots.popleft()
                if slot[0] is not None:
                    deliver(slot[0])

        def source() -> Iterator[Case]:
            for case in cases:
                known = self.recorded.get(case.id)
                if known is None:
                    slot: list[FinishedCase | None] = [None]
                    slots.append((case.id, slot))
                    fresh[case.id] = slot
                    yield case
                    continue
                failed = any(r.outcome == FAIL for r in known.results)
                slots.append((case.id, [FinishedCase(list(known.results), known.decisions, case if failed else None)]))
                flush()

        def on_finished(case: Case, outcome: FinishedCase) -> None:
            self.record(case, outcome)
            finished_ids[id(outcome)] = case.id

        def on_outcome(outcome: FinishedCase) -> None:
            case_id = finished_ids.pop(id(outcome), None)
            if case_id is None and outcome.results:
                case_id = outcome.results[0].case_id
            slot = fresh.pop(case_id, None) if case_id is not None else None
            if slot is None:  # an outcome the runner made without running the case: keep it in order anyway
                slots.append(("", [outcome]))
            else:
                slot[0] = outcome
            flush()

        try:
            runner(source(), on_outcome, on_finished)
        finally:
            flush(all_finished=True)

    def close(self) -> None:
        """Release the journal and the lock."""
        for fd in (self._journal, self._lock):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._journal = self._lock = None


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file flushed to disk, so the file is whole or absent."""
    temporary = path.with_name(path.name + ".partial")
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise CampaignError(f"--campaign {path.parent}: cannot write {path.name}: {_reason(error)}") from None


def _shown(value: Any) -> str:
    if value is None:
        return "(not given)"
    if isinstance(value, list):
        return " ".join(map(str, value)) if value else "(none)"
    if isinstance(value, bool):
        return "on" if value else "off"
    return json.dumps(value) if isinstance(value, dict) else str(value)


def _reason(error: OSError) -> str:
    return (error.strerror or str(error)).lower()
