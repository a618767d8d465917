"""The first difference between an expected and a found JSON value, and the rule clause behind it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec.registry import GameDefinition, Role
from flip7_spec.trace.schema import json_path

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; the canonical texts decide without it
    orjson = None  # type: ignore[assignment]

_SORTED = orjson.OPT_SORT_KEYS if orjson is not None else 0

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
    missing or extra key or element is a difference at that key or index. JSON types are compared exactly:
    ``1``, ``1.0`` and ``true`` all differ.
    """
    if type(expected) is not type(found):
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


def step_difference(expected: Any, found: Any) -> Difference | None:
    """The difference a step's comparison reports: None only when ``found`` is exactly ``expected`` as JSON.

    Equal values are recognised by :func:`same_json` (their canonical JSON texts agree, without writing
    them in the common case); values whose texts differ always give a difference, at the root when
    :func:`first_difference` could locate none.
    """
    if same_json(expected, found):
        return None
    return first_difference(expected, found) or Difference((), expected, found)


def same_json(expected: Any, found: Any) -> bool:
    """Whether ``expected`` and ``found`` have the same canonical JSON text (:func:`canonical`), decided
    without the standard encoder when they are equal Python values.

    Python's ``==`` (at C speed) settles every pair except one whose numbers are equal across types
    (``1 == 1.0 == True``, ``0.0 == -0.0``); for an equal pair, orjson's texts with sorted keys (which keep
    those apart, as the canonical texts do) decide. Values that ``==`` does not find equal, and those orjson
    cannot write (keys that are not strings, integers beyond 64 bits, other objects), are decided by the
    canonical texts themselves.
    """
    if expected == found and orjson is not None:
        try:
            return bool(orjson.dumps(expected, option=_SORTED) == orjson.dumps(found, option=_SORTED))
        except TypeError:
            pass
    return canonical(expected) == canonical(found)


