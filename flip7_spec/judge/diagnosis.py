"""Diagnosis by counterfactual: which declared reading of the rules the engine behaves as if it played.

At a divergence, the reference is run again on the same deck, dealer, reshuffle orders and decisions under
each alternative value of each option of the ruleset's game, and under each known misreading of the game's
catalogue (:mod:`flip7_spec.misreadings`); a reading that reproduces every observation the
engine gave, up to and including the divergent one, explains the divergence. Nothing here matches symptoms:
a reading is named only when the reference, playing it, does exactly what the engine did.

When no single reading reproduces a divergence, pairs are tried: an engine with two deviations can show
both at the same step. Only readings that change the reference's observation at that step are paired (at
most :data:`MAX_PAIRED` of them), so the search stays small.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from flip7_spec.cards import cards
from flip7_spec.clauses import CLAUSES
from flip7_spec.errors import ChanceError, Flip7Error
from flip7_spec.machine import Game
from flip7_spec.misreadings import catalogue, option_deviation
from flip7_spec.play import make_game
from flip7_spec.results import Explanation
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.compare import canonical, differences
from flip7_spec.trace.document import Table

Projection = Callable[[int, Any], Any]
"""What of an observation a case compares at a position (the runner leaves out what a level does not check)."""

REPLAY_ERRORS = (Flip7Error, IndexError, KeyError, TypeError, ValueError)
"""What a replay under a reading may raise when the trace's decisions or reshuffle orders do not fit it (or two
readings cannot be played together): the reading does not reproduce the engine."""


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """A reading the engine's behaviour matches: an option value or a catalogue misreading, its clause and
    that clause's confidence; ``ruleset`` is the case's ruleset with this reading added (what the reference
    plays to follow the engine further)."""

    reading: str
    clause: str
    confidence: str
    description: str = ""
    option: str | None = None
    value: Any = None
    ruleset: Ruleset | None = field(default=None, compare=False, repr=False)
    also: tuple[str, ...] = ()
    """Other readings that reproduce the engine here just as well (the case cannot tell them apart)."""
    together: tuple[Diagnosis, ...] = ()
    """Readings that reproduce the engine only together with this one (a pair at one step); ``ruleset``
    plays them all."""

    @property
    def is_misreading(self) -> bool:
        return self.option is None

    def describe(self) -> str:
        """One line for people: the engine behaves as if <reading> [clause, confidence]."""
        if self.is_misreading:
            text = f"the engine behaves as if {self.description} (misreading {self.reading}) " \
                   f"[{self.clause}, {self.confidence}]"
        else:
            text = f"the engine behaves as if {self.reading} [{self.clause}, {self.confidence}]"
        for other in self.together:
            text += f", together with {other.reading} [{other.clause}, {other.confidence}]"
        if self.also:
            text += f"; this case fits {', '.join(self.also)} as well"
        return text

    def explanation(self) -> Explanation:
        """This reading as a result records it (its text the line :meth:`describe` gives)."""
        return Explanation(self.describe(), reading=self.reading, clause=self.clause, confidence=self.confidence,
                           misreading=self.reading if self.is_misreading else None,
                           description=self.description if self.is_misreading else None,
                           option=self.option, value=self.value, also=self.also,
                           together=tuple(other.reading for other in self.together))

    def to_json(self) -> dict[str, Any]:
        return self.explanation().to_json()

    def parts(self) -> list[Diagnosis]:
        """This reading and each one it needs beside it, one cause each (a single reading: itself)."""
        alone = replace(self, together=())
        return [alone, *(replace(other, ruleset=self.ruleset) for other in self.together)]


def _first_of(matches: Iterable[Diagnosis]) -> Diagnosis | None:
    """The first matching reading, with the other matches listed in its ``also``."""
    found = list(matches)
    if not found:
        return None
    return replace(found[0], also=tuple(d.reading for d in found[1:]))


def _confidence(clause_id: str) -> str:
    clause = CLAUSES.get(clause_id)
    return clause.confidence if clause else "?"


def alternatives(ruleset: Ruleset) -> Iterator[Diagnosis]:
    """Every reading the engine could be playing instead of ``ruleset``: each other allowed value of each
    option with a finite set of values (option by option, in the game's order), then each misreading of the
    game's catalogue not already among the ruleset's deviations. Each comes with the ruleset that plays it
    (the reading added to the deviations, so that an engine can still be sent the ruleset it declared)."""
    played = ruleset.played()
    for name, option in ruleset.OPTIONS.items():
        values = option.values()
        if values is None:
            continue
        current = getattr(played, name)
        for value in values:
            if type(value) is type(current) and value == current:
                continue
            reading = option_deviation(name, value)
            try:
                variant = replace(ruleset, deviations=(*ruleset.deviations, reading))
                variant.played()
            except Flip7Error:
                continue  # a value the ruleset refuses in combination
            clause_id = ruleset.OPTIONS[name].clause_of(value)
            yield Diagnosis(reading, clause_id, _confidence(clause_id), option=name, value=value, ruleset=variant)
    taken = set(ruleset.misreadings())
    for misreading in catalogue(ruleset.game).values():
        if misreading.name in taken:
            continue
        variant = replace(ruleset, deviations=(*ruleset.deviations, misreading.name))
        yield Diagnosis(misreading.name, misreading.clause, _confidence(misreading.clause),
                        misreading.description, ruleset=variant)


def reproduces(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
               decisions: Sequence[Any], found: Sequence[Any], upto: int, project: Projection) -> bool:
    """Whether the reference under ``ruleset``, given the trace's setup and decisions, shows the engine's
    observations ``found[0..upto]`` (after projection) exactly."""
    # Most readings already differ at the divergent position: look there first, without building the
    # observations on the way (the costly part), and check every earlier position only for a match.
    seen = _seen_at(ruleset, table, reshuffles, decisions, upto, project)
    return seen is not None and seen == canonical(project(upto, found[upto])) and \
        _earlier_match(ruleset, table, reshuffles, decisions, found, upto, project)


def _seen_at(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
             decisions: Sequence[Any], upto: int, project: Projection) -> str | None:
    """The canonical text of the reference's projected observation at position ``upto`` under ``ruleset``;
    None when the decisions or the reshuffle orders do not fit this reading."""
    try:
        game = _replayed(ruleset, table, reshuffles, decisions, upto)
        return canonical(project(upto, game.observation()))
    except REPLAY_ERRORS:
        return None


def _earlier_match(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
                   decisions: Sequence[Any], found: Sequence[Any], upto: int, project: Projection) -> bool:
    """Whether the reference under ``ruleset`` shows ``found[position]`` (after projection) at every position
    before ``upto``."""
    try:
        game = _replayed(ruleset, table, reshuffles, (), 0)
        for position in range(upto):
            if position > 0:
                game.apply(decisions[position - 1])
            if canonical(project(position, game.observation())) != canonical(project(position, found[position])):
                return False
    except REPLAY_ERRORS:
        return False  # the decisions or the reshuffle orders do not fit this reading
    return True


def _replayed(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
              decisions: Sequence[Any], count: int) -> Game:
    """The reference under ``ruleset`` after the trace's first ``count`` decisions (its deck is checked once,
    by the runner, not here)."""
    game, _ = table.new_game(ruleset, reshuffles, check_deck=False)
    for choice in decisions[:count]:
        game.apply(choice)
    return game


def is_reshuffle_problem(error: BaseException) -> bool:
    """Whether an engine's failure says it could not use the reshuffle orders it was given: an ``errored``
    reply carrying the structured ``reshuffle`` field (docs/protocol.md), or whose message starts
    ``reshuffle:`` (the older convention, still recognised), or an in-process engine's
    :class:`~flip7_spec.errors.ChanceError`."""
    if getattr(error, "reshuffle", None) is not None:
        return True
    text = str(error).lstrip().lower().removeprefix("engine error:").lstrip()  # a process engine's errored reply
    return isinstance(error, ChanceError) or text.startswith("reshuffle:") or "ChanceError" in str(error)


def needs_other_reshuffle(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
                          decisions: Sequence[Any], found: Sequence[Any], project: Projection) -> bool:
    """Whether the reference under ``ruleset`` shows the engine's observations ``found`` and then, at the next
    decision, cannot use the reshuffle orders either (it needs a reshuffle the trace does not hold)."""
    upto = len(found) - 1
    if upto < 0 or not reproduces(ruleset, table, reshuffles, decisions, found, upto, project):
        return False
    try:
        game, _ = table.new_game(ruleset, reshuffles)
        for choice in decisions[:upto + 1]:
            game.apply(choice)
    except ChanceError:
        return True
    except REPLAY_ERRORS:
        return False
    return False


def diagnose_reshuffle(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
                       decisions: Sequence[Any], found: Sequence[Any], project: Projection) -> Diagnosis | None:
    """For an engine that stopped on the reshuffle orders: the first alternative reading under which the
    reference shows the same observations and then needs a reshuffle the orders do not fit, too."""
    for diagnosis in alternatives(ruleset):
        assert diagnosis.ruleset is not None
        if needs_other_reshuffle(diagnosis.ruleset, table, reshuffles, decisions, found, project):
            return diagnosis
    return None


MAX_PAIRED = 12
"""Readings paired at most when no single one explains a divergence (those changing the step, in order)."""


def diagnoses(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
              decisions: Sequence[Any], found: Sequence[Any], upto: int, project: Projection,
              pairs: bool = True) -> list[Diagnosis]:
    """Every alternative reading (:func:`alternatives`, in order) under which the reference reproduces the
    engine's observations through position ``upto``, each listing the others in its ``also``. When none
    does (and ``pairs``), the pairs of readings that do together (each a :class:`Diagnosis` whose
    ``together`` names the second reading)."""
    def seen(variant: Ruleset) -> str | None:
        return _seen_at(variant, table, reshuffles, decisions, upto, project)

    def fits(variant: Ruleset, at: str | None) -> bool:
        """``at`` being ``variant``'s observation at ``upto``: whether it shows the engine's, up to there."""
        return at == target and _earlier_match(variant, table, reshuffles, decisions, found, upto, project)

    target = canonical(project(upto, found[upto]))
    singles = [(d, seen(d.ruleset)) for d in alternatives(ruleset) if d.ruleset is not None]
    matches = [d for d, at in singles if d.ruleset is not None and fits(d.ruleset, at)]
    if not matches and pairs:
        own = seen(ruleset)
        moving = [d for d, at in singles if at is not None and at != own][:MAX_PAIRED]
        both = [(first, second) for i, first in enumerate(moving) for second in moving[i + 1:]]
        matches = _pairs(ruleset, both, lambda variant: fits(variant, seen(variant)))
        if not matches:  # a second reading that only shows once the first has changed the game
            still = [d for d, _ in singles if d not in moving]
            closer = _closer(moving, dict(singles), own, target)
            later = [(first, second) for first in closer for second in still][:LATER_PAIRS]
            matches = _pairs(ruleset, later, lambda variant: fits(variant, seen(variant)))
    return [replace(d, also=tuple(o.reading for o in matches if o is not d)) for d in matches]


def _closer(moving: Sequence[Diagnosis], seen: dict[Diagnosis, str | None], own: str | None,
            target: str) -> list[Diagnosis]:
    """The readings of ``moving`` whose observation at the divergent step (``seen``) differs from the engine's
    (``target``) in fewer fields than the reference's own (``own``), the closest first: only they can be the
    first of a pair whose second reading shows once the first has changed the game."""
    goal = json.loads(target)

    def distance(text: str | None) -> int:
        return len(differences(json.loads(text), goal)) if text is not None else 1 << 30

    start = distance(own)
    near = [(distance(seen.get(d)), index, d) for index, d in enumerate(moving)]
    return [d for far, _, d in sorted(near, key=lambda item: item[:2]) if far < start]


LATER_PAIRS = 240
"""Pairs tried at most whose second reading does not change the divergent step alone (in catalogue order)."""


def _pairs(ruleset: Ruleset, pairs: Sequence[tuple[Diagnosis, Diagnosis]],
           fits: Callable[[Ruleset], bool]) -> list[Diagnosis]:
    """The ``pairs`` of readings (two values of one option excepted) under which ``fits`` holds."""
    found: list[Diagnosis] = []
    for first, second in pairs:
        if first.option is not None and first.option == second.option:
            continue
        try:
            both = replace(ruleset, deviations=(*ruleset.deviations, first.reading, second.reading))
            both.played()
        except Flip7Error:
            continue  # two readings the ruleset refuses together
        if fits(both):
            found.append(replace(first, ruleset=both, together=(second,)))
    return found


def diagnose(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
             decisions: Sequence[Any], found: Sequence[Any], upto: int, project: Projection) -> Diagnosis | None:
    """The first of :func:`diagnoses` (with the others in its ``also``); None when no known reading fits."""
    found_readings = diagnoses(ruleset, table, reshuffles, decisions, found, upto, project)
    return found_readings[0] if found_readings else None


def reference_observations(ruleset: Ruleset, table: Table, reshuffles: Sequence[Sequence[str]],
                           decisions: Sequence[Any], count: int) -> list[Any]:
    """The reference's observations under ``ruleset`` (deviations included) at the first ``count`` positions
    of the trace (the start, then after each decision); fewer when the reference cannot go on (a decision
    it does not allow, or a reshuffle the trace does not hold)."""
    out: list[Any] = []
    if count <= 0:
        return out
    try:
        game, _ = table.new_game(ruleset, reshuffles)
        out.append(game.observation())
        for choice in decisions[:max(0, count - 1)]:
            game.apply(choice)
            out.append(game.observation())
    except REPLAY_ERRORS:
        pass
    return out


def hand_score(ruleset: Ruleset, hand: Sequence[str], busted: bool) -> int:
    """The round score the reference gives ``hand`` under ``ruleset``, its deviations included."""
    players = max(ruleset.min_players, 1)
    game = make_game(ruleset, players, ruleset.deck_cards(players), 0, record=False)
    return game.score_hand(cards(list(hand)), busted)


def diagnose_score(ruleset: Ruleset, hand: Sequence[str], busted: bool, found: Any) -> Diagnosis | None:
    """The first alternative reading (:func:`alternatives`) under which the reference scores ``hand`` as the
    engine did, with the others that do too; None when no known reading does."""
    if isinstance(found, bool) or not isinstance(found, int):
        return None
    return _first_of(d for d in alternatives(ruleset)
                     if d.ruleset is not None and hand_score_or_none(d.ruleset, hand, busted) == found)


def hand_score_or_none(ruleset: Ruleset, hand: Sequence[str], busted: bool) -> int | None:
    """:func:`hand_score`, or None when the reference under ``ruleset`` cannot score ``hand``."""
    try:
        return hand_score(ruleset, hand, busted)
    except REPLAY_ERRORS:
        return None


__all__ = [
    "LATER_PAIRS",
    "MAX_PAIRED",
    "REPLAY_ERRORS",
    "Diagnosis",
    "Projection",
    "alternatives",
    "diagnose",
    "diagnose_reshuffle",
    "diagnose_score",
    "diagnoses",
    "hand_score",
    "hand_score_or_none",
    "is_reshuffle_problem",
    "needs_other_reshuffle",
    "reference_observations",
    "reproduces",
]
