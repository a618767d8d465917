"""Reaching a Dask cluster (the optional ``cluster`` extra, ``distributed``): ``--cluster ADDRESS`` or
``--cluster local:N``.

Nothing imports ``distributed`` until a command is given ``--cluster``; without the extra that option stops
with one line naming it. ``local:N`` starts a Dask ``LocalCluster`` of N worker processes on this machine
(one thread each), the way to try a campaign before sending it to a real cluster; any other address is a
running scheduler (``dask scheduler``) that workers (``dask worker ADDRESS``) have joined.

:func:`session` opens the connection once for a whole command (a sweep runs many experiments on it) and
:func:`client_for` hands it to the code that submits work. :func:`in_order` runs a stream of tasks with a
bounded number in flight and yields their results in the order of the tasks, whatever order they finish in,
so that a cluster run gives exactly the results of a local one.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from flip7_spec.errors import Flip7Error
from flip7_spec.limits import WORKERS

if TYPE_CHECKING:
    from distributed import Client

EXTRA: Final = 'pip install "flip7-spec[cluster]"'

CONNECT_SECONDS: Final = 20.0
"""How long to wait for the scheduler to answer, and then for a first worker to join it."""

_LOCAL = re.compile(r"local:(\d{1,3})")
_REMOTE = re.compile(r"(?:(tcp|tls|ucx|inproc|ws|wss)://)?[\w.\-\[\]:]+:\d{1,5}")


class ClusterError(Flip7Error):
    """The cluster cannot be used: the extra is missing, the address is wrong, the scheduler cannot be
    reached or was lost, or no worker can run the engine."""


def require_distributed() -> Any:
    """The ``distributed`` module; :class:`ClusterError` naming the extra when it is not installed."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs the cluster extra (Dask's distributed): {EXTRA}") from None
    return distributed


@dataclass(frozen=True)
class Address:
    """A ``--cluster`` value: a scheduler's address, or ``local:N``."""

    text: str
    local_workers: int | None = None

    @classmethod
    def parse(cls, text: str) -> Address:
        """The address ``text`` names; :class:`ClusterError` when it is neither ``local:N`` (N from 1 to the
        worker limit) nor ``[tcp://]HOST:PORT``."""
        local = _LOCAL.fullmatch(text)
        if local is not None:
            count = int(local.group(1))
            if not 1 <= count <= WORKERS.value:
                raise ClusterError(f"--cluster {text}: local:N takes 1 to {WORKERS.value} workers")
            return cls(text, count)
        if _REMOTE.fullmatch(text) is None:
            raise ClusterError(f"--cluster {text!r}: expected a scheduler address (tcp://HOST:PORT) or local:N")
        return cls(text if "://" in text else f"tcp://{text}")


_clients: dict[str, Client] = {}


@contextlib.contextmanager
def session(text: str) -> Iterator[Client]:
    """Connect to the cluster ``text`` names for the length of the block (starting it for ``local:N``),
    and wait for a first worker; :func:`client_for` gives the connection to the code inside. Raises
    :class:`ClusterError` with one line when that fails. The cluster's own log lines are kept to errors
    worth a person's eye; the run reports what went wrong in its own words."""
    address = Address.parse(text)
    distributed = require_distributed()
    quiet = _Quiet()
    cluster = None
    client = None
    try:
        if address.local_workers is not None:
            cluster = distributed.LocalCluster(n_workers=address.local_workers, threads_per_worker=1,
                                               processes=True, host="127.0.0.1", dashboard_address=":0",
                                               silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster)
            from flip7_spec.cluster_worker import IgnoreInterrupts

            client.register_plugin(IgnoreInterrupts())
        else:
            try:
                client = distributed.Client(address.text, timeout=f"{CONNECT_SECONDS:g}s")
            except (OSError, TimeoutError) as error:
                raise ClusterError(f"--cluster {text}: cannot reach the scheduler: {_short(error)}") from None
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError) as error:
            raise ClusterError(f"--cluster {text}: no worker has joined the scheduler "
                               f"({_short(error) or f'none within {CONNECT_SECONDS:g} s'})") from None
        _clients[text] = client
        yield client
    finally:
        _clients.pop(text, None)
        with contextlib.suppress(Exception):
            if client is not None:
                client.close(timeout=5)
        with contextlib.suppress(Exception):
            if cluster is not None:
                cluster.close(timeout=10)
        quiet.restore()


