"""A third game registered from outside the package plays, records, replays, serves and conforms on the same
machine as the built-in games, with no change to the core (tests/toy_game.py)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from flip7_spec import new_game, preset, preset_names
from flip7_spec.clauses import clauses_for
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.policies import threshold_policy
from flip7_spec.registry import game_names
from flip7_spec.trace.record import record_choices
from flip7_spec.trace.replay import CONFORM, DIVERGE, replay
from tests import toy_game

TOY = Path(toy_game.__file__).resolve()


def _played(seed: int, players: int = 3) -> tuple[list[str], list[object], list[list[str]]]:
    """A whole game of the toy played by the threshold policy: deck, choices, and reshuffle orders used."""
    ruleset = preset(toy_game.TOY_PRESET)
    rng = random.Random(seed)
    deck = [c.text for c in ruleset.deck_cards(players)]
    rng.shuffle(deck)
    orders: list[list[str]] = []

    def reshuffle(discard: list[object]) -> list[object]:
        order = list(discard)
        rng.shuffle(order)
        orders.append([c.text for c in order])  # type: ignore[attr-defined]
        return order

    game, _ = new_game(ruleset, players, deck, reshuffler=reshuffle)  # type: ignore[arg-type]
    policy = threshold_policy(8)
    choices = []
    while not game.over:
        choice = policy(game, game.pending, rng)  # type: ignore[arg-type]
        choices.append(choice)
        game.apply(choice)
    return deck, choices, orders


def test_the_toy_registers_its_own_presets_clauses_and_game(toy_game: str) -> None:
    assert toy_game in preset_names() and "freeze-tag" in game_names()
    assert {c.id for c in clauses_for("freeze-tag")} == {c.id for c in toy_game_clauses()}


def toy_game_clauses() -> list[object]:
    return list(toy_game.TOY_CLAUSES)


def test_unregistering_the_toy_leaves_the_built_in_games() -> None:
    toy_game.register()
    toy_game.unregister()
    assert "freeze-tag" not in game_names() and toy_game.TOY_PRESET not in preset_names()
    assert not clauses_for("freeze-tag")
    assert game_names() == ["flip7", "vengeance"]


def test_the_toy_plays_to_the_end_on_the_machine(toy_game: str) -> None:
    for seed in range(20):
        _, choices, _ = _played(seed)
        assert choices, "a game of the toy asks decisions"
    # the toy's own rule: a Freeze puts its target out of the round (a status of the shared vocabulary)
    ruleset = preset(toy_game)
    numbers = [c.text for c in ruleset.deck_cards(2) if c.text != "FREEZE"]
    game, events = new_game(ruleset, 2, ["FREEZE", *numbers, "FREEZE"])
    # seat 1 (left of the dealer) holds nothing, so must Hit: it draws the Freeze and aims it
    assert [e.kind for e in events] == ["round_start", "forced", "draw"]
    assert game.pending is not None and game.pending.kind == "target" and game.pending.options == (0, 1)
    events = game.apply(0)
    assert any(e.kind == "freeze" and e.clause == "TOY-FREEZE" for e in events)
    assert game.observation()["players"][0]["status"] == "frozen"


def test_a_recorded_toy_game_replays_and_a_changed_one_diverges(toy_game: str) -> None:
    deck, choices, orders = _played(3)
    trace = record_choices(preset(toy_game), 3, 0, deck, choices, orders)
    assert replay(trace).status == CONFORM
    step = next(s for s in trace["steps"] if "observation" in s and s["observation"]["players"][0]["total"])
    step["observation"]["players"][0]["total"] += 1
    result = replay(trace)
    assert result.status == DIVERGE and result.divergence is not None
    assert result.divergence.clause.startswith("TOY-")  # blamed in the toy's own clauses


def test_the_toy_conforms_in_process_and_served_over_the_protocol(toy_game: str) -> None:
    corpus = Corpus(rulesets=[preset(toy_game)], games=6, seed="toy", players=(2, 3, 4), fixtures=None)
    for spec in (EngineSpec(python="flip7_spec.protocol.adapter:ReferenceAdapter"),
                 EngineSpec(command=f"{sys.executable} {TOY}")):
        hello, results, decisions = run(spec, corpus)
        assert toy_game in hello["rulesets"]
        statuses = {r.outcome for r in results}
        assert statuses == {"pass"}, [(r.case_id, r.outcome, r.message) for r in results if r.outcome != "pass"]
        assert decisions > 0 and {r.level for r in results} >= {"round", "game"}


@pytest.mark.clause("F7-SCORE")
def test_a_broken_toy_engine_is_caught_with_a_toy_clause(toy_game: str, tmp_path: Path) -> None:
    engine = tmp_path / "broken_toy.py"
    engine.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(TOY.parent.parent)!r})\n"
        "from tests import toy_game\n"
        "from flip7_spec.protocol.adapter import ReferenceAdapter\n"
        "from flip7_spec.protocol.server import serve\n"
        "class Engine(ReferenceAdapter):\n"
        "    def decide(self, choice, player=None, kind=None):\n"
        "        observation = super().decide(choice, player, kind)\n"
        "        for row in observation['players']:\n"
        "            row['round_score'] += 1  # the bug: one point too many everywhere\n"
        "        return observation\n"
        "toy_game.register()\n"
        "serve(Engine())\n", encoding="utf-8")
    corpus = Corpus(rulesets=[preset(toy_game)], games=2, seed="toy", players=(3,), fixtures=None, scoring=False)
    _, results, _ = run(EngineSpec(command=f"{sys.executable} {engine}"), corpus)
    failed = [r for r in results if r.outcome == "fail"]
    assert failed and all(r.clause is not None and r.clause.startswith("TOY-") for r in failed)
