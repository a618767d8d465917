"""The golden fixtures: they exist, they replay, they cover every clause, and they are up to date.

Each compiled fixture (fixtures/GAME/NAME.json) must conform to the reference, validate against the trace
schema, and really exercise the clauses it names: a clause the engine reports through an event must occur
in the fixture's replay; a clause that no event carries is listed in :data:`NOT_CARRIED` with the reason,
and with a check on the trace where one is simple to state.
"""

from __future__ import annotations

import itertools
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cards import cards
from flip7_spec.clauses import CLAUSES, clauses_for
from flip7_spec.cli import cli
from flip7_spec.cli.common import run_main
from flip7_spec.fixtures import (
    compile_source,
    compiled_path,
    compiled_paths,
    full_deck,
    source_paths,
)
from flip7_spec.games.flip7.ruleset import FLIP7_DECK
from flip7_spec.rulesets import Ruleset, preset, ruleset_from_json
from flip7_spec.trace.replay import CONFORM, replay
from flip7_spec.trace.schema import schema_errors

ROOT = Path(__file__).resolve().parents[1] / "fixtures"


Trace = dict[str, Any]
Evidence = Callable[[Trace], bool]


def _events(trace: Trace) -> list[dict[str, Any]]:
    """Every event of the trace in order, the start's first."""
    found = list(trace.get("start", {}).get("events", []))
    for step in trace["steps"]:
        found.extend(step.get("events", []))
    return found


def _observations(trace: Trace) -> list[dict[str, Any]]:
    found = [trace["start"]["observation"]] if "observation" in trace.get("start", {}) else []
    return found + [s["observation"] for s in trace["steps"] if "observation" in s]


def _ruleset(trace: Trace) -> Ruleset:
    return ruleset_from_json(trace["header"]["ruleset"])


def _first_draw_goes_first_in_order(trace: Trace) -> bool:
    ruleset, header = _ruleset(trace), trace["header"]
    first = header["dealer"] if ruleset.deal_start == "dealer" else (header["dealer"] + 1) % header["players"]
    draws = [e for e in trace["start"]["events"] if e["event"] in ("draw", "forced")]
    return bool(draws) and draws[0]["player"] == first


def _between(trace: Trace, opening: str, closing: str, inside: str) -> bool:
    """Whether an ``inside`` event happens between an ``opening`` event and the next ``closing`` one."""
    depth = 0
    for event in _events(trace):
        if event["event"] == opening:
            depth += 1
        elif event["event"] == closing:
            depth = max(depth - 1, 0)
        elif event["event"] == inside and depth:
            return True
    return False


def _banks_add_up(trace: Trace) -> bool:
    totals = [0] * trace["header"]["players"]
    ends = [e for e in _events(trace) if e["event"] == "round_end"]
    for end in ends:
        totals = [t + s for t, s in zip(totals, end["scores"], strict=True)]
        if totals != end["totals"]:
            return False
    return bool(ends)


def _dealer_rotates(trace: Trace) -> bool:
    starts = [e["dealer"] for e in _events(trace) if e["event"] == "round_start"]
    n = trace["header"]["players"]
    return len(starts) >= 2 and all(b == (a + 1) % n for a, b in itertools.pairwise(starts))


def _busted_row_kept(trace: Trace) -> bool:
    for observation in _observations(trace):
        for player in observation["players"]:
            numbers = [c for c in player["cards"] if c.isdigit()]
            if player["status"] == "busted" and len(numbers) != len(set(numbers)):
                return True
    return False


def _flip7_inside_flip3(trace: Trace) -> bool:
    return _between(trace, "flip3_start", "flip3_end", "flip7")


def _frozen_empty(trace: Trace) -> bool:
    return any(p["status"] == "frozen" and p["cards"] == ["FREEZE"]
               for o in _observations(trace) for p in o["players"])


