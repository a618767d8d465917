"""Cards are game data: each game lists its cards in its definition, the core reads them from there, and no
module outside the game packages asks which game a ruleset is of by its name."""

from __future__ import annotations

import ast
import copy
import pickle
from pathlib import Path

import pytest

from flip7_spec.cards import CardType, Family, Kind, card
from flip7_spec.clauses import clauses_for
from flip7_spec.errors import CardError
from flip7_spec.registry import GameDefinition, game_definition, game_names, register_game
from flip7_spec.rulesets import preset, preset_names

PACKAGE = Path(__file__).resolve().parent.parent / "flip7_spec"
GAMES = PACKAGE / "games"


def _names_a_game(node: ast.expr) -> bool:
    """``x.game`` or a bare ``game``: an expression that holds a game's name."""
    return (isinstance(node, ast.Attribute) and node.attr == "game") or (isinstance(node, ast.Name)
                                                                          and node.id == "game")


def _a_literal_name(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    return isinstance(node, ast.Tuple | ast.List | ast.Set) and all(_a_literal_name(e) for e in node.elts)


def game_name_checks(source: str) -> list[int]:
    """The lines of ``source`` that compare a game's name with a literal (``ruleset.game != "flip7"``,
    ``game in ("flip7", ...)``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        if any(_names_a_game(o) for o in operands) and any(_a_literal_name(o) for o in operands):
            found.append(node.lineno)
    return found


def test_the_check_finds_a_comparison_with_a_game_name() -> None:
    assert game_name_checks('if ruleset.game != "flip7":\n    pass\n') == [1]
    assert game_name_checks('ok = "vengeance" == setup.ruleset.game\n') == [1]
    assert game_name_checks('ok = game in ("flip7",)\n') == [1]
    assert game_name_checks("ok = a.game == b.game and kind == 'target'\n") == []  # two rulesets' games: fine


def test_no_module_outside_the_games_checks_a_game_by_name() -> None:
    # "has the base game's cards" is asked of the game's cards (GameDefinition.cards), never of its name
    offenders = {str(path.relative_to(PACKAGE)): lines for path in sorted(PACKAGE.rglob("*.py"))
                 if GAMES not in path.parents
                 and (lines := game_name_checks(path.read_text(encoding="utf-8")))}
    assert not offenders, offenders


@pytest.mark.parametrize("name", ["flip7", "vengeance"])
def test_a_game_lists_every_card_of_its_presets_decks(name: str) -> None:
    definition = game_definition(name)
    listed = definition.card_types
    for preset_name in preset_names():
        ruleset = preset(preset_name)
        if ruleset.game == name:
            assert {text for text, _ in ruleset.deck} <= set(listed), preset_name
    # each card reads back as the card its game lists, and the game's ruleset takes exactly its kinds
    for text, listed_type in listed.items():
        parsed = card(text)
        assert (parsed.text, parsed.kind, parsed.value, parsed.special) == (text, listed_type.kind, listed_type.value,
                                                                            listed_type.special)
    assert definition.card_kinds == definition.ruleset_class.CARD_KINDS
    # a card enables only clauses of its own game
    own = {c.id for c in clauses_for(name)}
    assert set(definition.clause_cards) <= own


def test_what_the_consumers_read_is_what_the_rules_say() -> None:
    flip7, vengeance = game_definition("flip7"), game_definition("vengeance")
    # [F7-FLIP3] three cards, [V-FLIP4] four, [V-ONEMORE] one; Freeze and Second Chance stay in front of a player
    assert [(t.text, t.draws) for t in (*flip7.cards, *vengeance.cards) if t.draws] == [
        ("FLIP3", 3), ("ONEMORE", 1), ("FLIP4", 4)]
    assert sorted(t.text for t in flip7.cards if t.kept) == ["CHANCE", "FREEZE"]
    assert not [t for t in vengeance.cards if t.kept]  # [V-ACTION-AT-ONCE] Actions go once used
    assert flip7.plain_numbers and not vengeance.plain_numbers  # The Zero, Unlucky 7, Lucky 13
    assert flip7.clause_cards["F7-MOD-X2"] == {"x2"}
    assert vengeance.clause_cards["V-SPECIAL-NUMBERS"] == {"ZERO", "U7", "L13"}
    assert vengeance.clause_cards["V-ACTION-ALONE"] == {"ONEMORE", "FLIP4"}


def test_kinds_are_one_per_name_and_survive_copies_and_pickles() -> None:
    freeze = card("FREEZE").kind
    assert Kind("freeze", Family.ACTION) is freeze and freeze.family is Family.ACTION
    with pytest.raises(ValueError, match="action kind already"):
        Kind("freeze", Family.MODIFIER)
    assert pickle.loads(pickle.dumps(freeze)) is freeze and copy.deepcopy(freeze) is freeze
    assert pickle.loads(pickle.dumps(card("FLIP3"))) is card("FLIP3")
    assert card("x2").kind is Kind.MULTIPLY and card("-4").kind is Kind.SUBTRACT and card("/2").kind is Kind.HALVE


def _game(name: str, cards: tuple[CardType, ...]) -> GameDefinition:
    from dataclasses import replace

    return replace(game_definition("flip7"), name=name, presets=(), clauses=(), misreadings=(), cards=cards)


@pytest.mark.parametrize("cards, message", [
    ((CardType("FREEZE", Kind("other_freeze", Family.ACTION)),), "is another card already"),
    ((CardType("7", Kind.ADD, 7),), "written in the shared notation"),
    ((CardType("Joker", Kind("joker", Family.ACTION)),), "one upper-case word"),
    ((CardType("JOKER", Kind("joker", Family.ACTION), aliases=("Flip Three",)),), "reads as FLIP3 already"),
    ((CardType("FLIPTHREE", Kind("joker", Family.ACTION)),), "is read as FLIP3 already"),
])
def test_a_card_the_reader_cannot_take_is_refused_and_nothing_is_registered(cards: tuple[CardType, ...],
                                                                           message: str) -> None:
    with pytest.raises(CardError, match=message):
        register_game(_game("clashing", cards))
    assert "clashing" not in game_names()
    with pytest.raises(CardError):
        card("JOKER")


def test_code_written_when_kinds_were_an_enum_keeps_working() -> None:
    """``Kind.FREEZE``, ``kind.value``, iterating ``Kind`` and ``flip7_spec.analysis.ACTIONS_AND_X2`` were the
    public API before a game's cards were its own data: they still answer as they did."""
    from flip7_spec import Kind, card
    from flip7_spec.analysis import ACTIONS_AND_X2

    assert Kind.FREEZE is card("FREEZE").kind and Kind.STEAL is card("STEAL").kind
    assert Kind.NUMBER is card("7").kind and Kind.MULTIPLY is card("x2").kind
    assert [Kind.FLIP_THREE.value, Kind.SECOND_CHANCE.value, Kind.NUMBER.value] == ["flip_three", "second_chance",
                                                                                    "number"]
    assert {Kind.FREEZE, Kind.ADD, Kind.DISCARD} <= set(Kind)
    with pytest.raises(AttributeError):
        _ = Kind.NO_SUCH_KIND
    # the published solitaire analyses blank the base game's Action cards and its x2
    assert frozenset({"FREEZE", "FLIP3", "CHANCE", "x2"}) == ACTIONS_AND_X2
