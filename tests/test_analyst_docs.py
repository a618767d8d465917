"""docs/simulation.md for strategy analysts: each documented `flip7-spec simulate` command runs from an empty
folder (with the doc's own my_bot.py beside it), nothing of the checkout needed; --solitaire is the published
tables' deck; --sweep takes a parameterised policy without a value, and a user's policy with a parameter.

The default run plays each command with fewer rounds or games; tests/test_setup.py runs them as written in a
fresh installation."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from flip7_spec import preset
from flip7_spec.analysis import solitaire_ruleset
from flip7_spec.rulesets import load_ruleset
from tests.test_conform import GUARD, REPO, console_script

DOC = REPO / "docs" / "simulation.md"


def documented_commands() -> list[str]:
    """Every `flip7-spec simulate` command of the doc's sh blocks, continuation lines joined."""
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL):
        for command in block.replace("\\\n", " ").splitlines():
            if command.startswith("flip7-spec simulate"):
                commands.append(" ".join(command.split()))
    return commands


def my_bot() -> str:
    """The doc's my_bot.py, as a reader would save it."""
    (source,) = [b for b in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
                 if b.startswith("# my_bot.py")]
    return source


def scaled(command: str) -> str:
    """``command`` with fewer rounds or games, for the default run."""
    return re.sub(r"--games \d+", "--games 20", re.sub(r"--rounds \d+", "--rounds 300", command))


def run_documented(command: str, folder: Path, program: list[str]) -> subprocess.CompletedProcess[str]:
    """``command`` as a shell would run it from ``folder`` (which holds my_bot.py), with ``program`` as
    flip7-spec and nothing of this checkout on the import path."""
    (folder / "my_bot.py").write_text(my_bot(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    args = shlex.split(command)
    assert args[0] == "flip7-spec"
    return subprocess.run([*program, *args[1:], "-q"], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=GUARD * 10)


def test_the_doc_documents_the_analyst_commands() -> None:
    commands = documented_commands()
    assert len(commands) >= 4
    assert any("--solitaire" in c and "--sweep" in c and "--policy threshold-numbers " in c for c in commands)
    assert any("my_bot.py:stay_on --sweep" in c for c in commands)
    assert not any("--fresh-deck" in c or "examples/" in c or "threshold-numbers:0" in c for c in commands)


@pytest.mark.parametrize("command", documented_commands())
def test_each_documented_command_runs_from_an_empty_folder(command: str, tmp_path: Path) -> None:
    done = run_documented(scaled(command), tmp_path, console_script(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ruleset ") and "Traceback" not in done.stderr
    plot = re.search(r"--plot (\S+)", command)
    if plot is not None:
        assert (tmp_path / plot.group(1)).stat().st_size > 1000


def test_solitaire_plays_the_published_tables_deck() -> None:
    # the published analyses: one player, every Action and the x2 as blanks (docs/simulation.md); the shipped
    # ruleset file writes the same deck out by hand
    built = solitaire_ruleset(preset("flip7"))
    written = load_ruleset(str(REPO / "examples" / "rulesets" / "solitaire-blanks.toml"))
    assert sorted(built.deck) == sorted(written.deck) and built.min_players == 1
    assert len(built.deck_cards(1)) == 94 and sum(c.text == "x1" for c in built.deck_cards(1)) == 10
    assert not any(c.text in ("FREEZE", "FLIP3", "CHANCE", "x2") for c in built.deck_cards(1))


def simulate(*args: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "flip7_spec", "simulate", *args], capture_output=True, text=True,
                          timeout=GUARD, cwd=REPO)
    return done.returncode, done.stdout, done.stderr


def test_a_sweep_needs_no_dummy_value_and_takes_a_user_policy_with_a_parameter(tmp_path: Path) -> None:
    # stay_on(view, n) stays on the Numbers reaching n (or five Numbers); on the same decks, swept over the
    # same values, it must give exactly the figures of the built-in that does the same thing
    (tmp_path / "bots.py").write_text(
        "def numbers_reach(view, points):\n"
        "    if view.kind == 'hit_or_stay':\n"
        "        return 'stay' if view.number_sum >= points else 'hit'\n"
        "    return None\n", encoding="utf-8")
    common = ("--solitaire", "--rounds", "300", "--sweep", "12:24:6", "--json")
    code, out, err = simulate(*common, "--policy", "threshold-numbers")
    assert code == 0, err
    built_in = json.loads(out)["sweep"]
    assert [row["policy"] for row in built_in] == ["threshold-numbers:12", "threshold-numbers:18",
                                                   "threshold-numbers:24"]
    code, out, err = simulate(*common, "--policy", f"{tmp_path / 'bots.py'}:numbers_reach")
    assert code == 0, err
    mine = json.loads(out)["sweep"]
    for ours, theirs in zip(mine, built_in, strict=True):
        assert ours["value"] == theirs["value"]
        assert ours["points_per_round"] == theirs["points_per_round"] and ours["bust_rate"] == theirs["bust_rate"]
    # a value given with the spec is the one a sweep replaces (older commands wrote threshold-numbers:0)
    code, out, _ = simulate(*common, "--policy", "threshold-numbers:0")
    assert code == 0 and json.loads(out)["sweep"] == built_in
    # without --sweep the parameter is given in the spec
    code, _, err = simulate("--solitaire", "--rounds", "10", "--policy", f"{tmp_path / 'bots.py'}:numbers_reach")
    assert code == 2 and "give its parameter as" in err
    code, out, err = simulate("--solitaire", "--rounds", "50", "--json", "--policy",
                              f"{tmp_path / 'bots.py'}:numbers_reach:18")
    assert code == 0 and json.loads(out)["policies"] == [f"{tmp_path / 'bots.py'}:numbers_reach:18"], err


def test_fresh_deck_is_accepted_and_changes_nothing() -> None:
    args = ("--solitaire", "--rounds", "200", "--policy", "cards:3", "--json")
    with_flag, without = simulate(*args, "--fresh-deck"), simulate(*args)
    assert with_flag[0] == without[0] == 0
    first, second = json.loads(with_flag[1]), json.loads(without[1])
    first.pop("seconds"), second.pop("seconds"), first.pop("rounds_per_second"), second.pop("rounds_per_second")
    assert first == second
    assert "--fresh-deck" not in simulate("--help")[1]


def test_solitaire_is_for_one_player() -> None:
    code, _, err = simulate("--solitaire", "-p", "3", "--rounds", "5")
    assert code == 2 and "--solitaire plays one player" in err
