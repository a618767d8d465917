"""Old module paths keep working (flip7_spec/moved.py): each re-exports the public names of the module that took its
place and warns once, naming the new path; the package's own code, tests and tools import the new paths only."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from flip7_spec.moved import MOVED, RENAMED
from flip7_spec.rulesets import preset
from flip7_spec.simulation.policy_specs import make_policy
from flip7_spec.simulation.simulate import game_rng, play_game

ROOT = Path(__file__).resolve().parent.parent


def _fresh_import(name: str) -> tuple[object, list[warnings.WarningMessage]]:
    """Import ``name`` as a first import would, with every warning it emits."""
    sys.modules.pop(name, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(name)
        importlib.import_module(name)  # a second import runs nothing: the warning is once per process
    return module, caught


def _defined_public_names(module_name: str) -> set[str]:
    """The names ``module_name``'s own source defines at top level (functions, classes, assignments) that do
    not start with an underscore."""
    path = ROOT / (module_name.replace(".", "/") + ".py")
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_once_naming_the_new_one(old: str) -> None:
    _, caught = _fresh_import(old)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert MOVED[old] in str(caught[0].message) and old in str(caught[0].message)


def test_a_script_importing_an_old_path_is_shown_the_warning_at_its_own_line(tmp_path: Path) -> None:
    # Python's default filters show a DeprecationWarning only when it is attributed to __main__: the warning
    # must name the script's import line, not the import machinery or the old module itself
    script = tmp_path / "mine.py"
    script.write_text("import flip7_spec\nfrom flip7_spec.policy_view import PlayerView\n"
                      "print(PlayerView.__module__)\n", encoding="utf-8")
    ran = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=60)
    assert ran.stdout.strip() == "flip7_spec.simulation.policy_view"
    assert ran.stderr.startswith(f"{script}:2: DeprecationWarning: flip7_spec.policy_view is deprecated: "
                                 "import flip7_spec.simulation.policy_view instead")


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_re_exports_every_public_name_of_the_new_module(old: str) -> None:
    module, _ = _fresh_import(old)
    new = importlib.import_module(MOVED[old])
    public = set(new.__all__)
    # __all__ holds every name the module defines (and may hand on one the old module handed on)
    assert _defined_public_names(MOVED[old]) <= public
    # (pytest's assertion rewriting, which this package's pytest plugin brings in, adds names like '@py_...')
    exported = {name for name in vars(module)
                if name.isidentifier() and not name.startswith("_") and name != "warn_moved"}
    assert exported == public
    assert all(getattr(module, name) is getattr(new, name) for name in public)


def test_a_user_policy_file_written_against_the_old_paths_still_plays(tmp_path: Path) -> None:
    bot = tmp_path / "old_bot.py"
    bot.write_text("from flip7_spec.policy_view import PlayerView\n\n"
                   "def decide(view: PlayerView):\n"
                   "    if view.kind == 'hit_or_stay':\n"
                   "        return 'stay' if view.round_score >= 15 else 'hit'\n"
                   "    return None\n", encoding="utf-8")
    sys.modules.pop("flip7_spec.policy_view", None)
    with pytest.warns(DeprecationWarning, match="flip7_spec.simulation.policy_view"):
        policy = make_policy(f"{bot}:decide")
    rules = preset("flip7")
    # the same game as the built-in rule it spells out: stay at 15 points (every other choice left to
    # threshold:20, whose choices other than hit or stay are the game's own, as threshold:15's are)
    mine = play_game(rules, 3, policy, game_rng("old-paths", 0))
    built_in = play_game(rules, 3, make_policy("threshold:15"), game_rng("old-paths", 0))
    assert mine.totals == built_in.totals and mine.round == built_in.round


def _old_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name in MOVED]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [node.module] if node.module in MOVED else []
            found += [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MOVED]
    return found


def test_the_project_imports_no_old_path() -> None:
    shims = {ROOT / (old.replace(".", "/") + ".py") for old in MOVED}
    offenders = {}
    for folder in ("flip7_spec", "tests", "properties", "tools", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path not in shims and (names := _old_imports(path)):
                offenders[str(path.relative_to(ROOT))] = names
    assert not offenders, offenders



@pytest.mark.parametrize("module_name", ["flip7_spec.analysis", "flip7_spec.analysis.solitaire"])
def test_the_old_name_of_the_solitaire_hand_still_works_and_warns(module_name: str) -> None:
    module = importlib.import_module(module_name)
    message = rf"{module_name}\.Hand is deprecated: use {module_name}\.SolitaireHand"
    with pytest.warns(DeprecationWarning, match=message):
        old = module.Hand
    assert old is module.SolitaireHand
    assert old(frozenset({3, 5}), 8, 2, 4, 3).round_score == 8 * 2 + 4  # Numbers times the x2, plus the +4
    with pytest.raises(AttributeError, match="no attribute 'Pocket'"):
        module.Pocket  # noqa: B018  (a name that never was fails as on any module)


@pytest.mark.parametrize("module_name, old, new", [(m, o, n) for m, names in sorted(RENAMED.items())
                                                  for o, n in sorted(names.items())])
def test_every_old_name_is_the_new_object_with_a_warning(module_name: str, old: str, new: str) -> None:
    module = importlib.import_module(module_name)
    with pytest.warns(DeprecationWarning, match=rf"{module_name}\.{old} is deprecated: use {module_name}\.{new}"):
        value = getattr(module, old)
    assert value is getattr(module, new)
