"""The data between the package's rooms goes typed: a trace is read once, in ``flip7_spec/trace/`` (into a
:class:`~flip7_spec.trace.document.TraceDocument`), and an engine is driven through the
:class:`~flip7_spec.protocol.adapter.EngineAdapter` interface alone. The testing library and the HTML report
judge with :mod:`flip7_spec.judge`, below the conformance runner, and import nothing from it. These rules are
read from the source."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "flip7_spec"
TRACE_KEYS = frozenset({"header", "steps", "start", "footer"})
ENGINE_CLASSES = frozenset({"ProcessEngine", "ReferenceAdapter", "CallbackAdapter", "GuardedEngine"})
"""The concrete engines (checking that a user's object is an ``EngineAdapter`` at all is not a branch)."""
CONFORMANCE = "flip7_spec.conformance"


def raw_trace_reads(source: str) -> list[int]:
    """The lines that read a trace's top-level part by its key: ``x["header"]`` or ``x.get("steps")``."""
    def subscript(node: ast.AST) -> bool:
        return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
            node.slice.value in TRACE_KEYS and isinstance(node.ctx, ast.Load)

    def get(node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value in TRACE_KEYS

    return [node.lineno for node in ast.walk(ast.parse(source)) if subscript(node) or get(node)]  # type: ignore[attr-defined]


def engine_type_checks(source: str) -> list[int]:
    """The lines that branch on an engine's concrete class: ``isinstance(engine, ProcessEngine)`` and the like."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                and len(node.args) == 2:
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            if any(isinstance(k, ast.Name) and k.id in ENGINE_CLASSES for k in kinds):
                lines.append(node.lineno)
    return lines


def conformance_imports(source: str, package: str) -> list[int]:
    """The lines of a module of ``package`` (dotted) that import from ``flip7_spec.conformance``, wherever the
    import stands (module level, in a function, under ``if TYPE_CHECKING:``) and in whatever form (``import``,
    ``from ... import``, relative, ``from flip7_spec import conformance``, ``importlib.import_module``)."""
    def inside(name: str) -> bool:
        return name == CONFORMANCE or name.startswith(CONFORMANCE + ".")

    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(inside(alias.name) for alias in node.names):
            lines.add(node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            if inside(base) or any(inside(f"{base}.{alias.name}") for alias in node.names):
                lines.add(node.lineno)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and inside(node.args[0].value):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__"):
                lines.add(node.lineno)
    return sorted(lines)


def game_name_checks(source: str) -> list[int]:
    """The lines that compare a game's name with a literal: ``ruleset.game != "flip7"``, ``game == "vengeance"``,
    ``definition.name in ("flip7", ...)``. Outside a game's own folder such a test stands for a property of the
    game (its cards, its options), which the game's definition or its cards say instead."""
    from flip7_spec.registry import game_names

    names = set(game_names())

    def names_a_game(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(isinstance(e, ast.Constant) and e.value in names for e in node.elts)
        return False

    def is_game(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr in ("game", "game_name")) or \
            (isinstance(node, ast.Name) and node.id in ("game", "game_name"))

    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(is_game(side) for side in sides) and any(names_a_game(side) for side in sides):
                lines.append(node.lineno)
    return lines


def offenders(check: Callable[[str], list[int]], allowed: str) -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(allowed):
            continue
        found += [f"flip7_spec/{relative}:{line}" for line in check(path.read_text(encoding="utf-8"))]
    return found


def test_the_checks_find_what_they_look_for() -> None:
    assert raw_trace_reads('steps = trace["steps"]\nheader = trace.get("header")\nx = {"start": 1}') == [1, 2]
    assert raw_trace_reads('trace["steps"] = []\npath = ["start"]\nstep.get("decision")') == []
    assert engine_type_checks("if isinstance(engine, ProcessEngine): pass\n"
                              "ok = isinstance(e, (int, ReferenceAdapter))\nisinstance(x, dict)") == [1, 2]
    imports = ("import flip7_spec.conformance.session\n"
               "from flip7_spec.conformance.cases import part_of\n"
               "from flip7_spec import conformance\n"
               "if TYPE_CHECKING:\n    from flip7_spec.conformance import FAIL\n"
               "def later():\n    from ..conformance.report import json_report\n"
               "    return importlib.import_module('flip7_spec.conformance.runner')\n"
               "from flip7_spec.judge.runner import run_case\nfrom flip7_spec import judge\n"
               "import flip7_spec.conformances\nfrom .conformance import x\nfrom . import conformance\n")
    assert conformance_imports(imports, "flip7_spec.testing") == [1, 2, 3, 5, 7, 8]
    assert conformance_imports(imports, "flip7_spec") == [1, 2, 3, 5, 8, 12, 13]  # relative to the package root
    assert game_name_checks('if ruleset.game != "flip7": pass\nok = game == "vengeance"\n'
                            'x = self.game_name in ("flip7", "other")\nkind == "flip7"\n'
                            'left.game == right.game\n') == [1, 2, 3]


def test_no_module_outside_trace_reads_a_trace_by_its_raw_keys() -> None:
    """Readers take a TraceDocument (its table, steps, start and footer), read once at the border."""
    assert offenders(raw_trace_reads, "trace/") == []


def test_no_module_outside_the_games_tests_a_game_by_its_name() -> None:
    """What a game is (its cards, its options, its clauses) comes from its definition and its cards, so that a
    new game or card needs no edit of the core: no module outside ``games/`` asks "is this Flip 7?"."""
    assert offenders(game_name_checks, "games/") == []


def test_no_module_outside_protocol_branches_on_the_engine_class() -> None:
    """The runner, the workers and the testing library drive every engine through EngineAdapter's methods
    (``play_game``, ``decide_many``, ``stderr_through``, ``abort``), each engine overriding what it does its own
    way."""
    assert offenders(engine_type_checks, "protocol/") == []


def test_the_testing_library_and_the_html_report_import_nothing_from_conformance() -> None:
    """They judge with flip7_spec.judge (its outcomes and projections, the runner of one case, the lines that
    describe a result), which sits below the conformance runner: nothing of the corpus, the session or the
    reports comes with them."""
    found = []
    modules = 0
    for folder in ("testing", "htmlreport"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            modules += 1
            relative = path.relative_to(PACKAGE.parent)
            package = ".".join(relative.parent.parts)
            found += [f"{relative.as_posix()}:{line}"
                      for line in conformance_imports(path.read_text(encoding="utf-8"), package)]
    assert modules > 5
    assert found == []


def test_a_result_carries_its_parts_typed_with_no_bag_of_extra_keys() -> None:
    """Every part of a result (differences, observations, readings, blame, the hand, the last agreement) is a
    field of its own; nothing rides in an untyped dictionary beside them."""
    from dataclasses import fields

    from flip7_spec.results import CaseResult

    names = {f.name for f in fields(CaseResult)}
    assert "extra" not in names
    assert {"differences", "diagnosis", "causes", "blame", "last_agreed", "hand"} <= names


def test_every_path_the_architecture_names_exists() -> None:
    """docs/architecture.md says where things live and what to touch to add one ("To add ..., touch ..."):
    every path it names (relative to the repository, the package, or a game's folder) exists."""
    import re

    repo = PACKAGE.parent
    text = (repo / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]*)+)`", text))
    assert len(named) > 20
    roots = [repo, PACKAGE, *(path for path in (PACKAGE / "games").iterdir() if path.is_dir()), PACKAGE / "games"]
    missing = [path for path in sorted(named) if not any((root / path).exists() for root in roots)]
    assert missing == []


def _touch_table() -> dict[str, str]:
    """docs/architecture.md's "to add X, touch Y" table: what to add, and the cell naming what to touch."""
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text[text.index("| to add | touch | and then |"):]
    rows = [line.split("|")[1:-1] for line in table[:table.index("\n\n")].splitlines()[2:]]
    return {cells[0].strip(): cells[1] for cells in rows}


def test_the_touch_table_says_where_the_code_reads_what_is_added() -> None:
    """A row of the table is kept true where a test can: each game's file it names holds what a new card, option
    or misreading is added to; a policy is a built-in of the module named; a CLI command is any ``cmd_NAME.py``
    of the folder named, found by its name with no list to edit."""
    from flip7_spec.cli import cli
    from flip7_spec.registry import game_names

    rows = _touch_table()
    assert {"a card", "an option", "a misreading", "a game", "a policy", "a CLI command", "a report format of conform",
            "a protocol command", "a field of the trace", "a conformance level"} <= set(rows)
    for row, file, word in (("a card", "cards.py", "CardType("), ("an option", "ruleset.py", "OPTIONS"),
                            ("a misreading", "misreadings.py", "MISREADINGS")):
        assert f"`{file}`" in rows[row], (row, file)
        for game in game_names():
            folder = PACKAGE / "games" / game
            if folder.is_dir():  # a built-in game
                assert word in (folder / file).read_text(encoding="utf-8"), (row, game, file)
    assert "`flip7_spec/simulation/policies.py`" in rows["a policy"]
    from flip7_spec.simulation.policies import BUILT_INS
    assert "threshold" in BUILT_INS and "`BUILT_INS`" in rows["a policy"]
    assert "`flip7_spec/cli/`" in rows["a CLI command"]
    files = sorted(path.stem[4:] for path in (PACKAGE / "cli").glob("cmd_*.py"))
    assert cli.list_commands(None) == files  # type: ignore[arg-type]
