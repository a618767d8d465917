"""Mutant: cards set aside in a Flip Three are passed to another active player when the target busts,
instead of being discarded, breaking F7-FLIP3-SETASIDE-BUST.

This is the reading of seed 003 (ruleset option ``set_aside_on_bust = "pass_to_other_active"``), played
here whatever the ruleset says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-FLIP3-SETASIDE-BUST", "F7-SETASIDE-PASS-VARIANT"}
READINGS = {'set_aside_on_bust="pass_to_other_active"'}


class Engine(MutantAdapter):
    """The reference, always passing set-aside cards on."""

    forced_options: ClassVar[Mapping[str, Any]] = {"set_aside_on_bust": "pass_to_other_active"}


if __name__ == "__main__":
    serve(Engine())
