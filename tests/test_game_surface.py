"""What a ``Game`` shows (flip7_spec/machine.py, docs/architecture.md "The machine and its hooks"): its public
names are the ones its docstring lists, the machinery starts with an underscore, and a misreading overrides only
the hooks the machine or its game defines, each ``Game`` hook among them documented as the extension surface."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from flip7_spec.machine import Game
from flip7_spec.misreadings import Misreading
from flip7_spec.play import make_game
from flip7_spec.registry import game_definition, game_names
from flip7_spec.rulesets import preset

ROOT = Path(__file__).resolve().parent.parent


def _started_games() -> list[Game]:
    games = []
    for name in game_names():
        rules = preset(name)
        game = make_game(rules, 3, rules.deck_cards(3), 0)
        game.start()
        games.append(game)
    return games


def test_every_public_name_of_a_game_is_in_its_docstring() -> None:
    documented = set(re.findall(r"``(\w+)``|:(?:attr|meth):`(\w+)`", Game.__doc__ or ""))
    named = {a or b for a, b in documented} | {"CLAUSES", "FINISH_ACTIONS"}  # documented where declared
    rules = preset("flip7")
    machine = Game(rules, 3, 0, rules.deck_cards(3))  # the machine's own names, none of a game's
    public = {name for name in dir(machine) if not name.startswith("_")}
    assert public <= named, sorted(public - named)
    assert {"pending", "apply", "players", "pile", "history", "last_scores", "on_round_end"} <= public


def test_the_machinery_is_private_and_its_old_names_give_the_same_objects_with_a_warning() -> None:
    for game in _started_games():
        assert isinstance(game._stack, list) and game._stack  # a started game has unfinished work
        for old in ("stack", "active", "ending", "reshuffles"):
            with pytest.warns(DeprecationWarning, match=f"Game.{old} is deprecated: .* use Game._{old}"):
                value = getattr(game, old)
            assert value is getattr(game, f"_{old}"), old
        with pytest.warns(DeprecationWarning, match=r"Game.ending is deprecated: .* use Game._ending"):
            game.ending = game._ending  # an old plug-in's write reaches the machine's own attribute
        assert "ending" not in vars(game)


def _misreading_classes() -> list[type[Game]]:
    found: list[type[Game]] = []
    for name in game_names():
        entries: Sequence[Misreading] = game_definition(name).misreadings
        found += [cls for entry in entries for cls in inspect.getmro(entry.mixin)
                  if issubclass(cls, Game) and cls.__module__.endswith("misreadings")]
    return found


def test_a_misreading_overrides_only_hooks_that_exist() -> None:
    for cls in _misreading_classes():
        own = {name for name, value in vars(cls).items() if callable(value) and not name.startswith("__")}
        inherited = {name for klass in inspect.getmro(cls)[1:] for name in vars(klass)}
        assert own & inherited, f"{cls.__qualname__} overrides nothing of the reference"
        # a method nothing above it defines is the misreading's own helper, called from an override: private
        helpers = sorted(name for name in own - inherited if not name.startswith("_"))
        assert not helpers, (cls.__qualname__, helpers)


def test_every_game_hook_a_misreading_overrides_is_in_the_extension_surface_table() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text[text.index("**The extension surface.**"):]
    table = table[:table.index("\n\n", table.index("| protected method |"))]
    machine_hooks = {name for name in vars(Game) if callable(vars(Game)[name]) and not name.startswith("__")}
    overridden = {name for cls in _misreading_classes() for name in vars(cls) if name in machine_hooks}
    assert overridden, "no misreading overrides a machine hook"
    missing = sorted(name for name in overridden if f"`{name}" not in table)
    assert not missing, f"docs/architecture.md's extension surface does not name {missing}"
