"""Fuzzing the differential Hypothesis tests for hours, across cores: ``python -m flip7_spec.testing.fuzz``.

It runs ``--processes`` pytest processes at once over the tests given, run after run (each drawing its own
random examples: no run is given a seed, as a seeded run neither reads nor writes the database) under the
``fuzz`` Hypothesis profile, until ``--minutes`` have passed or a run fails. Every
process shares one example database folder (``--database``, Hypothesis's own
:class:`~hypothesis.database.DirectoryBasedExampleDatabase`, safe for processes writing at once): a failing
example one process finds is saved there, and every later run, in any process, replays it first, shrinking
it further; run the same tests with ``FLIP7_HYPOTHESIS_PROFILE=fuzz`` and that database to see it again.
A failure of the differential machine is also written as a trace file (``--flip7-failures-dir``).

Example, the bundled JavaScript engine fuzzed on both cores for two hours::

    python -m flip7_spec.testing.fuzz --processes 2 --minutes 120 -- \\
        properties/test_differential.py --flip7-engine "node examples/js-engine/engine.js"

Exit codes: 0 no run failed within the time, 1 a run failed (its output is printed), 2 bad arguments or
a run that could not start (pytest's own usage errors), 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from flip7_spec.testing.profiles import FUZZ_DATABASE_ENV, PROFILE_ENV


@dataclass
class _Lane:
    """One process slot: the run in it, how many runs it has made."""

    number: int
    process: subprocess.Popen[str] | None = None
    runs: int = 0


def _start(lane: _Lane, tests: Sequence[str], database: Path) -> None:
    lane.runs += 1
    env = {**os.environ, PROFILE_ENV: "fuzz", FUZZ_DATABASE_ENV: str(database)}
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider",
               "--hypothesis-profile", "fuzz", *tests]
    lane.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, start_new_session=True)


def _stop(lane: _Lane) -> None:
    process = lane.process
    if process is not None and process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.communicate(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def fuzz(tests: Sequence[str], processes: int, seconds: float, database: Path) -> int:
    """Fuzz ``tests`` (pytest arguments) in ``processes`` processes for ``seconds`` (see the module
    docstring); returns the exit code."""
    database.mkdir(parents=True, exist_ok=True)
    lanes = [_Lane(n) for n in range(processes)]
    deadline = time.monotonic() + seconds
    try:
        for lane in lanes:
            _start(lane, tests, database)
        while True:
            for lane in lanes:
                process = lane.process
                if process is None or process.poll() is None:
                    continue
                output = process.stdout.read() if process.stdout is not None else ""
                if process.returncode == 1:
                    print(output, end="")
                    print(f"fuzz: a run failed (process {lane.number}, run {lane.runs}); the failing example "
                          f"is in {database}: run the same tests with {PROFILE_ENV}=fuzz {FUZZ_DATABASE_ENV}="
                          f"{database} to replay it")
                    return 1
                if process.returncode not in (0, 5):  # 5: no test collected, as good as a pass for the time
                    print(output, end="")
                    print(f"fuzz: pytest stopped with exit code {process.returncode}")
                    return 2
                lane.process = None
                if time.monotonic() < deadline:
                    _start(lane, tests, database)
            if all(lane.process is None for lane in lanes):
                break
            if time.monotonic() >= deadline:
                for lane in lanes:
                    _stop(lane)
                break
            time.sleep(0.2)
    except KeyboardInterrupt:
        for lane in lanes:
            _stop(lane)
        print("fuzz: interrupted")
        return 130
    finally:
        for lane in lanes:
            _stop(lane)
    runs = sum(lane.runs for lane in lanes)
    print(f"fuzz: no failure in {runs} runs on {processes} processes ({seconds / 60:g} minutes); database {database}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m flip7_spec.testing.fuzz",
                                     description="Fuzz Hypothesis tests in several processes sharing one example "
                                                 "database, until a run fails or the time is up.")
    parser.add_argument("--processes", "-j", type=int, default=os.cpu_count() or 1,
                        help="pytest processes at once (default: the cores)")
    parser.add_argument("--minutes", type=float, default=60.0, help="how long to fuzz (default 60)")
    parser.add_argument("--database", type=Path, default=Path(".hypothesis") / "fuzz",
                        help="the example database folder the processes share (default .hypothesis/fuzz)")
    parser.add_argument("tests", nargs="+", help="pytest arguments: test files and options (after --)")
    arguments = parser.parse_args(argv)
    if arguments.processes < 1 or arguments.minutes <= 0:
        parser.error("--processes must be at least 1 and --minutes more than 0")
    return fuzz(arguments.tests, arguments.processes, arguments.minutes * 60, arguments.database)


if __name__ == "__main__":
    sys.exit(main())