NOT_CARRIED: dict[str, tuple[str, Evidence | None]] = {
    "F7-DECK": ("the deck is header data, checked before play", lambda t: dict(_ruleset(t).deck) == dict(FLIP7_DECK)),
    # a refusal before any game exists: a fixture naming it is a game whose ruleset passes the check
    "F7-TARGET-UNREACHABLE": ("a ruleset check before play: the fixture's deck scores a point",
                              lambda t: any(c.is_number and c.value > 0 for c in cards(t["header"]["deck"]))),
    "V-TARGET-UNREACHABLE": ("a ruleset check before play: the fixture's ruleset has a round limit",
                             lambda t: bool(_ruleset(t).round_limit)),
    "F7-PLAYERS": ("the player count is header data, checked before play", None),
    "F7-TWO-DECKS": ("the deck size is header data",
                     lambda t: len(t["header"]["deck"]) == 2 * sum(c for _, c in _ruleset(t).deck)),
    "F7-TWO-DECKS-EFFECTS": ("shown by the cards two decks allow and their scores", None),
    "F7-SEATS": ("a numbering convention, visible in who is dealt and offered in turn", None),
    "F7-DEAL-ORDER": ("visible in the order of the deal's draw events", _first_draw_goes_first_in_order),
    "F7-DEAL-ACTION-PAUSE": ("visible as a target decision between two deal draws",
                             lambda t: any(e["event"] == "draw" and e.get("via") == "deal"
                                           and e["card"] in ("FREEZE", "FLIP3") for e in _events(t))),
    "F7-DEAL-RESUME": ("visible in which player the deal continues with", None),
    "F7-DEAL-TARGET-UNDEALT": ("visible in the target of an Action dealt before its target's deal turn", None),
    "F7-DEAL-FREEZE-EMPTY": ("visible in the frozen player's empty row", _frozen_empty),
    "F7-DEAL-STAY-INSTEAD": ("visible as a hit_or_stay decision asked during the deal", None),
    "F7-NO-DEAL-VARIANT": ("a ruleset option", lambda t: not _ruleset(t).initial_deal),
    "F7-DEAL-ANYWAY": ("a reading (option), visible in a deal draw to a player who already holds cards",
                       lambda t: _ruleset(t).deal_after_flip3_cards == "deal_anyway"),
    "F7-FLIP3-ASSIGN-EACH": ("a reading (option), visible in an effect between two assignments",
                             lambda t: _ruleset(t).set_aside_resolution == "resolve_each"),
    "F7-STALLED-RESHUFFLE": ("a reading (option), visible in a reshuffle of Flip Threes and Second Chances",
                             lambda t: _ruleset(t).stalled_round == "reshuffle"),
    "V-HALVE-WHOLE-TOTAL": ("a scoring reading (option), visible in the round scores",
                            lambda t: _ruleset(t).halve_order == "whole_total"),
    "V-BRUTAL-MOD-BUSTED-NO-EFFECT": ("a scoring reading (option), visible in a busted row's score",
                                      lambda t: _ruleset(t).brutal_busted_modifier == "no_effect"),
    "F7-STAY-MODIFIERS-ONLY": ("a Stay is legal: shown by the accepted decision and the score", None),
    "F7-STAY-CHANCE-ONLY": ("a Stay is legal: shown by the accepted decision", None),
    "F7-ROW": ("visible in the order of the observation's cards", None),
    "F7-ACTIVE": ("visible in the observation's statuses", None),
    "F7-BUST-ONLY-NUMBERS": ("the absence of a bust event on a modifier or Action", None),
    "F7-BUST-CARDS-STAY": ("visible in a busted player's row", _busted_row_kept),
    "F7-FLIP7-BONUS": ("part of the round score in round_end", None),
    "F7-FLIP7-OTHERS-BANK": ("part of the round scores in round_end", None),
    "F7-FLIP7-ZERO": ("the flip7 event of a row holding the 0", None),
    "F7-FLIP7-IN-FLIP3": ("the flip7 event inside a Flip Three", _flip7_inside_flip3),
    "F7-ACTION-AT-ONCE": ("visible as the target decision right after the draw", None),
    "F7-FREEZE-SELF": ("the target event names its own player",
                       lambda t: any(e["event"] == "target" and e["card"] == "FREEZE" and e["target"] == e["player"]
                                     for e in _events(t))),
    "F7-FREEZE-KEEPS-CARDS": ("visible in the frozen player's row", None),
    "F7-FLIP3-COUNTS-ALL": ("visible in which draws a Flip Three makes", None),
    "F7-FLIP3-STOP": ("the absence of further flip3 draws after a bust", None),
    "F7-FLIP3-CHANCE-AT-ONCE": ("a Second Chance drawn in a Flip Three is kept or given in the same step",
                                lambda t: any(e["event"] == "draw" and e.get("via") == "flip3"
                                              and e["card"] == "CHANCE" for e in _events(t))),
    "F7-FLIP3-NESTED": ("the order of events after the assignments", None),
    "F7-CHANCE-KEEP": ("visible in the row", None),
    "F7-CHANCE-ROUND-END": ("visible in the discard pile's size after round_end", None),
    "F7-MOD-NO-BUST": ("the absence of a bust event on a modifier", None),
    "F7-MOD-ADD": ("part of the round score", None),
    "F7-MOD-X2": ("part of the round score", None),
    "F7-MOD-ONLY": ("part of the round score", None),
    "F7-SCORE-BUST": ("part of the round score", None),
    "F7-ROUND-END": ("the round_end event carries the scoring clause", None),
    "F7-ALL-BUST": ("a round_end after every player's bust",
                    lambda t: any(e["event"] == "round_end" and not any(e["scores"]) for e in _events(t))),
    "F7-BANK": ("the totals of round_end", _banks_add_up),
    "F7-DISCARD-PILE": ("visible in the pile sizes", None),
    "F7-DEALER-ROTATION": ("the dealer of each round_start", _dealer_rotates),
    "F7-RESHUFFLE-TABLE-STAYS": ("visible in the rows and in the reshuffle order", None),
    "F7-RESHUFFLE-IN-FLIP3": ("a reshuffle event inside a Flip Three",
                              lambda t: _between(t, "flip3_start", "flip3_end", "reshuffle")),
    "F7-GAME-END": ("the game_end event carries the winner clause",
                    lambda t: any(e["event"] == "game_end" for e in _events(t))),
    "F7-CUSTOM-DECK": ("the ruleset's deck composition", lambda t: dict(_ruleset(t).deck) != dict(FLIP7_DECK)),
    # Flip 7: With a Vengeance
    "V-DECK": ("the deck is header data, checked before play",
               lambda t: dict(_ruleset(t).deck) == dict(preset("vengeance").deck) and len(t["header"]["deck"]) == 108),
    "V-DECK-MODIFIERS-ALT": ("the ruleset's deck table: two of each -N card, 108 cards",
                             lambda t: all(dict(_ruleset(t).deck).get(m) == 2 for m in ("-2", "-4", "-6", "-8", "-10"))
                             and len(t["header"]["deck"]) == 108),
    "V-NO-BASE-CARDS": ("a deck with a base-game card is refused before play; a played deck holds none",
                        lambda t: not any(c in ("FREEZE", "FLIP3", "CHANCE") or c[0] in "+x"
                                          for c in t["header"]["deck"])),
    "V-PLAYERS": ("the player count is header data, checked before play", None),
    "V-TWO-DECKS": ("the deck size is header data",
                    lambda t: len(t["header"]["deck"]) == 2 * sum(c for _, c in _ruleset(t).deck)),
    "V-TWO-DECKS-EFFECTS": ("shown by the cards two decks allow and their scores", None),
    "V-SEATS": ("a numbering convention, visible in who is dealt and offered in turn", None),
    "V-ROW": ("visible in the order of the observation's cards", None),
    "V-DEAL-ORDER": ("visible in the order of the deal's draw events", _first_draw_goes_first_in_order),
    "V-DEAL-PAUSE": ("visible as a Modifier or Action dealt, resolved before the next deal draw",
                     lambda t: any(e["event"] == "draw" and e.get("via") == "deal"
                                   and not (e["card"].isdigit() or e["card"] in ("ZERO", "U7", "L13"))
                                   for e in _events(t))),
    "V-DEAL-ALWAYS": ("visible in which players the deal's draw events reach", None),
    "V-STAYED-TARGET": ("visible in a stayed player's row and status after an Action or Modifier", None),
    "V-BUST-OUT-OF-PLAY": ("visible in the options offered, which leave busted rows out", None),
    "V-BUST-BY-ACTION": ("a bust event right after a steal or swap event",
                         lambda t: any(a["event"] in ("steal", "swap") and b["event"] == "bust"
                                       for a, b in itertools.pairwise(_events(t)))),
    "V-FLIP7-ANY-MEANS": ("a flip7 event after something other than a hit or deal draw",
                          lambda t: any(b["event"] == "flip7"
                                        and not (a["event"] == "draw" and a.get("via") in ("hit", "deal"))
                                        for a, b in itertools.pairwise(_events(t)))),
    "V-ROUND-END": ("the round_end event carries the scoring clause", None),
    "V-NEXT-ROUND": ("the dealer of each round_start", _dealer_rotates),
    "V-BANK": ("the totals of round_end", _banks_add_up),
    "V-GAME-END": ("the game_end event carries the winner clause",
                   lambda t: any(e["event"] == "game_end" for e in _events(t))),
    "V-SPECIAL-NUMBERS": ("visible in the effects of ZERO, U7 and L13, or their absence", None),
    "V-ZERO-SCORE": ("part of the round score", None),
    "V-ZERO-FLIP7": ("part of the round score", None),
    "V-UNLUCKY7-NO-BUST": ("a wipe event, and no bust event, on the Unlucky 7",
                           lambda t: any(e["event"] == "wipe" for e in _events(t))
                           and not any(e["event"] == "bust" and e["card"] == "U7" for e in _events(t))),
    "V-UNLUCKY7-LATER-7": ("a bust event on a 7",
                           lambda t: any(e["event"] == "bust" and e["card"] == "7" for e in _events(t))),
    "V-LUCKY13-FLIP7": ("visible in when the flip7 event comes", None),
    "V-LUCKY13-THIRD": ("a bust event on a 13",
                        lambda t: any(e["event"] == "bust" and e["card"] in ("13", "L13") for e in _events(t))),
    "V-ACTION-RESOLVER": ("visible in who is asked an Action's choices", None),
    "V-FLIP4-STOP": ("a bust or flip7 event inside a Flip Four",
                     lambda t: _between(t, "flip4_start", "flip4_end", "bust")
                     or _between(t, "flip4_start", "flip4_end", "flip7")),
    "V-FLIP4-UNLUCKY7": ("a wipe event inside a Flip Four", lambda t: _between(t, "flip4_start", "flip4_end", "wipe")),
    "V-SWAP-RECEIVE": ("the order of the events after a swap event", None),
    "V-DISCARD-SELF": ("a discard_card event on the resolver's own row, or the option turned off",
                       lambda t: not _ruleset(t).discard_self
                       or any(e["event"] == "discard_card" and e["player"] == e["by"] for e in _events(t))),
    "V-STEAL-DISCARD-CARDS": ("visible in the cards a Steal or Discard offers", None),
    "V-SCORE-BUST": ("part of the round score", None),
    "V-SCORE-FLOOR": ("part of the round score", None),
    "V-MOD-NO-BUST": ("the absence of a bust event on a Modifier", None),
    "V-BRUTAL": ("a ruleset option", lambda t: _ruleset(t).brutal_mode),
    "V-BRUTAL-NEGATIVE": ("a round_end score below 0 under Brutal Mode",
                          lambda t: _ruleset(t).brutal_mode
                          and any(e["event"] == "round_end" and min(e["scores"]) < 0 for e in _events(t))),
    "V-BRUTAL-MOD-BUSTED": ("a modifier event whose target has busted, visible in the statuses", None),
    "V-BASIC": ("the vengeance-basic preset's deck",
                lambda t: dict(_ruleset(t).deck) == dict(preset("vengeance-basic").deck)),
}
"""Clauses that no event carries (neither as ``clause`` nor as the ``because`` of a forced choice)."""

