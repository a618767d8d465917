"""The choices the Vengeance rules allow for a pending decision, read from the canonical observation alone.

This is the ``legal`` conformance level's judge: it holds every decision an engine offers to the rules, at the
engine's own state, whatever happened before. It is written from the rules (RULES.md B.1 #4, #9, #12-#19,
B.2 #9, #11-#13, #15, C.3) with the ruleset's readings, and from the canonical order of docs/vengeance.md
("Decisions": seat order, then index order; a Swap pair's first card earlier in that order), not from the
reference's frames. Every row is on the table, face up or (busted) listed, so nothing these choices depend on
is hidden.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flip7_spec.events import HIT, STAY, Choice, DecisionKind, Status
from flip7_spec.games.vengeance.cards import DISCARD, FLIP_FOUR, JUST_ONE_MORE, STEAL, SWAP, Special
from flip7_spec.games.vengeance.ruleset import VengeanceRuleset
from flip7_spec.observed import SeenDecision, read_decision

CardRef = dict[str, int]


def vengeance_legal_options(ruleset: VengeanceRuleset, observation: Mapping[str, Any]) -> list[Choice] | None:
    """The legal choices of ``observation``'s pending decision under ``ruleset``, in the canonical order, or
    None when there is nothing to judge: no decision pending, an observation that is not canonical, or a
    decision this ruleset never asks (a kind or a card it has no such decision about, a Discard's victim
    asked of the resolver when the resolver picks the card, a Brutal Mode choice outside Brutal Mode).

    A decision with one legal choice is made by the engine, never asked: the one choice is still returned, so
    that an engine asking it with a second, illegal one is caught.
    """
    seen = read_decision(observation)
    if seen is None:
        return None
    kind, about = seen.kind, seen.card
    if kind == DecisionKind.HIT_OR_STAY:
        return _hit_or_stay(ruleset, seen) if about is None else None
    if kind == DecisionKind.TARGET:
        return _target(ruleset, seen)
    if about is None:
        return None
    if kind == DecisionKind.CARD and about.kind is STEAL:
        # [V-STEAL] a card of another player, never the resolver's own [V-ACTION-RESOLVER]; stayed players'
        # cards too [V-STAYED-TARGET]
        return _takeable(ruleset, seen, (s for s in seen.not_busted() if s != seen.player))
    if kind == DecisionKind.CARD and about.kind is DISCARD:
        if ruleset.discard_chooser == "victim":
            # [V-DISCARD-CHOOSER] the victim, named already, picks one of their own cards
            return _takeable(ruleset, seen, [seen.player])
        # [V-DISCARD] the resolver picks a player not busted and their card at once; [V-DISCARD-SELF] the
        # resolver's own row only when the ruleset allows it
        return _takeable(ruleset, seen, _discard_victims(ruleset, seen))
    if kind == DecisionKind.SWAP and about.kind is SWAP:
        # [V-SWAP] two face-up cards of two different rows, the resolver's or not, Numbers and Modifiers
        # alike; [V-SWAP-LIMITS] never two of one row, never a busted row
        refs = _refs(seen, seen.not_busted(), numbers_only=False)
        return [[a, b] for i, a in enumerate(refs) for b in refs[i + 1:] if a["player"] != b["player"]]
    return None


def _hit_or_stay(ruleset: VengeanceRuleset, seen: SeenDecision) -> list[Choice]:
    held = seen.rows[seen.player].cards
    if ruleset.special_numbers and any(c.special is Special.ZERO for c in held):
        return [HIT]  # [V-ZERO-MUST-HIT] no voluntary Stay while holding The Zero ([V-SPECIAL-NUMBERS])
    # [V-STAY-MINIMUM] what a Stay needs: nothing (official), one card, or two Number cards (seed 004's app)
    if ruleset.stay_minimum == "one_card" and not held:
        return [HIT]
    if ruleset.stay_minimum == "two_numbers" and sum(1 for c in held if c.is_number) < 2:
        return [HIT]
    return [HIT, STAY]  # [V-HIT-STAY]


def _target(ruleset: VengeanceRuleset, seen: SeenDecision) -> list[Choice] | None:
    about, in_round = seen.card, seen.not_busted()
    if about is None:
        if not ruleset.brutal_mode:
            return None
        if ruleset.brutal_flip7_target == "in_round":
            # [V-BRUTAL-FLIP7-IN-ROUND] the bonus (own seat), or 15 off a player who has not busted
            return [s for s in range(len(seen.rows)) if s == seen.player or s in in_round]
        return list(range(len(seen.rows)))  # [V-BRUTAL-FLIP7] the bonus (own seat), or 15 off any other seat
    if about.is_modifier:
        # [V-MOD-TARGET] any player not busted, the revealer and stayed players included; [V-BRUTAL-MOD-BUSTED]
        # in Brutal Mode busted players too
        return list(range(len(seen.rows))) if ruleset.brutal_mode else in_round
    if about.kind is JUST_ONE_MORE:
        return in_round  # [V-ACTION-TARGET] any player not busted, the resolver and stayed players included
    if about.kind is FLIP_FOUR:
        others = [s for s in in_round if s != seen.player]
        # [V-FLIP4-SELF] without the resolver when the ruleset says so, unless nobody else is left
        return others if not ruleset.flip4_self and others else in_round
    if about.kind is DISCARD and ruleset.discard_chooser == "victim":
        # [V-DISCARD-CHOOSER] the resolver names the victim: a player with a card the Discard may take
        return sorted({ref["player"] for ref in _takeable(ruleset, seen, _discard_victims(ruleset, seen))})
    return None


def _discard_victims(ruleset: VengeanceRuleset, seen: SeenDecision) -> list[int]:
    """Whom a Discard may hit: any player not busted [V-DISCARD], the resolver only under ``discard_self``
    [V-DISCARD-SELF]."""
    return [s for s in seen.not_busted() if ruleset.discard_self or s != seen.player]


def _takeable(ruleset: VengeanceRuleset, seen: SeenDecision, seats: Iterable[int]) -> list[Choice]:
    # [V-STEAL-DISCARD-CARDS] any face-up card (a Modifier too, [V-MOD-NO-BUST]), or Number cards only
    return list(_refs(seen, seats, numbers_only=ruleset.steal_discard_cards == "numbers"))


def _refs(seen: SeenDecision, seats: Iterable[int], numbers_only: bool) -> list[CardRef]:
    """References to the face-up cards of ``seats``, in seat order then index order: a busted row is face down
    and out of play [V-BUST-OUT-OF-PLAY]."""
    refs: list[CardRef] = []
    for seat in sorted(set(seats)):
        row = seen.rows[seat]
        if row.status is Status.BUSTED:
            continue
        refs.extend({"player": seat, "index": i} for i, c in enumerate(row.cards) if c.is_number or not numbers_only)
    return refs
