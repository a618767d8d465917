"""Outputs are checked before the run, written whole or not at all, never over an input, never by two runs.

The full-disk tests mount a small tmpfs, which needs the right to mount (root in a container that allows
it); where that is refused they are skipped. The same goes for a read-only mount.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from flip7_spec.errors import OutputError
from flip7_spec.outputs import Output, check_distinct, reserve_folder, write_file

REPO = Path(__file__).resolve().parent.parent


def flip7_spec(*args: str, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "flip7_spec", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": path})


def one_error_line(done: subprocess.CompletedProcess[str], words: str) -> None:
    """Exit 2 with exactly one line on stderr, naming the problem, and no traceback."""
    assert done.returncode == 2, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("flip7-spec: error: "), done.stderr
    assert words in lines[0], lines[0]


@contextlib.contextmanager
def mounted_tmpfs(folder: Path, size: str, read_only: bool = False) -> Iterator[Path]:
    """A fresh tmpfs of ``size`` at ``folder`` for the block, or a skip where mounting is not allowed."""
    folder.mkdir()
    options = f"size={size}" + (",ro" if read_only else "")
    mount, umount = shutil.which("mount"), shutil.which("umount")
    if mount is None or umount is None:
        pytest.skip("no mount command")
    done = subprocess.run([mount, "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run([umount, str(folder)], capture_output=True, check=False)


def fill(folder: Path) -> None:
    """Use up every byte of the file system at ``folder``."""
    with (folder / "filler").open("wb", buffering=0) as handle, contextlib.suppress(OSError):
        while True:
            handle.write(b"\0" * 4096)


# ---- the library ------------------------------------------------------------------------------------------


def test_an_output_replaces_its_target_only_when_committed(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old", encoding="utf-8")
    output = Output.reserve(target)
    output.write("new")
    assert target.read_text(encoding="utf-8") == "old"  # not yet: the new text is in the temporary file
    assert output.temporary.parent == tmp_path and output.temporary.name.startswith(".report.json.")
    assert output.temporary.is_file() and not output.temporary.is_symlink()
    output.commit()
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


def test_a_discarded_output_leaves_the_target_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    target.write_text("kept\n", encoding="utf-8")
    with pytest.raises(RuntimeError), Output.reserve(target) as output:
        output.write("half")
        raise RuntimeError("the run failed")
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_a_second_writer_of_the_same_output_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    first = Output.reserve(target)
    with pytest.raises(OutputError, match="another run is writing it"):
        Output.reserve(target)
    first.commit()
    Output.reserve(target).discard()  # free again once the first is done


@pytest.mark.parametrize("make, words", [
    (lambda d: d / "missing" / "out.json", "no such folder"),
    (lambda d: d, "it is a directory"),
    (lambda d: Path("/dev/null"), "not a regular file"),
])
def test_unusable_targets_are_refused(tmp_path: Path, make: object, words: str) -> None:
    with pytest.raises(OutputError, match=words):
        Output.reserve(make(tmp_path))  # type: ignore[operator]


def test_an_output_may_not_be_an_input_or_another_output(tmp_path: Path) -> None:
    trace = tmp_path / "trace.json"
    trace.write_text("{}", encoding="utf-8")
    with pytest.raises(OutputError, match="is also an input"):
        check_distinct([("--json", tmp_path / "." / "trace.json")], [trace])
    with pytest.raises(OutputError, match="is also the --json output"):
        check_distinct([("--json", tmp_path / "r"), ("--junit-xml", tmp_path / "r")])
    check_distinct([("--json", tmp_path / "r.json")], [trace])


def test_a_lone_surrogate_is_written_as_its_json_escape(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    write_file(target, json.dumps({"message": "bad \ud800 byte"}, ensure_ascii=False))
    assert json.loads(target.read_text(encoding="utf-8")) == {"message": "bad \ud800 byte"}


# ---- the command line ---------------------------------------------------------------------------------------


def test_replay_never_writes_its_report_over_a_trace(tmp_path: Path) -> None:
    trace = tmp_path / "games.jsonl"
    assert flip7_spec("simulate", "-g", "2", "--out", str(trace)).returncode == 0
    before = trace.read_bytes()
    one_error_line(flip7_spec("replay", str(trace), "--json", str(trace)), "is also an input of this run")
    assert trace.read_bytes() == before


def test_two_simulate_runs_on_one_output(tmp_path: Path) -> None:
    """While one run writes an output, a second run on it is refused at once; the first, interrupted,
    leaves neither the output nor its .partial file."""
    out = tmp_path / "games.jsonl"
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    first = subprocess.Popen([sys.executable, "-m", "flip7_spec", "simulate", "-g", "1000000", "--out", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": path})
    try:
        deadline = time.monotonic() + 60
        while not any(tmp_path.glob(".games.jsonl.*.partial")) and time.monotonic() < deadline:
            time.sleep(0.05)
        second = flip7_spec("simulate", "-g", "10", "--out", str(out))
        first.send_signal(signal.SIGINT)
        _, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
            first.communicate()
    one_error_line(second, "another run is writing it")
    assert first.returncode == 130, err
    assert list(tmp_path.iterdir()) == []


def test_an_output_claimed_by_another_process_is_refused_before_any_game(tmp_path: Path) -> None:
    target = tmp_path / "games.jsonl"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, pathlib\n"
                               "from flip7_spec.outputs import Output\n"
                               "output = Output.reserve(pathlib.Path(sys.argv[1]))\n"
                               "print('held', flush=True)\nsys.stdin.read()\noutput.discard()\n", str(target)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        one_error_line(flip7_spec("simulate", "-g", "5", "--out", str(target)), "another run is writing it")
    finally:
        holder.communicate("")
    assert list(tmp_path.iterdir()) == []
    # a claim dies with its process, however it ends: a killed run leaves no stale claim
    killed = subprocess.Popen([sys.executable, "-c", "import sys, pathlib, os, signal\n"
                               "from flip7_spec.outputs import Output\n"
                               "Output.reserve(pathlib.Path(sys.argv[1]))\n"
                               "os.kill(os.getpid(), signal.SIGKILL)\n", str(target)], cwd=REPO)
    killed.wait()
    Output.reserve(target).discard()


def test_a_full_disk_is_refused_before_any_work(tmp_path: Path) -> None:
    with mounted_tmpfs(tmp_path / "disk", "256k") as disk:
        fill(disk)
        one_error_line(flip7_spec("simulate", "-g", "5", "--out", str(disk / "games.jsonl")), "no space left")
        marker = tmp_path / "engine-started"
        engine = f"{sys.executable} -c \"import pathlib; pathlib.Path({str(marker)!r}).write_text('x')\""
        one_error_line(flip7_spec("conform", "--engine", engine, "--json", str(disk / "report.json")),
                       "no space left")
        assert not marker.exists(), "the engine was started although the report could not be written"
        one_error_line(flip7_spec("conform", "--engine", engine, "--save-failures", str(disk / "failures")),
                       "no space left")
        assert not marker.exists()
        assert sorted(p.name for p in disk.iterdir()) in (["filler"], ["failures", "filler"])


def test_a_disk_that_fills_during_the_run_leaves_nothing_behind(tmp_path: Path) -> None:
    """Room for the check before the run, not for the traces: one line, exit 2, no file and no .partial."""
    with mounted_tmpfs(tmp_path / "disk", "256k") as disk:
        one_error_line(flip7_spec("simulate", "-g", "400", "--out", str(disk / "games.jsonl")), "no space left")
        assert list(disk.iterdir()) == []


def test_an_unwritable_output_is_refused_before_any_work(tmp_path: Path) -> None:
    marker = tmp_path / "engine-started"
    engine = f"{sys.executable} -c \"import pathlib; pathlib.Path({str(marker)!r}).write_text('x')\""
    one_error_line(flip7_spec("conform", "--engine", engine, "--json", str(tmp_path / "no" / "report.json")),
                   "no such folder")
    one_error_line(flip7_spec("conform", "--engine", engine, "--junit-xml", str(tmp_path)), "is a directory")
    assert not marker.exists()
    with mounted_tmpfs(tmp_path / "read-only", "64k", read_only=True) as folder:
        one_error_line(flip7_spec("simulate", "-g", "5", "--out", str(folder / "games.jsonl")),
                       "read-only file system")
        one_error_line(flip7_spec("conform", "--engine", engine, "--junit-xml", str(folder / "r.xml")),
                       "read-only file system")
        assert not marker.exists()


def test_save_failures_needs_a_folder_it_can_write(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match=r"not a folder|not a directory"):
        reserve_folder(blocker / "failures", "--save-failures")
    assert reserve_folder(tmp_path / "new" / "failures", "--save-failures").is_dir()
    assert list((tmp_path / "new" / "failures").iterdir()) == []  # the probe file is gone


def test_failing_traces_on_a_disk_that_fills_up_are_whole_or_absent(tmp_path: Path) -> None:
    """Shrunk traces saved while the disk runs out: each file there is a whole trace, none is empty or
    .partial, and the failures that could not be saved say so."""
    from flip7_spec.conformance.session import Corpus, EngineSpec, run
    from flip7_spec.rulesets import preset

    with mounted_tmpfs(tmp_path / "disk", "48k") as disk:  # room for about half of the ~90 KB of traces
        save = disk / "failures"
        corpus = Corpus(rulesets=[preset("flip7")], games=8, scoring=False, fixtures=None)
        _, results, _ = run(EngineSpec(python="tests.mutants.dealer_fixed:Engine"), corpus, save=save)
        shrunk = [r.shrunk for r in results if r.shrunk]
        assert any(s.startswith("(not saved: ") and "no space left" in s for s in shrunk), shrunk
        saved = [Path(s) for s in shrunk if not s.startswith("(")]
        assert saved, "the disk had room for some"
        for path in save.iterdir():
            assert path in saved and not path.name.endswith(".partial"), path
            assert json.loads(path.read_text(encoding="utf-8"))["format"] == "flip7-trace"


# ---- the options added with the HTML report and the experiments ------------------------------------------


def test_show_html_is_checked_before_the_trace_is_read(tmp_path: Path) -> None:
    trace = tmp_path / "game.json"
    trace.write_bytes((REPO / "fixtures" / "flip7" / "bust-basic.json").read_bytes())
    before = trace.read_bytes()
    ran = flip7_spec("show", str(trace), "--html", str(trace))
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and "is also an input" in ran.stderr
    assert trace.read_bytes() == before
    ran = flip7_spec("show", str(trace), "--html", str(tmp_path / "page.html"))
    assert ran.returncode == 0 and (tmp_path / "page.html").read_text(encoding="utf-8").startswith("<!")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "page.html"]  # no .partial left


def test_a_page_escapes_control_characters(tmp_path: Path) -> None:
    # an escape sequence in a player's name is shown as \x1b, in the page as on the terminal
    trace = json.loads((REPO / "fixtures" / "flip7" / "bust-basic.json").read_text(encoding="utf-8"))
    trace["header"]["names"] = ["\x1b[2Jmallory", "bob", "carol"][: trace["header"]["players"]]
    path = tmp_path / "named.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    ran = flip7_spec("show", str(path), "--html", "-")
    assert ran.returncode == 0, ran.stderr
    assert "\x1b" not in ran.stdout and "\\x1b[2Jmallory" in ran.stdout


def test_simulate_plot_is_checked_before_the_run(tmp_path: Path) -> None:
    ran = flip7_spec("simulate", "-g", "100000000", "--plot", str(tmp_path / "missing" / "points.png"))
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and "no such folder" in ran.stderr
    ran = flip7_spec("simulate", "-g", "5", "--plot", str(tmp_path / "points.unknown"))
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and ".unknown is none of them" in ran.stderr


@pytest.mark.parametrize(("args", "named"), [
    (("--option", "target_score=" + "9" * 30), "number length"),
    (("--option", "target_score=5000000"), "ruleset.options.target_score: 5,000,000 is over the limit"),
    (("--rounds", "1000000000", "--fresh-deck"), "games"),
    (("-p", "1", "--option", "min_players=1", "--rounds", "10", "--fresh-deck", "--policy", "threshold:5",
      "--sweep", "\u00b2:3"), "FROM:TO"),
])
def test_simulate_numbers_are_limited(args: tuple[str, ...], named: str) -> None:
    ran = flip7_spec("simulate", *args)
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and named in ran.stderr, ran.stderr
    assert "Traceback" not in ran.stderr


def test_a_name_made_from_user_input_stays_a_valid_file_name() -> None:
    from flip7_spec.outputs import NAME_BYTES, fit_file_name

    assert fit_file_name("game_flip7_seed-0-game.json") == "game_flip7_seed-0-game.json"
    long_a, long_b = "game_" + "s" * 1000 + "_a-game.json", "game_" + "s" * 1000 + "_b-game.json"
    fitted = fit_file_name(long_a)
    assert len(fitted.encode("utf-8")) <= NAME_BYTES and fitted.endswith(".json")
    assert fitted.startswith("game_sss") and fitted != fit_file_name(long_b)  # two long names stay apart
    assert len(fit_file_name("é" * 300 + ".json").encode("utf-8")) <= NAME_BYTES  # bytes, not characters


def test_a_run_whose_reader_leaves_early_still_writes_its_reports_and_exits_with_its_verdict(tmp_path: Path) -> None:
    """``conform ... | head -2``: the reader of stdout goes after two lines; the run drops the lines still to
    come, writes its JSON and HTML reports all the same, and exits 1 for the failing engine (not 0, not a
    broken-pipe traceback)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    command = [sys.executable, "-m", "flip7_spec", "conform", "--python", "tests.mutants.dealer_fixed:Engine",
               "-g", "4", "--no-progress", "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")]
    run = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert run.stdout is not None and run.stderr is not None
    first = [run.stdout.readline() for _ in range(2)]
    run.stdout.close()  # what head does after its lines
    err = run.stderr.read().decode()
    assert run.wait(timeout=300) == 1, err
    assert all(line.startswith((b"FAIL", b"  ", b" ")) for line in first), first
    assert "Traceback" not in err
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["results"]
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