PARTLY_CARRIED: dict[str, tuple[str, Evidence]] = {
    "F7-CHANCE-ENDS-TURN": (
        "only the replacement draw of second_chance_ends_turn = false carries it; the default reading "
        "(the turn ends) is the absence of a draw after chance_used",
        lambda t: any(e["event"] == "chance_used" for e in _events(t)),
    ),
    "F7-TIE": (
        "only the tie event of play_another_round carries it; under tie_at_target = shared_win the tie "
        "ends the game with several winners",
        lambda t: any(e["event"] == "game_end" and len(e["winners"]) > 1 for e in _events(t)),
    ),
    "V-STAY-MINIMUM": (
        "only the forced Hit of stay_minimum = one_card or two_numbers carries it; the default reading "
        "(none) is a Stay offered to a player with an empty row",
        lambda t: any(o["pending"] is not None and o["pending"]["kind"] == "hit_or_stay"
                      and "stay" in o["pending"]["options"] and not o["players"][o["pending"]["player"]]["cards"]
                      for o in _observations(t)),
    ),
    "V-FLIP4-SELF": (
        "only the forced target of flip4_self = false carries it; under flip4_self = true the resolver "
        "plays the Flip Four on itself",
        lambda t: any(e["event"] == "target" and e["card"] == "FLIP4" and e["target"] == e["player"]
                      for e in _events(t)),
    ),
}
"""Clauses carried by an event in one reading only; the other reading is checked by its evidence."""


