"""Campaigns past one machine: ``conform --cluster``, ``simulate --cluster``, ``conform --campaign DIR`` and
their faults (docs/campaigns.md).

A cluster here is real: a ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1 (ports chosen free,
torn down after), or ``--cluster local:N``. A cluster run must give exactly the results of a local run with the
same arguments, so every check compares the reports of both, field for field, leaving out only the timings
(seconds, throughput), which no two runs share. The long fault tests (a worker killed mid-campaign, the
scheduler gone, an engine hung on one worker) are marked slow.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.test_conform import ENGINES, REPO, Ran, assert_clean, environment

pytest.importorskip("distributed", reason="needs the cluster extra (pip install -e '.[cluster]')")

GUARD = 180.0
TIMINGS = frozenset({"seconds", "engine_seconds", "rounds_per_second", "games_per_second"})
MUTANT = f"{shlex.quote(sys.executable)} -m tests.mutants.frozen_scores_zero"
SMALL = ("-r", "flip7", "--no-fixtures", "--min-coverage", "0")


def without_timings(value: Any) -> Any:
    """A report with the fields that measure time left out (and nothing else)."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def command(*args: str, token: str, guard: float = GUARD, env: dict[str, str] | None = None) -> Ran:
    """``flip7-spec ARGS`` from the repository root, with the run's token in its environment."""
    started = time.monotonic()
    process = subprocess.run([sys.executable, "-m", "flip7_spec", *args], cwd=REPO,
                             env={**environment(token), **(env or {})}, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=guard)
    return Ran(process.returncode, process.stdout, process.stderr, time.monotonic() - started)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    """A scheduler and its workers, each a process of this test."""

    address: str
    token: str
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]]

    def add_worker(self, **env: str) -> subprocess.Popen[bytes]:
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", self.address,
                                   "--nthreads", "1", "--no-nanny", "--no-dashboard", "--death-timeout", "30",
                                   "--host", "127.0.0.1"], cwd=REPO, env={**environment(self.token), **env},
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.workers.append(worker)
        return worker

    def wait_for(self, count: int) -> None:
        """Wait until ``count`` workers have joined the scheduler."""
        from distributed import Client

        with Client(self.address, timeout="20s") as client:
            client.wait_for_workers(count, timeout=60)

    def stop(self) -> None:
        for process in [*self.workers, self.scheduler]:
            if process.poll() is None:
                process.kill()
            process.wait(10)


@contextlib.contextmanager
def cluster(workers: int = 2, **env: str) -> Iterator[Cluster]:
    """A ``dask scheduler`` and ``workers`` ``dask worker`` processes on 127.0.0.1; after the block, all of
    them stopped and no process of theirs (engines included) left behind."""
    token = uuid.uuid4().hex
    port = free_port()
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--dashboard-address", ":0", "--no-show"], cwd=REPO,
                                 env=environment(token), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    running = Cluster(f"tcp://127.0.0.1:{port}", token, scheduler, [])
    try:
        for _ in range(workers):
            running.add_worker(**env)
        running.wait_for(workers)
        yield running
    finally:
        running.stop()
        assert_clean(token, None, "")


