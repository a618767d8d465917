"""An engine in a child process, spoken to over the protocol with timeouts and bounded lines.

Replies are read with a deadline (``select`` on the engine's stdout, lines cut from our own buffer, so no
thread hand-off slows the exchange); stderr goes into a ring buffer on a background thread. A hung engine
costs one timeout, a chatty one cannot block us, and a dead one is noticed at once.

Requests are pipelined (sent ahead of their replies) for speed, so when a reply is wrong the engine has
usually read, and written stderr about, the requests sent after it. The stderr excerpt a failure carries is
what the engine wrote before it answered the failing request: when requests were sent after it and the
engine wrote to stderr, a fresh process is sent the requests up to the failing one only, and its stderr is
taken once it has answered that one (see :meth:`ProcessEngine._stderr_alone`). The child
runs in its own process group and is always reaped: terminated, then killed, never left as a zombie, with
SIGINT and SIGTERM held back while that happens so that an interrupt cannot leave it half done.

The stderr reader polls its pipe and can always be told to stop: a helper the engine started in another
session may keep that pipe open long after the engine is gone, and nothing here waits for it.

The command is split into arguments like a shell would split it (``shlex``) and run directly, never
through a shell.

Every line sent and received, and every line the engine writes to stderr, goes to the protocol traffic's
listeners (:mod:`flip7_spec.protocol.traffic`: the ``flip7_spec.protocol`` logger at DEBUG, ``conform
--log-protocol``) when there are any; whether there are is asked once per request or game, never per line.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import IO, Any

from flip7_spec.limits import REPLY_LINE
from flip7_spec.protocol import PROTOCOL_VERSION, traffic
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure, Observation, Skipped
from flip7_spec.protocol.schema import ReshuffleProblem, message_errors

MAX_LINE_BYTES = REPLY_LINE.value
STDERR_LINES = 40
STDERR_LINE_CHARS = 2000
WINDOW = 32  # requests a pipeline keeps unanswered at most
STDERR_SETTLE = 0.2  # seconds at most to wait for the stderr reader to take what the engine wrote before a reply
NO_REPLY = "no reply within"
"""How the message of a request that timed out begins (such a case is not run again to shrink it)."""
_POLL = 0.05  # seconds between the stderr reader's checks for a stop, and the reply reader's for a dead engine
_HELD_BACK = {signal.SIGINT, signal.SIGTERM}


class _StderrReader(threading.Thread):
    """Keeps the last lines an engine writes to stderr; stops at end of file or when told to, and then
    closes the pipe itself (closing it from another thread while this one reads would block there).

    Each chunk is read and filed under :attr:`lock`, so that :meth:`settle` can tell when everything written
    before it was called is in the tail."""

    def __init__(self, stream: IO[bytes], tail: deque[str], heard: Callable[[str], None] | None = None) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.tail = tail
        self.heard = heard  # told each whole line (as the tail keeps it), for the protocol traffic
        self.partial = ""  # the start of a line the engine has not ended yet
        self.count = 0  # the lines filed in the tail so far (the tail keeps only the last ones)
        self.lock = threading.Lock()
        self.finished = False
        self.stopping = threading.Event()

    def run(self) -> None:
        fd = self.stream.fileno()
        pending = b""
        try:
            while not self.stopping.is_set():
                if not select.select([fd], [], [], _POLL)[0]:
                    continue
                with self.lock:
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        break
                    pending = self._file(pending + chunk)
            if pending:
                self._keep(pending[:STDERR_LINE_CHARS].decode("utf-8", "replace"))
                self.partial = ""
        except (OSError, ValueError):
            pass
        finally:
            with self.lock:
                self.finished = True
                with contextlib.suppress(OSError, ValueError):
                    self.stream.close()

    def _file(self, data: bytes) -> bytes:
        """File the whole lines of ``data`` in the tail; return the unended rest."""
        *lines, pending = data.split(b"\n")
        for raw in lines:
            self._keep(raw[:STDERR_LINE_CHARS].decode("utf-8", "replace"))
        if len(pending) > STDERR_LINE_CHARS:  # a line with no end yet: keep its start only
            self._keep(pending[:STDERR_LINE_CHARS].decode("utf-8", "replace") + " ...")
            pending = b""
        self.partial = pending.decode("utf-8", "replace")
        return pending

    def _keep(self, line: str) -> None:
        self.tail.append(line)
        self.count += 1
        if self.heard is not None:
            self.heard(line)

    def settle(self, wait: float) -> None:
        """Return once everything written to the pipe before this call is in the tail: nothing is left to
        read and no chunk is being filed. Gives up after ``wait`` seconds (an engine that never stops writing)."""
        deadline = time.monotonic() + wait
        while self.is_alive():
            with self.lock:
                if self.finished:
                    return
                try:
                    waiting = select.select([self.stream.fileno()], [], [], 0)[0]
                except (OSError, ValueError):
                    return
            if not waiting or time.monotonic() >= deadline:
                return
            time.sleep(0.001)

    def stop(self, wait: float) -> None:
        """Ask the reader to stop, and give it ``wait`` seconds to take the last lines."""
        self.stopping.set()
        self.join(wait)


class _NoReply(EngineFailure):
    """No reply came to a request: it timed out, or the engine is gone."""


class ProcessEngine(EngineAdapter):
    """An engine command run as a child process. The process starts on first use and after :meth:`restart`."""

    def __init__(self, command: str, timeout: float = 10.0, cwd: str | None = None) -> None:
        self.command = command
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise EngineFailure(f"cannot split the engine command into arguments: {error}") from None
        if not self.argv:
            raise EngineFailure("the engine command is empty")
        self.timeout = timeout
        self.cwd = cwd
        self.on_spawn: Callable[[int], None] | None = None  # told the pid of every engine process started
        self.process: subprocess.Popen[bytes] | None = None
        self._stderr_reader: _StderrReader | None = None
        self._buffer = bytearray()
        self._start = 0  # where the unread part of _buffer begins
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        self.seq = 0
        self.hello_result: dict[str, Any] | None = None
        self._game: list[dict[str, Any]] = []  # the requests of the last game :meth:`play_game` sent
        self._game_failure: tuple[int, Skipped | EngineFailure] | None = None  # where and how it stopped
        self._uncut = False  # whether that failure's stderr may hold lines about requests sent after it
        self.case: str | None = None
        """The id of the case being run (the conformance runner sets it): the protocol traffic records it."""
        self._noting = False  # whether each line goes to the protocol traffic (asked once per request or game)

    # ---- process life ---------------------------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        try:
            process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=self.cwd, start_new_session=True,
            )
        except FileNotFoundError:
            raise EngineFailure(f"cannot start engine: command not found: {self.argv[0]}") from None
        except PermissionError:
            raise EngineFailure(f"cannot start engine: permission denied: {self.argv[0]}") from None
        except OSError as error:
            raise EngineFailure(f"cannot start engine {self.command!r}: {error.strerror}") from None
        self._buffer = bytearray()
        self._start = 0
        self.stderr_tail.clear()
        assert process.stdout is not None and process.stderr is not None
        pid = process.pid
        self._stderr_reader = _StderrReader(process.stderr, self.stderr_tail,
                                            lambda line: self._heard(line, pid))
        self._stderr_reader.start()
        if self.on_spawn is not None:
            self.on_spawn(process.pid)
        return process

    def _readline(self, deadline: float) -> bytes:
        """The next line of the engine's stdout, waiting until ``deadline`` at most."""
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        while True:
            end = self._buffer.find(b"\n", self._start)
            if end >= 0:
                line = bytes(self._buffer[self._start:end + 1])
                self._start = end + 1
                if self._start > 65536 and self._start * 2 > len(self._buffer):
                    del self._buffer[:self._start]
                    self._start = 0
                return line
            if len(self._buffer) - self._start > MAX_LINE_BYTES:
                raw = bytes(self._buffer[self._start:self._start + 200]).decode("utf-8", "replace")
                raise self._failure(f"reply line longer than {MAX_LINE_BYTES // 1024} KiB", raw=raw + "...")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._failure(f"{NO_REPLY} {self.timeout:g} s", answered=False)
            if not select.select([fd], [], [], min(remaining, _POLL * 10))[0]:
                if process.poll() is not None:  # gone, though a helper of its may still hold the pipe open
                    raise self._failure("the engine exited", answered=False)
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._failure("the engine exited", answered=False)
            self._buffer += chunk

    def stderr_text(self) -> str:
        """The last lines the engine wrote to stderr (those the reader has taken so far)."""
        reader = self._stderr_reader
        partial = reader.partial if reader is not None else ""
        return "\n".join([*self.stderr_tail, partial] if partial else self.stderr_tail)

    def _stderr_now(self) -> str:
        """The last lines the engine wrote to stderr up to now: what it wrote before this call included."""
        if self._stderr_reader is not None:
            self._stderr_reader.settle(STDERR_SETTLE)
        return self.stderr_text()

    def _heard(self, line: str, pid: int) -> None:
        """A line the engine process ``pid`` wrote to stderr (on the stderr reader's thread)."""
        if traffic.listening():  # asked per line: stderr is rare, and its reader is not on the hot path
            traffic.note(traffic.STDERR, line, self.case, pid)

    def _ensure(self) -> subprocess.Popen[bytes]:
        self._noting = traffic.listening()
        if self.process is None or self.process.poll() is not None:
            if self.process is not None:
                self._reap()
            self.process = self._spawn()
            self.seq = 0
            self._handshake()
        return self.process

    def _reap(self) -> None:
        """Stop the child: close its input, give it a moment, then SIGTERM and SIGKILL its process group.

        SIGINT and SIGTERM are held back meanwhile (and delivered right after), so an interrupt cannot
        leave the engine running. Its stdout is closed once it is dead; its stderr reader is told to stop
        and closes its own pipe, so a pipe a detached helper keeps open blocks nothing.
        """
        process = self.process
        if process is None:
            return
        held = threading.current_thread() is threading.main_thread()
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_BACK) if held else None
        try:
            self._end(process)
        finally:
            self.process = None
            if previous is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    def _end(self, process: subprocess.Popen[bytes]) -> None:
        if process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()
        try:
            process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, sig)
                try:
                    process.wait(timeout=2.0)
                    break
                except subprocess.TimeoutExpired:
                    continue
        # The group may hold grandchildren that outlived the child (a shell's): end them too.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        if process.stdout is not None:
            with contextlib.suppress(OSError, ValueError):
                process.stdout.close()
        if self._stderr_reader is not None:
            self._stderr_reader.stop(wait=0.2)
            self._stderr_reader = None

    def close(self) -> None:
        process = self.process
        self._noting = traffic.listening()
        if process is not None and process.poll() is None:
            try:
                self._send({"cmd": "quit"})
                self._receive(deadline=time.monotonic() + 1.0)
            except EngineFailure:
                pass
        self._reap()

    def restart(self) -> None:
        self._reap()

    def abort(self) -> None:
        self._reap()

    # ---- messages -------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any], flush: bool = True) -> int:
        process = self.process
        assert process is not None and process.stdin is not None
        self.seq += 1
        line = json.dumps({"seq": self.seq, **message}, separators=(",", ":"))
        if self._noting:
            traffic.note(traffic.SEND, line, self.case, process.pid)
        try:
            process.stdin.write((line + "\n").encode("utf-8"))
            if flush:
                process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            try:
                process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                raise self._failure("the engine closed its input", answered=False) from None
            raise self._failure("the engine exited", answered=False) from None
        return self.seq

    def _flush(self) -> None:
        process = self.process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._failure("the engine closed its input", answered=False) from None

    def _failure(self, message: str, raw: str | None = None, answered: bool = True) -> EngineFailure:
        """The failure of the request being answered; ``answered`` False when no reply came (a timeout, an
        engine gone): the engine may still be at that request, so its stderr is taken as it is."""
        process = self.process
        if process is not None:
            try:
                code = process.wait(timeout=0.2)
                message += f" (exit status {code})"
            except subprocess.TimeoutExpired:
                pass
        kind = EngineFailure if answered else _NoReply
        return kind(message, raw=raw, stderr=self._stderr_now())

    def _receive(self, deadline: float) -> dict[str, Any]:
        while True:
            text = self._readline(deadline).decode("utf-8", "replace")
            if self._noting:
                assert self.process is not None
                traffic.note(traffic.RECV, text.removesuffix("\n"), self.case, self.process.pid)
            if not text.strip():
                continue
            try:
                reply = json.loads(text, parse_constant=_not_json)
            except (ValueError, RecursionError) as error:  # malformed, NaN, a 5,000-digit number, too deep
                detail = "" if isinstance(error, json.JSONDecodeError) else f" ({str(error).split(';')[0][:100]})"
                raise self._failure(f"reply is not JSON{detail}", raw=text.rstrip("\n")[:2000]) from None
            if not isinstance(reply, dict):
                raise self._failure("reply is not a JSON object", raw=text.rstrip("\n"))
            return reply

    def _check(self, reply: dict[str, Any], seq: int) -> dict[str, Any]:
        if reply.get("seq") != seq:
            raise self._failure(f"reply has seq {reply.get('seq')!r}, expected {seq}", raw=json.dumps(reply))
        outcomes = [k for k in ("result", "skipped", "errored") if k in reply]
        if len(outcomes) != 1:
            problems = message_errors(reply, "reply") or ["needs exactly one of result, skipped, errored"]
            raise self._failure(f"reply breaks the protocol: {problems[0]}", raw=json.dumps(reply))
        if "skipped" in reply:
            reason = reply["skipped"].get("reason") if isinstance(reply["skipped"], dict) else None
            raise Skipped(str(reason or "skipped"), stderr=self.stderr_text())
        if "errored" in reply:
            errored = reply["errored"]
            message = errored.get("message") if isinstance(errored, dict) else None
            reshuffle = None
            if isinstance(errored, dict) and errored.get("reshuffle") is not None:  # optional; checked when sent
                try:
                    reshuffle = ReshuffleProblem.from_json(errored["reshuffle"])
                except ValueError as problem:
                    raise self._failure(f"reply breaks the protocol: $.errored.reshuffle{str(problem)[1:]}",
                                        raw=json.dumps(reply)) from None
            raise EngineFailure(f"engine error: {message or errored}", raw=json.dumps(reply),
                                stderr=self._stderr_now(), reshuffle=reshuffle, in_sync=True)
        result = reply["result"]
        if not isinstance(result, dict):
            raise self._failure("reply result is not an object", raw=json.dumps(reply))
        return result

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its result (raises :class:`Skipped` or :class:`EngineFailure`)."""
        self._ensure()
        seq = self._send(message)
        return self._check(self._receive(time.monotonic() + self.timeout), seq)

    def pipeline(self, messages: Sequence[dict[str, Any]], window: int = WINDOW,
                 sink: list[Observation] | None = None, replayable: bool = False) -> list[dict[str, Any]]:
        """Send ``messages`` keeping up to ``window`` unanswered, and return their results in order.

        Stops at the first reply that is not a result (raising as :meth:`request` does); what was sent
        after it is drained by restarting the engine. With ``sink``, each result's observation is appended
        to it as it arrives. ``replayable`` says that ``messages`` begin with a ``start``, so that a fresh
        process may be sent them again: the failure's stderr is then only what the engine wrote before it
        answered the failing request (see :meth:`_stderr_alone`).
        """
        self._ensure()
        results, failure = self._pipelined(messages, window, sink, replayable)
        if failure is not None:
            raise failure
        return results

    def _pipelined(self, messages: Sequence[dict[str, Any]], window: int, sink: list[Observation] | None,
                   replayable: bool) -> tuple[list[dict[str, Any]], Skipped | EngineFailure | None]:
        """:meth:`pipeline`'s work: the results in order, and the failure that stopped them (None when all
        came), which is the failure of ``messages[len(results)]``."""
        results: list[dict[str, Any]] = []
        sent: deque[int] = deque()
        position = 0
        try:
            while len(results) < len(messages):
                if len(sent) <= window // 2 and position < len(messages):
                    # Refill the window in one write: one flush (one system call) for many requests.
                    while position < len(messages) and len(sent) < window:
                        sent.append(self._send(messages[position], flush=False))
                        position += 1
                    self._flush()
                seq = sent.popleft()
                result = self._check(self._receive(time.monotonic() + self.timeout), seq)
                if sink is not None:
                    sink.append(_observation(result))
                results.append(result)
        except (Skipped, EngineFailure) as failure:
            errored = isinstance(failure, EngineFailure) or bool(results)  # not a skipped start: nothing to show
            answered = errored and not isinstance(failure, _NoReply)
            if answered:  # what the engine wrote up to the failing reply, whatever raised the failure
                failure.stderr = self._stderr_now()
            synced = isinstance(failure, Skipped) or failure.in_sync
            if sent:  # requests were sent after the failing one: their replies belong to nobody
                # An engine in sync has its replies read and dropped, and is kept; any other is restarted.
                if not (synced and self._drain(sent)):
                    self._reap()
                    synced = False
                # The engine may have written about those requests: its stderr is cut at the failing reply
                # when an error is reported (:meth:`stderr_through`), unless it wrote nothing or gave no reply
                # (it may still be at the failing request, or gone).
                self._uncut = replayable and answered and bool(failure.stderr)
            if isinstance(failure, EngineFailure):
                failure.in_sync = synced and self.process is not None
            return results, failure
        return results, None

    def _drain(self, sent: deque[int]) -> bool:
        """Read and drop the replies to the requests ``sent`` (in order), so that the engine, which answers
        every request, is ready for the next one; False (and nothing more read) at the first that does not
        come in time or is not a JSON object with its ``seq``: the engine's state is then unknown."""
        while sent:
            seq = sent.popleft()
            try:
                reply = self._receive(time.monotonic() + self.timeout)
            except EngineFailure:
                return False
            if reply.get("seq") != seq:
                return False
        return True

    def _stderr_alone(self, messages: Sequence[dict[str, Any]], failure: Skipped | EngineFailure,
                      observe: bool) -> str:
        """What the engine writes to stderr before it answers the last of ``messages`` when nothing is sent
        after it: the lines of ``failure`` (the last message's failure, taken while later requests were
        pending) may be about those later requests. The engine (the same process when it is still in sync, a
        fresh one otherwise: ``messages`` begin with a ``start``) is sent ``messages`` again, pipelined; when
        it fails at the last one the same way (the same kind of failure), what it wrote meanwhile is the
        excerpt. Otherwise (an engine that plays differently from one run to the next) the first run's lines
        are kept, with a note saying they may be about later requests."""
        try:
            self._ensure()
            mark = self._stderr_mark()
            results, again = self._pipelined(messages, WINDOW, [] if observe else None, replayable=False)
        except EngineFailure:
            results, again = [], None
        if again is not None and len(results) == len(messages) - 1 and type(again) is type(failure):
            return self._stderr_since(mark)
        return failure.stderr + f"\n{_NOT_ALONE}"

    def _stderr_mark(self) -> int:
        """How many stderr lines the engine has written so far (everything it wrote before this call)."""
        reader = self._stderr_reader
        if reader is None:
            return 0
        reader.settle(STDERR_SETTLE)
        return reader.count

    def _stderr_since(self, mark: int) -> str:
        """The stderr lines written since :meth:`_stderr_mark` gave ``mark`` (those the tail still holds), with
        a line the engine has not ended yet."""
        reader = self._stderr_reader
        if reader is None:
            return ""
        reader.settle(STDERR_SETTLE)
        new = min(reader.count - mark, len(self.stderr_tail))
        lines = list(self.stderr_tail)[len(self.stderr_tail) - new:] if new > 0 else []
        return "\n".join([*lines, reader.partial] if reader.partial else lines)

    def _handshake(self) -> None:
        seq = self._send({"cmd": "hello", "protocol": PROTOCOL_VERSION})
        result = self._check(self._receive(time.monotonic() + self.timeout), seq)
        problems = message_errors(result, "hello_result")
        if problems:
            raise self._failure(f"hello result breaks the protocol: {problems[0]}", raw=json.dumps(result))
        if result["protocol"] != PROTOCOL_VERSION:
            raise self._failure(f"engine speaks protocol {result['protocol']}, not {PROTOCOL_VERSION}")
        self.hello_result = result

    # ---- the adapter interface ------------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        self._ensure()
        assert self.hello_result is not None
        return self.hello_result

    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
              reshuffles: Sequence[Sequence[str]]) -> Observation:
        result = self.request({"cmd": "start", "ruleset": ruleset, "players": players, "dealer": dealer,
                               "deck": list(deck), "reshuffles": [list(o) for o in reshuffles]})
        return _observation(result)

    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> Observation:
        message: dict[str, Any] = {"cmd": "decide", "choice": choice}
        if player is not None:
            message["player"] = player
        if kind is not None:
            message["kind"] = kind
        return _observation(self.request(message))

    def decide_many(self, decisions: Sequence[dict[str, Any]]
                    ) -> tuple[list[Observation], Skipped | EngineFailure | None]:
        """Apply several decisions, pipelined. Returns the observations received, in order, and the failure
        that stopped them early (None when all came), so earlier observations can still be compared."""
        observations: list[Observation] = []
        try:
            self.pipeline([{"cmd": "decide", **d} for d in decisions], sink=observations)
        except (Skipped, EngineFailure) as failure:
            return observations, failure
        return observations, None

    def play_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]], decisions: Sequence[dict[str, Any]]
                  ) -> tuple[list[Observation], Exception | None]:
        """Start a game and apply ``decisions``, all pipelined. Returns the observations received in order
        (the start's first) and the failure that stopped them early (None when all came), so the
        observations before a failure can still be compared."""
        messages = [{"cmd": "start", "ruleset": ruleset, "players": players, "dealer": dealer, "deck": list(deck),
                     "reshuffles": [list(o) for o in reshuffles]}]
        messages.extend({"cmd": "decide", **d} for d in decisions)
        observations: list[Observation] = []
        self._game, self._game_failure, self._uncut = messages, None, False
        try:
            self.pipeline(messages, sink=observations, replayable=True)
        except (Skipped, EngineFailure) as failure:
            self._game_failure = (len(observations), failure)
            return observations, failure
        return observations, None

    def stderr_through(self, at: int) -> str:
        """What the engine wrote to stderr up to its reply to request ``at`` of the last game :meth:`play_game` sent
        (0 its ``start``, k its k-th decision), and not about the requests after it: the failure's own excerpt
        when the game stopped there; else, when the engine wrote anything and requests followed that one, what
        it writes up to that reply when sent the game's requests again up to it (for a reply the runner finds
        wrong, such as an observation that breaks the schema). The engine is sent them again in the same
        process when it is still in sync, so that an error costs no restart."""
        if self._game_failure is not None and self._game_failure[0] == at:
            stopped = self._game_failure[1]
            if self._uncut:  # requests followed the failing one: send the game again, up to it only
                self._uncut = False
                stopped.stderr = self._stderr_alone(self._game[:at + 1], stopped, True)
            return stopped.stderr
        current = self._stderr_now()
        if not current or at >= len(self._game) - 1:
            return current
        try:
            self._ensure()  # the same process, which answered the whole game, or a fresh one
            mark = self._stderr_mark()
            _, again = self._pipelined(self._game[:at + 1], WINDOW, None, replayable=False)
        except EngineFailure as error:
            again = error
        if again is None:
            return self._stderr_since(mark)
        return current + f"\n{_NOT_ALONE}"

    def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
        result = self.request({"cmd": "score", "ruleset": ruleset, "cards": list(hand), "busted": busted})
        value = result.get("score")
        if not isinstance(value, int) or isinstance(value, bool):
            raise EngineFailure(f"score reply has no whole-number score: {json.dumps(result)}")
        return value


_NOT_ALONE = ("[flip7-spec: the engine did not answer the same way when sent these requests again without the "
              "later ones: the lines above may be about later requests]")
"""The last line of a stderr excerpt that could not be cut at the failing reply."""


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _observation(result: dict[str, Any]) -> Observation:
    observation = result.get("observation")
    if not isinstance(observation, dict):
        raise EngineFailure(f"reply result has no observation object: {json.dumps(result)[:200]}")
    return observation
