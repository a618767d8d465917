"""Mutant: the 0 does not count toward Flip 7 (seven different non-zero Numbers are needed), breaking
F7-FLIP7-ZERO.

A player holding the 0 and six other different Numbers has Flipped 7: the round ends and the bonus is
scored. This engine plays on and scores no bonus until a seventh non-zero value comes.
"""

from __future__ import annotations

from collections.abc import Sequence

from flip7_spec.cards import Card
from flip7_spec.games.flip7.engine import FlipThree
from flip7_spec.machine import BUSTED
from flip7_spec.play import score
from flip7_spec.protocol.server import serve
from flip7_spec.rulesets import Ruleset
from flip7_spec.scoring import FLIP7_SIZE
from tests.mutants._support import MutantAdapter, ScoredGame

CLAUSES = {"F7-FLIP7-ZERO", "F7-FLIP7", "F7-ROUND-END"}
READINGS = {"zero_not_for_flip7"}


class ZeroBlindGame(ScoredGame):
    """The reference game, counting only non-zero values toward Flip 7."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        ending = self._ending
        super()._receive(seat, drawn, flip3, via)
        values = self.players[seat].values
        if self._ending and not ending and len(values - {0}) < FLIP7_SIZE <= len(values):
            self._ending = False  # the bug: the 0 was not one of the seven


class Engine(MutantAdapter):
    """The reference, blind to the 0 when counting seven different Numbers."""

    game_class = ZeroBlindGame

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        parts = score(ruleset, hand, status == BUSTED)
        nonzero = {c.value for c in hand if c.is_number and c.value != 0}
        return parts.after_modifiers + (parts.bonus if len(nonzero) >= FLIP7_SIZE else 0)


if __name__ == "__main__":
    serve(Engine())
