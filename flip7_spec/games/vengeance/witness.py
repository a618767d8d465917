"""Which Vengeance clauses a played game shows applied, read from its events and its scored rows.

Every event names its own clause already; this adds the clauses that are a situation rather than an event (a
Steal that busts, an Action aimed at a stayed player, The Zero in a scored row, ...), each read as the clause
states it in :mod:`flip7_spec.games.vengeance.clauses`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flip7_spec.cards import Card, Kind, card
from flip7_spec.evidence import Evidence, RoundEnd
from flip7_spec.games.vengeance.cards import DISCARD, FLIP_FOUR, JUST_ONE_MORE, STEAL, SWAP, Special
from flip7_spec.rulesets import preset

STRUCTURAL = ("V-SEATS", "V-ROW", "V-PLAYERS", "V-NO-BASE-CARDS", "V-DEAL-ORDER")
"""Clauses every played game goes through."""

ACTION_KINDS = frozenset({JUST_ONE_MORE, FLIP_FOUR, SWAP, STEAL, DISCARD})
RECEIPTS = ("steal", "swap")
"""Events after which a card arrives in a row as if dealt."""


def _card(text: str) -> Card:
    return card(text)


def vengeance_witness(evidence: Evidence) -> Iterable[str]:
    """The clauses ``evidence`` shows applied beyond its events' own clauses."""
    ruleset = evidence.ruleset
    seen: set[str] = set(STRUCTURAL)
    deck = dict(ruleset.deck)
    if deck == dict(preset("vengeance-basic").deck):
        seen.add("V-BASIC")
    elif deck == dict(preset("vengeance").deck):
        seen.add("V-DECK")
    if ruleset.decks_for(evidence.players) >= 2:
        seen.add("V-TWO-DECKS")
    if ruleset.brutal_mode and evidence.round_ends:
        seen.add("V-BRUTAL")
    seen.update(_from_events(evidence))
    for end in evidence.round_ends:
        seen.update(_from_round_end(end, evidence))
    if "V-TWO-DECKS" in seen and evidence.round_ends:
        seen.add("V-TWO-DECKS-EFFECTS")
    return seen


def _from_events(evidence: Evidence) -> set[str]:
    ruleset = evidence.ruleset
    seen: set[str] = set()
    hands: dict[int, list[str]] = {}
    stayed: set[int] = set()
    busted: set[int] = set()
    dealing = False
    flip4_draws: list[int] = []
    previous: dict[str, Any] = {}
    for event in evidence.events:
        kind = event["event"]
        player: int = event.get("player", -1)
        target: int = event.get("target", -1)
        if kind == "round_start":
            hands = {seat: [] for seat in range(evidence.players)}
            stayed, busted, flip4_draws = set(), set(), []
            dealing = ruleset.initial_deal
            if event.get("round", 1) >= 2:
                seen.add("V-NEXT-ROUND")
        elif kind == "draw":
            text = event["card"]
            via = event.get("via")
            c = _card(text)
            hand = hands.setdefault(player, [])
            if via == "deal":
                if c.kind in ACTION_KINDS or c.is_modifier:
                    seen.add("V-DEAL-PAUSE")
                if hand:
                    seen.add("V-DEAL-ALWAYS")
            elif via == "hit":
                dealing = False
            if via == "one_more":
                seen.add("V-ONEMORE")
            if via in ("one_more", "flip4") and c.kind in ACTION_KINDS:
                seen.add("V-ACTION-RESOLVER")
            if via == "flip4":
                flip4_draws[-1:] = [flip4_draws[-1] + 1] if flip4_draws else [1]
                if c.special is Special.UNLUCKY_7:
                    seen.add("V-FLIP4-UNLUCKY7")
            if player in stayed and via != "deal":
                seen.add("V-STAYED-TARGET")
            if c.special is not None and ruleset.special_numbers:
                seen.add("V-SPECIAL-NUMBERS")
                if c.special is Special.UNLUCKY_7 and any(_card(t).value == 7 for t in hand):
                    seen.add("V-UNLUCKY7-NO-BUST")
            if c.is_number or c.is_modifier:
                hand.append(text)
        elif kind == "wipe":
            hands[player] = [t for t in hands.get(player, []) if not (_card(t).is_number or _card(t).is_modifier)]
            hands[player].append(event["card"])
        elif kind == "stay":
            stayed.add(player)
            numbers = [t for t in hands.get(player, []) if _card(t).is_number]
            if len(numbers) < 2:
                seen.add("V-STAY-MINIMUM")
        elif kind == "bust":
            busted.add(player)
            text = event.get("card", "")
            held = hands.get(player, [])
            if previous.get("event") in RECEIPTS:
                seen.add("V-BUST-BY-ACTION")
            if text and _card(text).value == 7 and _card(text).is_number and "U7" in held:
                seen.add("V-UNLUCKY7-LATER-7")
            if text and _card(text).value == 13 and "L13" in [*held, text] and \
                    sum(1 for t in held if _card(t).value == 13 and _card(t).is_number) >= 2:
                seen.add("V-LUCKY13-THIRD")
            if flip4_draws and flip4_draws[-1] < 4:
                seen.add("V-FLIP4-STOP")
        elif kind == "flip7":
            seen.add("V-ROUND-END")
            if previous.get("event") in RECEIPTS or previous.get("via") in ("one_more", "flip4") or player in stayed:
                seen.add("V-FLIP7-ANY-MEANS")
            if flip4_draws and flip4_draws[-1] < 4:
                seen.add("V-FLIP4-STOP")
        elif kind == "target":
            card_text = event.get("card") or ""
            if target in stayed:
                seen.add("V-STAYED-TARGET")
            if busted:
                seen.add("V-BUST-OUT-OF-PLAY")
            if card_text == "FLIP4":
                seen.add("V-FLIP4-SELF")
            if card_text == "DISCARD":
                seen.add("V-DISCARD-SELF")
            if dealing and card_text in ("ONEMORE", "FLIP4"):
                seen.add("V-DEAL-PAUSE")
        elif kind == "modifier":
            seen.add("V-MOD-NO-BUST")
            if target in stayed:
                seen.add("V-STAYED-TARGET")
            if target in busted:
                seen.add(ruleset.OPTIONS["brutal_busted_modifier"].clause_of(ruleset.brutal_busted_modifier))
            if target == player and len(busted) == evidence.players - 1:
                seen.add("V-MOD-ALONE")
            hands.setdefault(target, []).append(event["card"])
        elif kind == "flip4_start":
            flip4_draws.append(0)
        elif kind == "flip4_end":
            if flip4_draws:
                flip4_draws.pop()
        elif kind == "steal":
            _steal(event, hands, stayed, busted, seen)
        elif kind == "swap":
            _swap(event, hands, stayed, busted, seen)
        elif kind == "discard_card":
            seen.add("V-STEAL-DISCARD-CARDS")
            if player in stayed:
                seen.add("V-STAYED-TARGET")
            if player == event.get("by"):
                seen.add("V-DISCARD-SELF")
            if event.get("card") in hands.get(player, []):
                hands[player].remove(event["card"])
        elif kind == "brutal_flip7":
            seen.add(ruleset.OPTIONS["brutal_flip7_target"].clause_of(ruleset.brutal_flip7_target))
        elif kind == "round_end":
            seen.update(("V-ROUND-END", "V-BANK"))
            dealing = False
        elif kind == "game_end":
            seen.add("V-ROUND-LIMIT" if event["clause"] == "V-ROUND-LIMIT" else "V-GAME-END")
            if len(event.get("winners", [])) > 1:
                seen.add("V-TIE")
        if kind == "forced" and event.get("because"):
            seen.add(str(event["because"]))
        previous = event
    return seen


