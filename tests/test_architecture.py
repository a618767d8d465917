"""The package's import graph, read from the source: no cycles, and no core module imports a game package.

Every ``import`` counts, at module level or inside a function (a lazy import is still a dependency), except
those under ``if TYPE_CHECKING:``, which never run. An edge goes to the module named (``from a.b import c``
is an edge to ``a.b.c`` when that is a module, else to ``a.b``), not to the packages on its way.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "flip7_spec"
ROOT = "flip7_spec"
GAMES = "flip7_spec.games"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path, known: set[str], type_only: bool = False) -> set[str]:
    """The package modules ``name`` imports when it runs (module level or in a function body); with
    ``type_only``, also those it imports for the type checker alone."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node) and not type_only:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith(ROOT))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            if base.startswith(ROOT):
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {target for target in found if target in known and target != name}


def import_graph(type_only: bool = False) -> dict[str, set[str]]:
    known = modules()
    names = set(known)
    return {name: imports_of(name, path, names, type_only) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def connect(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                connect(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def is_core(name: str) -> bool:
    """Every module but the game packages and the public face that loads them."""
    return name != ROOT and not (name == GAMES or name.startswith(GAMES + "."))


def test_the_graph_is_read_from_the_code() -> None:
    graph = import_graph()
    assert "flip7_spec.machine" in graph["flip7_spec.games.flip7.engine"]
    assert "flip7_spec.games" in graph[ROOT]
    assert "flip7_spec.registry" in graph["flip7_spec.play"]


def test_the_import_graph_has_no_cycles() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_even_the_imports_for_the_type_checker_alone_form_no_cycle() -> None:
    # an import under ``if TYPE_CHECKING:`` never runs, but a loop through one still ties two modules'
    # meanings together: each layer's types come from below it
    graph = import_graph(type_only=True)
    assert graph["flip7_spec.symbolic.plugin"] >= {"flip7_spec.symbolic.theorems"}  # such imports are read
    found = cycles(graph)
    assert not found, "import cycles through type-only imports: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_core_module_imports_a_game_package() -> None:
    graph = import_graph()
    offenders = {name: sorted(t for t in targets if t == GAMES or t.startswith(GAMES + "."))
                 for name, targets in graph.items() if is_core(name)}
    assert not {k: v for k, v in offenders.items() if v}, offenders


def test_a_game_package_imports_no_other_game() -> None:
    graph = import_graph()
    for name, targets in graph.items():
        if not name.startswith(GAMES + "."):
            continue
        game = name.split(".")[2]
        others = sorted(t for t in targets if t.startswith(GAMES + ".") and t.split(".")[2] != game)
        assert not others, f"{name} imports another game: {others}"


def test_cycle_detection_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_core_prover_names_no_game() -> None:
    # flip7_spec.symbolic is the game-neutral prover: each game's model, theorems and misreadings live in its
    # own package, so no game's name, title, preset or clause id appears in the prover's source
    from flip7_spec.registry import game_definition, game_names

    sources = {path.name: path.read_text(encoding="utf-8") for path in (PACKAGE / "symbolic").glob("*.py")}
    assert "theorems.py" in sources and "misreadings.py" in sources
    for name in game_names():
        definition = game_definition(name)
        words = {name, definition.title, *(preset for preset, _ in definition.presets),
                 *(clause.id for clause in definition.clauses)}
        for file, text in sources.items():
            named = sorted(w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text))
            assert not named, f"flip7_spec/symbolic/{file} names the game {name}: {named}"
