"""The two sides of a rules diff: two rulesets of one game, what differs between them (readings, deck), and
what a search may choose for both at once (a custom deck of the rulesets' card types, a target score,
the player count)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from flip7_spec.cards import Kind, card
from flip7_spec.clauses import CLAUSES
from flip7_spec.errors import LimitError, RulesetError
from flip7_spec.limits import check_ruleset
from flip7_spec.misreadings import catalogue, misreading, option_deviation
from flip7_spec.rulesets import Ruleset


@dataclass(frozen=True, slots=True)
class SideReading:
    """One reading that one side plays and the other does not: an option value (``option`` set) or a
    catalogue misreading, with its clause and a line for people."""

    text: str
    side: str
    clause: str
    description: str
    option: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"reading": self.text, "side": self.side, "clause": self.clause,
                               "description": self.description}
        if self.option is not None:
            out["option"] = self.option
        return out


def parse_reading(text: str) -> tuple[str, Any] | None:
    """``(option, value)`` for ``option=value`` (the value as JSON, or else as a string: ``deal_start=dealer``
    is ``"dealer"``); None for a misreading's name."""
    name, sep, value = text.partition("=")
    if not sep:
        return None
    try:
        return name.strip(), json.loads(value)
    except json.JSONDecodeError:
        return name.strip(), value.strip()


def with_readings(ruleset: Ruleset, readings: Sequence[str], where: str) -> Ruleset:
    """``ruleset`` also playing ``readings`` (each ``option=value`` or a misreading of its game), in order.

    An option already read among the ruleset's deviations (a fingerprint's) is read there again, so that the
    new value wins; any other becomes the ruleset's option value. Raises :class:`RulesetError` naming
    ``where`` for an unknown option or misreading or a value the option does not take, and
    :class:`LimitError` for a value over the limits of a ruleset (a target score of 10,001, say)."""
    for text in readings:
        parsed = parse_reading(text)
        try:
            if parsed is None:
                misreading(ruleset.game, text)
                if text not in ruleset.misreadings():
                    ruleset = replace(ruleset, deviations=(*ruleset.deviations, text))
                continue
            name, value = parsed
            changed = check_ruleset(ruleset.with_options(**{name: value}))  # the value checked, limits too
            if any(d.option == name for d in ruleset.readings()):
                ruleset = replace(ruleset, deviations=(*ruleset.deviations, option_deviation(name, value)))
            else:
                ruleset = changed
        except (RulesetError, LimitError) as error:
            raise type(error)(f"{where} {text!r}: {error}") from None
    return ruleset


def label(ruleset: Ruleset, base: Ruleset | None = None) -> str:
    """How a side is named: its ruleset's name, and the readings it plays beyond ``base`` (when given)."""
    if base is None:
        return ruleset.name
    extra = [r.text for r in readings_between(base, ruleset) if r.side == "right"]
    return ruleset.name + "".join(f" + {text}" for text in extra)


def readings_between(left: Ruleset, right: Ruleset) -> list[SideReading]:
    """Every reading one side plays and the other does not: option values (as each side's reference plays
    them, deviations applied), misreadings, and the deck when the compositions differ."""
    found: list[SideReading] = []
    a, b = left.played(), right.played()
    for name, option in a.OPTIONS.items():
        x, y = getattr(a, name), getattr(b, name)
        if type(x) is type(y) and x == y:
            continue
        for side, value in (("left", x), ("right", y)):
            clause_id = option.clause_of(value)
            found.append(SideReading(option_deviation(name, value), side, clause_id,
                                 f"{name} = {json.dumps(value)}: {option.help}", name))
    known = catalogue(left.game)
    mine, theirs = set(left.misreadings()), set(right.misreadings())
    for side, names in (("left", [m for m in left.misreadings() if m not in theirs]),
                        ("right", [m for m in right.misreadings() if m not in mine])):
        for name in names:
            entry = known[name]
            found.append(SideReading(name, side, entry.clause, entry.description))
    if dict(left.deck) != dict(right.deck):
        for side, ruleset in (("left", left), ("right", right)):
            size = sum(n for _, n in ruleset.deck)
            found.append(SideReading("deck", side, _deck_clause(ruleset), f"its own deck of {size} cards"))
    return found