def _steal(event: dict[str, Any], hands: dict[int, list[str]], stayed: set[int], busted: set[int],
           seen: set[str]) -> None:
    seen.add("V-STEAL-DISCARD-CARDS")
    victim = event.get("from")
    if victim in stayed or event.get("player") in stayed:
        seen.add("V-STAYED-TARGET")
    if busted:
        seen.add("V-BUST-OUT-OF-PLAY")
    text = event.get("card")
    if isinstance(victim, int) and text in hands.get(victim, []):
        hands[victim].remove(text)
    hands.setdefault(event.get("player", -1), []).append(str(text))


def _swap(event: dict[str, Any], hands: dict[int, list[str]], stayed: set[int], busted: set[int],
          seen: set[str]) -> None:
    seen.update(("V-SWAP-LIMITS", "V-SWAP-RECEIVE"))
    owners = event.get("players", [])
    moved = event.get("cards", [])
    if any(o in stayed for o in owners):
        seen.add("V-STAYED-TARGET")
    if busted:
        seen.add("V-BUST-OUT-OF-PLAY")
    if len(owners) == 2 and len(moved) == 2:
        for owner, gone, arrived in ((owners[0], moved[0], moved[1]), (owners[1], moved[1], moved[0])):
            hand = hands.setdefault(owner, [])
            if gone in hand:
                hand.remove(gone)
            hand.append(arrived)


def _from_round_end(end: RoundEnd, evidence: Evidence) -> set[str]:
    ruleset = evidence.ruleset
    seen: set[str] = set()
    for row, score in zip(end.rows, end.scores, strict=False):
        cards = [_card(t) for t in row.cards]
        numbers = [c for c in cards if c.is_number]
        if row.status == "busted":
            seen.add("V-SCORE-BUST")
            continue
        values = {c.value for c in numbers}
        flipped = len(values) >= 7 or (ruleset.flip7_two_13s == "count_both" and len(numbers) >= 7)
        zero = any(c.special is Special.ZERO for c in numbers)
        if zero:
            seen.add("V-ZERO-FLIP7" if flipped else "V-ZERO-SCORE")
        if flipped and any(c.special is Special.LUCKY_13 for c in numbers) and \
                sum(1 for c in numbers if c.value == 13) >= 2:
            seen.add("V-LUCKY13-FLIP7")
        if any(c.kind is Kind.HALVE for c in cards):
            seen.add(ruleset.OPTIONS["halve_order"].clause_of(ruleset.halve_order))
            if ruleset.halve_order == "whole_total":
                seen.add("V-HALVE-WHOLE-TOTAL")
        raw = sum(c.value for c in numbers) - sum(c.value for c in cards if c.kind is Kind.SUBTRACT)
        if zero and not flipped:
            continue  # [V-ZERO-SCORE] the round scores 0 whatever the rest: neither the floor nor a negative score
        if raw < 0 or score < 0:
            seen.add("V-BRUTAL-NEGATIVE" if ruleset.brutal_mode and score < 0 else "V-SCORE-FLOOR")
    return seen
