"""A saved failure for a person: the reference's table and the engine's side by side at the divergence.

A trace saved by ``flip7-spec conform --save-failures`` records, in ``header.provenance.failure``, the
failure as it happens on that trace: its step, JSON path, clause, diagnosis, every differing field and both
observations (the reference's and the engine's). :func:`render_diff` lays them out field by field, marking
each field that differs with ``<>`` (not only by its position), and then the causes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flip7_spec.errors import Flip7Error

MARK = "<>"
"""How a differing field is marked (text, so that it survives any terminal and a copy and paste)."""

_TOP_FIELDS = ("over", "winners", "round", "dealer", "draw_pile", "discard_pile", "in_play", "pending")
_PLAYER_FIELDS = ("status", "cards", "round_score", "total")


class NoSavedFailure(Flip7Error):
    """A trace that records no failure to show beside the reference."""


def saved_failure(trace: Any) -> dict[str, Any]:
    """The failure recorded in a saved trace; :class:`NoSavedFailure` when the trace records none."""
    try:
        failure = trace["header"]["provenance"]["failure"]
    except (KeyError, TypeError):
        failure = None
    if isinstance(failure, dict) and failure.get("outcome") == "errored":
        raise NoSavedFailure("this trace records an error of the engine, not a divergence: there is no engine "
                             "table to compare (`flip7-spec show FILE` shows the error)")
    if not isinstance(failure, dict) or "expected_observation" not in failure:
        raise NoSavedFailure("this trace records no failure (save one with `flip7-spec conform --save-failures DIR`)")
    return failure


def _text(value: Any) -> str:
    if isinstance(value, dict) and "kind" in value and "player" in value:  # a pending decision
        about = f" about {value['card']}" if value.get("card") else ""
        options = ", ".join(_text(o) for o in value.get("options") or [])
        return f"seat {value['player']}: {value['kind']}{about} [{options}]"
    if value is None:
        return "-"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(value) or "-"
    if isinstance(value, dict):
        return json.dumps(value, separators=(", ", ": "))
    return json.dumps(value) if not isinstance(value, str) else value


def _rows(expected: Any, found: Any) -> Iterator[tuple[str, Any, Any]]:
    """(field, reference value, engine value) for every field of either observation, in reading order."""
    left = expected if isinstance(expected, dict) else {}
    right = found if isinstance(found, dict) else {}
    for key in _TOP_FIELDS:
        if key in left or key in right:
            yield key, left.get(key), right.get(key)
    players_left: list[Any] = left["players"] if isinstance(left.get("players"), list) else []
    players_right: list[Any] = right["players"] if isinstance(right.get("players"), list) else []
    for seat in range(max(len(players_left), len(players_right))):
        a = players_left[seat] if seat < len(players_left) and isinstance(players_left[seat], dict) else {}
        b = players_right[seat] if seat < len(players_right) and isinstance(players_right[seat], dict) else {}
        for key in _PLAYER_FIELDS:
            yield f"players[{seat}].{key}", a.get(key), b.get(key)
    known = {*_TOP_FIELDS, "players"}
    for key in sorted((set(left) | set(right)) - known):
        yield key, left.get(key), right.get(key)


def render_diff(trace: Any) -> list[str]:
    """The lines of the side-by-side view of a saved failure (see the module's description)."""
    failure = saved_failure(trace)
    expected, found = failure.get("expected_observation"), failure.get("found_observation")
    step = failure.get("step")
    lines = [f"{failure.get('case_id', 'saved failure')} [{failure.get('level', '?')}]: "
             f"{'the start' if step is None else f'step {step}'}"
             + (f" after {json.dumps(failure['decision'])}" if failure.get("decision") else ""),
             f"first difference: {failure.get('where')}  [clause {failure.get('clause')}]"]
    if failure.get("compared") == "totals":
        lines.append("(at a round case's last step only the totals are compared)")
    rows = list(_rows(expected, found))
    width = max((len(name) for name, _, _ in rows), default=5)
    column = max([len("reference"), *(min(len(_text(a)), 48) for _, a, _ in rows)])
    lines.append(f"  {'field':<{width}}  {'reference':<{column}}  engine")
    for name, a, b in rows:
        mark = MARK if json.dumps(a, sort_keys=True) != json.dumps(b, sort_keys=True) else "  "
        lines.append(f"{mark}{name:<{width}}  {_text(a):<{column}}  {_text(b)}")
    causes = failure.get("causes")
    if isinstance(causes, list) and causes:
        lines.append("causes:")
        for cause in causes:
            at = "" if cause.get("step") is None else f"at step {cause['step']}: "
            lines.append(f"  {at}{cause.get('text')}")
    elif isinstance(failure.get("diagnosis"), dict):
        lines.append(str(failure["diagnosis"].get("text")))
    else:
        lines.append("no known reading reproduces the engine here: the clause is a guess")
    return lines
