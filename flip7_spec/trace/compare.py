"""The first difference between an expected and a found JSON value, and the rule clause behind it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec.trace.schema import json_path

_MISSING = object()


@dataclass(frozen=True, slots=True)
class Difference:
    """Where two values first differ: the path (as parts) and the expected and found values there."""

    path: tuple[str | int, ...]
    expected: Any
    found: Any

    def where(self, prefix: Sequence[str | int] = ()) -> str:
        return json_path([*prefix, *self.path])


# Observation fields in the order a person reads them: who is deciding, then each player's row.
_FIELD_ORDER = ("over", "winners", "round", "dealer", "players", "in_play", "draw_pile", "discard_pile",
                "pending")
_PLAYER_ORDER = ("status", "cards", "round_score", "total")
_PENDING_ORDER = ("player", "kind", "card", "options")


def _key_order(value: dict[str, Any]) -> list[str]:
    keys = set(value)
    for order in (_FIELD_ORDER, _PLAYER_ORDER, _PENDING_ORDER):
        if keys <= set(order) or set(order) <= keys:
            head = [k for k in order if k in keys]
            return head + sorted(keys - set(head))
    return sorted(keys)


def first_difference(expected: Any, found: Any, path: tuple[str | int, ...] = ()) -> Difference | None:
    """The first place where ``found`` differs from ``expected``, or None when they are equal.

    Objects are walked in reading order (observation fields first, then by name), arrays by index; a
    missing or extra key or element is a difference at that key or index. ``1`` and ``true`` differ.
    """
    if type(expected) is not type(found) and not (_is_number(expected) and _is_number(found)):
        return Difference(path, _absent(expected), _absent(found))
    if isinstance(expected, dict):
        for key in _key_order({**expected, **found}):
            sub = first_difference(expected.get(key, _MISSING), found.get(key, _MISSING), (*path, key))
            if sub is not None:
                return sub
        return None
    if isinstance(expected, list):
        for index in range(max(len(expected), len(found))):
            left = expected[index] if index < len(expected) else _MISSING
            right = found[index] if index < len(found) else _MISSING
            sub = first_difference(left, right, (*path, index))
            if sub is not None:
                return sub
        return None
    if expected is _MISSING or found is _MISSING or expected != found:
        return Difference(path, _absent(expected), _absent(found))
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _absent(value: Any) -> Any:
    return "<absent>" if value is _MISSING else value


_PENDING_CLAUSES = {
    "target": "F7-ACTION-TARGET",
    "give": "F7-CHANCE-GIVE",
    "assign": "F7-FLIP3-ASSIGN",
}

_STATUS_CLAUSES = {"bust": "F7-BUST", "freeze": "F7-FREEZE", "stay": "F7-HIT-STAY", "flip7": "F7-FLIP7"}


def blame(path: Sequence[str | int], events: Sequence[dict[str, Any]], default: str,
          expected: dict[str, Any] | None = None) -> str:
    """The clause behind a difference at ``path`` of an observation, from the reference's events of that step.

    The rule: the clause of the last reference event that concerns what differs (the player of a
    ``players[i]`` path, the piles for pile sizes, the pending decision's player for ``pending``); for a
    round score or total at a round's end, the scoring clause; ``default`` when no event concerns it.
    """
    parts = list(path)
    kinds = [e.get("event") for e in events]
    if parts[:1] == ["pending"] and isinstance(expected, dict) and isinstance(expected.get("pending"), dict):
        kind = expected["pending"].get("kind")
        card = str(expected["pending"].get("card") or "")
        if parts[1:2] in (["options"], ["card"]):
            if kind == "target" and card[:1] in ("-", "/"):
                return "V-MOD-TARGET"  # a Vengeance modifier's receiver
            if kind in ("card", "swap"):
                return {"STEAL": "V-STEAL", "DISCARD": "V-DISCARD"}.get(card, "V-SWAP")
            if kind in _PENDING_CLAUSES:
                return _PENDING_CLAUSES[str(kind)]
    if parts[:1] == ["players"] and len(parts) >= 2 and isinstance(parts[1], int):
        seat = parts[1]
        field = parts[2] if len(parts) > 2 else None
        mine = [e for e in events if seat in (e.get("player"), e.get("target"), e.get("from"))
                or seat in (e.get("players") or ())]
        forced = [e for e in mine if e.get("event") == "forced" and e.get("because")]
        if field == "total":
            return "F7-SCORE" if "round_end" in kinds else "F7-BANK"
        if field == "status":
            for event in reversed(mine):
                if event.get("event") in _STATUS_CLAUSES:
                    return str(event.get("clause") or _STATUS_CLAUSES[str(event.get("event"))])
            if any(e.get("event") == "target" or e.get("kind") == "target" for e in events):
                return "F7-ACTION-TARGET"  # the engine aimed an action elsewhere than the reference did
        if field == "round_score":
            return _scoring_clause(expected, seat)
        if forced:
            return str(forced[-1]["because"])  # the only legal choice, made for the player
        if mine:
            return str(mine[-1].get("clause", default))
    if parts[:1] in (["draw_pile"], ["discard_pile"], ["in_play"]):
        for event in reversed(events):
            name = event.get("event")
            if name == "round_end":
                return "F7-DISCARD-PILE"  # the round's cards go to the discard pile, the deck is kept
            if name in ("reshuffle", "discard", "chance_used", "flip3_end"):
                return str(event.get("clause", default))
    if parts[:1] in (["round"], ["dealer"]):
        if parts[0] == "dealer":
            return "F7-DEALER-ROTATION"
        return "F7-FLIP7" if "flip7" in kinds else "F7-ROUND-END"
    if parts[:1] in (["over"], ["winners"]):
        return "F7-TIE" if "tie" in kinds else "F7-GAME-END"
    if events:
        return str(events[-1].get("clause", default))
    return default


def _scoring_clause(expected: dict[str, Any] | None, seat: int) -> str:
    """The most specific scoring clause for the hand and status that ``seat`` has in ``expected``."""
    try:
        player = expected["players"][seat] if expected else {}
        hand, status = player.get("cards", []), player.get("status")
    except (KeyError, IndexError, TypeError, AttributeError):
        hand, status = [], None
    if status == "busted":
        return "F7-SCORE-BUST"
    if status == "frozen":
        return "F7-FREEZE"
    if any(isinstance(c, str) and c[:1] == "x" for c in hand):
        return "F7-MOD-X2"
    if any(isinstance(c, str) and c[:1] == "+" for c in hand):
        return "F7-MOD-ADD"
    return "F7-SCORE"


_PATH_PART = re.compile(r"\.([A-Za-z_]+)|\[(\d+)\]")


def parse_path(path: str) -> list[str | int]:
    """The parts of a JSON path written by :func:`flip7_spec.trace.schema.json_path`."""
    return [name if name else int(index) for name, index in _PATH_PART.findall(path)]


# The base-game clauses that replay and conformance name by default, and their Vengeance counterparts.
_VENGEANCE_EQUIVALENTS = {
    "F7-HIT-STAY": "V-HIT-STAY",
    "F7-STAY-NEEDS-CARD": "V-STAY-MINIMUM",
    "F7-ACTION-TARGET": "V-ACTION-TARGET",
    "F7-SCORE": "V-SCORE",
    "F7-MOD-X2": "V-SCORE",
    "F7-MOD-ADD": "V-SCORE",
    "F7-BANK": "V-BANK",
    "F7-SCORE-BUST": "V-SCORE-BUST",
    "F7-DISCARD-PILE": "V-NEXT-ROUND",
    "F7-FREEZE": "V-STAY-NO-BANK",
    "F7-ALL-BUST": "V-ROUND-END",
    "F7-BUST": "V-BUST",
    "F7-FLIP7": "V-FLIP7",
    "F7-DECK": "V-DECK",
    "F7-RESHUFFLE": "V-RESHUFFLE",
    "F7-ROUND-END": "V-ROUND-END",
    "F7-DEALER-ROTATION": "V-NEXT-ROUND",
    "F7-GAME-END": "V-GAME-END",
    "F7-WINNER": "V-WINNER",
    "F7-TIE": "V-TIE",
}


def clause_for_game(clause: str, game: str) -> str:
    """``clause`` as the game ``game`` names it: a base-game default becomes its Vengeance counterpart."""
    if game == "vengeance":
        return _VENGEANCE_EQUIVALENTS.get(clause, clause)
    return clause
