"""``flip7-spec simulate`` for strategy analysts: user policies from outside the package, built-in policy
specs, one-round experiments on fresh decks with per-round statistics, JSON and CSV, sweeps, plots, and
one-line errors (exit 2) for every bad spec."""

from __future__ import annotations

import csv
import io
import json
import random
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from flip7_spec import new_game, preset
from flip7_spec.cli import cli
from flip7_spec.cli.common import run_main
from flip7_spec.simulation.policy_specs import make_policy
from flip7_spec.simulation.policy_view import player_view

ONE_PLAYER = ["-p", "1", "--option", "min_players=1"]
USER_POLICY = '''
def careful(view):
    """Stay at 15 points of Numbers; leave every other decision to the default (None)."""
    if view.kind == "hit_or_stay":
        assert view.me.seat == view.seat and view.totals[view.seat] == view.total
        return "stay" if view.number_sum >= 15 else "hit"
    return None


def always_hit(view):
    return "hit" if "hit" in view.options else view.options[0]


def cheat(view):
    return "win the game"


def crash(view):
    raise RuntimeError("the model file is missing")
'''


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``flip7-spec simulate ARGS`` as a user runs it: a new process, in ``cwd``."""
    return subprocess.run([sys.executable, "-m", "flip7_spec", "simulate", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


@pytest.fixture
def simulate(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
             ) -> Callable[..., tuple[int, str, str]]:
    """``flip7-spec simulate ARGS`` in this process (exit code, stdout, stderr): the same code path as the
    console script, without an interpreter start per call."""

    def invoke(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["flip7-spec", "simulate", *args])
        code = run_main(cli)
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture
def user_folder(tmp_path: Path) -> Path:
    """A folder outside the package holding a user's policy module."""
    (tmp_path / "my_policies.py").write_text(textwrap.dedent(USER_POLICY))
    return tmp_path


def test_a_user_policy_file_from_another_folder_plays(user_folder: Path, tmp_path: Path) -> None:
    # Stay-at-15 on Numbers against always-hit: the careful player must bust far less (always hitting
    # busts on every round that does not end on a Flip 7).
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    policy_file = user_folder / "my_policies.py"
    done = run(*ONE_PLAYER, "-p", "2", "--option", "min_players=2", "--rounds", "400", "--fresh-deck", "--json",
               "--policy", f"{policy_file}:careful", "--policy", f"{policy_file}:always_hit", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    careful, hitter = summary["by_seat"]
    assert summary["rounds"] == 400 and summary["mode"] == "rounds"
    assert careful["bust_rate"]["rate"] < hitter["bust_rate"]["rate"]
    assert hitter["bust_rate"]["rate"] + hitter["flip7_rate"]["rate"] > 0.8


def test_a_user_policy_module_is_found_from_the_current_folder(user_folder: Path) -> None:
    done = run(*ONE_PLAYER, "--rounds", "50", "--fresh-deck", "--json", "--policy", "my_policies:careful",
               cwd=user_folder)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["policies"] == ["my_policies:careful"]
    # stay at 15 on Numbers: no round ends with fewer than 15 points unless it busts (Freeze aside)
    assert summary["points_distribution"].get("0", 0) + sum(
        count for points, count in summary["points_distribution"].items() if int(points) >= 15) >= 45


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("thresold:20", "unknown policy 'thresold:20'"),
        ("threshold:many", "the parameter must be a whole number"),
        ("cards", "give cards:N"),
        ("random:3", "random takes no parameter"),
        ("no_such_module_here:decide", "cannot import no_such_module_here"),
        ("my_policies:nothing", "has no attribute 'nothing'"),
        ("missing.py:careful", "no such file missing.py"),
        ("my_policies.py:careful:extra", "expected MODULE:CALLABLE"),
        ("my_policies.py:cheat", "chose 'win the game' at a hit_or_stay decision"),
        ("my_policies.py:crash", "raised RuntimeError at a hit_or_stay decision of player 0"),
    ],
)
def test_a_bad_policy_spec_is_one_line_and_exit_2(simulate: Callable[..., tuple[int, str, str]], user_folder: Path,
                                                 monkeypatch: pytest.MonkeyPatch, spec: str, message: str) -> None:
    monkeypatch.chdir(user_folder)
    code, _, err = simulate(*ONE_PLAYER, "--rounds", "5", "--fresh-deck", "--policy", spec)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "1", "--rounds", "5", "--fresh-deck"], "add --option min_players=1"),
        (["-p", "2", "--rounds", "5", "--fresh-deck"], "use --ruleset flip7-challenge, which allows 2 players"),
        (["-p", "2", "-r", "vengeance", "--games", "3"], "add --option min_players=2"),
        (["--fresh-deck"], "--fresh-deck applies to one-round experiments"),
        (["--games", "3", "--rounds", "3"], "choose one"),
        (["--option", "min_players"], "expected KEY=VALUE"),
        (["--option", "min_plyers=1"], "options.min_plyers: unknown option"),
        (["--policy", "random", "--threshold", "20"], "--policy replaces --strategy"),
        (["-p", "3", "--policy", "random", "--policy", "random"], "2 policies for 3 players"),
        (["--rounds", "3", "--fresh-deck", "--sweep", "9:3", "--policy", "cards:3"], "FROM <= TO"),
        (["--rounds", "3", "--sweep", "3:9", "--policy", "random"], "one --policy that takes a parameter"),
        (["--json", "--csv"], "choose one"),
    ],
)
def test_usage_mistakes_are_one_line_and_exit_2(simulate: Callable[..., tuple[int, str, str]], args: list[str],
                                               message: str) -> None:
    code, _, err = simulate(*args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_one_round_experiments_report_every_figure_with_its_interval(
        simulate: Callable[..., tuple[int, str, str]]) -> None:
    code, out, err = simulate(*ONE_PLAYER, "--rounds", "300", "--fresh-deck", "--policy", "cards:3", "--json",
                              "--seed", "7")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["rounds"] == summary["player_rounds"] == 300
    for name, key in (("points_per_round", "mean"), ("bust_rate", "rate"), ("flip7_rate", "rate"),
                      ("cards_per_round", "mean")):
        low, high = summary[name]["ci95"]
        assert low <= summary[name][key] <= high
    assert sum(summary["points_distribution"].values()) == 300 == sum(summary["cards_distribution"].values())
    # cards:3 stays at three cards unless a bust, a Freeze or a Flip Three ends the round otherwise
    assert summary["cards_distribution"]["3"] > 150
    # no stderr output: the progress bar stays quiet when stderr is not a terminal
    assert err == ""


def test_the_csv_has_a_row_for_all_seats_and_one_per_seat(simulate: Callable[..., tuple[int, str, str]]) -> None:
    code, out, err = simulate("-p", "3", "--rounds", "60", "--fresh-deck", "--csv", "--policy", "threshold:15",
                              "--policy", "threshold:20", "--policy", "threshold-numbers:25")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["scope"] for r in rows] == ["all", "seat 0", "seat 1", "seat 2"]
    assert [r["policy"] for r in rows[1:]] == ["threshold:15", "threshold:20", "threshold-numbers:25"]
    for row in rows:
        assert float(row["bust_ci_low"]) <= float(row["bust_rate"]) <= float(row["bust_ci_high"])


