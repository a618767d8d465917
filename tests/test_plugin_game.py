"""A third game registered from outside the package plays, records, replays, serves and conforms on the same
machine as the built-in games, with no change to the core (tests/toy_game.py)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

import flip7_spec
from flip7_spec import new_game, preset, preset_names
from flip7_spec.cards import card, card_type, named_card_texts
from flip7_spec.clauses import clauses_for
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.errors import CardError
from flip7_spec.registry import game_definition, game_names
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.trace.record import record_choices
from flip7_spec.trace.replay import CONFORM, DIVERGE, replay
from flip7_spec.trace.schema import load_schema
from tests import toy_game
from tests import toy_game as toy_game_module

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


def test_the_toys_own_card_kind_is_read_played_and_validated(toy_game: str) -> None:
    # [TOY-TAG] a card of a kind of its own: the toy lists it, and the reader, the schema and the machine take it
    tag = card("tag!")
    assert tag is card("TAG") and tag.kind is toy_game_module.TAG and tag.is_action and not tag.is_number
    assert card_type("TAG") is toy_game_module.TOY_CARDS[-1]
    assert re.fullmatch(load_schema()["$defs"]["card"]["pattern"], "TAG")
    assert game_definition(toy_game).clause_cards["TOY-TAG"] == {"TAG"}
    ruleset = preset(toy_game)
    rest = [c.text for c in ruleset.deck_cards(2)]
    for text in ("TAG", "TAG", "1", "2"):
        rest.remove(text)
    # seat 1 must Hit: it reveals a Tag, keeps it, and draws again at once: another Tag, then the 1
    deck = ["TAG", "TAG", "1", "2", *rest]
    game, events = new_game(ruleset, 2, deck)
    draws = [(e.player, e.card, e.get("via"), e.clause) for e in events if e.kind == "draw"]
    assert draws == [(1, "TAG", "hit", "TOY-TURN"), (1, "TAG", "tag", "TOY-TAG"), (1, "1", "tag", "TOY-TAG"),
                     (0, "2", "hit", "TOY-TURN")]  # then seat 0, with nothing in front of it, must Hit
    assert game.observation()["players"][1]["cards"] == ["TAG", "TAG", "1"]
    game.apply("stay")
    assert game.round_score(1) == 1  # a Tag scores nothing: the sum of the Numbers
    trace = record_choices(ruleset, 2, 0, deck, ["stay"], [])
    assert trace["header"]["deck"][:2] == ["TAG", "TAG"] and replay(trace).status == CONFORM


def test_the_toys_own_card_leaves_with_the_toy() -> None:
    toy_game_module.register()
    assert card("TAG").kind is toy_game_module.TAG
    toy_game_module.unregister()
    with pytest.raises(CardError, match="unknown card 'TAG'"):
        card("TAG")
    assert "TAG" not in named_card_texts() and not re.fullmatch(load_schema()["$defs"]["card"]["pattern"], "TAG")
    assert card("FREEZE").kind is toy_game_module.FREEZE  # the base game's card it shared stays


def test_the_core_names_no_card_of_the_toy() -> None:
    # a card of a kind of its own took no edit outside the toy's file
    package = Path(flip7_spec.__file__).resolve().parent
    assert not [p for p in package.rglob("*.py") if re.search(r"\bTAG\b|\"tag\"", p.read_text(encoding="utf-8"))]
