"""The wheel's contents: every package is listed, the golden fixtures and the scoring hands ship."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path, PurePosixPath

from flip7_spec.bundled import examples_dir
from flip7_spec.fixtures import shipped_fixtures_dir

REPO = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "flip7_spec").rglob("__init__.py")}
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
    assert config["package-dir"]["flip7_spec.golden"] == "fixtures"


def test_the_shipped_fixtures_are_importable_as_a_package() -> None:
    folder = shipped_fixtures_dir()
    assert (folder / "flip7" / "bust-basic.json").is_file()
    assert (folder / "src" / "flip7" / "bust-basic.toml").is_file()


def test_the_example_engines_and_the_bibliography_ship_as_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"]["flip7_spec.examples"] == "examples"
    shipped = config["package-data"]["flip7_spec.examples"]
    for relative in ("js-engine/engine.js", "js-engine/flip7.js", "js-engine/shared.js", "js-engine/vengeance.js",
                     "js-engine/package.json", "flop7/engine.py", "rulesets/solitaire-blanks.toml"):
        assert (REPO / "examples" / relative).is_file()
        assert any(PurePosixPath(relative).match(pattern) for pattern in shipped), relative
    # what engine.js requires is shipped beside it
    required = re.findall(r"require\('\./([\w.]+?)(?:\.js)?'\)", (REPO / "examples/js-engine/engine.js").read_text())
    assert required and all(any(PurePosixPath(f"js-engine/{name}.js").match(p) or
                                PurePosixPath(f"js-engine/{name}").match(p) for p in shipped) for name in required)
    assert (examples_dir() / "js-engine" / "engine.js").is_file()
    assert "bibliography.toml" in config["package-data"]["flip7_spec"]
