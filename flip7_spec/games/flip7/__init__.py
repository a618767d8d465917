"""Flip 7, the base game (RULES.md part A): registers its definition on import.

- :mod:`.cards`: the kinds of its own cards and every card of its deck (text, kind, name, clauses);
- :mod:`.ruleset`: the deck, the options and the presets ``flip7`` and ``flip7-no-deal``;
- :mod:`.clauses`: the rule clauses (ids ``F7-...``);
- :mod:`.scoring`: round scoring and the check that a final hand can exist;
- :mod:`.engine`: :class:`~flip7_spec.games.flip7.engine.Flip7Game` and its frames;
- :mod:`.legality`: the choices the rules allow for a pending decision, read from an observation alone;
- :mod:`.misreadings`: the catalogue of known misreadings the diagnosis tries;
- :mod:`.play`: how the game reads to the core (roles, clauses behind decisions, a simple policy);
- :mod:`.symbolic`: the z3 model of its scoring (loaded only on demand).
"""

from __future__ import annotations

from typing import Any

from flip7_spec.games.flip7.cards import FLIP7_CARDS
from flip7_spec.games.flip7.clauses import FLIP7_CLAUSES
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.games.flip7.legality import flip7_legal_options
from flip7_spec.games.flip7.misreadings import MISREADINGS
from flip7_spec.games.flip7.play import (
    ROLES,
    WORKED_EXAMPLES,
    check_state,
    decision_clause,
    policy_choice,
    scoring_clause,
)
from flip7_spec.games.flip7.ruleset import GAME, Flip7Ruleset, flip7, flip7_challenge, flip7_no_deal
from flip7_spec.games.flip7.scoring import check_flip7_hand, flip7_round_score, flip7_score
from flip7_spec.games.flip7.witness import flip7_witness
from flip7_spec.registry import GameDefinition, register_game


def _symbolic() -> Any:
    from flip7_spec.games.flip7 import symbolic

    return symbolic.PLUGIN


DEFINITION = register_game(GameDefinition(
    name=GAME,
    title="Flip 7",
    game_class=Flip7Game,
    ruleset_class=Flip7Ruleset,
    presets=(("flip7", flip7), ("flip7-no-deal", flip7_no_deal), ("flip7-challenge", flip7_challenge)),
    clauses=FLIP7_CLAUSES,
    roles=ROLES,
    score=flip7_score,
    round_score=flip7_round_score,
    check_hand=check_flip7_hand,
    decision_clause=decision_clause,
    scoring_clause=scoring_clause,
    policy_choice=policy_choice,
    check_state=check_state,
    worked_examples=WORKED_EXAMPLES,
    symbolic=_symbolic,
    clause_witness=flip7_witness,
    cards=FLIP7_CARDS,
    legal_options=flip7_legal_options,
    default_preset=True,
    misreadings=MISREADINGS,
))