def _load(path: Path) -> Trace:
    trace: Trace = json.loads(path.read_text(encoding="utf-8"))
    return trace


def _name(path: Path) -> str:
    return path.relative_to(ROOT).with_suffix("").as_posix()


def _params() -> list[Any]:
    params = []
    for path in compiled_paths(ROOT):
        clauses = _load(path)["header"].get("clauses", [])
        params.append(pytest.param(path, id=_name(path), marks=pytest.mark.clause(*clauses)))
    return params


def _occurring(trace: Trace, replayed: set[str]) -> set[str]:
    """The clauses the replay reported, plus those named by forced choices (``because``)."""
    return replayed | {str(e["because"]) for e in _events(trace) if e["event"] == "forced" and "because" in e}


def _run_cli(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
             ) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["flip7-spec", *args])
    code = run_main(cli)
    out, err = capsys.readouterr()
    return code, out, err


def test_fixtures_exist() -> None:
    sources = source_paths(ROOT)
    assert sources, f"no fixture sources under {ROOT / 'src'}"
    assert compiled_paths(ROOT), f"no compiled fixtures under {ROOT}"
    missing = [str(p) for p in sources if not compiled_path(ROOT, p).is_file()]
    assert not missing, f"sources never compiled (run `flip7-spec fixtures regenerate`): {missing}"


