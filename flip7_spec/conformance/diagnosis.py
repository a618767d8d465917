"""Diagnosis by counterfactual: which declared reading of the rules the engine behaves as if it played.

At a divergence, the reference is run again on the same deck, dealer, reshuffle orders and decisions under
each alternative value of each option of the ruleset's game; a reading that reproduces every observation the
engine gave, up to and including the divergent one, explains the divergence. Nothing here matches symptoms:
a reading is named only when the reference, playing it, does exactly what the engine did.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec.cards import cards
from flip7_spec.clauses import CLAUSES
from flip7_spec.errors import ChanceError, Flip7Error
from flip7_spec.play import new_game
from flip7_spec.rulesets import Ruleset

Projection = Callable[[int, Any], Any]
"""What of an observation a case compares at a position (the runner leaves out what a level does not check)."""


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """A reading the engine's behaviour matches: the option value, its clause, that clause's confidence."""

    option: str
    value: Any
    clause: str
    confidence: str

    @property
    def reading(self) -> str:
        return f"{self.option}={json.dumps(self.value)}"

    def describe(self) -> str:
        """One line for people: the engine behaves as if <reading> [clause, confidence]."""
        return f"the engine behaves as if {self.reading} [{self.clause}, {self.confidence}]"

    def to_json(self) -> dict[str, Any]:
        return {"option": self.option, "value": self.value, "reading": self.reading, "clause": self.clause,
                "confidence": self.confidence, "text": self.describe()}


def alternatives(ruleset: Ruleset) -> Iterator[tuple[str, Any, Ruleset]]:
    """Every other allowed value of every option of ``ruleset``'s game with a finite set of values, with the
    ruleset that reads it (values the ruleset refuses in combination are left out)."""
    for name, option in ruleset.OPTIONS.items():
        values = option.values()
        if values is None:
            continue
        current = getattr(ruleset, name)
        for value in values:
            if type(value) is type(current) and value == current:
                continue
            try:
                yield name, value, ruleset.with_options(**{name: value})
            except Flip7Error:
                continue


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def reproduces(ruleset: Ruleset, header: dict[str, Any], reshuffles: Sequence[Sequence[str]],
               decisions: Sequence[Any], found: Sequence[Any], upto: int, project: Projection) -> bool:
    """Whether the reference under ``ruleset``, given the trace's setup and decisions, shows the engine's
    observations ``found[0..upto]`` (after projection) exactly."""
    try:
        game, _ = new_game(ruleset, header["players"], list(header["deck"]), dealer=header["dealer"],
                           reshuffles=[cards(list(order)) for order in reshuffles], record=False)
        for position in range(upto + 1):
            if position > 0:
                game.apply(decisions[position - 1])
            if _canonical(project(position, game.observation())) != _canonical(project(position, found[position])):
                return False
    except (Flip7Error, IndexError, KeyError, TypeError):
        return False  # the decisions or the reshuffle orders do not fit this reading
    return True


def is_reshuffle_problem(error: BaseException) -> bool:
    """Whether an engine's failure says it could not use the reshuffle orders it was given (a reply starting
    ``reshuffle:``, or an in-process engine's :class:`~flip7_spec.errors.ChanceError`)."""
    text = str(error).lstrip().lower().removeprefix("engine error:").lstrip()  # a process engine's errored reply
    return isinstance(error, ChanceError) or text.startswith("reshuffle:") or "ChanceError" in str(error)


def needs_other_reshuffle(ruleset: Ruleset, header: dict[str, Any], reshuffles: Sequence[Sequence[str]],
                          decisions: Sequence[Any], found: Sequence[Any], project: Projection) -> bool:
    """Whether the reference under ``ruleset`` shows the engine's observations ``found`` and then, at the next
    decision, cannot use the reshuffle orders either (it needs a reshuffle the trace does not hold)."""
    upto = len(found) - 1
    if upto < 0 or not reproduces(ruleset, header, reshuffles, decisions, found, upto, project):
        return False
    try:
        game, _ = new_game(ruleset, header["players"], list(header["deck"]), dealer=header["dealer"],
                           reshuffles=[cards(list(order)) for order in reshuffles], record=False)
        for choice in decisions[:upto + 1]:
            game.apply(choice)
    except ChanceError:
        return True
    except (Flip7Error, IndexError):
        return False
    return False


def diagnose_reshuffle(ruleset: Ruleset, header: dict[str, Any], reshuffles: Sequence[Sequence[str]],
                       decisions: Sequence[Any], found: Sequence[Any], project: Projection) -> Diagnosis | None:
    """For an engine that stopped on the reshuffle orders: the first alternative reading under which the
    reference shows the same observations and then needs a reshuffle the orders do not fit, too."""
    for name, value, alternative in alternatives(ruleset):
        if needs_other_reshuffle(alternative, header, reshuffles, decisions, found, project):
            clause_id = ruleset.OPTIONS[name].clause_of(value)
            clause = CLAUSES.get(clause_id)
            return Diagnosis(name, value, clause_id, clause.confidence if clause else "?")
    return None


def diagnose(ruleset: Ruleset, header: dict[str, Any], reshuffles: Sequence[Sequence[str]],
             decisions: Sequence[Any], found: Sequence[Any], upto: int, project: Projection) -> Diagnosis | None:
    """The first alternative reading (option by option, in the game's order) under which the reference
    reproduces the engine's observations through position ``upto``; None when no known reading does."""
    for name, value, alternative in alternatives(ruleset):
        if reproduces(alternative, header, reshuffles, decisions, found, upto, project):
            clause_id = ruleset.OPTIONS[name].clause_of(value)
            clause = CLAUSES.get(clause_id)
            return Diagnosis(name, value, clause_id, clause.confidence if clause else "?")
    return None
