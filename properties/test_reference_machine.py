"""The stateful machine over the reference (flip7_spec.testing.ReferenceMachine): Hypothesis-chosen
decisions and reshuffles, with conservation, decision consistency, monotone totals, canonical observations,
a pure ``Game.after`` and an independent ``Game.copy`` checked after every step."""

import pytest

from flip7_spec.testing import ReferenceMachine

pytestmark = pytest.mark.clause("F7-DECK", "F7-GAME-END", "F7-FORCED-CHOICE", "F7-BANK", "F7-RESHUFFLE",
                                "F7-RESHUFFLE-TABLE-STAYS")

TestReferenceMachine = ReferenceMachine.TestCase
