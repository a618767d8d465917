"""The catalogues of known misreadings: well-formed, playable, composable, listed, and shown beside the
reference when a saved failure is read back."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from flip7_spec.cards import Card, cards
from flip7_spec.clauses import CLAUSES
from flip7_spec.cli import cli
from flip7_spec.misreadings import catalogue
from flip7_spec.play import make_game, new_game
from flip7_spec.registry import game_names
from flip7_spec.rulesets import preset

GAMES = {"flip7": "flip7", "vengeance": "vengeance"}
ENTRIES = [(game, name) for game in GAMES for name in catalogue(game)]


def shuffler(rng: random.Random) -> Callable[[list[Card]], list[Card]]:
    """A reshuffler drawing from ``rng`` (a sorted order would deal the same deck every round)."""
    return lambda pile: rng.sample(pile, len(pile))


def test_each_game_has_a_catalogue() -> None:
    for game in GAMES:
        assert game in game_names()
        assert len(catalogue(game)) >= 10, game


@pytest.mark.parametrize(("game", "name"), ENTRIES, ids=[f"{g}:{n}" for g, n in ENTRIES])
def test_a_misreading_names_a_clause_of_its_game_and_plays_whole_games(game: str, name: str) -> None:
    misreading = catalogue(game)[name]
    assert misreading.clause in CLAUSES and misreading.description and misreading.family
    assert CLAUSES[misreading.clause].id.startswith("F7-" if game == "flip7" else "V-")
    ruleset = replace(preset(GAMES[game]), deviations=(name,))
    for seed in range(2):
        deck = [c.text for c in ruleset.deck_cards(4)]
        random.Random(seed).shuffle(deck)
        rng = random.Random(seed)
        game_, _ = new_game(ruleset, 4, deck, reshuffler=shuffler(rng), record=False)
        for _ in range(5_000):
            if game_.pending is None:
                break
            game_.apply(rng.choice(game_.legal()))
        assert game_.over, f"{name}: the game did not end"
        assert type(game_).__name__.endswith(name)


def test_scoring_misreadings_compose() -> None:
    # 0..6 (sum 21, seven different Numbers), x2, +4: officially 21 x 2 + 4 + 15 = 61 (F7-SCORE, F7-MOD-X2,
    # F7-FLIP7-BONUS); with x2 doubling the +4 too: (21 + 4) x 2 + 15 = 65; and with no bonus: 50.
    hand = cards(["0", "1", "2", "3", "4", "5", "6", "x2", "+4"])

    def scored(*names: str) -> int:
        ruleset = replace(preset("flip7"), deviations=names)
        return make_game(ruleset, 3, ruleset.deck_cards(3), 0, record=False).score_hand(hand)

    assert scored() == 61
    assert scored("x2_doubles_adds") == 65
    assert scored("x2_doubles_adds", "no_flip7_bonus") == 50
    assert scored("no_flip7_bonus", "x2_doubles_adds") == 50


def test_rules_lists_the_misreadings() -> None:
    shown = CliRunner().invoke(cli, ["rules", "--misreadings"])
    assert shown.exit_code == 0
    for name, misreading in catalogue("flip7").items():
        assert f"{name} ({misreading.family}, {misreading.clause}): {misreading.description}" in shown.output
    listed = json.loads(CliRunner().invoke(cli, ["rules", "--ruleset", "vengeance", "--json"]).output)
    assert [m["name"] for m in listed["misreadings"]] == list(catalogue("vengeance"))


def test_show_diff_puts_the_engine_beside_the_reference(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    ran = CliRunner().invoke(cli, ["conform", "--python", "tests.mutants.dealer_fixed:Engine", "--games", "2",
                                   "--no-fixtures", "--no-scoring", "--save-failures", str(saved), "--no-progress"])
    assert ran.exit_code == 1, ran.output
    path = sorted(saved.glob("*.json"))[0]
    failure = json.loads(path.read_text())["header"]["provenance"]["failure"]
    shown = CliRunner().invoke(cli, ["show", "--diff", str(path)])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    dealer = next(line for line in lines if line.lstrip("<> ").startswith("dealer "))
    # the Dealer differs (the mutant keeps it): marked, with both values
    assert dealer.startswith("<>")
    assert dealer.split()[1:] == [str(failure["expected_observation"]["dealer"]),
                                  str(failure["found_observation"]["dealer"])]
    assert any(line.startswith("  over ") for line in lines)  # an equal field is not marked
    assert "misreading dealer_fixed" in shown.output


def test_show_diff_of_a_trace_with_no_failure_is_one_line(tmp_path: Path) -> None:
    trace = tmp_path / "plain.json"
    recorded = CliRunner().invoke(cli, ["simulate", "--games", "1", "--out", str(trace)])
    assert recorded.exit_code == 0, recorded.output
    shown = subprocess.run([sys.executable, "-m", "flip7_spec", "show", "--diff", str(trace)],
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 2
    assert shown.stderr.count("\n") == 1 and "records no failure" in shown.stderr
