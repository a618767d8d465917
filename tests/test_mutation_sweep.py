"""The mutation sweep (tools/mutation_sweep.py) stays runnable as the code it mutates changes: each mutation's
text occurs exactly once in its file, and the mutated file still compiles (a mutant that cannot be imported
would count as killed for the wrong reason)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def sweep() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_sweep", ROOT / "tools" / "mutation_sweep.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutation_sweep", module)
    spec.loader.exec_module(module)
    return module


MUTATIONS = sweep().MUTATIONS


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m.id for m in MUTATIONS])
def test_each_mutation_applies_once_and_compiles(mutation: object) -> None:
    path = ROOT / mutation.path  # type: ignore[attr-defined]
    source = path.read_text(encoding="utf-8")
    assert source.count(mutation.before) == 1, f"{mutation.id}: its text is not found once in {mutation.path}"  # type: ignore[attr-defined]
    mutated = source.replace(mutation.before, mutation.after)  # type: ignore[attr-defined]
    assert mutated != source
    compile(mutated, str(path), "exec")


def mutmut_packages() -> list[object]:
    spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "tools" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutation_tool", module)
    spec.loader.exec_module(module)
    return list(module.PACKAGES)


@pytest.mark.parametrize("package", mutmut_packages(), ids=lambda p: p.name)  # type: ignore[attr-defined]
def test_each_mutmut_package_mutates_files_and_runs_tests_that_exist(package: object) -> None:
    """tools/mutation.py's packages stay runnable as files move: every glob matches a file, every test exists."""
    for pattern in package.files:  # type: ignore[attr-defined]
        assert list(ROOT.glob(pattern)), f"{package.name}: {pattern} matches nothing"  # type: ignore[attr-defined]
    for test in package.tests:  # type: ignore[attr-defined]
        assert (ROOT / test).is_file(), f"{package.name}: no {test}"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("killed", "tested", "low", "high"), [
    # Wilson's interval, worked by hand from its formula with z = 1.96 (Newcombe 1998, table I: 81/263 gives
    # 0.2553 to 0.3662; 0/10 gives 0 to 0.2775)
    (81, 263, 0.2553, 0.3662),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
])
def test_a_sampled_score_is_given_with_its_wilson_interval(killed: int, tested: int, low: float, high: float) -> None:
    module = sys.modules["mutation_tool"]
    assert module.wilson(killed, tested) == pytest.approx((low, high), abs=5e-5)


def test_the_copy_mutmut_runs_in_holds_the_shipped_data_where_the_package_looks_for_it(tmp_path: Path) -> None:
    """The tests in mutmut's copy run against the copy's own flip7_spec, which finds its shipped fixtures and
    example engines as a wheel install does (flip7_spec/golden, flip7_spec/examples), whatever the
    interpreter has installed."""
    module = sys.modules["mutation_tool"]
    module.prepare(ROOT, module.BY_NAME["analysis"], tmp_path)
    assert (tmp_path / "flip7_spec" / "golden" / "flip7").is_dir()
    assert (tmp_path / "flip7_spec" / "examples" / "js-engine" / "engine.js").is_file()
    assert "[tool.mutmut]" in (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