def client_for(text: str) -> Client:
    """The connection :func:`session` opened for ``text``; :class:`ClusterError` outside one."""
    client = _clients.get(text)
    if client is None:
        raise ClusterError(f"--cluster {text}: not connected (the command opens the cluster session)")
    return client


def worker_count(client: Client) -> int:
    """The threads the cluster's workers run tasks on, all together (at least 1)."""
    workers = client.scheduler_info(n_workers=-1).get("workers", {})
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def lost(client: Client, error: BaseException) -> ClusterError:
    """The one line for a cluster that stopped answering while work was under way."""
    address = getattr(client.scheduler, "address", None) or "its address"
    return ClusterError(f"lost the cluster's scheduler at {address}: {_short(error) or 'gone'}; the run stops")


def in_order(client: Client, tasks: Iterable[tuple[Callable[..., Any], tuple[Any, ...]]], ahead: int,
             done: Callable[[int, Any], None] | None = None,
             failed: Callable[[int, BaseException], Any] | None = None) -> Iterator[Any]:
    """Submit ``tasks`` (a function and its arguments each, taken lazily) with at most ``ahead`` in flight,
    and yield their results in the order of the tasks. ``done(index, result)`` is told of each as soon as it
    finishes, in any order. A task that raised is handed to ``failed(index, error)``, whose return value
    takes its place (without ``failed``, the error is raised). A scheduler that stops answering raises
    :class:`ClusterError`. However the iteration stops, the tasks still in flight are cancelled."""
    distributed = require_distributed()
    pending = iter(tasks)
    flying: dict[Any, int] = {}
    finished: dict[int, Any] = {}
    queue = distributed.as_completed()
    taken = 0
    given = 0

    def submit() -> None:
        nonlocal taken
        while len(flying) < ahead:
            task = next(pending, None)
            if task is None:
                return
            function, arguments = task
            future = client.submit(function, *arguments, pure=False)
            flying[future] = taken
            queue.add(future)
            taken += 1

    try:
        submit()
        while flying:
            future = next(queue)
            index = flying.pop(future)
            try:
                if future.status == "cancelled":
                    raise lost(client, distributed.client.FutureCancelledError(future.key, "cancelled"))
                error = future.exception() if future.status == "error" else None
                result = future.result() if error is None else None
            except ClusterError:
                raise
            except Exception as problem:  # the scheduler went away: the futures cannot be read any more
                raise lost(client, problem) from None
            if error is not None:
                if client.status != "running":
                    raise lost(client, error)
                if failed is None:
                    raise error
                result = failed(index, error)
            elif done is not None:
                done(index, result)
            finished[index] = result
            submit()
            while given in finished:
                yield finished.pop(given)
                given += 1
    finally:
        if flying:
            with contextlib.suppress(Exception):
                cast(Any, client).cancel(list(flying), force=True)


class _Quiet:
    """Keep Dask's loggers to critical messages while a command uses the cluster (a lost worker or
    scheduler is reported by the run itself, in one line)."""

    def __init__(self) -> None:
        self.levels: dict[str, int] = {}
        for name in ("distributed", "distributed.client", "distributed.scheduler", "distributed.worker",
                     "distributed.nanny", "distributed.core", "distributed.comm", "tornado", "asyncio"):
            logger = logging.getLogger(name)
            self.levels[name] = logger.level
            logger.setLevel(logging.CRITICAL)

    def restore(self) -> None:
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)


def _short(error: BaseException) -> str:
    """An error as one short line."""
    text = " ".join(str(error).split())
    return (f"{type(error).__name__}: {text}" if text else type(error).__name__)[:300]
