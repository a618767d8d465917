"""No output follows a symbolic link or truncates a file someone else put at a name it might use.

Anyone who can create files in a folder where reports are written (a shared CI workspace, a shared temporary
folder) can plant a link or a file at the names a run uses for its temporary files. Every command that
writes is run with a link to a file outside its folder, and then a user's own file, at every such name: only
the output itself may change.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from flip7_spec.errors import OutputError
from flip7_spec.outputs import Output, write_file

REPO = Path(__file__).resolve().parent.parent
TRACE = REPO / "fixtures" / "flip7" / "bust-basic.json"
CONFORM = ("--python", "tests.mutants.dealer_fixed:Engine", "-r", "flip7", "-g", "1", "--no-fixtures",
           "--no-scoring", "--min-coverage", "0", "--no-progress")


def snapshot(root: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every entry under ``root``: a link as its target, a file as its bytes, a folder as such."""
    found: dict[str, tuple[str, bytes | str]] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            found[name] = ("link", os.readlink(path))
        elif path.is_file():
            found[name] = ("file", path.read_bytes())
        else:
            found[name] = ("folder", "")
    return found


def planted_names(name: str) -> Iterator[str]:
    """The temporary names an output NAME used or might use: the fixed ``NAME.partial`` of old, and names
    of the shape of this run's own (``.NAME.RANDOM.partial``, with a few likely RANDOM parts)."""
    yield f"{name}.partial"
    yield f"{name}.{os.getpid()}.partial"
    for random in ("aaaaaaaa", "tmp", "0"):
        yield f".{name}.{random}.partial"


def plant(folder: Path, outputs: list[str], victim: Path, as_links: bool) -> None:
    """A link to ``victim`` (or a file of the user's) at every temporary name of every output."""
    for output in outputs:
        for name in planted_names(Path(output).name):
            spot = folder / Path(output).parent / name
            spot.parent.mkdir(parents=True, exist_ok=True)
            if as_links:
                spot.symlink_to(victim)
            else:
                spot.write_text(f"the user's own {name}\n", encoding="utf-8")


def flip7_spec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "flip7_spec", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": path})


def _fixture_dir(folder: Path) -> None:
    (folder / "fx" / "src" / "flip7").mkdir(parents=True)
    shutil.copy(REPO / "fixtures" / "src" / "flip7" / "bust-basic.toml", folder / "fx" / "src" / "flip7")


# Each command that writes, with the outputs it writes (paths relative to its folder) and what makes its
# folder ready. The conform run fails (the engine deals from a fixed seat), so it saves failures and writes
# a fingerprint too; its saved failures' names are learnt from a first run.
WRITERS: list[tuple[str, tuple[str, ...], list[str]]] = [
    ("simulate-out", ("simulate", "-g", "3", "--out", "out/games.jsonl"), ["out/games.jsonl"]),
    ("simulate-plot", ("simulate", "-g", "3", "--plot", "out/points.svg"), ["out/points.svg"]),
    ("replay-json", ("replay", "trace.json", "--json", "out/replay.json"), ["out/replay.json"]),
    ("show-html", ("show", "trace.json", "--html", "out/page.html"), ["out/page.html"]),
    ("conform", ("conform", *CONFORM, "--json", "out/r.json", "--junit-xml", "out/r.xml", "--html", "out/r.html",
                 "--fingerprint", "out/fp.json", "--save-failures", "out/failures"),
     ["out/r.json", "out/r.xml", "out/r.html", "out/fp.json"]),
    ("fixtures-regenerate", ("fixtures", "regenerate", "--dir", "fx", "flip7/bust-basic"),
     ["fx/flip7/bust-basic.json"]),
]


def _ready(folder: Path) -> None:
    folder.mkdir()
    (folder / "out").mkdir()
    shutil.copy(TRACE, folder / "trace.json")
    _fixture_dir(folder)


