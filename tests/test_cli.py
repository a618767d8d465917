"""The command line: help, exit codes, one-line errors, and what each command prints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from flip7_spec.cli import cli
from flip7_spec.cli.common import run_main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flip7_spec", *args], capture_output=True, text=True, timeout=120)


COMMANDS = cli.list_commands(click.Context(cli))
"""The subcommands as the group finds them (it imports each one lazily, so ``cli.commands`` is empty)."""


def test_the_commands_are_found() -> None:
    """The parameters of the help test: at least every command the README documents."""
    assert {"conform", "fixtures", "prove", "replay", "rules", "score", "serve", "show", "simulate"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help(name: str) -> None:
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert f"Usage: cli {name} [OPTIONS]" in result.output and len(result.output.splitlines()) > 4
    listed = CliRunner().invoke(cli, ["--help"]).output
    assert f"\n  {name} " in listed, "the group's help lists it"


def test_score_prints_the_score_on_the_last_line() -> None:
    done = run("score", "3", "11", "5", "7", "10", "x2")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "72"
    explained = run("score", "--explain", "3", "11", "5", "7", "10", "+10")
    assert explained.stdout.splitlines()[-1] == "46" and "numbers: 36" in explained.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "3", "3"], "Number 3 appears twice"),
        (["score", "Q"], "unknown card 'Q'"),
        (["score", "--ruleset", "nope", "3"], "unknown ruleset 'nope'"),
        (["simulate", "--players", "2"], "at least 3 players"),
        (["replay", "/nonexistent/trace.json"], "no such file"),
        (["simulate", "--games", "2", "--out", "x.txt"], "must end in .json"),
    ],
)
def test_user_mistakes_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_ruleset_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "flip7"\n[options]\ntarget_score = "lots"\n')
    done = run("rules", "--ruleset", str(bad))
    assert done.returncode == 2
    assert "options.target_score: expected a whole number" in done.stderr
    assert "Traceback" not in done.stderr


def test_rules_lists_at_least_40_clauses_each_with_a_source() -> None:
    done = run("rules", "--ruleset", "flip7", "--json")
    assert done.returncode == 0
    clauses = json.loads(done.stdout)["clauses"]
    assert len(clauses) >= 40
    assert all(c["source"] and c["statement"] and c["confidence"] in "HML" for c in clauses)


def test_simulate_prints_a_summary_and_writes_traces(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = run("simulate", "--players", "4", "--games", "20", "--seed", "9", "--json", "--out", str(out))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 20 and len(summary["win_rate_by_seat"]) == 4
    assert 0 < summary["bust_rate"] < 1 and summary["rounds"] >= 20
    assert len(out.read_text().splitlines()) == 20
    replayed = run("replay", str(out))
    assert replayed.returncode == 0 and "20 conform" in replayed.stdout


def test_simulate_is_the_same_for_any_worker_count(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run("simulate", "--games", "450", "--seed", "4", "--out", str(one), "--no-observations")
    run("simulate", "--games", "450", "--seed", "4", "--out", str(two), "--no-observations", "--workers", "2")
    assert one.read_bytes() == two.read_bytes()


def test_run_main_turns_ctrl_c_into_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "main", interrupted)
    assert run_main(cli) == 130
