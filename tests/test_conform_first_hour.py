"""What a new engine author meets first: the shipped fixtures run by default, the rulesets the engine
declares, skips counted by reason, an empty part warned about, the whole-game smoke, and re-running a saved
failure. Each run is a child process, as in tests/test_conform.py."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

from flip7_spec.conformance.filenames import saved_failure_name
from tests.test_conform import GUARD, REPO, conform, engine, environment, read_json, serve_command


def shipped_trace_count() -> int:
    """The traces conform should run from the shipped fixtures: every .json (one trace) and every line of a
    .jsonl under fixtures/, sources and ruleset files excepted."""
    count = 0
    for path in (REPO / "fixtures").rglob("*"):
        if path.relative_to(REPO / "fixtures").parts[0] in ("src", "rulesets"):
            continue
        if path.suffix == ".json":
            count += 1
        elif path.suffix == ".jsonl":
            count += sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return count


def test_the_shipped_fixtures_run_by_default_and_are_counted(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    ran = conform("--engine", serve_command(), "--games", "0", "--no-scoring", "-q", "--json", str(report_path))
    assert ran.code == 0, ran.output
    expected = shipped_trace_count()
    assert expected > 50  # the folder really holds the corpus (38 flip7, 42 vengeance, regressions)
    assert f"{expected} fixture from flip7-spec's shipped fixtures ({expected} ran)" in ran.stdout, ran.stdout
    ids = {r["case_id"] for r in read_json(report_path)["results"]}
    assert "fixture:flip7/bust-basic" in ids and "fixture:vengeance/brutal-mode" in ids


def test_an_empty_fixtures_folder_is_a_warning(tmp_path: Path) -> None:
    empty = tmp_path / "nothing"
    empty.mkdir()
    ran = conform("--engine", serve_command(), "--games", "1", "-r", "flip7", "--no-scoring", "--fixtures", str(empty))
    assert ran.code == 0, ran.output
    assert "warning: the corpus has no fixture cases" in ran.stderr


def test_rulesets_default_to_those_declared_and_skips_are_counted_by_reason(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    ran = conform("--engine", engine("flip7_only"), "--games", "4", "--min-coverage", "0", "--json", str(report_path))
    assert ran.code == 0, ran.output
    results = read_json(report_path)["results"]
    generated = [r for r in results if r["case_id"].startswith(("round:", "game:"))]
    # Only flip7 was declared: every generated game is a flip7 game, none is skipped.
    assert len(generated) == 4 * 2 * 2  # 4 games, a round and a game case, each with its legal check
    assert all(r["case_id"].split(":")[1].startswith(("flip7/", "flip7+")) and r["outcome"] == "pass"
               for r in generated)
    # The Vengeance fixtures are skipped, counted once by reason, not listed one by one.
    vengeance = [r for r in results if r["case_id"].startswith("fixture:vengeance/")]
    assert vengeance and all(r["outcome"] == "skipped" for r in vengeance)
    assert "SKIP " not in ran.stdout
    line = re.search(r"^\s+(\d+)\s+the engine does not implement the vengeance ruleset$", ran.stdout, re.MULTILINE)
    assert line is not None, ran.stdout
    assert int(line.group(1)) == sum(1 for r in results if r["message"] == "the engine does not implement the "
                                     "vengeance ruleset")
    listed = conform("--engine", engine("flip7_only"), "--games", "0", "--no-scoring", "-v")
    assert "SKIP fixture:vengeance/brutal-mode [game]" in listed.stdout


def test_smoke_plays_a_whole_game_against_the_reference() -> None:
    ran = conform("--smoke", "--engine", serve_command())
    assert ran.code == 0, ran.output
    played = re.search(r"one whole flip7 game to (\d+) played \((\d+) rounds", ran.stdout)
    assert played is not None, ran.stdout
    assert int(played.group(1)) < 200 and int(played.group(2)) >= 2  # a low target, more than one round


def test_smoke_calls_a_wrong_final_dealer_an_adapter_problem() -> None:
    ran = conform("--smoke", "--engine", engine("final_dealer_rotated"))
    assert ran.code == 1, ran.output
    assert "this may be the adapter, not the engine: field `dealer` differs in the final observation" in ran.stdout
    assert "the Dealer of the last round played" in ran.stdout


def test_a_saved_failure_says_how_to_rerun_it_and_reruns(tmp_path: Path) -> None:
    saved = tmp_path / "failures"
    first = conform("--python", "tests.mutants.dealer_fixed:Engine", "--games", "2", "-r", "flip7", "--no-fixtures",
                    "--no-scoring", "--save-failures", str(saved))
    assert first.code == 1, first.output
    paths = sorted(saved.glob("*.json"))
    assert paths
    header = json.loads(paths[0].read_text(encoding="utf-8"))["header"]
    rerun = header["provenance"]["rerun"]
    engine_option = "--python tests.mutants.dealer_fixed:Engine"
    assert rerun == f"flip7-spec conform {engine_option} --trace {shlex.quote(str(paths[0]))}"
    args = shlex.split(rerun)[2:]
    again = conform(*args)
    assert again.code == 1, again.output
    assert f"FAIL trace:{paths[0]}" in again.stdout and "F7-DEALER-ROTATION" in again.stdout
    assert "1 saved trace (1 ran)" in again.stdout and "0 generated" in again.stdout
    fixed = conform("--engine", serve_command(), "--trace", str(paths[0]))
    assert fixed.code == 0, fixed.output


def test_a_failing_fixture_is_saved_too_and_its_rerun_is_not_saved_again(tmp_path: Path) -> None:
    # Outside a checkout the fixtures live in the installed package: a failing one is copied out whole.
    saved = tmp_path / "failures"
    first = conform("--python", "tests.mutants.dealer_fixed:Engine", "--games", "0", "-r", "flip7", "--no-scoring",
                    "--save-failures", str(saved))
    assert first.code == 1, first.output
    paths = sorted(saved.glob("fixture_flip7_*.json"))
    assert paths, first.output
    document = json.loads(paths[0].read_text(encoding="utf-8"))
    assert document["header"]["provenance"]["failure"]["clause"] == "F7-DEALER-ROTATION"
    again_folder = tmp_path / "again"
    again = conform(*shlex.split(document["header"]["provenance"]["rerun"])[2:], "--save-failures", str(again_folder))
    assert again.code == 1 and "F7-DEALER-ROTATION" in again.stdout, again.output
    assert not again_folder.exists() or not any(again_folder.iterdir())


def test_trace_of_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    completed = subprocess.run([sys.executable, "-m", "flip7_spec", "conform", "--engine", serve_command(), "--trace",
                                str(tmp_path / "absent.json")], cwd=REPO, env=environment("x"), capture_output=True,
                               text=True, timeout=GUARD)
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr and "absent.json" in completed.stderr


def test_an_engine_that_cannot_start_shows_its_whole_stderr_and_the_command_as_run(tmp_path: Path) -> None:
    # The reason an engine dies at start-up (a missing file or module) is seldom on its last stderr line.
    script = tmp_path / "dies.py"
    script.write_text("import sys\nprint('Stack: first', file=sys.stderr)\n"
                      "print('Error: Cannot find module ./rules', file=sys.stderr)\n"
                      "print('  at the loader', file=sys.stderr)\nprint('Runtime v1.2.3', file=sys.stderr)\n"
                      "sys.exit(1)\n", encoding="utf-8")
    command = shlex.join([sys.executable, str(script), "--flag"])
    ran = conform("--engine", command, "--games", "1")
    assert ran.code == 2, ran.output
    lines = ran.stderr.splitlines()
    assert lines[0].startswith("flip7-spec: error: engine") and "failed the handshake" in lines[0]
    assert f"  command as run: {command}  (in {REPO})" in lines
    shown = lines[lines.index("  its stderr:") + 1:]
    assert shown == ["    Stack: first", "    Error: Cannot find module ./rules", "      at the loader",
                     "    Runtime v1.2.3"]
    smoke = conform("--smoke", "--engine", command)
    assert smoke.code == 2 and "    Error: Cannot find module ./rules" in smoke.stdout, smoke.output


def test_the_example_engines_are_listed_with_a_command_that_runs_from_anywhere() -> None:
    listed = subprocess.run([sys.executable, "-m", "flip7_spec", "examples"], capture_output=True, text=True,
                            timeout=GUARD, cwd=REPO / "docs")
    assert listed.returncode == 0, listed.stderr
    js = listed.stdout.split("\njs: ", 1)[1].split("\nflop7: ", 1)[0]
    assert "flip7-spec conform --example js" in js
    (command,) = [line.split("--engine ", 1)[1] for line in js.splitlines() if "--engine " in line]
    program, path = shlex.split(shlex.split(command)[0])
    # the shipped engine, wherever the install keeps it (the checkout's examples/ in an editable install)
    assert program == "node" and Path(path).is_absolute()
    assert Path(path).read_bytes() == (REPO / "examples" / "js-engine" / "engine.js").read_bytes()
    unknown = subprocess.run([sys.executable, "-m", "flip7_spec", "conform", "--example", "rust"],
                             capture_output=True, text=True, timeout=GUARD)
    assert unknown.returncode == 2 and "no example engine 'rust'; the examples are js, flop7" in unknown.stderr


def test_saved_failures_have_names_a_shell_takes_as_they_are(tmp_path: Path) -> None:
    saved = tmp_path / "failures"
    ran = conform("--python", "tests.mutants.dealer_fixed:Engine", "--games", "6", "-r", "flip7", "--no-fixtures",
                  "--no-scoring", "--min-coverage", "0", "--save-failures", str(saved))
    assert ran.code == 1, ran.output
    paths = sorted(saved.glob("*.json"))
    ids = []
    for path in paths:
        assert re.fullmatch(r"[A-Za-z0-9._+-]+", path.name), path.name
        provenance = json.loads(path.read_text(encoding="utf-8"))["header"]["provenance"]
        case_id = provenance["failure"]["case_id"]  # the id is kept inside the file
        assert path.name == saved_failure_name(case_id, provenance["failure"]["level"])
        assert provenance["rerun"].endswith(f" --trace {path}")  # no quoting needed
        ids.append(case_id)
    # the generated games that play a declared reading have ids with quotes: their names still differ
    assert any('"' in i for i in ids) and len(set(ids)) == len(paths) > 2


def test_only_runs_the_chosen_cases_and_a_chosen_run_lists_no_unreached_clause(tmp_path: Path) -> None:
    ties = sorted(p.stem for p in (REPO / "fixtures" / "flip7").glob("tie-*.json"))
    ran = conform("--engine", serve_command(), "--only", "fixture:flip7/tie-*")
    assert ran.code == 0, ran.output
    assert f"corpus: 0 scoring (0 ran), {len(ties)} fixture from flip7-spec's shipped fixtures ({len(ties)} ran), " \
           "0 generated (0 ran)" in ran.stdout
    assert "unreached:" not in ran.stdout and "not listed; -v lists them" in ran.stdout
    assert "warning" not in ran.stderr
    listed = conform("--engine", serve_command(), "--only", "fixture:flip7/tie-*", "-v")
    assert "unreached:" in listed.stdout
    trace = REPO / "fixtures" / "flip7" / f"{ties[0]}.json"
    again = conform("--engine", serve_command(), "--trace", str(trace))
    assert again.code == 0 and "unreached:" not in again.stdout, again.output
    nothing = conform("--engine", serve_command(), "--only", "fixture:no-such-*")
    assert nothing.code == 3 and "unchecked: no case matched --only fixture:no-such-*" in nothing.stderr
