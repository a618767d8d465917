"""Mutation testing with mutmut, one package at a time: every small change mutmut makes to the package's code (an
operator, a constant, a comparison, a dropped argument), each run against the tests that reach the changed
function, in a temporary copy of the repository.

A mutant is *killed* when a test fails (or runs past mutmut's timeout), and *survives* when every test passes:
a place where the tests would not notice that bug. The score is killed / tested. Scores and survivors of the
recorded runs are in docs/properties.md.

Run it from the repository root, with the project's test dependencies and mutmut installed
(``pip install mutmut``); it is slow (minutes for a small package, hours for the whole conformance package), so
it is not part of the default test run::

    python tools/mutation.py --list                       # the packages, their files and their tests
    python tools/mutation.py simulation                   # one package: score and survivors
    python tools/mutation.py simulation analysis --json out.json
    python tools/mutation.py fingerprint --only 'flip7_spec.conformance.fingerprint.x__cover*'
    python tools/mutation.py simulation --keep /tmp/mm    # keep the copy: mutmut show NAME, mutmut browse there
    python tools/mutation.py conformance --sample 300     # a package too large to run whole: an estimate

Each package lists its own tests (the fastest selection that reaches its code); mutmut runs them once to learn
which test reaches which function, then runs only those for each mutant. On a shared machine run it as
``nice -n 19 python tools/mutation.py ...``. ``tools/mutation_sweep.py`` keeps the hand-written mutations that
mutmut's operators cannot express (a rule read another way, a comparison made loose in several places at once).
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Package:
    """What one run mutates (file globs, relative to the repository root) and the tests it runs."""

    name: str
    files: tuple[str, ...]
    tests: tuple[str, ...]


PACKAGES: tuple[Package, ...] = (
    Package("simulation",
            ("flip7_spec/simulation/simulate.py", "flip7_spec/simulation/simulate_run.py",
             "flip7_spec/simulation/round_stats.py", "flip7_spec/simulation/intervals.py"),
            ("tests/test_simulate_run.py", "tests/test_simulate_statistics.py", "tests/test_simulate_experiments.py",
             "tests/test_analysis.py",
             "tests/test_engine.py", "tests/test_cli.py", "tests/test_vengeance_engine.py",
             "tests/test_trace_format.py", "tests/test_endless.py", "tests/test_limits.py",
             "tests/test_interrupts.py")),
    Package("pool", ("flip7_spec/ordered_pool.py", "flip7_spec/conformance/background.py"),
            ("tests/test_ordered_pool.py", "tests/test_simulate_run.py", "tests/test_background.py",
             "tests/test_rulesdiff.py")),
    Package("analysis", ("flip7_spec/analysis/*.py",),
            ("tests/test_analysis.py", "tests/test_solitaire_table.py")),
    Package("htmlreport", ("flip7_spec/htmlreport/*.py",),
            ("tests/test_html_content.py", "tests/test_html_report.py", "tests/test_html_escaping.py",
             "tests/test_errored.py", "tests/test_show.py")),
    Package("fingerprint", ("flip7_spec/conformance/fingerprint.py",),
            ("tests/test_fingerprint_summary.py", "tests/test_fingerprint_cover.py", "tests/test_verdicts.py",
             "tests/test_fingerprint.py")),
    Package("coverage", ("flip7_spec/conformance/coverage.py", "flip7_spec/evidence.py"),
            ("tests/test_coverage.py", "tests/test_clause_coverage.py")),
    Package("diagnosis", ("flip7_spec/judge/diagnosis.py", "flip7_spec/judge/follow.py"),
            ("tests/test_diagnosis_promises.py", "tests/test_verdicts.py", "tests/test_diagnosis_pairs.py",
             "tests/test_readings.py", "tests/test_follow_promises.py", "tests/test_diagnosis_reach.py")),
    Package("conformance", ("flip7_spec/conformance/*.py", "flip7_spec/judge/runner.py",
                           "flip7_spec/judge/legality.py", "flip7_spec/judge/case.py", "flip7_spec/judge/describe.py"),
            ("tests/test_conform.py", "tests/test_conform_first_hour.py", "tests/test_verdicts.py",
             "tests/test_fingerprint.py", "tests/test_fingerprint_cover.py", "tests/test_coverage.py",
             "tests/test_diagnosis_promises.py", "tests/test_diagnosis_pairs.py", "tests/test_readings.py",
             "tests/test_errored.py", "tests/test_legal_judge.py", "tests/test_scoring_hands.py",
             "tests/test_exact_comparison.py", "tests/test_fingerprint_summary.py", "tests/test_limits.py",
             "tests/test_judge_steps.py", "tests/test_conform_records.py", "tests/test_conform_run_promises.py",
             "tests/test_background.py", "tests/test_campaign_settings.py", "tests/test_handshake.py",
             "tests/test_report_record.py")),
    # A game's folder with its symbolic/ plug-in (the glob's * crosses folders), so its tests include those that
    # reach each part: the clause witness (coverage), the z3 model and theorems (the symbolic tests), the
    # misreadings (the diagnosis tests, which need each misreading to play exactly its reading).
    Package("flip7", ("flip7_spec/games/flip7/*.py",),
            ("tests/test_engine.py", "tests/test_scoring.py", "tests/test_flip7_actions.py",
             "tests/test_official_constants.py", "tests/test_legal_judge.py", "tests/test_misreadings.py",
             "tests/test_coverage.py", "tests/test_clause_coverage.py", "tests/test_symbolic.py",
             "tests/test_readings.py", "tests/test_fixtures.py", "tests/test_witness.py",
             "tests/test_scoring_promises.py", "tests/test_play_helpers.py", "tests/test_legal_judge_unasked.py",
             "tests/test_presets_sources.py", "tests/test_clause_tables.py", "tests/test_misreading_readings.py",
             "tests/test_flip7_misreading_promises.py", "tests/test_flip7_engine_promises.py",
             "tests/test_symbolic_promises.py")),
    Package("vengeance", ("flip7_spec/games/vengeance/*.py",),
            ("tests/test_vengeance_engine.py", "tests/test_vengeance_scoring.py", "tests/test_legal_judge.py",
             "tests/test_misreadings.py", "tests/test_coverage.py", "tests/test_clause_coverage.py",
             "tests/test_symbolic_vengeance.py", "tests/test_readings.py", "tests/test_fixtures.py",
             "tests/test_witness_vengeance.py", "tests/test_witness.py", "tests/test_scoring_promises.py",
             "tests/test_play_helpers.py", "tests/test_legal_judge_unasked.py", "tests/test_presets_sources.py",
             "tests/test_clause_tables.py", "tests/test_misreading_readings.py",
             "tests/test_vengeance_misreading_promises.py", "tests/test_vengeance_engine_promises.py",
             "tests/test_symbolic_vengeance_promises.py")),
)
BY_NAME = {p.name: p for p in PACKAGES}

COPIED = ("flip7_spec", "tests", "properties", "fixtures", "examples", "docs", "bench", "conftest.py", "pyproject.toml",
          "README.md")
LEFT_OUT_TESTS = ("tests/test_simulate_run.py::test_a_run_on_a_cluster_writes_the_traces_and_figures_of_a_local_run",
                  "tests/test_simulate_experiments.py::test_a_user_policy_file_from_another_folder_plays",
                  "tests/test_simulate_experiments.py::test_a_user_policy_module_is_found_from_the_current_folder")
"""Tests left out of every mutmut run: one starts a Dask cluster (one started in a process mutmut forked hangs, so
every mutant it reaches would time out whether it changes anything or not), two run the command line from
another folder, where the mutated code cannot find mutmut's settings (they are read from the folder it runs in)
and stops before the test's own check."""
DESELECTED = tuple(arg for test in LEFT_OUT_TESTS for arg in ("--deselect", test))
"""pytest's arguments that leave :data:`LEFT_OUT_TESTS` out (see :func:`config`)."""
KILLED = ("killed", "timeout", "caught by type check", "segfault")
"""mutmut's verdicts that count as killed: a test failed, hung or could not even start on the mutant."""
LEFT_OUT = ("skipped", "not checked")


