"""What flip7-spec installs on the workers of a ``--cluster local:N`` cluster (imported only with a cluster:
this module imports ``distributed``)."""

from __future__ import annotations

import signal
import threading
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin


class IgnoreInterrupts(WorkerPlugin):
    """A local cluster's worker processes share the command's terminal: a Ctrl-C reaches them too, and only
    the command decides what it means (it cancels the cases and closes the cluster). Installed on every
    worker, those that join later included."""

    name = "flip7-spec-ignore-interrupts"

    def setup(self, worker: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
