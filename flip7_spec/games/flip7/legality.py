"""The choices the Flip 7 rules allow for a pending decision, read from the canonical observation alone.

This is the ``legal`` conformance level's judge: it holds every decision an engine offers to the rules, at the
engine's own state, whatever happened before. It is written from the rules (RULES.md A.1 #6-#7, #12-#15,
A.2 #2-#6, #8, #14) and the protocol's canonical order (options in ascending seat order), not from the
reference's frames. In Flip 7 everything these choices depend on is on the table: the statuses, and who holds
a Second Chance (it sits in front of its holder until it is used or the round ends).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flip7_spec.events import HIT, STAY, Choice, DecisionKind, Status
from flip7_spec.games.flip7.cards import FLIP_THREE, FREEZE, SECOND_CHANCE
from flip7_spec.games.flip7.ruleset import Flip7Ruleset
from flip7_spec.observed import read_decision

_ACTIONS = frozenset({FREEZE, FLIP_THREE})


def flip7_legal_options(ruleset: Flip7Ruleset, observation: Mapping[str, Any]) -> list[Choice] | None:
    """The legal choices of ``observation``'s pending decision under ``ruleset``, in the canonical order, or
    None when there is nothing to judge: no decision pending, an observation that is not canonical, or a
    decision Flip 7 never asks (a kind or a card it has no such decision about).

    A decision with one legal choice is made by the engine, never asked: the one choice is still returned, so
    that an engine asking it with a second, illegal one is caught.
    """
    seen = read_decision(observation)
    if seen is None:
        return None
    kind, about = seen.kind, seen.card
    active = seen.seats(Status.ACTIVE)
    if kind == DecisionKind.HIT_OR_STAY and about is None:
        # [F7-HIT-STAY] Hit or Stay; [F7-STAY-MODIFIERS-ONLY] [F7-STAY-CHANCE-ONLY] any card in front of you
        # allows a Stay (the deal turn of F7-DEAL-STAY-INSTEAD too); [F7-STAY-NEEDS-CARD] none: Hit only
        return [HIT, STAY] if seen.rows[seen.player].cards else [HIT]
    if about is None:
        return None
    if kind == DecisionKind.TARGET and about.kind in _ACTIONS:
        # [F7-ACTION-TARGET] any active player, the revealer included [F7-FREEZE-SELF]; a player not dealt
        # yet is active [F7-DEAL-TARGET-UNDEALT]; frozen, stayed and busted players are out [F7-ACTIVE]
        return list(active)
    if kind == DecisionKind.ASSIGN and about.kind in _ACTIONS:
        # [F7-FLIP3-ASSIGN] each set-aside card to any active player, the Flip Three's target included;
        # [F7-SETASIDE-PASS-VARIANT] a target who busted passes them to the players still in (it is not one)
        return list(active)
    if kind == DecisionKind.GIVE and about.kind is SECOND_CHANCE:
        # [F7-CHANCE-GIVE] to another active player who holds no Second Chance
        return [seat for seat in active if seat != seen.player
                and not any(c.kind is SECOND_CHANCE for c in seen.rows[seat].cards)]
    return None
