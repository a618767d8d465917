"""Which Flip 7 clauses a played game shows applied, read from its events and its scored rows.

Every event names its own clause already; this adds the clauses that are a situation rather than an event
(an x2 in a scored row, a Flip 7 reached inside a Flip Three, a Freeze aimed at its revealer, ...). Each test
reads the situation as the clause states it in :mod:`flip7_spec.games.flip7.clauses`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flip7_spec.cards import card
from flip7_spec.evidence import Evidence, RoundEnd
from flip7_spec.rulesets import preset

ACTIONS = frozenset({"FREEZE", "FLIP3", "CHANCE"})

# Clauses every played game goes through: the seats, the rows, who is active, the player limits.
STRUCTURAL = ("F7-SEATS", "F7-ROW", "F7-ACTIVE", "F7-PLAYERS", "F7-DEAL-ORDER")


def _is_number(text: str) -> bool:
    return text not in ACTIONS and card(text).is_number


def _is_modifier(text: str) -> bool:
    return text not in ACTIONS and card(text).is_modifier


def flip7_witness(evidence: Evidence) -> Iterable[str]:
    """The clauses ``evidence`` shows applied beyond its events' own clauses."""
    ruleset = evidence.ruleset
    seen: set[str] = set(STRUCTURAL)
    official = preset("flip7")
    seen.add("F7-DECK" if dict(ruleset.deck) == dict(official.deck) else "F7-CUSTOM-DECK")
    if ruleset.decks_for(evidence.players) >= 2:
        seen.add("F7-TWO-DECKS")
    seen.update(_from_events(evidence))
    for end in evidence.round_ends:
        seen.update(_from_round_end(end, evidence))
    if "F7-TWO-DECKS" in seen and ({"F7-MOD-X2", "F7-CHANCE-GIVE", "F7-CHANCE-KEEP"} & seen):
        seen.add("F7-TWO-DECKS-EFFECTS")
    return seen