@pytest.mark.parametrize("path", _params())
def test_fixture_replays_and_shows_its_clauses(path: Path) -> None:
    trace = _load(path)
    assert schema_errors(trace) == []
    result = replay(trace)
    assert result.status == CONFORM, result.divergence or result.error
    assert result.level == "observations"
    header = trace["header"]
    assert header.get("description"), "a fixture says what it shows"
    claimed = header.get("clauses", [])
    assert claimed, "a fixture names the clauses it exercises"
    occurring = _occurring(trace, result.clauses)
    for clause_id in claimed:
        assert clause_id in CLAUSES, f"unknown clause {clause_id}"
        if clause_id in NOT_CARRIED:
            evidence = NOT_CARRIED[clause_id][1]
            assert evidence is None or evidence(trace), f"{clause_id}: {NOT_CARRIED[clause_id][0]}: not shown"
        elif clause_id in PARTLY_CARRIED:
            reason, evidence = PARTLY_CARRIED[clause_id]
            assert clause_id in occurring or evidence(trace), f"{clause_id}: {reason}: not shown"
        else:
            assert clause_id in occurring, f"{clause_id} is named but never occurs in the replay"


def test_every_clause_is_named_by_a_fixture() -> None:
    named: dict[str, set[str]] = {}
    for path in compiled_paths(ROOT):
        trace = _load(path)
        named.setdefault(_ruleset(trace).game, set()).update(trace["header"].get("clauses", []))
    assert "flip7" in named
    for game, clauses in named.items():
        registry = {c.id for c in clauses_for(game)}
        assert registry, f"no clauses are registered for game {game}"
        assert registry - clauses == set(), f"{game} clauses named by no fixture"


