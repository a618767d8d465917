"""Flip 7: With a Vengeance (RULES.md part B): registers its definition on import.

- :mod:`.cards`: the kinds of its own cards and every card of its decks (text, kind, name, clauses);
- :mod:`.ruleset`: the decks, the options and the presets ``vengeance`` and ``vengeance-basic``;
- :mod:`.clauses`: the rule clauses (ids ``V-...``);
- :mod:`.scoring`: round scoring and the check that a final hand can exist;
- :mod:`.rows`: card references into a player's row and the choices that list them;
- :mod:`.engine`: :class:`~flip7_spec.games.vengeance.engine.VengeanceGame` and its frames;
- :mod:`.legality`: the choices the rules allow for a pending decision, read from an observation alone;
- :mod:`.misreadings`: the catalogue of known misreadings the diagnosis tries;
- :mod:`.play`: how the game reads to the core (roles, clauses behind decisions, a simple policy);
- :mod:`.symbolic`: the z3 model of its scoring (loaded only on demand).
"""

from __future__ import annotations

from typing import Any

from flip7_spec.events import Status
from flip7_spec.games.vengeance.cards import VENGEANCE_CARDS
from flip7_spec.games.vengeance.clauses import VENGEANCE_CLAUSES
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.games.vengeance.legality import vengeance_legal_options
from flip7_spec.games.vengeance.misreadings import MISREADINGS
from flip7_spec.games.vengeance.play import ROLES, decision_clause, policy_choice, scoring_clause
from flip7_spec.games.vengeance.ruleset import GAME, VengeanceRuleset, vengeance, vengeance_basic
from flip7_spec.games.vengeance.scoring import check_vengeance_hand, vengeance_score
from flip7_spec.games.vengeance.witness import vengeance_witness
from flip7_spec.registry import GameDefinition, register_game


def _symbolic() -> Any:
    from flip7_spec.games.vengeance import symbolic

    return symbolic.PLUGIN


def _round_score(ruleset: VengeanceRuleset, hand: Any, busted: bool) -> int:
    return vengeance_score(ruleset, hand, busted).total


DEFINITION = register_game(GameDefinition(
    name=GAME,
    title="Flip 7: With a Vengeance",
    game_class=VengeanceGame,
    ruleset_class=VengeanceRuleset,
    presets=(("vengeance", vengeance), ("vengeance-basic", vengeance_basic)),
    clauses=VENGEANCE_CLAUSES,
    roles=ROLES,
    score=vengeance_score,
    round_score=_round_score,
    check_hand=check_vengeance_hand,
    decision_clause=decision_clause,
    scoring_clause=scoring_clause,
    policy_choice=policy_choice,
    statuses=frozenset({Status.ACTIVE, Status.STAYED, Status.BUSTED}),  # [V-NO-BASE-CARDS] no Freeze
    scores_below_zero=lambda ruleset: ruleset.brutal_mode or ruleset.negative_scores,  # [V-SCORE-FLOOR]
    symbolic=_symbolic,
    misreadings=MISREADINGS,
    clause_witness=vengeance_witness,
    cards=VENGEANCE_CARDS,
    legal_options=vengeance_legal_options,
))
