"""Each game's clause table as the clause registry promises it (flip7_spec/clauses.py): a clause belongs to its
game, states its rule, carries a confidence of H, M or L, and a clause that is one reading of an option names
that option (the reading an option value selects is found from the option, and the option from the reading)."""

from __future__ import annotations

import pytest

from flip7_spec.clauses import CLAUSES, clauses_for
from flip7_spec.registry import game_definition


@pytest.mark.parametrize(("game", "prefix"), [("flip7", "F7-"), ("vengeance", "V-")])
def test_a_games_clauses_are_its_own_and_each_states_its_rule(game: str, prefix: str) -> None:
    own = clauses_for(game)
    assert {c.id for c in own} == {i for i in CLAUSES if i.startswith(prefix)}
    for c in own:
        assert isinstance(c.statement, str) and c.statement.strip(), c.id
        assert c.confidence in ("H", "M", "L"), c.id
        assert isinstance(c.source, str) and c.source and isinstance(c.where, str) and c.where, c.id


@pytest.mark.parametrize("game", ["flip7", "vengeance"])
def test_a_reading_an_option_selects_names_that_option(game: str) -> None:
    options = game_definition(game).ruleset_class.OPTIONS
    readings = [(name, clause_id) for name, option in options.items() for clause_id in option.value_clauses.values()]
    assert readings  # each game has options whose values are readings of their own
    for name, clause_id in readings:
        assert CLAUSES[clause_id].option == name, clause_id
    for c in clauses_for(game):
        assert c.option is None or c.option in options or c.option == "deck", c.id