def conform_both(tmp_path: Path, address: str, engine: str, *args: str, code: int) -> tuple[dict[str, Any], ...]:
    """``conform`` with ``args`` against ``engine`` locally and on the cluster, each with every report; returns
    the two JSON reports (the other reports are compared here)."""
    reports = []
    outputs = []
    for where in ("local", "cluster"):
        folder = tmp_path / where
        folder.mkdir(parents=True)
        extra = ("--cluster", address) if where == "cluster" else ()
        token = uuid.uuid4().hex
        ran = command("conform", "--engine", engine, *args, *extra, "-q", "--json", str(folder / "report.json"),
                      "--junit-xml", str(folder / "report.xml"), "--html", str(folder / "report.html"),
                      "--fingerprint", str(folder / "fingerprint.toml"),
                      "--save-failures", str(tmp_path / "failures"), token=token)
        assert_clean(token, ran.code, ran.stderr)
        assert ran.code == code, ran.output[-3000:]
        reports.append(json.loads((folder / "report.json").read_text(encoding="utf-8")))
        outputs.append(folder)
        saved = sorted((tmp_path / "failures").glob("*.json")) if (tmp_path / "failures").is_dir() else []
        outputs.append({p.name: p.read_text(encoding="utf-8") for p in saved})
        shutil.rmtree(tmp_path / "failures", ignore_errors=True)
    local, local_saved, remote, remote_saved = outputs
    assert local_saved == remote_saved  # the same shrunk traces, byte for byte
    fingerprints = [(folder / "fingerprint.toml") for folder in (local, remote)]
    assert [f.read_text(encoding="utf-8") if f.exists() else None for f in fingerprints][:1] == \
        [f.read_text(encoding="utf-8") if f.exists() else None for f in fingerprints][1:]
    pages = [re.sub(r"<dt>time</dt><dd>[^<]*</dd>", "", (folder / "report.html").read_text(encoding="utf-8"))
             for folder in (local, remote)]
    assert pages[0] == pages[1]  # the same HTML report, but for the run's time
    junit = [(folder / "report.xml").read_text(encoding="utf-8") for folder in (local, remote)]
    assert [_without_xml_times(x) for x in junit[:1]] == [_without_xml_times(x) for x in junit[1:]]
    assert without_timings(reports[0]) == without_timings(reports[1])
    return tuple(reports)


def _without_xml_times(text: str) -> str:
    return re.sub(r' time="[^"]*"', "", re.sub(r' timestamp="[^"]*"', "", text))


# ---- without the extra, nothing imports it ---------------------------------------------------------------


HIDE_DISTRIBUTED = "import sys; sys.modules['distributed'] = None; "


@pytest.mark.parametrize("args", [
    ("conform", "--engine", "x", "--cluster", "local:2"),
    ("simulate", "--games", "10", "--cluster", "tcp://127.0.0.1:8786"),
])
def test_without_the_extra_the_cluster_option_stops_with_one_line_naming_it(args: tuple[str, ...]) -> None:
    code = HIDE_DISTRIBUTED + f"sys.argv = ['flip7-spec', *{list(args)!r}]; from flip7_spec.cli import main; main()"
    ran = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.count("\n") == 1 and 'pip install "flip7-spec[cluster]"' in ran.stderr, ran.stderr


def test_a_local_run_imports_no_cluster_code(tmp_path: Path) -> None:
    code = ("import sys, runpy; sys.argv = ['flip7-spec', 'conform', '--python', "
            "'tests.mutants.frozen_scores_zero:Engine', '--games', '1', '-r', 'flip7', '--no-fixtures', "
            "'--no-scoring', '--min-coverage', '0', '-q', '--campaign', sys.argv[1]]\n"
            "try:\n    runpy.run_module('flip7_spec', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('distributed', 'dask', 'tornado')))")
    with_campaign = subprocess.run([sys.executable, "-c", code, str(tmp_path / "campaign")],
                                   cwd=REPO, capture_output=True, text=True, timeout=60)
    assert with_campaign.stdout.strip().splitlines()[-1] == "[]", with_campaign.stdout[-2000:]
    assert len(journal_ids(tmp_path / "campaign")) == 2  # the campaign ran: its round and game case


