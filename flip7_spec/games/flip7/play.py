"""How Flip 7 reads to the core: the clause behind each role, each decision and each scored row, and a simple
sensible choice for its decisions (what simulated players use)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from flip7_spec.events import Choice, Decision, DecisionKind, Status
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.machine import Game
from flip7_spec.registry import Role, WorkedExample
from flip7_spec.simulation.policies import leader

ROLES: Final[Mapping[Role, str]] = {
    Role.DECK: "F7-DECK",
    Role.HIT_STAY: "F7-HIT-STAY",
    Role.STAY_MINIMUM: "F7-STAY-NEEDS-CARD",
    Role.ACTION_TARGET: "F7-ACTION-TARGET",
    Role.BUST: "F7-BUST",
    Role.FLIP7: "F7-FLIP7",
    Role.OUT_OF_ROUND: "F7-FREEZE",
    Role.SCORE: "F7-SCORE",
    Role.SCORE_BUST: "F7-SCORE-BUST",
    Role.BANK: "F7-BANK",
    Role.DISCARD_PILE: "F7-DISCARD-PILE",
    Role.RESHUFFLE: "F7-RESHUFFLE",
    Role.ROUND_END: "F7-ROUND-END",
    Role.ALL_OUT: "F7-ALL-BUST",
    Role.DEALER_ROTATION: "F7-DEALER-ROTATION",
    Role.GAME_END: "F7-GAME-END",
    Role.WINNER: "F7-WINNER",
    Role.TIE: "F7-TIE",
}

# The official worked examples (RULES.md A.1#17), with the totals the rule book prints.
WORKED_EXAMPLES: Final = (
    WorkedExample("official-sum", "3 11 5 7 10", 36, "F7-SCORE"),
    WorkedExample("official-x2", "3 11 5 7 10 x2", 72, "F7-MOD-X2"),
    WorkedExample("official-plus10", "3 11 5 7 10 +10", 46, "F7-MOD-ADD"),
    WorkedExample("official-flip7", "3 11 5 7 10 9 4", 64, "F7-FLIP7-BONUS", ("flip7_bonus",)),
)

_DECISION_CLAUSES: Final[Mapping[str, str]] = {
    DecisionKind.TARGET: "F7-ACTION-TARGET",
    DecisionKind.GIVE: "F7-CHANCE-GIVE",
    DecisionKind.ASSIGN: "F7-FLIP3-ASSIGN",
}


def decision_clause(kind: str, card: str) -> str | None:
    """The clause that sets the options of a pending decision of ``kind`` (None: the Hit/Stay turn)."""
    return _DECISION_CLAUSES.get(kind)


def scoring_clause(row: Mapping[str, Any]) -> str:
    """The most specific scoring clause for a row (``cards`` and ``status``) as an observation shows it."""
    hand, status = row.get("cards", []), row.get("status")
    if status == "busted":
        return "F7-SCORE-BUST"
    if status == "frozen":
        return "F7-FREEZE"
    if any(isinstance(c, str) and c[:1] == "x" for c in hand):
        return "F7-MOD-X2"
    if any(isinstance(c, str) and c[:1] == "+" for c in hand):
        return "F7-MOD-ADD"
    return "F7-SCORE"


def policy_choice(game: Game, decision: Decision) -> Choice:
    """Aim Freeze and Flip Three (and set-aside cards) at the leading opponent; give a spare Second Chance to
    the trailing one."""
    options = decision.options
    if decision.kind == DecisionKind.GIVE:
        return min(options, key=lambda s: (game.totals[s], s))
    if decision.kind in (DecisionKind.TARGET, DecisionKind.ASSIGN):
        return leader(game, options, decision.player)
    return options[0]


def check_state(game: Game) -> None:
    """Flip 7's own invariants of a state at a decision (raises AssertionError): decisions are asked of
    active players about active players, and a spare Second Chance goes to another active player without one."""
    assert isinstance(game, Flip7Game)
    pending = game.pending
    if pending is None:
        return
    statuses = [p.status for p in game.players]
    options = pending.options
    # only active players decide, except that under the seed-003 variant the busted target of a Flip Three
    # assigns its set-aside cards to other players (F7-SETASIDE-PASS-VARIANT)
    passing = pending.kind == DecisionKind.ASSIGN and game.ruleset.set_aside_on_bust == "pass_to_other_active"
    assert passing or statuses[pending.player] is Status.ACTIVE, \
        f"{pending.kind} decision asked of seat {pending.player}, which is {statuses[pending.player]}"
    if pending.kind in (DecisionKind.TARGET, DecisionKind.ASSIGN):
        assert all(statuses[s] is Status.ACTIVE for s in options), f"{pending.kind} offers inactive seats"
    if pending.kind == DecisionKind.GIVE:
        assert pending.player not in options and all(
            statuses[s] is Status.ACTIVE and not game.players[s].has_chance for s in options), \
            f"give offers {options}, not other active players without a Second Chance"