def config(package: Package, tests: list[str]) -> str:
    """The ``[tool.mutmut]`` table of a run of ``package`` with ``tests``."""
    return "\n".join([
        "", "[tool.mutmut]", 'source_paths = ["flip7_spec"]',
        f"only_mutate = {json.dumps(list(package.files))}",
        f"pytest_add_cli_args_test_selection = {json.dumps(list(tests))}",
        # the default run's options (no cache, no slow tests), and a fixed order: the verdicts do not depend on it;
        # without LEFT_OUT_TESTS
        f"pytest_add_cli_args = {json.dumps(['-p', 'no:randomly', '-q', *DESELECTED])}",
        f"also_copy = {json.dumps([c for c in COPIED if c not in ('flip7_spec', 'tests', 'pyproject.toml')])}",
        "use_git_change_detection = false", "",
    ])


def prepare(source: Path, package: Package, folder: Path) -> None:
    """A copy of ``source`` in ``folder`` whose pyproject.toml configures mutmut for ``package`` (with those of
    its tests that ``source`` has)."""
    for name in COPIED:
        path = source / name
        if path.is_dir():
            shutil.copytree(path, folder / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif path.is_file():
            shutil.copy2(path, folder / name)
    # The shipped fixtures and example engines, laid out as a wheel lays them out: an editable install maps the
    # packages flip7_spec.golden and flip7_spec.examples to the checkout's folders, which the copy's own
    # flip7_spec does not see.
    for shipped, package_name in (("fixtures", "golden"), ("examples", "examples")):
        if (source / shipped).is_dir() and not (folder / "flip7_spec" / package_name).exists():
            shutil.copytree(source / shipped, folder / "flip7_spec" / package_name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules"))
    tests = [t for t in package.tests if (source / t).exists()]  # an older checkout may lack some
    with (folder / "pyproject.toml").open("a", encoding="utf-8") as out:
        out.write(config(package, tests))


def run_mutmut(folder: Path, args: list[str]) -> str:
    """Run ``mutmut ARGS`` in ``folder`` and return its output. It runs in a session of its own, and whatever
    of that session outlives it is ended: a mutant of code that stops worker processes (``ordered_pool._stop``) can
    leave them running, holding an output pipe open, which would otherwise keep this script waiting."""
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as output:
        # mutmut runs the tests in ``mutants/``; the engines they start as processes (tests/broken_engines,
        # the example engines) import flip7_spec too, and must find that copy, not whatever the interpreter
        # has installed
        (folder / "mutants").mkdir(exist_ok=True)  # an entry of PYTHONPATH missing at start-up is never looked in
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (str(folder / "mutants"), os.environ.get("PYTHONPATH", "")) if p)}
        process = subprocess.Popen([sys.executable, "-m", "mutmut", *args], cwd=folder, stdout=output,
                                   stderr=subprocess.STDOUT, start_new_session=True, env=env)
        try:
            process.wait()
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):  # nothing of it left
                os.killpg(process.pid, signal.SIGKILL)
        output.seek(0)
        return output.read()


