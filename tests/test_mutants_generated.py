"""The default generated corpus alone (``conform --no-fixtures --no-scoring``, every default otherwise) catches
every mutant engine of ``tests/mutants/``: the aimed games reach the states the hand-written cases used to be
needed for (a Flip 7 with an x2, a tie at the target, set-aside cards of a busted Flip Three, ...).

The whole sweep is slow (about 5 to 15 s a mutant, 31 mutants) and runs with ``-m slow``; the default run keeps
three mutants whose bug only shows in a rare state, which the plain generated games miss.
"""

from __future__ import annotations

import pytest

from flip7_spec.conformance import FAIL
from flip7_spec.conformance.session import Corpus, EngineSpec, run
from tests.mutants import MUTANTS

RARE = ("x2_doubles_bonus", "tie_ends_game", "v_halve_bonus")
"""Mutants whose bug needs a rare state (a Flip 7 with an x2 or a /2, a tie at the target): the 40 plain
generated games of seed 0 do not catch them."""


def caught(name: str) -> list[str]:
    """The failing cases of the default generated corpus (seed 0) against mutant ``name``."""
    corpus = Corpus(games=40, seed="0", scoring=False, fixtures=None)
    _, results, _ = run(EngineSpec(python=f"tests.mutants.{name}:Engine"), corpus)
    return [f"{r.case_id} [{r.level}] {r.clause}" for r in results if r.outcome == FAIL]


@pytest.mark.parametrize("name", RARE)
def test_the_default_generated_corpus_catches_a_rare_state_mutant(name: str) -> None:
    assert caught(name), f"no generated case failed against {name}"


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in MUTANTS if n not in RARE])
def test_the_default_generated_corpus_catches_every_mutant(name: str) -> None:
    assert caught(name), f"no generated case failed against {name}"