@pytest.mark.parametrize(("args", "outputs"), [pytest.param(a, o, id=i) for i, a, o in WRITERS])
@pytest.mark.parametrize("as_links", [True, pytest.param(False, marks=pytest.mark.slow)], ids=["links", "user-files"])
def test_no_command_writes_through_a_planted_name(tmp_path: Path, args: tuple[str, ...], outputs: list[str],
                                                  as_links: bool) -> None:
    if "--plot" in args:
        pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    # a first run in a clean folder shows every file the command writes (saved failures included)
    clean = tmp_path / "clean"
    _ready(clean)
    before = snapshot(clean)
    first = flip7_spec(*args, cwd=clean)
    assert first.returncode in (0, 1), first.stderr[-2000:]
    written = sorted(set(snapshot(clean)) - set(before))
    written_files = [n for n in written if (clean / n).is_file()]
    assert set(outputs) <= set(written_files), written_files

    run = tmp_path / "run"
    _ready(run)
    victim_folder = tmp_path / "elsewhere"
    victim_folder.mkdir()
    victim = victim_folder / "precious.txt"
    victim.write_text("a file outside the output folder\n", encoding="utf-8")
    plant(run, written_files, victim, as_links)
    before, victim_before = snapshot(run), snapshot(victim_folder)
    done = flip7_spec(*args, cwd=run)
    assert done.returncode == first.returncode, done.stderr[-2000:]
    assert snapshot(victim_folder) == victim_before, "a file outside the output folder changed"
    after = snapshot(run)
    for name, entry in before.items():
        if name not in written_files:
            assert after.get(name) == entry, f"{name} changed"
    assert sorted(set(after) - set(before)) == sorted(set(written_files) - set(before)), "stray files left"
    for name in written_files:
        assert not (run / name).is_symlink() and (run / name).stat().st_size > 0, name


# ---- the library -------------------------------------------------------------------------------------------


def test_a_name_taken_by_a_link_or_a_file_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The temporary file is created exclusively: when its random name is taken (by a link or a user's file),
    another name is drawn, and what was there stays as it was."""
    import tempfile

    victim = tmp_path / "precious.txt"
    victim.write_text("keep\n", encoding="utf-8")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / ".report.json.taken1.partial").symlink_to(victim)
    (folder / ".report.json.taken2.partial").write_text("mine\n", encoding="utf-8")
    (folder / "report.json.partial").symlink_to(victim)
    names = iter(["taken1", "taken2", "free"])
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: names)
    output = Output.reserve(folder / "report.json")
    assert output.temporary == folder / ".report.json.free.partial"
    output.write("new")
    output.commit()
    assert (folder / "report.json").read_text(encoding="utf-8") == "new"
    assert victim.read_text(encoding="utf-8") == "keep\n"
    assert os.readlink(folder / ".report.json.taken1.partial") == str(victim)
    assert (folder / ".report.json.taken2.partial").read_text(encoding="utf-8") == "mine\n"
    assert os.readlink(folder / "report.json.partial") == str(victim)


def test_an_output_that_is_a_link_is_refused_and_what_it_points_to_kept(tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep\n", encoding="utf-8")
    (tmp_path / "report.json").symlink_to(victim)
    with pytest.raises(OutputError, match="symbolic link"):
        write_file(tmp_path / "report.json", "new")
    assert victim.read_text(encoding="utf-8") == "keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.txt", "report.json"]


def test_a_link_put_at_the_output_during_the_run_is_replaced_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep\n", encoding="utf-8")
    target = tmp_path / "report.json"
    output = Output.reserve(target)
    output.write(json.dumps({"new": True}))
    target.symlink_to(victim)  # planted between the check and the rename
    output.commit()
    assert not target.is_symlink() and json.loads(target.read_text(encoding="utf-8")) == {"new": True}
    assert victim.read_text(encoding="utf-8") == "keep\n"


def test_a_written_output_has_the_mode_of_a_file_created_the_usual_way(tmp_path: Path) -> None:
    mask = os.umask(0o027)
    try:
        write_file(tmp_path / "report.json", "{}")
    finally:
        os.umask(mask)
    assert (tmp_path / "report.json").stat().st_mode & 0o777 == 0o640