def verdicts(folder: Path) -> dict[str, str]:
    """Every mutant's verdict, by name (``mutmut results --all true``)."""
    done = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=folder,
                          capture_output=True, text=True, check=True)
    found = (re.match(r"\s*(\S+): (.+)$", line) for line in done.stdout.splitlines())
    return {m.group(1): m.group(2).strip() for m in found if m}


def change(folder: Path, name: str) -> str:
    """What mutant ``name`` changes: the removed and added lines of ``mutmut show``."""
    shown = subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=folder, capture_output=True,
                           text=True, errors="replace", check=False).stdout
    return "\n".join(line for line in shown.splitlines()
                     if line[:1] in "+-" and not line.startswith(("+++", "---")))


def sample_of(folder: Path, only: list[str], size: int, seed: int) -> tuple[list[str], int]:
    """``size`` mutant names drawn uniformly (with ``seed``) from those mutmut makes of the package prepared in
    ``folder`` (those ``only`` matches, when given), and how many it drew from. mutmut makes them, and learns
    which test reaches which function, when it is asked to run a name no mutant has."""
    run_mutmut(folder, ["run", "--max-children", "1", "no-mutant-has-this-name"])
    names = sorted(name for name in verdicts(folder)
                   if not only or any(fnmatch.fnmatchcase(name, pattern) for pattern in only))
    return sorted(random.Random(seed).sample(names, min(size, len(names)))), len(names)


