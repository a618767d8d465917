"""The wheel's contents: every package is listed, the golden fixtures and the scoring hands ship."""

from __future__ import annotations

import tomllib
from pathlib import Path

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
