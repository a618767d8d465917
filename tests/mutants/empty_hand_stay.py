"""Mutant: a player with no card in front of them is offered Stay, breaking F7-STAY-NEEDS-CARD.

You may Stay only with at least one card in front of you; with none, Hit is the only choice, so the
reference deals without asking. This engine asks Hit or Stay, and a Stay banks 0.
"""

from __future__ import annotations

from flip7_spec.events import HIT, STAY, Decision
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.protocol.server import serve
from tests.mutants._support import MutantAdapter

CLAUSES = {"F7-STAY-NEEDS-CARD", "F7-FORCED-CHOICE"}
READINGS = {"stay_with_no_cards"}


class EmptyStayGame(Flip7Game):
    """The reference game, offering Stay to an empty-handed player."""

    def _forced(self, decision: Decision, clause: str) -> None:
        if clause == "F7-STAY-NEEDS-CARD":
            self._ask(Decision(decision.player, decision.kind, (HIT, STAY), decision.card))  # the bug
            return
        super()._forced(decision, clause)


class Engine(MutantAdapter):
    """The reference, letting a player with no cards Stay."""

    game_class = EmptyStayGame


if __name__ == "__main__":
    serve(Engine())