def test_not_carried_lists_are_exact() -> None:
    assert set(NOT_CARRIED) | set(PARTLY_CARRIED) <= set(CLAUSES)
    seen: dict[str, set[str]] = {}
    for path in compiled_paths(ROOT):
        trace = _load(path)
        seen.setdefault(_ruleset(trace).game, set()).update(_occurring(trace, replay(trace).clauses))
    everything = set().union(*seen.values())
    # Every listed clause really is carried by no event, and every other clause of a game with fixtures is
    # carried by an event of some fixture (when a clause starts to be carried, drop it from the list).
    assert everything & set(NOT_CARRIED) == set()
    for game in seen:
        registry = {c.id for c in clauses_for(game)}
        assert registry - set(NOT_CARRIED) <= everything, f"{game}: carried by no event, yet not listed"


def test_every_option_value_appears_in_a_fixture() -> None:
    options = preset("flip7").OPTIONS
    used: dict[str, set[Any]] = {name: set() for name in options}
    for path in compiled_paths(ROOT):
        ruleset = _ruleset(_load(path))
        if ruleset.game != "flip7":
            continue
        for name, value in ruleset.options().items():
            used[name].add(value)
    default = preset("flip7").options()
    for name, option in options.items():
        if option.choices is not None:
            wanted = set(option.choices)
        elif option.kind is bool:
            wanted = {True, False}
        else:
            wanted = {default[name]}
            assert len(used[name]) >= 2, f"option {name}: only its default value {default[name]} is used"
        assert wanted <= used[name], f"option {name}: values {wanted - used[name]} appear in no fixture"