def wilson(killed: int, tested: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``killed / tested`` measured on a random sample."""
    if tested == 0:
        return (0.0, 1.0)
    p = killed / tested
    centre = (p + z * z / (2 * tested)) / (1 + z * z / tested)
    half = z * math.sqrt(p * (1 - p) / tested + z * z / (4 * tested * tested)) / (1 + z * z / tested)
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_package(package: Package, only: list[str], children: int, keep: Path | None,
                sample: int | None = None, seed: int = 0) -> dict[str, object]:
    """Run mutmut over ``package`` (only the mutants ``only`` names or matches, when given; a random ``sample``
    of them, when given); its figures."""
    folder = keep or Path(tempfile.mkdtemp(prefix=f"mutation-{package.name}-"))
    folder.mkdir(parents=True, exist_ok=True)
    prepare(ROOT if not os.environ.get("MUTATION_SOURCE") else Path(os.environ["MUTATION_SOURCE"]), package, folder)
    started = time.monotonic()
    made = None
    try:
        if sample is not None:
            chosen, made = sample_of(folder, only, sample, seed)
            only = chosen
        ran = run_mutmut(folder, ["run", "--max-children", str(children), *only]) if only or sample is None else ""
        found = verdicts(folder)
        changes = {name: change(folder, name) for name, v in found.items() if v not in KILLED + LEFT_OUT}
        if not any(v not in LEFT_OUT for v in found.values()):
            # mutmut stopped before the mutants: say why (a test failing on the clean copy, say)
            print(f"{package.name}: mutmut ran no mutant:\n{ran[-3000:]}", file=sys.stderr)
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    if only:
        found = {name: v for name, v in found.items() if v not in LEFT_OUT}
    tested = {name: v for name, v in found.items() if v not in LEFT_OUT}
    killed = sum(v in KILLED for v in tested.values())
    survivors = sorted(name for name, v in tested.items() if v not in KILLED)
    figures: dict[str, object] = {
        "package": package.name, "mutants": len(tested), "killed": killed,
        "score": round(killed / len(tested), 4) if tested else None, "verdicts": dict(Counter(tested.values())),
        "survivors": survivors, "changes": {name: changes.get(name, "") for name in survivors},
        "seconds": round(time.monotonic() - started)}
    if sample is not None:
        low, high = wilson(killed, len(tested))
        figures.update({"sample_of": made, "seed": seed, "interval_95": [round(low, 4), round(high, 4)]})
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("packages", nargs="*", help="packages to run (default: every one, in the listed order)")
    parser.add_argument("--list", action="store_true", help="list the packages, their files and tests")
    parser.add_argument("--only", nargs="+", default=[], metavar="NAME",
                        help="only these mutants (mutmut names or globs, e.g. the survivors of a run)")
    parser.add_argument("--sample", type=int, metavar="N",
                        help="run N mutants drawn at random (of those --only matches, if given): an estimate of "
                             "the score with its 95%% interval, for a package too large to run whole")
    parser.add_argument("--seed", type=int, default=0, help="the draw of --sample (default 0)")
    parser.add_argument("--children", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--tests", nargs="+", metavar="PATH",
                        help="run these tests instead of the package's (a quick look at survivors, say)")
    parser.add_argument("--keep", type=Path, help="run in this folder and keep it (one package)")
    parser.add_argument("--json", type=Path, help="write the figures and survivors there")
    args = parser.parse_args(argv)
    if args.list:
        for package in PACKAGES:
            print(f"{package.name}: {' '.join(package.files)}\n    tests: {' '.join(package.tests)}")
        return 0
    unknown = [name for name in args.packages if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown package {', '.join(unknown)}: see --list")
    if args.keep is not None and len(args.packages) != 1:
        parser.error("--keep takes one package")
    chosen = [BY_NAME[name] for name in args.packages] or list(PACKAGES)
    if args.tests:
        chosen = [Package(p.name, p.files, tuple(args.tests)) for p in chosen]
    figures = []
    for package in chosen:
        result = run_package(package, args.only, args.children, args.keep, args.sample, args.seed)
        figures.append(result)
        score = "n/a" if result["score"] is None else f"{100 * float(str(result['score'])):.1f}%"
        if "interval_95" in result:
            low, high = (float(bound) for bound in result["interval_95"])  # type: ignore[attr-defined]
            score += f", 95% interval {100 * low:.1f}% to {100 * high:.1f}%, a sample of {result['sample_of']}"
        print(f"{package.name}: {result['killed']} of {result['mutants']} killed ({score}) in {result['seconds']} s")
        for name in result["survivors"]:  # type: ignore[attr-defined]
            print(f"  survived: {name}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
