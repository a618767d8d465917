"""One observation drawn as a table: the players' rows (cards as cards, status, round score, total), the
round, the Dealer, both piles, the cards in play and the pending decision, each marked when it differs."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.htmlreport.cards import CardFace, face, missing
from flip7_spec.htmlreport.differences import Path, touches, under

Seat = Callable[[Any], str]
"""How a seat is named (``seat 2 (Cy)``)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One value in the table and whether it differs from the other side."""

    text: str
    differs: bool = False


@dataclass(slots=True)
class PlayerRow:
    """One player: the seat's name, the cards in order, status, round score and total."""

    seat: int
    name: str
    cards: list[CardFace]
    status: Cell
    round_score: Cell
    total: Cell
    deciding: bool = False
    differs: bool = False


@dataclass(slots=True)
class TableView:
    """An observation as a table. ``side`` is ``reference``, ``engine`` or empty (a trace's own table)."""

    side: str
    round: Cell
    dealer: Cell
    draw_pile: Cell
    discard_pile: Cell
    in_play: list[CardFace]
    in_play_differs: bool
    players: list[PlayerRow]
    pending: Cell
    over: Cell
    differs: bool = False
    malformed: list[str] = field(default_factory=list)


def value_text(value: Any) -> str:
    """A JSON value as a short text (a string as itself)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _cell(observation: dict[str, Any], key: str, differing: Sequence[Path], show: Callable[[Any], str] = value_text
          ) -> Cell:
    return Cell(show(observation.get(key)), touches((key,), differing))


def _cards(values: Any, path: Path, differing: Sequence[Path]) -> list[CardFace]:
    """The faces of ``values``, with a placeholder where only the other side has a card."""
    items = values if isinstance(values, list) else []
    faces = [face(text, touches((*path, index), differing)) for index, text in enumerate(items)]
    last = -1
    for inside in under(path, differing):
        index = inside[len(path)]
        if isinstance(index, int):
            last = max(last, index)
    for _ in range(len(items), last + 1):
        faces.append(missing())
    return faces


def card_reference(reference: Any, observation: dict[str, Any], seat: Seat) -> str:
    """A Vengeance card reference ``{player, index}`` as ``seat 1's card 2 (12)``."""
    if not isinstance(reference, dict):
        return value_text(reference)
    player, index = reference.get("player"), reference.get("index")
    players = observation.get("players") or []
    text = ""
    if isinstance(player, int) and isinstance(index, int) and 0 <= player < len(players):
        held = (players[player].get("cards") or []) if isinstance(players[player], dict) else []
        if 0 <= index < len(held):
            text = f" ({held[index]})"
    number = index + 1 if isinstance(index, int) else index
    return f"{seat(player)}'s card {number}{text}"


def choice_text(choice: Any, kind: Any, observation: dict[str, Any], seat: Seat) -> str:
    """One legal choice (or a decision's choice) as a person reads it."""
    if isinstance(choice, bool):
        return value_text(choice)
    if isinstance(choice, int) and kind in ("target", "give", "assign"):
        return seat(choice)
    if isinstance(choice, dict):
        return card_reference(choice, observation, seat)
    if isinstance(choice, list) and len(choice) == 2 and all(isinstance(c, dict) for c in choice):
        return f"{card_reference(choice[0], observation, seat)} ⇄ {card_reference(choice[1], observation, seat)}"
    return value_text(choice)


_ASKS = {"hit_or_stay": "{who}: hit or stay", "target": "{who} chooses the target of {card}",
         "give": "{who} chooses who gets the Second Chance", "assign": "{who} chooses who gets the set-aside {card}",
         "card": "{who} chooses a card for {card}", "swap": "{who} chooses two cards to swap"}


def pending_text(pending: Any, observation: dict[str, Any], seat: Seat) -> str:
    """``seat 0: hit or stay (hit, stay)``, ``seat 1 chooses the target of FREEZE (seat 0, seat 2)``."""
    if not isinstance(pending, dict):
        return "no decision pending" if pending is None else f"pending: {value_text(pending)}"
    kind = pending.get("kind")
    card = value_text(pending["card"]) if pending.get("card") is not None else "the card"
    who = seat(pending.get("player"))
    ask = _ASKS.get(str(kind), "{who} decides {kind} about {card}").format(who=who, card=card, kind=kind)
    options = pending.get("options")
    if isinstance(options, list):
        ask += " (" + ", ".join(choice_text(o, kind, observation, seat) for o in options) + ")"
    return ask


def _status(value: Any) -> str:
    return value if isinstance(value, str) else value_text(value)


def table(observation: Any, seat: Seat, differing: Sequence[Path] = (), side: str = "") -> TableView:
    """The table of ``observation``, each element marked that a path of ``differing`` touches."""
    obs: dict[str, Any] = observation if isinstance(observation, dict) else {}
    malformed = [] if isinstance(observation, dict) else [f"not an observation object: {value_text(observation)}"]
    listed = obs.get("players")
    players: list[Any] = listed if isinstance(listed, list) else []
    pending = obs.get("pending")
    deciding = pending.get("player") if isinstance(pending, dict) else None
    rows = []
    for index, player in enumerate(players):
        entry: dict[str, Any] = player if isinstance(player, dict) else {}
        path: Path = ("players", index)
        rows.append(PlayerRow(
            seat=index, name=seat(index), cards=_cards(entry.get("cards"), (*path, "cards"), differing),
            status=Cell(_status(entry.get("status")), touches((*path, "status"), differing)),
            round_score=Cell(value_text(entry.get("round_score")), touches((*path, "round_score"), differing)),
            total=Cell(value_text(entry.get("total")), touches((*path, "total"), differing)),
            deciding=deciding == index, differs=touches(path, differing)))
    extra_rows = {d[1] for d in under(("players",), differing) if isinstance(d[1], int) and d[1] >= len(players)}
    for index in sorted(extra_rows):  # a player only the other side has
        rows.append(PlayerRow(index, seat(index), [], Cell("(no such seat)", True), Cell("", True), Cell("", True),
                              differs=True))
    over = obs.get("over")
    winners = obs.get("winners") or []
    over_text = ("game over: " + (", ".join(seat(w) for w in winners) or "no winner")) if over is True else \
        ("" if over is False else value_text(over))
    return TableView(
        side=side, round=_cell(obs, "round", differing), dealer=_cell(obs, "dealer", differing, seat),
        draw_pile=_cell(obs, "draw_pile", differing), discard_pile=_cell(obs, "discard_pile", differing),
        in_play=_cards(obs.get("in_play"), ("in_play",), differing), in_play_differs=touches(("in_play",), differing),
        players=rows, pending=Cell(pending_text(pending, obs, seat), touches(("pending",), differing)),
        over=Cell(over_text, touches(("over",), differing) or touches(("winners",), differing)),
        differs=bool(differing), malformed=malformed)