def test_results_are_the_same_for_any_worker_count(simulate: Callable[..., tuple[int, str, str]]) -> None:
    args = [*ONE_PLAYER, "--rounds", "300", "--fresh-deck", "--csv", "--policy", "threshold-numbers:20"]
    one, two = simulate(*args), simulate(*args, "--workers", "2")
    assert one[0] == two[0] == 0 and one[1] == two[1]


def test_a_sweep_plays_each_value_on_the_same_decks(simulate: Callable[..., tuple[int, str, str]]) -> None:
    code, out, err = simulate(*ONE_PLAYER, "--rounds", "200", "--fresh-deck", "--policy", "threshold-numbers:0",
                              "--sweep", "10:30:10", "--json")
    assert code == 0, err
    rows = json.loads(out)["sweep"]
    assert [r["value"] for r in rows] == [10, 20, 30]
    busts = [r["bust_rate"]["rate"] for r in rows]
    cards = [r["cards_per_round"]["mean"] for r in rows]
    # on the same decks, staying later can only draw more cards and bust at least as often
    assert busts == sorted(busts) and cards == sorted(cards)


def test_plot_writes_a_png(simulate: Callable[..., tuple[int, str, str]], tmp_path: Path) -> None:
    out = tmp_path / "points.png"
    code, _, err = simulate(*ONE_PLAYER, "--rounds", "100", "--fresh-deck", "--plot", str(out), "--json")
    assert code == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_one_line(simulate: Callable[..., tuple[int, str, str]],
                                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what an install without the plot extra sees
    code, out, err = simulate("--games", "1", "--plot", str(tmp_path / "x.png"))
    assert code == 2 and out == ""
    assert err.strip() == "flip7-spec: error: --plot needs matplotlib, which is not installed: " \
                          "pip install 'flip7-spec[plot]'"
    assert not (tmp_path / "x.png").exists()


def test_the_policy_view_shows_what_the_observation_shows() -> None:
    # The view is documented as the public state; the canonical observation is the spec of that state.
    game, _ = new_game(preset("flip7"), 3, preset("flip7").deck_cards(3), dealer=0)
    rng = random.Random(3)
    policy = make_policy("random")
    while not game.over and game.round < 3:
        decision = game.pending
        assert decision is not None
        view = player_view(game, decision, rng)
        observed = game.observation()
        assert view.options == tuple(observed["pending"]["options"]) and view.kind == observed["pending"]["kind"]
        assert (view.round, view.dealer, view.draw_pile, view.discard_pile) == (
            observed["round"], observed["dealer"], observed["draw_pile"], observed["discard_pile"])
        for seat, shown in zip(view.seats, observed["players"], strict=True):
            assert (list(seat.cards), seat.status, seat.round_score, seat.total) == (
                shown["cards"], shown["status"], shown["round_score"], shown["total"])
            assert seat.number_sum == sum(int(c) for c in shown["cards"] if c.isdigit())
        game.apply(policy(game, decision, rng))


def test_a_module_of_the_current_folder_never_shadows_an_installed_one(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from flip7_spec.errors import ModuleClash
    from flip7_spec.user_modules import import_user_module

    (tmp_path / "click.py").write_text("raise ImportError('the user module was loaded')\n", encoding="utf-8")
    (tmp_path / "clash_free_bot.py").write_text("def decide(view):\n    return None\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "click", raising=False)
    with pytest.raises(ModuleClash, match=r"click\.py in the current folder has the name of the installed module"):
        import_user_module("click")
    assert import_user_module("clash_free_bot").decide(None) is None
    assert sys.path[-1] == str(tmp_path.resolve())  # searched last: installed modules come first
    sys.modules.pop("clash_free_bot", None)
