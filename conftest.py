"""For both suites (tests/ and properties/): the Hypothesis profile, ``ci`` by default,
``$FLIP7_HYPOTHESIS_PROFILE`` or ``--hypothesis-profile`` to choose (see docs/properties.md), every module
of the package imported at collection, and a failed run, not a hung one, when tests leave behind a thread or
a process that the interpreter would wait for at exit."""

from typing import Any

import pytest

from flip7_spec.testing import load_profile

load_profile()


def _import_the_package() -> None:
    """Hypothesis draws some values from the constants of the local modules imported so far: import every module
    of the package now, so that a property draws the same examples whatever tests ran before it (a module a test
    loads from a temporary folder, a user's policy say, still adds its own). The old paths kept for users
    (``flip7_spec.moved``) are left out: they warn on import, and their modules are imported under the new ones."""
    import importlib
    import pkgutil

    import flip7_spec
    from flip7_spec.moved import MOVED

    for module in pkgutil.walk_packages(flip7_spec.__path__, "flip7_spec."):
        if not module.name.endswith("__main__") and module.name not in MOVED:
            importlib.import_module(module.name)


_import_the_package()


_LEFT_RUNNING: list[str] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run, naming them, when the tests left a non-daemon thread or child process running: the
    interpreter waits for those at exit (a process pool's manager thread, say), so a run would otherwise print
    its summary and then never end."""
    import multiprocessing
    import threading

    left = [t for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    for thread in left:
        thread.join(timeout=5)
    _LEFT_RUNNING.extend(f"thread {t.name} ({type(t).__name__})" for t in left if t.is_alive())
    children = [p for p in multiprocessing.active_children() if not p.daemon]
    for child in children:
        child.join(timeout=5)
    _LEFT_RUNNING.extend(f"process {c.name} (pid {c.pid})" for c in children if c.is_alive())
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: its controller reports them (pytest_testnodedown)
        workeroutput["left_running"] = list(_LEFT_RUNNING)
    if _LEFT_RUNNING:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """In the controller of a pytest-xdist run: what a worker left running is this run's failure too."""
    left = getattr(node, "workeroutput", {}).get("left_running") or []
    worker = getattr(node, "gateway", None)
    _LEFT_RUNNING.extend(f"{item} in worker {getattr(worker, 'id', '?')}" for item in left)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _LEFT_RUNNING:
        terminalreporter.write_line("the tests left running what the interpreter would wait for at exit: "
                                    + ", ".join(_LEFT_RUNNING), red=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    """End the process here, with the run failed, rather than wait at exit for what is named above."""
    if _LEFT_RUNNING:
        import os
        import sys

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(pytest.ExitCode.TESTS_FAILED))
