"""The ``legal`` level's judge of each offered decision, at the engine's own state.

The step-by-step comparison of a case sees an engine's legal choices only while everything else agrees with
the reference: past the first divergence (one unexplained deviation, say) it cannot tell a legal offer from an
illegal one. The judge needs no reference: each game's ``GameDefinition.legal_options`` reads the choices the
rules allow from the engine's own observation, so every decision the engine offers, before or after a
divergence, is held to the rules. This module applies it to the observations of a case and names the clause
of the first decision whose offered choices are not those the rules allow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec.events import STAY, Choice, DecisionKind
from flip7_spec.registry import GameDefinition, Role, definition_of
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.compare import canonical

Judge = Callable[[Mapping[str, Any]], "list[Choice] | None"]
"""The choices the rules allow for an observation's pending decision, or None when it cannot say."""


@dataclass(frozen=True, slots=True)
class IllegalOffer:
    """A decision an engine offered with other choices than the rules allow."""

    position: int
    """Where, among the engine's observations of the case: 0 the start, ``k`` the one after decision ``k``."""
    allowed: list[Choice]
    """The choices the rules allow, in the canonical order."""
    offered: Any
    """The engine's ``pending.options``, as it sent them."""
    clause: str
    """The clause that sets the options of that kind of decision in the game."""
    observation: Mapping[str, Any]
    """The engine's observation."""

    def allowed_observation(self) -> dict[str, Any]:
        """The engine's observation with the choices the rules allow in place of those it offered: what a
        correct engine shows in that state."""
        pending = self.observation["pending"]
        return {**self.observation, "pending": {**pending, "options": list(self.allowed)}}


def judge(ruleset: Ruleset) -> Judge | None:
    """The judge of ``ruleset``'s game under the rules ``ruleset`` plays (its option deviations applied), or
    None when it has none to give: the ruleset plays catalogue misreadings (a fingerprint), whose legal choices
    the rules do not say."""
    if ruleset.misreadings():
        return None
    played = ruleset.played()
    legal_options = definition_of(played).legal_options
    return lambda observation: legal_options(played, observation)


def first_illegal_offer(ruleset: Ruleset, observations: Sequence[Any]) -> IllegalOffer | None:
    """The first of ``observations`` (an engine's, in order) whose pending decision offers other choices than
    the game's judge says the rules allow under ``ruleset``; decisions the judge cannot judge (it says None)
    are passed over. None when every judged decision offers exactly the allowed choices, in the canonical order
    (compared as exact JSON: ``1``, ``1.0`` and ``true`` differ)."""
    allowed_of = judge(ruleset)
    if allowed_of is None:
        return None
    definition = definition_of(ruleset)
    for position, observation in enumerate(observations):
        if not isinstance(observation, Mapping) or not isinstance(observation.get("pending"), Mapping):
            continue
        allowed = allowed_of(observation)
        offered = observation["pending"].get("options")
        if allowed is None or canonical(allowed) == canonical(offered):
            continue
        pending = observation["pending"]
        clause = decision_clause(definition, str(pending.get("kind")), pending.get("card"), allowed)
        return IllegalOffer(position, allowed, offered, clause, observation)
    return None


def decision_clause(definition: GameDefinition, kind: str, card: Any, allowed: Sequence[Choice]) -> str:
    """The clause of ``definition``'s game that sets the options of a decision of ``kind`` about ``card``: the
    game's own answer, else, for the Hit-or-Stay turn, the clause of who may Stay when the rules allow no Stay
    there and the Hit-or-Stay clause otherwise."""
    clause = definition.decision_clause(kind, card if isinstance(card, str) else "")
    if clause is not None:
        return clause
    if kind == DecisionKind.HIT_OR_STAY and STAY not in allowed:
        return definition.clause_of(Role.STAY_MINIMUM)
    return definition.clause_of(Role.HIT_STAY)


__all__ = ["IllegalOffer", "Judge", "decision_clause", "first_illegal_offer", "judge"]
