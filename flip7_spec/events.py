"""The two small values that cross the engine's boundary: a pending :class:`Decision` and an :class:`Event`.

Decision kinds and the form of their choices (the same in traces and the protocol):

==================  ==========================================================  =====================
kind                asked of                                                    a choice is
==================  ==========================================================  =====================
``hit_or_stay``     the player whose turn it is (also in the deal, see           ``"hit"`` or ``"stay"``
                    F7-DEAL-STAY-INSTEAD)
``target``          the player who revealed a Freeze or Flip Three              a seat number
``give``            a player who already holds a Second Chance and got another  a seat number
``assign``          a Flip Three target, for each card it set aside             a seat number
``card``            (Vengeance) who picks a card in a row: Steal, Discard       ``{"player": p, "index": i}``
``swap``            (Vengeance) who picks two cards to swap                     ``[{...}, {...}]``
==================  ==========================================================  =====================

A decision with exactly one legal choice is never asked: the engine makes it and records a ``forced``
event (clause F7-FORCED-CHOICE).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

Choice = Any
"""A JSON value: ``"hit"``, ``"stay"``, a seat number, or (Vengeance) a card reference or a pair of them."""

HIT: Final = "hit"
STAY: Final = "stay"


class DecisionKind(StrEnum):
    """The kinds of decision (the table above); each game uses those it needs."""

    HIT_OR_STAY = "hit_or_stay"
    TARGET = "target"
    GIVE = "give"
    ASSIGN = "assign"
    CARD = "card"
    SWAP = "swap"


class Status(StrEnum):
    """A player's status in the current round, as observations show it."""

    ACTIVE = "active"
    """Still taking turns."""
    STAYED = "stayed"
    """Out of the turn rotation by choice (or made to Stay)."""
    FROZEN = "frozen"
    """Out of the turn rotation by a Freeze."""
    BUSTED = "busted"
    """Out of the round with a duplicate Number."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the game is waiting for: who decides, what kind, about which card, and the legal choices."""

    player: int
    kind: DecisionKind | str
    options: tuple[Choice, ...]
    card: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form, as found in observations."""
        return {"player": self.player, "kind": str(self.kind), "card": self.card, "options": list(self.options)}


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with the clause that made it happen.

    ``kind`` is one of the event names documented in docs/trace-format.md; ``data`` holds the fields
    that are not common to all events (for example ``scores`` for ``round_end``).
    """

    kind: str
    clause: str
    player: int | None = None
    card: str | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form: ``{"event": kind, "clause": id, ...}`` with absent fields left out."""
        out: dict[str, Any] = {"event": self.kind, "clause": self.clause}
        if self.player is not None:
            out["player"] = self.player
        if self.card is not None:
            out["card"] = self.card
        for key, value in self.data:
            out[key] = value
        return out

    def get(self, key: str, default: Any = None) -> Any:
        """The value of a ``data`` field."""
        for name, value in self.data:
            if name == key:
                return value
        return default