def test_a_malformed_cluster_address_is_refused_before_anything_runs() -> None:
    from flip7_spec.cluster import Address, ClusterError

    assert Address.parse("local:3") == Address("local:3", 3)
    assert Address.parse("10.0.0.5:8786") == Address("tcp://10.0.0.5:8786")
    for wrong, why in (("local:0", "local:N takes 1 to 64 workers"), ("local:65", "local:N takes 1 to 64"),
                       ("not an address", "expected a scheduler address"), ("tcp://host", "expected a scheduler")):
        with pytest.raises(ClusterError, match=why):
            Address.parse(wrong)
    ran = command("conform", "--engine", "x", "--cluster", "local:", "-j", "2", token=uuid.uuid4().hex, guard=60)
    assert ran.code == 2 and ran.stderr.count("\n") == 1 and "expected a scheduler address" in ran.stderr, ran.output
    ran = command("conform", "--engine", "x", "--cluster", "local:2", "-j", "2", token=uuid.uuid4().hex, guard=60)
    assert ran.code == 2 and "choose one" in ran.stderr, ran.output


# ---- a real scheduler and two workers: the reports of a local run ----------------------------------------


def test_conform_on_a_scheduler_and_two_workers_reports_what_a_local_run_reports(tmp_path: Path) -> None:
    node = shutil.which("node")
    with cluster(2) as running:
        if node is not None:
            javascript = shlex.join([node, str(REPO / "examples" / "js-engine" / "engine.js")])
            passing, _ = conform_both(tmp_path / "js", running.address, javascript, "-r", "flip7", "--games", "4",
                                      "--no-fixtures", "--min-coverage", "0", code=0)
            assert sum(row["pass"] for row in passing["counts"].values()) > 14  # scoring cases and games ran
        failing, _ = conform_both(tmp_path / "mutant", running.address, MUTANT, *SMALL, "--games", "6", code=1)
    failures = [r for r in failing["results"] if r["outcome"] == "fail"]
    assert failures and all(r["clause"] == "F7-FREEZE" for r in failures)  # the mutant's bug, found and blamed
    assert failing["fingerprint"] == {"flip7": ["frozen_banks_nothing"]}
    assert all(r["shrunk"] and r["shrunk"].endswith(".json") for r in failures if r["level"] != "scoring")


def test_an_engine_missing_on_the_workers_stops_the_run_naming_a_worker(tmp_path: Path) -> None:
    token = uuid.uuid4().hex
    ran = command("conform", "--engine", "no-such-engine-command", *SMALL, "--games", "1", "--cluster", "local:1",
                  "--json", str(tmp_path / "report.json"), token=token)
    assert_clean(token, ran.code, ran.stderr)
    assert ran.code == 2, ran.output
    (line,) = ran.stderr.strip().splitlines()
    assert "on worker tcp://127.0.0.1:" in line and "must work on every worker" in line
    assert not (tmp_path / "report.json").exists() and not list(tmp_path.iterdir())


# ---- campaigns -------------------------------------------------------------------------------------------


def journal_ids(directory: Path) -> list[str]:
    return [json.loads(line)["id"] for line in (directory / "cases.jsonl").read_text(encoding="utf-8").splitlines()]


def interrupt_after(args: list[str], directory: Path, recorded: int, token: str) -> int:
    """Run ``conform ARGS`` in a process group of its own, and once ``recorded`` cases are in the campaign's
    journal send SIGINT to the whole group, as Ctrl-C at a terminal does; its exit code. No traceback, and
    nothing left running."""
    process = subprocess.Popen([sys.executable, "-m", "flip7_spec", "conform", *args], cwd=REPO,
                               env=environment(token), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, preexec_fn=_own_group_default_sigint)
    try:
        deadline = time.monotonic() + GUARD
        journal = directory / "cases.jsonl"
        while time.monotonic() < deadline and process.poll() is None:
            if journal.exists() and journal.read_bytes().count(b"\n") >= recorded:
                break
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=GUARD)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert_clean(token, process.returncode, stderr)
    return process.returncode


