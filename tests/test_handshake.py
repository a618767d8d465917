"""The handshake means exactly what it says: declared option values are the values run, unknown options and
values are refused, skip reasons are the real ones, and generated games play the declared values; and a
failure is explained by the reading under which the reference reproduces the engine."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from flip7_spec import preset
from flip7_spec.cards import cards
from flip7_spec.conformance.cases import game_jobs
from flip7_spec.conformance.declarations import DeclarationError, check_declarations
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import support_problem
from flip7_spec.play import new_game
from flip7_spec.protocol.adapter import ReferenceAdapter, reference_hello
from flip7_spec.rulesets import ruleset_from_json

FLIP7 = preset("flip7")


def hello_with(**options: Any) -> dict[str, Any]:
    hello = reference_hello()
    hello["options"] = {**hello["options"], **options}
    return hello


def case_of(ruleset: Any) -> Case:
    return Case("game:x", "game", ruleset)


@pytest.mark.clause("F7-TIE")
def test_an_empty_declaration_runs_not_even_the_default() -> None:
    hello = hello_with(tie_at_target=[])
    assert support_problem(hello, case_of(FLIP7)) == 'the engine does not implement tie_at_target="play_another_round"'


@pytest.mark.clause("F7-TIE")
def test_a_declaration_without_the_default_skips_the_default_cases() -> None:
    hello = hello_with(tie_at_target=["shared_win"])
    assert support_problem(hello, case_of(FLIP7)) is not None
    assert support_problem(hello, case_of(FLIP7.with_options(tie_at_target="shared_win"))) is None


@pytest.mark.clause("F7-TIE")
def test_an_undeclared_option_runs_only_the_presets_value() -> None:
    hello = reference_hello()
    del hello["options"]["tie_at_target"]
    assert support_problem(hello, case_of(FLIP7)) is None
    problem = support_problem(hello, case_of(FLIP7.with_options(tie_at_target="shared_win")))
    assert problem is not None and "tie_at_target" in problem


def test_declared_values_are_compared_as_json_values() -> None:
    hello = hello_with(initial_deal=[1])  # 1 is not true
    with pytest.raises(DeclarationError, match="initial_deal"):
        check_declarations(hello)


@pytest.mark.parametrize("options, fragment", [
    ({"tie_at_targte": ["shared_win"]}, "hello.options.tie_at_targte: unknown option; options are"),
    ({"tie_at_target": ["shared_wins"]}, 'hello.options.tie_at_target: "shared_wins" is not a value of '
                                         'tie_at_target; allowed: "play_another_round", "shared_win"'),
    ({"target_score": [-5]}, "hello.options.target_score: -5 is not a value of target_score"),
    ({"tie_at_target": "shared_win"}, "expected a list of values or 'any'"),
])
def test_unknown_options_and_values_are_refused_naming_what_is_allowed(options: dict[str, Any],
                                                                       fragment: str) -> None:
    with pytest.raises(DeclarationError) as error:
        check_declarations(hello_with(**options))
    assert fragment in str(error.value)


def test_the_reference_declares_only_what_it_knows() -> None:
    check_declarations(reference_hello())


def test_conform_refuses_a_bad_declaration_with_one_line_and_exit_2(tmp_path: Path) -> None:
    engine = tmp_path / "typo_engine.py"
    engine.write_text(
        "from flip7_spec.protocol.adapter import ReferenceAdapter\n"
        "class Engine(ReferenceAdapter):\n"
        "    def hello(self):\n"
        "        hello = super().hello()\n"
        "        hello['options']['tie_at_targte'] = ['shared_win']\n"
        "        return hello\n", encoding="utf-8")
    script = Path(sys.executable).with_name("flip7-spec")
    completed = subprocess.run([str(script), "conform", "--python", "typo_engine:Engine", "--games", "1"],
                               cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 2, completed.stderr
    lines = [line for line in completed.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "tie_at_targte: unknown option" in lines[0], completed.stderr


@pytest.mark.clause("F7-DECK")
def test_a_standard_deck_read_back_in_another_key_order_is_not_custom() -> None:
    data = FLIP7.to_json()
    data["deck"] = dict(reversed(list(data["deck"].items())))
    data["options"]["initial_deal"] = False
    ruleset = ruleset_from_json(data)
    hello = reference_hello()
    del hello["options"]["initial_deal"]
    hello["decks"] = False
    problem = support_problem(hello, case_of(ruleset))
    assert problem is not None and "initial_deal" in problem and "deck" not in problem


def test_generated_games_play_every_declared_value_deterministically() -> None:
    declared = {"tie_at_target": ["play_another_round", "shared_win"],
                "set_aside_resolution": ["assign_all_first", "resolve_each"]}
    jobs = game_jobs([FLIP7], [3], 40, "s", declared)
    seen = {(name, getattr(job.ruleset, name)) for job in jobs for name in declared}
    assert seen == {(n, v) for n, values in declared.items() for v in values}
    again = game_jobs([FLIP7], [3], 40, "s", declared)
    assert [j.ruleset for j in jobs] == [j.ruleset for j in again]
    assert all(job.ruleset == FLIP7 for job in game_jobs([FLIP7], [3], 10, "s", None))


class _Reading(ReferenceAdapter):
    """The reference playing one reading whatever the ruleset says, declaring it or not."""

    forced: ClassVar[dict[str, Any]] = {}
    declare = False

    def hello(self) -> dict[str, Any]:
        hello = super().hello()
        if self.declare:
            for name, value in self.forced.items():
                hello["options"][name] = [value]
        return hello

    def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Any, reshuffles: Any) -> Any:
        rules = dataclasses.replace(ruleset_from_json(ruleset), **self.forced)
        game, _ = new_game(rules, players, list(deck), dealer=dealer,
                           reshuffles=[cards(list(o)) for o in reshuffles], record=False)
        return game


class DealsAnyway(_Reading):
    forced: ClassVar[dict[str, Any]] = {"deal_after_flip3_cards": "deal_anyway"}


class DealsAnywayDeclared(DealsAnyway):
    declare = True


@pytest.mark.clause("F7-DEAL-ANYWAY", "F7-DEAL-STAY-INSTEAD")
def test_an_engine_with_a_reading_fails_with_its_clause_unless_it_declares_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "reading_engines", sys.modules[__name__])
    corpus = Corpus(rulesets=[FLIP7], games=0, fixtures=Path(__file__).resolve().parent.parent / "fixtures",
                    scoring=False)
    _, results, _ = run(EngineSpec(python="reading_engines:DealsAnyway"), corpus)
    failed = [r for r in results if r.outcome == "fail"]
    assert failed, "the fixtures show the deal turn of a player who holds Flip Three cards"
    assert {r.clause for r in failed} == {"F7-DEAL-ANYWAY"}
    assert all(r.diagnosis is not None and r.diagnosis.reading == 'deal_after_flip3_cards="deal_anyway"'
               for r in failed)
    _, declared, _ = run(EngineSpec(python="reading_engines:DealsAnywayDeclared"), replace(corpus, games=8))
    assert not [r for r in declared if r.outcome == "fail"]
    # the generated games play the declared reading, the fixtures of the official one are skipped
    assert {r.outcome for r in declared if r.case_id.startswith("game:")} == {"pass"}
    official = ("fixture:flip7/deal-flip3-undealt-stays", "fixture:flip7/deal-flip3-undealt-hits")
    assert {r.outcome for r in declared if r.case_id in official} == {"skipped"}
    assert {r.outcome for r in declared if r.case_id == "fixture:flip7/deal-flip3-undealt-dealt-anyway"} == {"pass"}


class ReshufflesWhenEmptied(_Reading):
    forced: ClassVar[dict[str, Any]] = {"reshuffle_moment": "when_emptied"}


@pytest.mark.clause("F7-RESHUFFLE-EMPTIED", "F7-RESHUFFLE")
def test_a_reshuffle_at_another_moment_fails_with_the_reading_instead_of_erroring(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "reading_engines", sys.modules[__name__])
    corpus = Corpus(rulesets=[FLIP7.with_options(target_score=400)], games=6, seed="reshuffles", players=(3,),
                    fixtures=None, scoring=False)
    _, results, _ = run(EngineSpec(python="reading_engines:ReshufflesWhenEmptied"), corpus)
    assert not [r for r in results if r.outcome == "errored"]
    failed = [r for r in results if r.outcome == "fail"]
    assert failed, "games to 400 run through the deck"
    assert {r.clause for r in failed} == {"F7-RESHUFFLE-EMPTIED"}


READINGS = [
    ("flip7", "reshuffle_moment", "when_emptied", "F7-RESHUFFLE-EMPTIED"),
    ("flip7", "stalled_round", "reshuffle", "F7-STALLED-RESHUFFLE"),
    ("flip7", "flip3_card_discard", "after_set_aside", "F7-FLIP3-DISCARDED-LATE"),
    ("flip7", "set_aside_resolution", "resolve_each", "F7-FLIP3-ASSIGN-EACH"),
    ("flip7", "deal_after_flip3_cards", "deal_anyway", "F7-DEAL-ANYWAY"),
    ("vengeance", "reshuffle_moment", "when_emptied", "V-RESHUFFLE-EMPTIED"),
    ("vengeance", "brutal_busted_modifier", "no_effect", "V-BRUTAL-MOD-BUSTED-NO-EFFECT"),
    ("vengeance", "brutal_flip7_target", "in_round", "V-BRUTAL-FLIP7-IN-ROUND"),
    ("vengeance", "halve_order", "whole_total", "V-HALVE-WHOLE-TOTAL"),
]


def _reading_engine(game: str, option: str, value: Any, declare: bool) -> type[_Reading]:
    class Engine(_Reading):
        forced: ClassVar[dict[str, Any]] = {option: value}

        def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Any, reshuffles: Any) -> Any:
            if ruleset_from_json(ruleset).game != game:
                return ReferenceAdapter.make_game(self, ruleset, players, dealer, deck, reshuffles)
            return super().make_game(ruleset, players, dealer, deck, reshuffles)

    Engine.declare = declare
    return Engine


@pytest.mark.clause("V-BRUTAL-FLIP7-IN-ROUND", "V-HALVE-WHOLE-TOTAL", "V-RESHUFFLE-EMPTIED",
                    "V-BRUTAL-MOD-BUSTED-NO-EFFECT", "F7-RESHUFFLE-EMPTIED", "F7-STALLED-RESHUFFLE",
                    "F7-FLIP3-DISCARDED-LATE", "F7-FLIP3-ASSIGN-EACH", "F7-DEAL-ANYWAY")
@pytest.mark.parametrize("game, option, value, clause", READINGS, ids=lambda v: str(v))
def test_each_reading_passes_when_declared_and_fails_with_its_clause_when_not(
        game: str, option: str, value: Any, clause: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine playing one reading: undeclared, the corpus (the shipped fixtures, each reading's among them)
    fails it with that reading's clause; declared, nothing fails."""
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    presets = [preset(n) for n in ("flip7", "vengeance", "vengeance-basic") if preset(n).game == game]
    corpus = Corpus(rulesets=presets, games=0, fixtures=fixtures, scoring=False)
    module = type(sys)("reading_engines_each")
    module.Silent = _reading_engine(game, option, value, declare=False)  # type: ignore[attr-defined]
    module.Declared = _reading_engine(game, option, value, declare=True)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "reading_engines_each", module)
    _, results, _ = run(EngineSpec(python="reading_engines_each:Silent"), corpus)
    failed = [r for r in results if r.outcome == "fail"]
    assert failed and clause in {r.clause for r in failed}, {(r.case_id, r.clause) for r in failed}
    _, declared, _ = run(EngineSpec(python="reading_engines_each:Declared"), corpus)
    assert not [r for r in declared if r.outcome in ("fail", "errored")]


@pytest.mark.parametrize("name", ["flip7", "vengeance"])
def test_rules_options_lists_every_value_with_its_clause(name: str) -> None:
    from flip7_spec.cli.cmd_rules import option_lines

    ruleset = preset(name)
    blocks: dict[str, list[str]] = {}
    current = ""
    for line in option_lines(ruleset):
        if not line.startswith(" "):
            current = line.split(" = ")[0]
            blocks[current] = []
        else:
            blocks[current].append(line[4:])
    assert list(blocks) == list(ruleset.OPTIONS)
    for option_name, option in ruleset.OPTIONS.items():
        values = option.values()
        if values is None:
            assert blocks[option_name][0].startswith("any whole number")
            continue
        assert len(blocks[option_name]) == len(values)
        for value, line in zip(values, blocks[option_name], strict=True):
            assert line.startswith(f"{json.dumps(value)}: ")
            assert option.clause_of(value) in line