def _from_events(evidence: Evidence) -> set[str]:
    ruleset = evidence.ruleset
    seen: set[str] = set()
    hands: dict[int, list[str]] = {}
    dealt: set[int] = set()
    dealing = False
    flip3_depth = 0
    flip3_draws: list[int] = []
    last_draw: dict[str, Any] | None = None
    assigned_flip3 = 0
    events = list(evidence.events)
    for position, event in enumerate(events):
        kind = event["event"]
        player: int = event.get("player", -1)
        if kind == "round_start":
            hands = {seat: [] for seat in range(evidence.players)}
            dealt = set()
            dealing = ruleset.initial_deal
            seen.add("F7-DEAL" if ruleset.initial_deal else "F7-NO-DEAL-VARIANT")
            if event.get("round", 1) >= 2:
                seen.update(("F7-DISCARD-PILE", "F7-DEALER-ROTATION"))
        elif kind == "draw":
            text = event["card"]
            via = event.get("via")
            if via == "deal":
                dealt.add(player)
                if text in ACTIONS:
                    seen.add("F7-DEAL-ACTION-PAUSE")
                    if any(e["event"] == "draw" and e.get("via") == "deal" for e in _same_round(events, position)):
                        seen.add("F7-DEAL-RESUME")
            elif via != "deal" and dealing and via == "hit":
                dealing = False
            if via == "flip3":
                flip3_draws[-1:] = [flip3_draws[-1] + 1] if flip3_draws else [1]
                if not _is_number(text):
                    seen.add("F7-FLIP3-COUNTS-ALL")
                if text == "CHANCE":
                    seen.add("F7-FLIP3-CHANCE-AT-ONCE")
                if dealing and player not in dealt:
                    seen.add(ruleset.OPTIONS["deal_after_flip3_cards"].clause_of(ruleset.deal_after_flip3_cards))
            hand = hands.setdefault(player, [])
            if _is_modifier(text):
                seen.add("F7-MOD-NO-BUST")
                if any(_is_number(t) for t in hand):
                    seen.add("F7-BUST-ONLY-NUMBERS")
            if text in ACTIONS:
                seen.add("F7-ACTION-AT-ONCE")
            if text == "CHANCE":
                following = events[position + 1] if position + 1 < len(events) else {}
                if following.get("event") != "give" and "CHANCE" not in hand:
                    seen.add("F7-CHANCE-KEEP")
                    hand.append(text)
            elif text not in ACTIONS:
                hand.append(text)
            last_draw = event
        elif kind == "chance_used":
            hand = hands.setdefault(player, [])
            if "CHANCE" in hand:
                hand.remove("CHANCE")
            if hand and hand[-1] == event.get("card"):
                hand.pop()
            if last_draw is not None and last_draw.get("via") == "hit" and flip3_depth == 0:
                seen.add("F7-CHANCE-ENDS-TURN")
        elif kind == "give":
            hands.setdefault(event["target"], []).append("CHANCE")
            if dealing and event["target"] not in dealt:  # a card before the deal turn, as from a Flip Three
                seen.add(ruleset.OPTIONS["deal_after_flip3_cards"].clause_of(ruleset.deal_after_flip3_cards))
        elif kind == "stay":
            hand = hands.get(player, [])
            if hand and all(_is_modifier(t) for t in hand):
                seen.add("F7-STAY-MODIFIERS-ONLY")
            if hand == ["CHANCE"]:
                seen.add("F7-STAY-CHANCE-ONLY")
        elif kind == "target":
            # a target forced because the revealer is the only active player is F7-ACTION-ALONE, not a choice
            # to Freeze oneself while others are active
            forced = position > 0 and events[position - 1].get("event") == "forced"
            if event.get("card") == "FREEZE" and event.get("target") == player and not forced:
                seen.add("F7-FREEZE-SELF")
            if dealing and event.get("target") not in dealt:
                seen.add("F7-DEAL-TARGET-UNDEALT")
        elif kind == "freeze":
            if hands.get(player):
                seen.add("F7-FREEZE-KEEPS-CARDS")
            elif dealing:
                seen.add("F7-DEAL-FREEZE-EMPTY")
        elif kind == "flip3_start":
            if assigned_flip3 > 0:
                seen.add("F7-FLIP3-NESTED")
                assigned_flip3 -= 1
            flip3_depth += 1
            flip3_draws.append(0)
        elif kind == "flip3_end":
            flip3_depth = max(0, flip3_depth - 1)
            if flip3_draws:
                flip3_draws.pop()
        elif kind == "discard" and event.get("card") == "FLIP3" and event.get("clause") == "F7-FLIP3-ASSIGN-INACTIVE":
            assigned_flip3 = max(0, assigned_flip3 - 1)  # an assigned Flip Three that never ran: none nested
        elif kind == "assign":
            seen.add(ruleset.OPTIONS["set_aside_resolution"].clause_of(ruleset.set_aside_resolution))
            if event.get("card") == "FLIP3":
                assigned_flip3 += 1
        elif kind in ("bust", "flip7"):
            if flip3_depth > 0 and flip3_draws and flip3_draws[-1] < 3:
                seen.add("F7-FLIP3-STOP")
            if kind == "flip7":
                seen.update(("F7-FLIP7-BONUS", "F7-ROUND-END"))
                if flip3_depth > 0 or (last_draw is not None and last_draw.get("via") == "flip3"):
                    seen.add("F7-FLIP7-IN-FLIP3")
                if "0" in hands.get(player, []):
                    seen.add("F7-FLIP7-ZERO")
        elif kind == "reshuffle":
            order = event.get("order", [])
            if order and all(t in ("FLIP3", "CHANCE") for t in order):
                seen.add(ruleset.OPTIONS["stalled_round"].clause_of(ruleset.stalled_round))
            if any(hands.values()):
                seen.add("F7-RESHUFFLE-TABLE-STAYS")
            if flip3_depth > 0:
                seen.add("F7-RESHUFFLE-IN-FLIP3")
        elif kind == "round_end":
            dealing = False
            flip3_depth = 0
            flip3_draws = []
            assigned_flip3 = 0
        elif kind == "game_end":
            seen.add("F7-CHALLENGE" if event["clause"] == "F7-CHALLENGE" else "F7-GAME-END")
            if len(event.get("winners", [])) > 1:
                seen.add("F7-TIE")
        if kind == "forced" and event.get("because"):
            seen.add(str(event["because"]))
    return seen


def _same_round(events: list[dict[str, Any]], position: int) -> Iterable[dict[str, Any]]:
    for event in events[position + 1:]:
        if event["event"] in ("round_end", "round_start"):
            return
        yield event


def _from_round_end(end: RoundEnd, evidence: Evidence) -> set[str]:
    seen = {"F7-ROUND-END", "F7-BANK"}
    rows = end.rows
    if rows and all(r.status == "busted" for r in rows):
        seen.add("F7-ALL-BUST")
    flip7_seats = {seat for seat, row in enumerate(rows) if row.status != "busted"
                   and len({t for t in row.cards if _is_number(t)}) >= 7}
    for seat, row in enumerate(rows):
        numbers = [t for t in row.cards if _is_number(t)]
        modifiers = [t for t in row.cards if _is_modifier(t)]
        if row.status == "busted":
            seen.add("F7-SCORE-BUST")
            if row.cards:
                seen.add("F7-BUST-CARDS-STAY")
            continue
        if "CHANCE" in row.cards:
            seen.add("F7-CHANCE-ROUND-END")
        if any(t.startswith("+") for t in modifiers):
            seen.add("F7-MOD-ADD")
        if "x2" in modifiers and numbers and (seat in flip7_seats or any(t.startswith("+") for t in modifiers)):
            seen.add("F7-MOD-X2")  # the whole clause: the Numbers doubled, and a +N card or the bonus not
        if modifiers and not numbers:
            seen.add("F7-MOD-ONLY")
        if flip7_seats and seat not in flip7_seats and row.cards:
            seen.add("F7-FLIP7-OTHERS-BANK")
        if seat in flip7_seats and "0" in numbers:
            seen.add("F7-FLIP7-ZERO")
    return seen