def canonical(value: Any) -> str:
    """The canonical JSON text of ``value`` (sorted keys, no spaces): equal texts are equal JSON values,
    type for type (``1``, ``1.0`` and ``true`` differ)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)


def _absent(value: Any) -> Any:
    return "<absent>" if value is _MISSING else value


_STATUS_ROLES = {"bust": Role.BUST, "freeze": Role.OUT_OF_ROUND, "stay": Role.HIT_STAY, "flip7": Role.FLIP7}


def blame(path: Sequence[str | int], events: Sequence[dict[str, Any]], default: Role, game: GameDefinition,
          expected: dict[str, Any] | None = None) -> str:
    """The clause of ``game`` behind a difference at ``path`` of an observation, from the reference's events of
    that step.

    The rule: the clause of the last reference event that concerns what differs (the player of a
    ``players[i]`` path, the piles for pile sizes, the pending decision's player for ``pending``); for a
    round score or total at a round's end, the scoring clause; the clause of role ``default`` when no event
    concerns it.
    """
    parts = list(path)
    kinds = [e.get("event") for e in events]
    fallback = game.clause_of(default)
    if parts[:1] == ["pending"] and isinstance(expected, dict) and isinstance(expected.get("pending"), dict):
        kind = str(expected["pending"].get("kind"))
        card = str(expected["pending"].get("card") or "")
        if parts[1:2] in (["options"], ["card"]):
            clause = game.decision_clause(kind, card)
            if clause is not None:
                return clause
    if parts[:1] == ["players"] and len(parts) >= 2 and isinstance(parts[1], int):
        seat = parts[1]
        field = parts[2] if len(parts) > 2 else None
        mine = [e for e in events if seat in (e.get("player"), e.get("target"), e.get("from"))
                or seat in (e.get("players") or ())]
        forced = [e for e in mine if e.get("event") == "forced" and e.get("because")]
        if field == "total":
            return game.clause_of(Role.SCORE if "round_end" in kinds else Role.BANK)
        if field == "status":
            for event in reversed(mine):
                role = _STATUS_ROLES.get(str(event.get("event")))
                if role is not None:
                    return str(event.get("clause") or game.clause_of(role))
            if any(e.get("event") == "target" or e.get("kind") == "target" for e in events):
                return game.clause_of(Role.ACTION_TARGET)  # the engine aimed an action elsewhere
        if field == "round_score":
            return game.scoring_clause(_row(expected, seat))
        if forced:
            return str(forced[-1]["because"])  # the only legal choice, made for the player
        if mine:
            return str(mine[-1].get("clause", fallback))
    if parts[:1] in (["draw_pile"], ["discard_pile"], ["in_play"]):
        for event in reversed(events):
            name = event.get("event")
            if name == "round_end":
                return game.clause_of(Role.DISCARD_PILE)  # the round's cards go to the discard pile
            if name in ("reshuffle", "discard", "chance_used", "flip3_end"):
                return str(event.get("clause", fallback))
    if parts[:1] in (["round"], ["dealer"]):
        if parts[0] == "dealer":
            return game.clause_of(Role.DEALER_ROTATION)
        return game.clause_of(Role.FLIP7 if "flip7" in kinds else Role.ROUND_END)
    if parts[:1] in (["over"], ["winners"]):
        return game.clause_of(Role.TIE if "tie" in kinds else Role.GAME_END)
    if events:
        return str(events[-1].get("clause", fallback))
    return fallback


def _row(expected: dict[str, Any] | None, seat: int) -> dict[str, Any]:
    """Player ``seat``'s row in ``expected`` (empty when the observation has none)."""
    try:
        row = expected["players"][seat] if expected else {}
    except (KeyError, IndexError, TypeError):
        return {}
    return row if isinstance(row, dict) else {}


def differences(expected: Any, found: Any, limit: int = 50) -> list[Difference]:
    """Every place (up to ``limit``) where ``found`` differs from ``expected``, in the reading order of
    :func:`first_difference`, compared as exactly (``1``, ``1.0`` and ``true`` all differ).

    Empty exactly when :func:`step_difference` finds none, whose answer is the first of these (the root, when
    the JSON texts differ and no part can be named)."""
    out: list[Difference] = []
    _collect(expected, found, (), out, limit)
    if not out and limit > 0 and canonical(expected) != canonical(found):
        out.append(Difference((), expected, found))
    return out


def _collect(expected: Any, found: Any, path: tuple[str | int, ...], out: list[Difference], limit: int) -> None:
    if len(out) >= limit:
        return
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in _key_order({**expected, **found}):
            _collect(expected.get(key, _MISSING), found.get(key, _MISSING), (*path, key), out, limit)
        return
    if isinstance(expected, list) and isinstance(found, list):
        for index in range(max(len(expected), len(found))):
            left = expected[index] if index < len(expected) else _MISSING
            right = found[index] if index < len(found) else _MISSING
            _collect(left, right, (*path, index), out, limit)
        return
    single = first_difference(expected, found, path)
    if single is not None:
        out.append(single)


# ---- the projections: how two observations of one step are compared at each level ----------------------------


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values of the same type (``true`` is not ``1``, ``1.0`` is not ``1``)."""
    return type(a) is type(b) and bool(a == b)


def strip_options(observation: Any) -> Any:
    """The observation without its pending decision's legal choices (compared only at the legal level)."""
    if isinstance(observation, dict) and isinstance(observation.get("pending"), dict):
        pending = {k: v for k, v in observation["pending"].items() if k != "options"}
        return {**observation, "pending": pending}
    return observation


def totals_only(observation: Any) -> Any:
    """Only the players' totals (what a round case checks after its round has ended)."""
    if isinstance(observation, dict) and isinstance(observation.get("players"), list):
        return {"players": [{"total": p.get("total")} if isinstance(p, dict) else p
                            for p in observation["players"]]}
    return observation


def compared_differences(expected: Any, found: Any, legal: bool = False, totals: bool = False) -> list[Difference]:
    """Every field (as :func:`flip7_spec.trace.compare.differences` lists them, exact JSON: ``1``, ``1.0`` and
    ``true`` differ) where two observations of one step differ as a case compares them: the legal choices only
    at the ``legal`` level, the players' totals only when ``totals`` (a round case's last step). Empty exactly
    when the case's comparison of that step passes."""
    if totals:
        expected, found = totals_only(expected), totals_only(found)
    if not legal:
        expected, found = strip_options(expected), strip_options(found)
    return differences(expected, found)