def _deck_clause(ruleset: Ruleset) -> str:
    from flip7_spec.registry import Role, definition_of

    return definition_of(ruleset).clause_of(Role.DECK)


def clause_text(clause_id: str) -> str:
    """``ID (confidence): statement`` of a clause, or the id alone when it is unknown."""
    found = CLAUSES.get(clause_id)
    return f"{clause_id} ({found.confidence}): {found.statement}" if found else clause_id


@dataclass(frozen=True, slots=True)
class Sides:
    """The two rulesets a diff compares (of one game), with the names they are shown by."""

    left: Ruleset
    right: Ruleset
    left_name: str
    right_name: str

    @classmethod
    def of(cls, left: Ruleset, right: Ruleset, left_name: str | None = None,
           right_name: str | None = None) -> Sides:
        """The sides ``left`` and ``right``; :class:`RulesetError` for rulesets of two games."""
        if left.game != right.game:
            raise RulesetError(f"{left.name} is a ruleset of {left.game} and {right.name} one of {right.game}: "
                               "a diff compares two rulesets of the same game")
        return cls(left, right, left_name or left.name, right_name or label(right, left))

    def readings(self) -> list[SideReading]:
        """What differs between the sides (see :func:`readings_between`)."""
        return readings_between(self.left, self.right)

    @property
    def deck_free(self) -> bool:
        """Whether a search may give both sides a custom deck (they play the same deck)."""
        return dict(self.left.deck) == dict(self.right.deck)

    @property
    def target_free(self) -> bool:
        """Whether a search may give both sides another target score (they play the same one)."""
        return self.left.played().target_score == self.right.played().target_score

    @property
    def own_target(self) -> int:
        return self.left.played().target_score

    def player_counts(self) -> range:
        """The player counts both sides allow (at most 8 when neither sets a limit)."""
        a, b = self.left.played(), self.right.played()
        low = max(a.min_players, b.min_players, 1)
        limits = [m for m in (a.max_players, b.max_players) if m]
        high = min(limits) if limits else max(low, 8)
        return range(low, high + 1)


def card_types(ruleset: Ruleset) -> tuple[str, ...]:
    """Every card type of ``ruleset``'s deck, in the composition's order."""
    return tuple(text for text, count in ruleset.deck if count > 0)


NUMBERS_KEPT = 3
"""Plain Number values the default card types of the exhaustive search keep (the lowest)."""


def search_card_types(ruleset: Ruleset) -> tuple[str, ...]:
    """The card types the exhaustive search draws its decks from by default: every card type of the deck but
    the plain Numbers and the modifiers, which are cut to the :data:`NUMBERS_KEPT` lowest plain Numbers (and,
    for each Number with an effect of its own, a plain Number of the same value) and the smallest modifier of
    each kind. Numbers tell apart by being equal or not and by their sum, so a few low values reach what the
    others do; the search's bound names the card types it used."""
    cards = [card(text) for text in card_types(ruleset)]
    plain = sorted({c.value for c in cards if c.is_number and c.special is None})
    special = {c.value for c in cards if c.is_number and c.special is not None}
    kept_values = set(plain[:NUMBERS_KEPT]) | (special & set(plain))
    smallest: dict[Kind, int] = {}
    for c in cards:
        if c.is_modifier:
            smallest[c.kind] = min(smallest.get(c.kind, c.value), c.value, key=abs)
    kept = []
    for c in cards:
        if c.is_number and c.special is None:
            keep = c.value in kept_values
        elif c.is_modifier:
            keep = c.value == smallest[c.kind]
        else:
            keep = True
        if keep:
            kept.append(c.text)
    return tuple(kept)