def test_regenerate_check_passes(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run_cli(["fixtures", "regenerate", "--check", "--dir", str(ROOT)], monkeypatch, capsys)
    assert code == 0, out + err
    assert "0 out of date" in out


def test_check_lists_outdated_and_orphan_files_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "fixtures"
    (root / "src" / "flip7").mkdir(parents=True)
    for name in ("bust-basic", "all-bust"):
        shutil.copy(ROOT / "src" / "flip7" / f"{name}.toml", root / "src" / "flip7")
    (root / "flip7").mkdir()
    stale = root / "flip7" / "bust-basic.json"
    stale.write_text("{}\n", encoding="utf-8")
    (root / "flip7" / "gone.json").write_text("{}\n", encoding="utf-8")
    code, out, _ = _run_cli(["fixtures", "regenerate", "--check", "--dir", str(root)], monkeypatch, capsys)
    assert code == 1
    assert "out of date: fixtures/flip7/bust-basic.json" in out
    assert "out of date: fixtures/flip7/all-bust.json" in out      # missing counts as out of date
    assert "no source: fixtures/flip7/gone.json" in out
    assert stale.read_text(encoding="utf-8") == "{}\n"
    assert not (root / "flip7" / "all-bust.json").exists()
    code, out, _ = _run_cli(["fixtures", "regenerate", "--dir", str(root)], monkeypatch, capsys)
    assert code == 0
    assert stale.read_text(encoding="utf-8") == (ROOT / "flip7" / "bust-basic.json").read_text(encoding="utf-8")


def _write_source(root: Path, name: str, text: str, game: str = "flip7") -> Path:
    path = root / "src" / game / f"{name}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


_SMALL = '''description = "test"
clauses = ["F7-BUST"]
ruleset = "flip7"
players = 3
dealer = 2
top = ["8", "9", "10", "8"]
'''


def test_illegal_decision_names_file_index_and_legal_choices(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "fixtures"
    # seat 0 hits and busts; then seat 1 decides Hit or Stay, so a seat number is illegal
    _write_source(root, "bad", _SMALL + 'decisions = ["hit", 2]\n')
    code, _, err = _run_cli(["fixtures", "regenerate", "--dir", str(root)], monkeypatch, capsys)
    assert code == 2
    assert "fixtures/src/flip7/bad.toml: decisions[1] = 2 (trace step 1) is illegal" in err
    assert "hit_or_stay of player 1; legal choices: 'hit', 'stay'" in err
    assert not (root / "flip7" / "bad.json").exists()


def test_decision_after_the_end_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "fixtures"
    source = '''description = "test"
clauses = ["F7-GAME-END"]
ruleset = {base = "flip7", options = {target_score = 5}}
players = 3
dealer = 2
top = ["8", "9", "10"]
decisions = ["stay", "stay", "stay", "hit"]
'''
    path = _write_source(root, "late", source)
    with pytest.raises(Exception, match=r"late.toml: decisions\[3\] = 'hit': the game is already over"):
        compile_source(root, path)


@pytest.mark.clause("F7-BUST", "F7-SCORE-BUST")
def test_wrong_hand_derived_expectation_fails_loudly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "fixtures"
    # seat 0 busts on the second 8: a claim that it scores 16 contradicts F7-SCORE-BUST
    _write_source(root, "wrong", _SMALL + 'decisions = ["hit", "stay", "stay"]\n'
                                          'expect_round_scores = [[16, 9, 10]]\n')
    code, _, err = _run_cli(["fixtures", "regenerate", "--dir", str(root)], monkeypatch, capsys)
    assert code == 1
    assert "EXPECTATION FAILED: fixtures/src/flip7/wrong.toml: expect_round_scores[0]: derived by hand " \
           "[16, 9, 10], the reference gives [0, 9, 10]" in err
    assert not (root / "flip7" / "wrong.json").exists()


def test_unknown_key_and_unknown_clause_are_errors(tmp_path: Path) -> None:
    root = tmp_path / "fixtures"
    path = _write_source(root, "typo", _SMALL + 'decisions = []\nexpect_score = 3\n')
    with pytest.raises(Exception, match=r"typo\.toml: unknown key 'expect_score'"):
        compile_source(root, path)
    path = _write_source(root, "clause", _SMALL.replace("F7-BUST", "F7-NOPE") + "decisions = []\n")
    with pytest.raises(Exception, match=r"clause\.toml: clauses: unknown clause id 'F7-NOPE'"):
        compile_source(root, path)


def test_deck_is_top_then_the_rest_in_composition_order() -> None:
    ruleset = ruleset_from_json({"base": "flip7", "name": "t", "deck": {"1": 1, "2": 2, "x2": 1, "3": 1}})
    assert [c.text for c in full_deck(ruleset, 3, ["2", "3"])] == ["2", "3", "1", "2", "x2"]
    with pytest.raises(Exception, match="card 3 is used more often"):
        full_deck(ruleset, 3, ["3", "3"])


@pytest.mark.clause("F7-RESHUFFLE")
def test_default_reshuffle_sorts_the_discard_pile_in_composition_order(tmp_path: Path) -> None:
    root = tmp_path / "fixtures"
    source = '''description = "test"
clauses = ["F7-RESHUFFLE"]
ruleset = {name = "t", base = "flip7", deck = {"3" = 1, "1" = 1, "2" = 1, "4" = 1}}
players = 3
dealer = 2
top = ["2", "1", "4", "3"]
decisions = ["stay", "stay", "stay"]
'''
    path = _write_source(root, "order", source, game="other")
    compiled = compile_source(root, path)
    assert compiled.out == root / "other" / "order.json"
    reshuffles = [s["reshuffle"] for s in compiled.trace["steps"] if "reshuffle" in s]
    # round 2 deals 3, then the discard pile (2 1 4) becomes the deck in the ruleset's order: 1 2 4
    assert reshuffles == [["1", "2", "4"]]
    assert replay(compiled.trace).status == CONFORM


def test_list_reports_coverage(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run_cli(["fixtures", "list", "--dir", str(ROOT)], monkeypatch, capsys)
    assert code == 0
    total = len(clauses_for("flip7"))
    assert f"flip7: {total} of {total} clauses named by a fixture" in out
    assert "flip7/flip3-assign-nested" in out
