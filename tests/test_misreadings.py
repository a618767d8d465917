"""The catalogues of known misreadings: well-formed, playable, composable, listed, and shown beside the
reference when a saved failure is read back."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from flip7_spec.cards import Card, cards
from flip7_spec.clauses import CLAUSES
from flip7_spec.cli import cli
from flip7_spec.events import Choice
from flip7_spec.misreadings import catalogue
from flip7_spec.play import make_game, new_game
from flip7_spec.registry import game_names
from flip7_spec.rulesets import preset, ruleset_from_json

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


# ---- what a misreading does, on a hand-built deck, beside the reference -----------------------------------


def played(game: str, deviations: tuple[str, ...], deck: list[str], choices: list[Choice],
           base: Mapping[str, object] | None = None, reshuffle: list[str] | None = None) -> dict[str, object]:
    """The observation after ``choices`` in a three-player game with Dealer 2 (seats 0, 1, 2 are dealt in that
    order) from ``deck`` (top first), under ``game``'s preset or the ruleset ``base``, playing ``deviations``;
    ``reshuffle`` is the order of the one reshuffle the game may need."""
    ruleset = ruleset_from_json(base) if base is not None else preset(game)
    ruleset = replace(ruleset, deviations=deviations)
    state, _ = new_game(ruleset, 3, deck, dealer=2, check_deck=False,
                        reshuffles=[cards(reshuffle)] if reshuffle is not None else ())
    for choice in choices:
        state.apply(choice)
    return state.observation()


def rows(observation: dict[str, object]) -> list[tuple[str, list[str]]]:
    players = observation["players"]
    assert isinstance(players, list)
    return [(p["status"], p["cards"]) for p in players]


@pytest.mark.clause("F7-CHANCE-GIVE")
def test_chance_given_to_anyone() -> None:
    # Seat 0 holds a Second Chance and draws another; seat 1 has stayed, seat 2 holds none: the rules give it
    # to seat 2, the only active player without one, at once (F7-CHANCE-GIVE); the misreading lets seat 0
    # choose seat 1 as well.
    deck = ["CHANCE", "5", "7", "3", "4", "CHANCE", "12", "1", "2"]
    choices: list[Choice] = ["hit", "stay", "hit", "hit"]
    assert rows(played("flip7", (), deck, choices))[2] == ("active", ["7", "4", "CHANCE"])
    assert played("flip7", ("chance_given_to_anyone",), deck, choices)["pending"] == \
        {"player": 0, "kind": "give", "card": "CHANCE", "options": [1, 2]}
    # Given to a player who holds one already, it saves them a second time.
    deck = ["CHANCE", "CHANCE", "7", "CHANCE", "5", "6", "1", "5", "8", "2", "5", "9"]
    after = played("flip7", ("chance_given_to_anyone",), deck, ["hit", 1, "hit", "hit", "hit", "hit", "hit",
                                                                  "hit", "hit"])
    assert rows(after)[1] == ("active", ["5"])
    assert after["discard_pile"] == 4


@pytest.mark.clause("F7-DEAL-FREEZE-EMPTY")
def test_deal_to_frozen_player() -> None:
    # Seat 0 is dealt a Freeze and freezes seat 2, who has not been dealt yet: seat 2 is out and skipped
    # (F7-DEAL-FREEZE-EMPTY); the misreading deals them the 7.
    deck = ["FREEZE", "5", "7", "3", "9", "10"]
    assert rows(played("flip7", (), deck, [2]))[2] == ("frozen", ["FREEZE"])
    assert rows(played("flip7", ("deal_to_frozen_player",), deck, [2]))[2] == ("frozen", ["FREEZE", "7"])


@pytest.mark.clause("V-DEAL-ALWAYS")
def test_deal_to_stayed_player() -> None:
    # Seat 0 is dealt a Just One More for seat 2, who takes the 5 and must Stay: the deal then skips seat 2
    # (V-DEAL-ALWAYS); the misreading deals them the 7.
    deck = ["ONEMORE", "5", "6", "7", "8", "9", "10"]
    assert rows(played("vengeance", (), deck, [2]))[2] == ("stayed", ["5"])
    assert rows(played("vengeance", ("deal_to_stayed_player",), deck, [2]))[2] == ("stayed", ["5", "7"])


@pytest.mark.clause("F7-CHANCE-ENDS-TURN")
def test_saved_by_chance_stays() -> None:
    # Seat 0's Second Chance saves them from the second 3: both cards go, and seat 0 plays on
    # (F7-CHANCE-ENDS-TURN); under the misreading seat 0 has stayed.
    deck = ["CHANCE", "5", "7", "3", "10", "11", "3", "12"]
    choices: list[Choice] = ["hit", "hit", "hit", "hit"]
    assert rows(played("flip7", (), deck, choices))[0] == ("active", ["3"])
    assert rows(played("flip7", ("saved_by_chance_stays",), deck, choices))[0] == ("stayed", ["3"])


@pytest.mark.clause("F7-FLIP3-DISCARDED", "F7-FREEZE-KEEPS-CARDS", "V-ACTION-AT-ONCE")
def test_actions_discarded_when_revealed() -> None:
    # A Freeze waiting for its target is in play, and stays with the player it freezes
    # (F7-FREEZE-KEEPS-CARDS); under the misreading it is in the discard pile from the start.
    deck = ["FREEZE", "5", "7", "3", "9"]
    start = played("flip7", ("actions_discarded_when_revealed",), deck, [])
    assert (start["in_play"], start["discard_pile"]) == ([], 1)
    assert (played("flip7", (), deck, [])["in_play"]) == ["FREEZE"]
    assert rows(played("flip7", (), deck, [1]))[1] == ("frozen", ["FREEZE"])
    assert rows(played("flip7", ("actions_discarded_when_revealed",), deck, [1]))[1] == ("frozen", [])
    # A Vengeance Steal waiting for its card is in play until used (V-ACTION-AT-ONCE).
    deck = ["5", "6", "7", "STEAL", "8"]
    assert played("vengeance", (), deck, ["hit"])["in_play"] == ["STEAL"]
    steal = played("vengeance", ("actions_discarded_when_revealed",), deck, ["hit"])
    assert (steal["in_play"], steal["discard_pile"]) == ([], 1)


@pytest.mark.clause("F7-FLIP3-ASSIGN", "F7-FLIP3-ASSIGN-INACTIVE")
def test_setaside_dropped_when_target_out() -> None:
    # Seat 0 takes its own Flip Three and sets aside a Freeze and a Flip Three; it assigns the Freeze to
    # itself and the Flip Three to seat 1. Seat 0 is frozen, and seat 1 still takes three cards
    # (F7-FLIP3-ASSIGN, F7-FLIP3-ASSIGN-INACTIVE); under the misreading the Flip Three is discarded.
    deck = ["5", "6", "7", "FLIP3", "FREEZE", "8", "FLIP3", "1", "2", "3", "4"]
    choices: list[Choice] = ["hit", 0, 0, 1]
    assert rows(played("flip7", (), deck, choices))[:2] == [("frozen", ["5", "8", "FREEZE"]),
                                                            ("active", ["6", "1", "2", "3"])]
    assert rows(played("flip7", ("setaside_dropped_when_target_out",), deck, choices))[:2] == \
        [("frozen", ["5", "8", "FREEZE"]), ("active", ["6"])]


@pytest.mark.clause("V-STAYED-TARGET")
def test_held_dropped_when_target_out() -> None:
    # Seat 0 has stayed; seat 1 plays a Flip Four on them, which holds back a -2. A stayed target still
    # resolves it (V-STAYED-TARGET); under the misreading it is discarded.
    deck = ["5", "6", "7", "FLIP4", "8", "-2", "9", "10", "11"]
    assert played("vengeance", (), deck, ["stay", "hit", 0])["pending"] == \
        {"player": 0, "kind": "target", "card": "-2", "options": [0, 1, 2]}
    dropped = played("vengeance", ("held_dropped_when_target_out",), deck, ["stay", "hit", 0])
    assert dropped["in_play"] == [] and dropped["discard_pile"] == 2  # the Flip Four and the -2


@pytest.mark.clause("V-STEAL")
def test_steal_from_own_row() -> None:
    # Seats 1 and 2 have stayed; seat 0 reveals a Steal: only the other rows' cards may be taken (V-STEAL).
    # Under the misreading seat 0 may take its own 5, which moves to the end of its row.
    deck = ["5", "6", "7", "8", "STEAL", "9"]
    choices: list[Choice] = ["hit", "stay", "stay", "hit"]
    options = played("vengeance", (), deck, choices)["pending"]
    assert isinstance(options, dict) and options["options"] == [{"player": 1, "index": 0},
                                                                  {"player": 2, "index": 0}]
    after = played("vengeance", ("steal_from_own_row",), deck, [*choices, {"player": 0, "index": 0}])
    assert rows(after)[0] == ("active", ["8", "5"])


@pytest.mark.clause("F7-EMPTY-DECK", "V-EMPTY-DECK")
@pytest.mark.parametrize("game", ["flip7", "vengeance"])
def test_game_ends_on_empty_piles(game: str) -> None:
    # Five cards, three players, everyone hits: the third Hit finds both piles empty. The round ends and is
    # scored, and the next round is dealt from the reshuffled discards (F7-EMPTY-DECK, V-EMPTY-DECK); under
    # the misreading the game ends there, the highest total (seat 1: 2 + 5) winning.
    base = {"name": "tiny", "base": game, "deck": {str(v): 1 for v in range(1, 6)}}
    deck = ["1", "2", "3", "4", "5"]
    reference = played(game, (), deck, ["hit"] * 3, base=base, reshuffle=deck)
    assert (reference["round"], reference["over"]) == (2, False)
    ended = played(game, ("game_ends_on_empty_piles",), deck, ["hit"] * 3, base=base, reshuffle=deck)
    assert (ended["round"], ended["over"], ended["winners"]) == (1, True, [1])
    players = ended["players"]
    assert isinstance(players, list) and [p["total"] for p in players] == [5, 7, 3]


@pytest.mark.clause("F7-RESHUFFLE", "V-RESHUFFLE")
@pytest.mark.parametrize("game", ["flip7", "vengeance"])
def test_reshuffle_at_turn_start(game: str) -> None:
    # Nine Numbers, three players: round 1 is three dealt cards and three Stays; round 2 deals three and
    # takes the last three on Hits. Seat 1's turn then starts with an empty deck and round 1's three cards
    # in the discard pile: they are reshuffled only when seat 1 hits (F7-RESHUFFLE, V-RESHUFFLE); under the
    # misreading before seat 1 chooses.
    base = {"name": "nine", "base": game, "deck": {str(v): 1 for v in range(1, 10)}}
    deck = [str(v) for v in range(1, 10)]
    choices: list[Choice] = ["stay", "stay", "stay", "hit", "hit", "hit"]
    order = ["3", "1", "2"]
    reference = played(game, (), deck, choices, base=base, reshuffle=order)
    assert (reference["draw_pile"], reference["discard_pile"]) == (0, 3)
    early = played(game, ("reshuffle_at_turn_start",), deck, choices, base=base, reshuffle=order)
    assert (early["draw_pile"], early["discard_pile"]) == (3, 0)
    # once seat 1 hits, both have used the same order: seat 1 takes its top card, the 3
    hit = played(game, ("reshuffle_at_turn_start",), deck, [*choices, "hit"], base=base, reshuffle=order)
    assert hit == played(game, (), deck, [*choices, "hit"], base=base, reshuffle=order)
    assert rows(hit)[1] == ("active", ["4", "7", "3"])