def _own_group_default_sigint() -> None:
    os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_interrupted_campaign_resumed_reports_what_an_uninterrupted_run_reports(tmp_path: Path) -> None:
    engine = shlex.join([sys.executable, str(ENGINES / "slow.py"), "0.002"])
    base = ["--engine", engine, *SMALL, "--games", "8", "--seed", "7"]
    campaign = tmp_path / "campaign"
    args = [*base, "--campaign", str(campaign), "-q", "--json", str(tmp_path / "resumed.json")]
    # Ctrl-C on a local cluster (its workers share the terminal's process group), resumed on this machine
    assert interrupt_after([*args, "--cluster", "local:2"], campaign, 17, uuid.uuid4().hex) == 130
    cut = journal_ids(campaign)
    assert 17 <= len(cut) < 14 + 16  # stopped part of the way: 14 scoring cases, 16 game and round cases
    token = uuid.uuid4().hex
    resumed = command("conform", *args, token=token)
    assert_clean(token, resumed.code, resumed.stderr)
    assert resumed.code == 0, resumed.output[-2000:]
    ids = journal_ids(campaign)
    assert ids[:len(cut)] == cut and len(ids) == len(set(ids)) == 14 + 16  # every case recorded exactly once
    whole = command("conform", *base, "-q", "--json", str(tmp_path / "whole.json"), token=token)
    assert whole.code == 0
    reports = [json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")) for name in ("resumed", "whole")]
    assert without_timings(reports[0]) == without_timings(reports[1])
    assert resumed.stdout.splitlines()[:7] == whole.stdout.splitlines()[:7]  # the same summary table
    again = command("conform", *args, token=token)  # every case recorded: nothing runs, the same report
    assert again.code == 0 and journal_ids(campaign) == ids


def test_a_campaign_keeps_failures_and_refuses_other_arguments_in_one_line(tmp_path: Path) -> None:
    campaign = tmp_path / "campaign"
    base = ["--python", "tests.mutants.frozen_scores_zero:Engine", *SMALL, "--games", "4", "--no-scoring"]
    token = uuid.uuid4().hex
    first = command("conform", *base, "--campaign", str(campaign), "--json", str(tmp_path / "a.json"), token=token)
    assert first.code == 1
    recorded = journal_ids(campaign)
    assert len(recorded) == 8
    other = command("conform", *[a if a != "4" else "5" for a in base], "--campaign", str(campaign), token=token)
    assert other.code == 2
    assert other.stderr.strip() == (f"flip7-spec: error: --campaign {campaign}: started with other arguments: --games "
                                    "4 there, 5 here; run it with the same arguments to resume, or use another "
                                    "folder")
    assert journal_ids(campaign) == recorded  # refused before anything ran
    # a line cut short by a crash mid-write is dropped, and its case runs again
    journal = campaign / "cases.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2], encoding="utf-8")
    resumed = command("conform", *base, "--campaign", str(campaign), "--workers", "2", "--json",
                      str(tmp_path / "b.json"), "--html", str(tmp_path / "b.html"), "--junit-xml",
                      str(tmp_path / "b.xml"), token=token)  # other reports: the same campaign
    assert resumed.code == 1
    assert journal_ids(campaign) == recorded  # the case cut short ran again, recorded once
    reports = [json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")) for name in ("a", "b")]
    assert without_timings(reports[0]) == without_timings(reports[1])
    assert sum(r["outcome"] == "fail" for r in reports[1]["results"]) > 0


# ---- simulate --------------------------------------------------------------------------------------------


def test_simulate_rounds_on_a_local_cluster_gives_the_local_statistics() -> None:
    args = ["simulate", "-p", "1", "--option", "min_players=1", "--rounds", "1500", "--fresh-deck", "--policy",
            "threshold-numbers:20", "--seed", "5", "--json"]
    token = uuid.uuid4().hex
    on_cluster = command(*args, "--cluster", "local:2", token=token)
    local = command(*args, token=token)
    assert_clean(token, on_cluster.code, on_cluster.stderr)
    assert on_cluster.code == local.code == 0, on_cluster.output[-2000:]
    remote, here = json.loads(on_cluster.stdout), json.loads(local.stdout)
    assert remote.pop("cluster") == "local:2"
    assert without_timings(remote) == without_timings(here)
    assert here["rounds"] == 1500 and 0 < here["bust_rate"]["rate"] < 1


# ---- faults ----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_worker_killed_mid_campaign_loses_no_case_and_counts_none_twice(tmp_path: Path) -> None:
    engine = shlex.join([sys.executable, str(ENGINES / "slow.py"), "0.01"])
    base = ["--engine", engine, *SMALL, "--games", "16", "--seed", "3"]
    campaign = tmp_path / "campaign"
    with cluster(3) as running:
        token = uuid.uuid4().hex
        process = subprocess.Popen([sys.executable, "-m", "flip7_spec", "conform", *base, "--cluster",
                                    running.address, "--campaign", str(campaign), "-q", "--json",
                                    str(tmp_path / "cluster.json")], cwd=REPO, env=environment(token),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        journal = campaign / "cases.jsonl"
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline and not (journal.exists() and journal.read_bytes().count(b"\n") >= 18):
            time.sleep(0.05)
        running.workers[0].kill()  # mid-run: some of its cases were running
        stdout, stderr = process.communicate(timeout=GUARD)
        assert_clean(token, process.returncode, stderr)
    assert process.returncode == 0, (stdout + stderr)[-3000:]
    ids = journal_ids(campaign)
    assert len(ids) == len(set(ids)) == 14 + 32
    local = command("conform", *base, "-q", "--json", str(tmp_path / "local.json"), token=token)
    assert local.code == 0
    reports = [json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")) for name in ("cluster", "local")]
    assert without_timings(reports[0]) == without_timings(reports[1])


@pytest.mark.slow
def test_the_scheduler_gone_stops_the_run_in_one_line_and_the_campaign_resumes(tmp_path: Path) -> None:
    engine = shlex.join([sys.executable, str(ENGINES / "slow.py"), "0.01"])
    base = ["--engine", engine, *SMALL, "--games", "12", "--seed", "4"]
    campaign = tmp_path / "campaign"
    with cluster(2) as running:
        token = uuid.uuid4().hex
        process = subprocess.Popen([sys.executable, "-m", "flip7_spec", "conform", *base, "--cluster",
                                    running.address, "--campaign", str(campaign), "-q", "--json",
                                    str(tmp_path / "lost.json")], cwd=REPO, env=environment(token),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        journal = campaign / "cases.jsonl"
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline and not (journal.exists() and journal.read_bytes().count(b"\n") >= 16):
            time.sleep(0.05)
        running.scheduler.kill()
        stdout, stderr = process.communicate(timeout=GUARD)
        assert_clean(token, process.returncode, stderr)
    assert process.returncode == 2, (stdout + stderr)[-3000:]
    (line,) = stderr.strip().splitlines()
    assert line.startswith("flip7-spec: error: lost the cluster's scheduler at tcp://127.0.0.1:"), line
    assert not (tmp_path / "lost.json").exists()
    cut = journal_ids(campaign)
    assert 16 <= len(cut) < 14 + 24
    resumed = command("conform", *base, "--campaign", str(campaign), "-q", "--json", str(tmp_path / "resumed.json"),
                      token=token)  # resumed on this machine: where the cases run is no argument of a campaign
    assert resumed.code == 0, resumed.output[-2000:]
    whole = command("conform", *base, "-q", "--json", str(tmp_path / "whole.json"), token=token)
    assert whole.code == 0
    reports = [json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")) for name in ("resumed", "whole")]
    assert without_timings(reports[0]) == without_timings(reports[1])
    ids = journal_ids(campaign)
    assert ids[:len(cut)] == cut and len(ids) == len(set(ids)) == 14 + 24


@pytest.mark.slow
def test_an_engine_hung_on_one_worker_times_out_there_as_it_does_locally(tmp_path: Path) -> None:
    engine = shlex.join([sys.executable, str(ENGINES / "hang_where_told.py")])
    base = ["--engine", engine, *SMALL, "--games", "4", "--timeout", "2", "--no-scoring"]
    with cluster(1) as running:
        running.add_worker(FLIP7_HANG_HERE="1")
        running.wait_for(2)
        token = uuid.uuid4().hex
        ran = command("conform", *base, "--cluster", running.address, "--json", str(tmp_path / "hung.json"),
                      token=token)
        assert_clean(token, ran.code, ran.stderr)
    assert ran.code == 1, ran.output[-3000:]
    report = json.loads((tmp_path / "hung.json").read_text(encoding="utf-8"))
    cases = {(r["case_id"], r["level"]) for r in report["results"]}
    assert len({case for case, level in cases if level in ("round", "game")}) == 8  # every case, once
    errored = [r for r in report["results"] if r["outcome"] == "errored"]
    assert errored and all("no reply within 2 s" in r["message"] for r in errored)
    assert all(r["outcome"] in ("pass", "errored") for r in report["results"])
    hung_locally = command("conform", *base, "--json", str(tmp_path / "local.json"), token=token,
                           env={"FLIP7_HANG_HERE": "1"}, guard=GUARD)
    local_errors = json.loads((tmp_path / "local.json").read_text(encoding="utf-8"))["results"]
    assert hung_locally.code == 1
    assert {r["message"] for r in local_errors if r["outcome"] == "errored"} == {r["message"] for r in errored}
    assert os.environ.get("FLIP7_HANG_HERE") is None


# ---- fuzzing across processes ----------------------------------------------------------------------------


@pytest.mark.slow
def test_fuzzing_processes_share_one_database_and_stop_at_the_first_failure(tmp_path: Path) -> None:
    (tmp_path / "test_toy.py").write_text(
        "from hypothesis import given, strategies as st\n\n\n"
        "@given(st.lists(st.integers(0, 9)))\n"
        "def test_sums_stay_small(values):\n"
        "    assert sum(values) < 40\n", encoding="utf-8")
    database = tmp_path / "shared"
    run = [sys.executable, "-m", "flip7_spec.testing.fuzz", "--processes", "2", "--minutes", "1", "--database",
           str(database), "--", str(tmp_path / "test_toy.py")]
    found = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert found.returncode == 1, found.stdout[-2000:]
    assert "fuzz: a run failed" in found.stdout and "assert" in found.stdout
    assert any(p.is_file() for p in database.rglob("*"))  # the failing example, saved for every later run


@pytest.mark.slow
def test_a_case_that_kills_every_worker_running_it_is_errored_once_as_locally(tmp_path: Path) -> None:
    base = ["--python", "tests.engine_killing_its_process:Engine", *SMALL, "--games", "4", "--no-scoring"]
    token = uuid.uuid4().hex
    reports = {}
    for name, where in (("cluster", ("--cluster", "local:2")), ("local", ("--workers", "2"))):
        ran = command("conform", *base, *where, "--json", str(tmp_path / f"{name}.json"), token=token)
        assert_clean(token, ran.code, ran.stderr)
        assert ran.code == 1, ran.output[-3000:]
        reports[name] = json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8"))["results"]
    for results in reports.values():
        verdicts = {(r["case_id"], r["level"]): r["outcome"] for r in results}
        assert len(verdicts) == len(results)  # no case reported twice
        cases = {case for case, level in verdicts if level in ("round", "game")}
        assert len(cases) == 8  # 4 games, a round case and a game case each
        for (case, level), outcome in verdicts.items():
            assert outcome == ("errored" if "players=6" in case else "pass"), (case, level, outcome)
    died = [r["message"] for r in reports["cluster"] if r["outcome"] == "errored"]
    assert died and all(m.startswith("the cluster's workers running this case died each time") for m in died)
    assert [(r["case_id"], r["outcome"]) for r in reports["cluster"]] == \
        [(r["case_id"], r["outcome"]) for r in reports["local"]]
