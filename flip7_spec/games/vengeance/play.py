"""How Flip 7: With a Vengeance reads to the core: the clause behind each role, each decision and each scored
row, and a simple sensible choice for its decisions (what simulated players use)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from flip7_spec.events import Choice, Decision, DecisionKind
from flip7_spec.machine import Game
from flip7_spec.registry import Role
from flip7_spec.simulation.policies import leader

ROLES: Final[Mapping[Role, str]] = {
    Role.DECK: "V-DECK",
    Role.HIT_STAY: "V-HIT-STAY",
    Role.STAY_MINIMUM: "V-STAY-MINIMUM",
    Role.ACTION_TARGET: "V-ACTION-TARGET",
    Role.BUST: "V-BUST",
    Role.FLIP7: "V-FLIP7",
    Role.OUT_OF_ROUND: "V-STAY-NO-BANK",
    Role.SCORE: "V-SCORE",
    Role.SCORE_BUST: "V-SCORE-BUST",
    Role.BANK: "V-BANK",
    Role.DISCARD_PILE: "V-NEXT-ROUND",
    Role.RESHUFFLE: "V-RESHUFFLE",
    Role.ROUND_END: "V-ROUND-END",
    Role.ALL_OUT: "V-ROUND-END",
    Role.DEALER_ROTATION: "V-NEXT-ROUND",
    Role.GAME_END: "V-GAME-END",
    Role.WINNER: "V-WINNER",
    Role.TIE: "V-TIE",
}

_CARD_CHOICE_CLAUSES: Final = {"STEAL": "V-STEAL", "DISCARD": "V-DISCARD"}


def decision_clause(kind: str, card: str) -> str | None:
    """The clause that sets the options of a pending decision of ``kind`` about ``card`` (None: the Hit/Stay
    turn)."""
    if kind == DecisionKind.TARGET and card[:1] in ("-", "/"):
        return "V-MOD-TARGET"  # a Modifier's receiver
    if kind in (DecisionKind.CARD, DecisionKind.SWAP):
        return _CARD_CHOICE_CLAUSES.get(card, "V-SWAP")
    if kind == DecisionKind.TARGET and not card:
        return "V-BRUTAL-FLIP7"  # the one target decision about no card: whom a Brutal Mode Flip 7's 15 points go to
    if kind == DecisionKind.TARGET:
        return "V-ACTION-TARGET"
    return None


def scoring_clause(row: Mapping[str, Any]) -> str:
    """The most specific scoring clause for a row (``cards`` and ``status``) as an observation shows it."""
    return "V-SCORE-BUST" if row.get("status") == "busted" else "V-SCORE"


def policy_choice(game: Game, decision: Decision) -> Choice:
    """Aim a target at the leading opponent; for a card or a pair of cards, take the first legal option that
    touches only opponents' rows."""
    options = decision.options
    if decision.kind == DecisionKind.TARGET:
        return leader(game, options, decision.player)
    for option in options:
        refs = option if isinstance(option, list) else [option]
        if all(isinstance(r, dict) and r.get("player") != decision.player for r in refs):
            return option
    return options[0]
