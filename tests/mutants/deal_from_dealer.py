"""Mutant: the deal and the Hit/Stay offers start at the Dealer instead of the Dealer's left, breaking
F7-DEAL-ORDER.

This is the reading of a German quick-start (ruleset option ``deal_start = "dealer"``), played here
whatever the ruleset says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-DEAL-ORDER", "F7-DEAL"}
READINGS = {'deal_start="dealer"'}


class Engine(MutantAdapter):
    """The reference, dealing from the Dealer."""

    forced_options: ClassVar[Mapping[str, Any]] = {"deal_start": "dealer"}


if __name__ == "__main__":
    serve(Engine())
