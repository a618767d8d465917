"""The rules diff: the lazy deck and reshuffles, the lockstep play, the bounded exhaustive search checked
against a plain enumeration, the games found replaying as traces, and ``flip7-spec diff`` (bad input, a
difference, none, the events alone, fingerprints, --all)."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from flip7_spec.cards import card
from flip7_spec.cli import cli
from flip7_spec.cli.common import run_main
from flip7_spec.conformance.fingerprint import Fingerprint, FingerprintEntry, fingerprint_text
from flip7_spec.rulesdiff.budget import Budget
from flip7_spec.rulesdiff.every import every_reading, outcome, readings_of
from flip7_spec.rulesdiff.exhaustive import Bound, search
from flip7_spec.rulesdiff.lockstep import (
    HOLE,
    Chance,
    DiffGame,
    LazyPile,
    NeedCard,
    NeedDraw,
    play_pair,
)
from flip7_spec.rulesdiff.readings_doc import doc_settings, reading_lines, table_row, write_readings_doc
from flip7_spec.rulesdiff.report import traces
from flip7_spec.rulesdiff.run import Settings, default_bound, diff
from flip7_spec.rulesdiff.sides import Sides, readings_between, search_card_types, with_readings
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.simulation.policies import random_policy
from flip7_spec.trace.replay import CONFORM, DIVERGE, replay
from tests.rulesdiff_naive import play, smallest_split

FLIP7 = preset("flip7")


def reading(*texts: str, base: Ruleset = FLIP7) -> Ruleset:
    return with_readings(base, texts, "test")


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["diff", "--no-progress", *args])


class Done:
    """What ``flip7-spec diff ARGS`` did, run as the console script runs it (exit codes as the users see them)."""

    def __init__(self, code: int, output: str) -> None:
        self.exit_code = code
        self.output = output


def command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> Done:
    monkeypatch.setattr(sys, "argv", ["flip7-spec", "diff", "--no-progress", *args])
    code = run_main(cli)
    captured = capsys.readouterr()
    return Done(code, captured.out + captured.err)


# ---- the lazy deck and the lazy reshuffles ---------------------------------------------------------------


def test_a_lazy_pile_gives_its_chosen_cards_and_asks_for_the_others() -> None:
    pile = LazyPile([HOLE, card("5")], Chance())  # the top card is the last element
    assert len(pile) == 2
    assert pile.pop() is card("5")
    with pytest.raises(NeedCard):
        pile.pop()
    touched = LazyPile([HOLE, card("5")], Chance())
    with pytest.raises(NeedCard):
        list(touched)  # reading the cards themselves needs them all


def test_a_lazy_reshuffle_draws_in_the_order_chosen_and_asks_for_the_next() -> None:
    chance = Chance([["7"]], lazy=True)
    pile = LazyPile([], chance, "left")
    order = chance.reshuffler("left")([card("5"), card("7"), card("9")])
    pile[:] = order[::-1]  # what the machine does with a reshuffle's order
    assert pile.pop() is card("7")
    with pytest.raises(NeedDraw) as asked:
        pile.pop()
    assert asked.value.cards == ("5", "9") and asked.value.reshuffle == 0
    one_kind = Chance([["7"]], lazy=True)
    pile = LazyPile([], one_kind, "left")
    pile[:] = one_kind.reshuffler("left")([card("5"), card("7"), card("5")])[::-1]
    assert [pile.pop().text for _ in range(3)] == ["7", "5", "5"]  # two 5s left: nothing to choose


def test_the_other_side_must_reshuffle_the_same_cards() -> None:
    chance = Chance([["5", "7"]])
    assert [c.text for c in chance.reshuffler("left")([card("7"), card("5")])] == ["5", "7"]
    taken = chance.reshuffler("right")([card("9"), card("5")])
    assert [c.text for c in taken] == ["5", "9"]  # what it shares, in the shared order, then the rest
    assert chance.mismatch is not None and "right side reshuffles other cards" in chance.mismatch


# ---- playing both sides ---------------------------------------------------------------------------------


def _random_game(seed: int, ruleset: Ruleset = FLIP7) -> tuple[DiffGame, Any, Chance]:
    rng = random.Random(seed)
    deck = [c.text for c in ruleset.deck_cards(3)]
    rng.shuffle(deck)

    def choose(made: int, decision: Any, game: Any) -> Any:
        return random_policy(game, decision, rng)

    def shuffled(discard: list[Any]) -> list[Any]:
        order = sorted(discard, key=lambda c: c.text)
        rng.shuffle(order)
        return order

    return DiffGame(3, seed % 3, tuple(deck)), choose, Chance(make=shuffled)


@pytest.mark.parametrize("seed", range(4))
def test_the_same_rules_never_differ(seed: int) -> None:
    game, choose, chance = _random_game(seed)
    played = play_pair(FLIP7, replace(FLIP7, name="flip7 again"), game, choose=choose, chance=chance)
    assert played.split is None and played.over


def test_a_reading_that_changes_the_score_shows_in_the_round_score() -> None:
    # x2 doubles the Numbers only [F7-MOD-X2]: 5 x2 +2 is 12; a reading that doubles the +2 too says 14.
    # Dealer seat 0: seat 1 is dealt 5 (seat 2 a 1, seat 0 a 2), hits x2, the others stay, seat 1 hits +2.
    game = DiffGame(3, 0, ("5", "1", "2", "x2", "+2"), choices=("hit", "stay", "stay", "hit"))
    deck_rules = replace(FLIP7, deck=(("1", 1), ("2", 1), ("5", 1), ("+2", 1), ("x2", 1)))
    played = play_pair(deck_rules, with_readings(deck_rules, ["x2_doubles_adds"], "test"), game)
    assert played.split is not None and played.split.decisions == 4
    fields = {d.where(): (d.expected, d.found) for d in played.split.fields}
    assert fields == {"$.players[1].round_score": (5 * 2 + 2, (5 + 2) * 2)}


# ---- the exhaustive search against a plain enumeration --------------------------------------------------

SMALL = ("0", "1", "FREEZE")


@pytest.mark.parametrize("right", [
    reading("freeze_not_self"),
    reading("frozen_banks_nothing"),
    reading('deal_start="dealer"'),
    reading("stay_with_no_cards"),
])
def test_the_exhaustive_search_finds_the_smallest_game_a_plain_enumeration_finds(right: Ruleset) -> None:
    bound = Bound(3, 3, 2, SMALL, 3, (None, 1), reshuffles=1, rounds=1)
    covered = search(FLIP7, right, bound, Budget(200_000))
    naive = smallest_split(FLIP7, right, SMALL, 3, [3], 2, 1, 1, [None, 1])
    assert naive is not None, "each of these readings shows within three cards"
    assert covered.found is not None and covered.found.game.key == naive
    game = covered.found.game
    composition = replace(FLIP7, deck=game.composition or FLIP7.deck,
                          target_score=FLIP7.target_score if game.target is None else game.target)
    left_rules, right_rules = (replace(r, deck=composition.deck, target_score=composition.target_score)
                               for r in (FLIP7, right))
    # the game found, played again by the plain enumeration, differs after as many decisions
    assert play(left_rules, right_rules, 3, game.deck, [list(o) for o in game.orders], list(game.choices),
                None, None) == ("split", game.key[0])


def test_two_rulesets_that_play_alike_leave_the_whole_bound_searched() -> None:
    bound = Bound(3, 3, 2, SMALL, 3, (None, 1))
    covered = search(FLIP7, reading("bust_discards_cards", base=replace(FLIP7, name="other")),
                     replace(bound, alphabet=("1",)), Budget(50_000))
    assert covered.found is None and covered.complete and covered.levels == 2 and covered.games > 0
    assert smallest_split(FLIP7, reading("bust_discards_cards"), ("1",), 3, [3], 2, 1, 1, [None, 1]) is None


# ---- what a diff reports --------------------------------------------------------------------------------


def test_the_readings_that_differ_are_named_with_their_clauses() -> None:
    found = readings_between(FLIP7, reading("x2_doubles_adds", "second_chance_ends_turn=false"))
    assert {(r.side, r.text, r.clause) for r in found} == {
        ("left", "second_chance_ends_turn=true", "F7-CHANCE-ENDS-TURN"),
        ("right", "second_chance_ends_turn=false", "F7-CHANCE-ENDS-TURN"),
        ("right", "x2_doubles_adds", "F7-MOD-X2"),
    }
    assert readings_between(FLIP7, preset("flip7")) == []


def test_the_default_card_types_keep_every_kind_of_card() -> None:
    kept = search_card_types(FLIP7)
    assert kept == ("0", "1", "2", "+2", "x2", "FREEZE", "FLIP3", "CHANCE")
    vengeance = search_card_types(preset("vengeance"))
    assert {"ZERO", "U7", "7", "L13", "13"} <= set(vengeance)  # each Number with an effect, and its plain twin


def test_the_game_found_is_a_trace_each_side_plays_and_the_other_does_not() -> None:
    sides = Sides.of(FLIP7, reading("x2_adds_two"))
    result = diff(sides, Settings(budget=5_000))
    assert result.found_by == "exhaustive" and result.game is not None
    decisions = result.game.game.key[0]
    left, right = traces(result)
    assert left is not None and right is not None
    assert replay(left).status is CONFORM and replay(right).status is CONFORM
    swapped = json.loads(json.dumps(left))
    swapped["header"]["ruleset"] = right["header"]["ruleset"]
    diverged = replay(swapped)
    assert diverged.status is DIVERGE and diverged.divergence is not None
    step = diverged.divergence.step
    assert step is None if decisions == 0 else isinstance(step, int)


# ---- the command ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "message"), [
    (["nope"], "unknown ruleset 'nope'"),
    (["flip7", "vengeance"], "a diff compares two rulesets of the same game"),
    (["flip7", "-R", "no_such_option=1"], "unknown"),
    (["flip7", "-R", "no_such_misreading"], "unknown misreading"),
    (["flip7", "-R", "flip7_bonus=-1"], "must not be negative"),
    (["flip7", "-R", "target_score=100000000"], "over the limit"),
    (["flip7", "-B", "deal_start=nowhere"], "expected one of"),
    (["flip7", "flip7", "flip7"], "diff compares two rulesets"),
    ([], "give a ruleset A"),
])
def test_bad_input_gives_one_line_and_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    done = command(capsys, monkeypatch, *args)
    assert done.exit_code == 2, done.output
    lines = done.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_a_file_that_is_not_a_ruleset_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"format": "flip7-trace", "version": 1, "steps": []}))
    done = command(capsys, monkeypatch, str(trace))
    assert done.exit_code == 2 and "unknown key" in done.output and len(done.output.strip().splitlines()) == 1
    text = tmp_path / "notes.txt"
    text.write_text("flip7")
    assert command(capsys, monkeypatch, "flip7", str(text)).exit_code == 2


def test_an_output_that_is_an_input_is_refused_and_left_as_it_was(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = tmp_path / "house-left.json"
    text = json.dumps({**FLIP7.to_json(), "name": "house"})
    ruleset.write_text(text)
    # --out house.json writes house-left.json and house-right.json: the first is the ruleset read
    done = command(capsys, monkeypatch, str(ruleset), "-R", "x2_adds_two", "--out", str(tmp_path / "house.json"))
    assert done.exit_code == 2 and "is also an input of this run" in done.output, done.output
    assert len(done.output.strip().splitlines()) == 1
    assert ruleset.read_text() == text and sorted(p.name for p in tmp_path.iterdir()) == ["house-left.json"]


def test_no_difference_writes_no_trace(tmp_path: Path) -> None:
    done = invoke("flip7", "flip7", "--budget", "200", "--out", str(tmp_path / "game.json"))
    assert done.exit_code == 0, done.output
    assert list(tmp_path.iterdir()) == []  # the reserved outputs are given up, no temporary file left


def test_a_difference_is_shown_and_written(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    done = invoke("flip7", "-R", "freeze_not_self", "--budget", "3000", "--out", str(out))
    assert done.exit_code == 1, done.output
    text = done.output
    assert "right  freeze_not_self  [F7-FREEZE-SELF" in text
    assert "the smallest game found that tells them apart" in text and "first difference" in text
    assert "  field" in text and "clauses involved:" in text
    left, right = tmp_path / "game-left.json", tmp_path / "game-right.json"
    assert replay(json.loads(left.read_text())).status is CONFORM
    assert replay(json.loads(right.read_text())).status is CONFORM
    as_json = json.loads(invoke("flip7", "-R", "freeze_not_self", "--budget", "3000", "--json").output)
    assert as_json["differ"] is True and "F7-FREEZE-SELF" in as_json["clauses"]
    assert as_json["game"]["size"]["decisions"] == as_json["game"]["difference"]["after_decisions"]
    assert as_json["game"]["difference"]["fields"]


def test_no_difference_is_a_stated_bound() -> None:
    done = invoke("flip7", "flip7", "--budget", "400")
    assert done.exit_code == 0, done.output
    assert "readings that differ: none" in done.output
    assert "no difference found" in done.output and "a bound, not a proof" in done.output


def test_flip7_without_a_deal_differs_from_flip7_in_its_events_only() -> None:
    done = invoke("flip7", "flip7-no-deal", "--budget", "1500")
    assert done.exit_code == 0, done.output
    assert "no difference found in the observations" in done.output
    assert "the difference lives in the events only" in done.output
    events = json.loads(invoke("flip7", "flip7-no-deal", "--budget", "1500", "--level", "events", "--json").output)
    assert events["differ"] is True and events["game"]["difference"]["kind"] == "events"
    assert events["game"]["size"]["decisions"] == 0  # the first deal's forced Hits: every game shows it


def test_two_fingerprints_are_diffed_by_the_readings_they_hold(tmp_path: Path) -> None:
    one = Fingerprint("flip7", replace(FLIP7, name="engine-1", deviations=("x2_doubles_adds",)),
                      (FingerprintEntry("x2_doubles_adds", 3),))
    two = Fingerprint("flip7", replace(FLIP7, name="engine-2", deviations=("x2_doubles_adds", "freeze_not_self")),
                      (FingerprintEntry("x2_doubles_adds", 3), FingerprintEntry("freeze_not_self", 1)))
    paths = []
    for number, (fingerprint, suffix) in enumerate([(one, ".toml"), (two, ".json")]):
        path = tmp_path / f"fingerprint-{number}{suffix}"
        path.write_text(fingerprint_text(fingerprint, suffix))
        paths.append(str(path))
    done = invoke(*paths, "--budget", "3000")
    assert done.exit_code == 1, done.output
    assert "right  freeze_not_self" in done.output and "x2_doubles_adds" not in done.output.split("the smallest")[0]


def test_every_reading_can_be_diffed_alone() -> None:
    rows = every_reading(FLIP7, Settings(budget=300), only=("freeze_not_self", 'deal_start="dealer"'))
    assert [row.reading.text for row in rows] == ['deal_start="dealer"', "freeze_not_self"]  # the game's order
    assert all(row.differs for row in rows)
    assert {row.reading.clause for row in rows} == {"F7-FREEZE-SELF", "F7-DEAL-ORDER"}
    shared = every_reading(FLIP7, Settings(budget=300), workers=2, only=("freeze_not_self", 'deal_start="dealer"'))
    assert [outcome(row) for row in shared] == [outcome(row) for row in rows], "two workers find the same games"


def test_all_takes_one_ruleset(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    done = command(capsys, monkeypatch, "--all", "flip7", "flip7-no-deal")
    assert done.exit_code == 2 and "--all diffs every reading against A alone" in done.output


# ---- docs/readings.md ------------------------------------------------------------------------------------

READINGS_DOC = Path(__file__).resolve().parents[1] / "docs" / "readings.md"
REGENERATE = "run `flip7-spec diff --readings-doc docs/readings.md -j 2`"

DOC_SAMPLE = [("flip7", 'deal_start="dealer"'), ("flip7", "x2_adds_two"), ("flip7", "freeze_not_self"),
              ("vengeance", "zero_may_stay"), ("vengeance", "halve_rounds_up")]
"""Readings whose entries the default run regenerates (each found by the exhaustive search in under a second;
the slow test regenerates the whole file)."""


def test_the_readings_doc_has_an_entry_for_every_reading_of_both_games() -> None:
    text = READINGS_DOC.read_text(encoding="utf-8")
    for game in ("flip7", "vengeance"):
        for entry in readings_of(preset(game)):
            assert f"\n### {entry.text}\n" in text, f"docs/readings.md has no entry for {entry.text}: {REGENERATE}"
    assert text.count("\n### ") == len(readings_of(FLIP7)) + len(readings_of(preset("vengeance")))


@pytest.mark.parametrize(("game", "name"), DOC_SAMPLE)
def test_the_readings_doc_holds_what_diff_finds_again(game: str, name: str) -> None:
    base = preset(game)
    (row,) = every_reading(base, doc_settings(), only=(name,))
    assert row.differs and row.result.found_by == "exhaustive"
    text = READINGS_DOC.read_text(encoding="utf-8")
    assert table_row(row) in text, f"the line of {name} in docs/readings.md is out of date: {REGENERATE}"
    assert "\n".join(reading_lines(base, row)) in text, f"the entry of {name} is out of date: {REGENERATE}"


# ---- the slow checks: minimal games against a plain enumeration, the acceptance, the readings doc ----------

MINIMAL_SAMPLE = [
    'deal_start="dealer"', 'set_aside_on_bust="pass_to_other_active"', 'flip3_card_discard="after_set_aside"',
    'deal_after_flip3_cards="deal_anyway"', "turns_to_the_right", "stay_with_no_cards", "bust_banks_cards",
    "bust_discards_cards", "x2_doubles_adds", "x2_adds_two", "frozen_banks_nothing", "freeze_not_self",
    "freeze_card_discarded", "second_chance_kept_twice", "flip3_card_counted", "game_ends_at_target",
]


@pytest.mark.slow
@pytest.mark.parametrize("text", MINIMAL_SAMPLE)
def test_the_game_found_is_the_smallest_among_every_game_of_the_bound(text: str) -> None:
    right = reading(text)
    sides = Sides.of(FLIP7, right)
    result = diff(sides, Settings(budget=40_000))
    assert result.found_by == "exhaustive" and result.game is not None and result.bound is not None
    game, bound = result.game.game, result.bound
    key = game.key
    assert bound.low == bound.players == 3 and not bound.every_dealer
    # no game before it in the search's order, within the bound, tells the sides apart
    smaller = smallest_split(FLIP7, right, bound.alphabet, bound.cards, [3], key[0], bound.rounds,
                             bound.reshuffles, list(bound.targets), below=key)
    assert smaller is None, f"a smaller game: {smaller} < {key}"
    # and the game found does, after as many decisions as it has
    target = FLIP7.target_score if game.target is None else game.target
    left_rules, right_rules = (replace(r, deck=game.composition or r.deck, target_score=target)
                               for r in (FLIP7, right))
    assert play(left_rules, right_rules, 3, game.deck, [list(o) for o in game.orders], list(game.choices),
                None, None) == ("split", key[0])


@pytest.mark.slow
def test_flip7_without_a_deal_plays_like_flip7_until_a_second_chance_ends_no_turn() -> None:
    no_deal = preset("flip7-no-deal")
    alike = diff(Sides.of(FLIP7, no_deal), Settings())
    assert alike.game is None and alike.covered is not None and alike.covered.levels >= 1
    assert alike.events_only is not None and alike.events_only.game.key[0] == 0
    both = ["second_chance_ends_turn=false"]
    sides = Sides.of(reading(*both), reading(*both, base=no_deal))
    apart = diff(sides, Settings(bound=default_bound(sides, cards=5, decisions=2), budget=2_000_000))
    # A Second Chance spent on a duplicate the player draws by a Hit lets the turn go on [F7-CHANCE-ENDS-TURN
    # false]; a deal card is no Hit. To tell the two apart, a player must hold a Number and a Second Chance
    # before the card that is their deal card in one game and their first Hit in the other. The shortest
    # way: a Flip Three dealt to seat 1 and aimed at seat 2 (a decision), three cards, then seat 2's
    # duplicate (a second decision where there is a deal: seat 2 may hit or stay): five cards.
    assert apart.found_by == "exhaustive" and apart.game is not None
    assert apart.game.game.key == (2, 3, 5)
    assert apart.game.game.choices[0] == 2 and apart.game.game.deck[0] == "FLIP3"


@pytest.mark.slow
def test_the_readings_doc_is_what_diff_writes() -> None:
    written = READINGS_DOC.read_text(encoding="utf-8")
    assert write_readings_doc(doc_settings(), workers=2) == written, f"docs/readings.md is out of date: {REGENERATE}"


def test_a_worker_that_dies_is_one_line_naming_its_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    import flip7_spec.rulesdiff.every as every
    from flip7_spec.errors import Flip7Error

    def dies_on_freeze(job: Any) -> Any:
        if job[1].text == "freeze_not_self":
            os._exit(4)
        return job[1].text  # the other reading's row, whatever it holds

    monkeypatch.setattr(every, "_task", dies_on_freeze)
    with pytest.raises(Flip7Error, match=r"^the worker process diffing freeze_not_self ended without a result "
                                         r"\(exit code 4\)$"):
        every_reading(FLIP7, Settings(budget=300), workers=2, only=("freeze_not_self", "x2_adds_two"))
