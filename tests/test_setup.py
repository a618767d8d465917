"""The README's set-up, as a new user meets it: exactly two commands, one that installs flip7-spec and runs
the main job (a conformance run against the bundled JavaScript engine), one that runs the tests, which
``.ci/run`` runs too.

The slow test runs both exactly as written, from a clean copy of this repository in a fresh virtual
environment, then the main job again and every analyst command of docs/simulation.md from an empty folder."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

from tests.test_analyst_docs import documented_commands, my_bot
from tests.test_conform import REPO

README = REPO / "README.md"


def setup_commands() -> list[str]:
    """The sh blocks of the README's "Set up" section, one command each."""
    section = README.read_text(encoding="utf-8").split("\n## Set up\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.DOTALL)
    return [block.strip() for block in blocks]


def test_the_readme_sets_up_with_two_commands_and_ci_runs_the_second() -> None:
    install_and_run, tests = setup_commands()
    assert "\n" not in install_and_run and "\n" not in tests
    # the main job's engine comes from the installed package, so the command runs from any folder
    assert install_and_run.endswith("flip7-spec conform --example js")
    assert "pytest" in tests and "examples/" not in install_and_run
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == tests
    section = README.read_text(encoding="utf-8").split("\n## Set up\n", 1)[1].split("\n## ", 1)[0]
    for needed in ("Clone", "`cd`", "python3 -m venv", '-m "not slow"', "-m slow", "minutes on two idle cores"):
        assert needed in section, needed


def clean_copy(destination: Path) -> Path:
    """The files of this repository that git tracks (as they are in the working tree), nothing else: no
    virtual environment, cache, build or egg-info of this checkout."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, timeout=60)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: no clean copy to make")
    for name in listed.stdout.decode("utf-8").split("\0"):
        if name and (REPO / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, destination / name)
    return destination


def shell(command: str, folder: Path, environment: Path, timeout: float) -> tuple[subprocess.CompletedProcess[str],
                                                                                 float]:
    """``command`` run by bash in ``folder`` with the virtual environment ``environment`` active (as after
    ``. .venv/bin/activate``), and how long it took."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "FLIP7_SPEC_CACHE_DIR", "PYTHONHOME")}
    env.update(VIRTUAL_ENV=str(environment), PATH=os.pathsep.join([str(environment / "bin"), env.get("PATH", "")]))
    started = time.monotonic()
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return done, time.monotonic() - started


@pytest.mark.slow
def test_the_readme_set_up_from_a_clean_copy_in_a_fresh_virtual_environment(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("the main job runs the bundled JavaScript engine: Node.js is not installed")
    install_and_run, tests = setup_commands()
    checkout = clean_copy(tmp_path / "flip7-spec")
    environment = checkout / ".venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    timings: dict[str, float] = {}

    done, timings["install and main job"] = shell(install_and_run, checkout, environment, 1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "js-engine/engine.js" in done.stdout and re.search(r"^total +\d+ +0 +0 +0$", done.stdout, re.MULTILINE)

    # the main job from an empty folder: the engine and the fixtures come from the installed package
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    main_job = install_and_run.split(" && ", 1)[1]
    done, timings["main job elsewhere"] = shell(main_job, elsewhere, environment, 600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "site-packages/flip7_spec/examples/js-engine/engine.js" in done.stdout

    done, timings["tests"] = shell(tests, checkout, environment, 3600)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    assert re.search(r"\d+ passed", done.stdout) and " failed" not in done.stdout.splitlines()[-1]

    # every analyst command of docs/simulation.md, as written, from an empty folder (plots need the test
    # extras' matplotlib, installed by the second command)
    analyst = tmp_path / "analyst"
    analyst.mkdir()
    (analyst / "my_bot.py").write_text(my_bot(), encoding="utf-8")
    for command in documented_commands():
        done, seconds = shell(command, analyst, environment, 1200)
        assert done.returncode == 0, f"{command}\n{done.stderr[-3000:]}"
        timings[shlex.split(command)[-1]] = seconds
    print("set-up timings (s):", {name: round(s, 1) for name, s in timings.items()})


LEAVES_A_THREAD = """
import threading
import time


def test_leaves_a_thread_running():
    threading.Thread(target=time.sleep, args=(3600,), name="left-behind").start()
"""


def test_a_run_whose_tests_leave_a_thread_running_fails_naming_it_even_on_several_workers(tmp_path: Path) -> None:
    """The interpreter waits at exit for a non-daemon thread: a test that leaves one would make the run print
    its summary and never end. The repository's conftest.py fails the run instead, naming the thread, also when
    a pytest-xdist worker ran the test (as the README's test command runs every test)."""
    (tmp_path / "test_left.py").write_text(LEAVES_A_THREAD, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-n", "2",
                          str(tmp_path / "test_left.py")], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout[-2000:]
    assert "1 passed" in run.stdout
    assert "left running what the interpreter would wait for at exit: thread left-behind (Thread)" in run.stdout
