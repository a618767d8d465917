"""A pending decision as the canonical observation shows it, read into typed values.

The observation (docs/protocol.md) is all an engine shows of its state. A game's judge of legal choices
(``GameDefinition.legal_options``) reads the decision it must judge and the table it is about from there, and
from nothing else: :func:`read_decision` does that reading once, for every game, and refuses (None) an
observation that does not have the canonical shape, since nobody can say what such a state allows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flip7_spec.cards import Card, card
from flip7_spec.errors import CardError
from flip7_spec.events import Status

_STATUSES = frozenset(s.value for s in Status)


@dataclass(frozen=True, slots=True)
class SeenRow:
    """One player's row: the cards in front of them, in the order received, and their status."""

    cards: tuple[Card, ...]
    status: Status


@dataclass(frozen=True, slots=True)
class SeenDecision:
    """The pending decision of an observation (who decides, what kind, about which card) and every row."""

    player: int
    kind: str
    card: Card | None
    rows: tuple[SeenRow, ...]

    def seats(self, *statuses: Status) -> list[int]:
        """The seats whose status is one of ``statuses``, in ascending seat order."""
        return [seat for seat, row in enumerate(self.rows) if row.status in statuses]

    def not_busted(self) -> list[int]:
        """The seats that have not busted, in ascending seat order."""
        return [seat for seat, row in enumerate(self.rows) if row.status is not Status.BUSTED]


def read_decision(observation: Any) -> SeenDecision | None:
    """The pending decision of ``observation`` and the rows it is about; None when nothing is pending (the
    game is over) or when the observation is not canonical where the decision depends on it (a row that is
    not a list of known card texts with a known status, a seat that is not a whole number at the table)."""
    if not isinstance(observation, Mapping):
        return None
    pending, players = observation.get("pending"), observation.get("players")
    if not isinstance(pending, Mapping) or not isinstance(players, list):
        return None
    rows = _rows(players)
    player, kind, about = pending.get("player"), pending.get("kind"), pending.get("card")
    if rows is None or type(player) is not int or not 0 <= player < len(rows) or not isinstance(kind, str):
        return None
    if about is None:
        return SeenDecision(player, kind, None, rows)
    seen = _cards([about])
    return None if seen is None else SeenDecision(player, kind, seen[0], rows)


def _rows(players: list[Any]) -> tuple[SeenRow, ...] | None:
    rows: list[SeenRow] = []
    for row in players:
        if not isinstance(row, Mapping) or not isinstance(row.get("cards"), list):
            return None
        text = row.get("status")
        if not isinstance(text, str) or text not in _STATUSES:
            return None
        status = Status(text)
        held = _cards(row["cards"])
        if held is None:
            return None
        rows.append(SeenRow(held, status))
    return tuple(rows)


def _cards(texts: list[Any]) -> tuple[Card, ...] | None:
    try:
        return tuple(card(text) for text in texts) if all(isinstance(t, str) for t in texts) else None
    except CardError:
        return None
