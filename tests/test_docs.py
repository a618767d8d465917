"""The README's library example runs as written, and the public API's doctests hold."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import flip7_spec
import flip7_spec.play

README = Path(__file__).resolve().parent.parent / "README.md"


def library_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Library"):]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's Library section has no python block"
    return match.group(1)


def test_the_readme_library_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(library_example(), "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "72"  # the rule book's worked example: (3+11+5+7+10) x2
    assert "hit_or_stay" in printed[0]


@pytest.mark.parametrize("module", [flip7_spec, flip7_spec.play], ids=lambda m: m.__name__)
def test_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module, raise_on_error=False, verbose=False)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0
