"""A whole rules diff: the bounded exhaustive search, then aimed and Hypothesis-drawn games, then shrinking,
and the record of it all (:class:`DiffResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from flip7_spec.rulesdiff.budget import Budget
from flip7_spec.rulesdiff.exhaustive import Bound, Covered, Found, search
from flip7_spec.rulesdiff.hunt import Tried, search_aimed, search_drawn
from flip7_spec.rulesdiff.lockstep import EVENTS, OBSERVATIONS
from flip7_spec.rulesdiff.minimise import Shrunk, minimise
from flip7_spec.rulesdiff.sides import Sides, search_card_types

DEFAULT_BUDGET = 100_000
"""Games (each played on both sides) a diff may play to find a difference, by default."""

EXHAUSTIVE_SHARE = 0.7
"""The part of the budget the bounded exhaustive search may use; the aimed and Hypothesis games share what
it leaves (aimed games first, a third of it)."""

SHRINK_SHARE = 0.5
"""Games shrinking may play beyond the budget, as a part of it."""

EVENTS_BUDGET = 5_000
"""Games the search for a difference in the events alone may play, when the observations never differed."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What a diff searches: the level compared, the bound of the exhaustive search (None: the default,
    :func:`default_bound`), the budget in games, and the seed of the aimed and drawn games."""

    level: str = OBSERVATIONS
    bound: Bound | None = None
    budget: int = DEFAULT_BUDGET
    seed: str = "diff"


def default_bound(sides: Sides, cards: int = 4, players: int | None = None, decisions: int = 4,
                  reshuffles: int = 1, rounds: int = 1, every_type: bool = False) -> Bound:
    """The default bound of the exhaustive search: decks of 1 to ``cards`` cards of the default card types
    (:func:`~flip7_spec.rulesdiff.sides.search_card_types`, or every card type of the deck), the fewest
    players the sides allow (up to ``players``), the Dealer in seat 0, the sides' own target score and 1 (when
    they share it), up to ``decisions`` decisions, ``reshuffles`` reshuffles and ``rounds`` rounds."""
    from flip7_spec.rulesdiff.sides import card_types

    counts = sides.player_counts()
    low = counts.start
    most = low if players is None else max(low, min(players, counts.stop - 1))
    targets: tuple[int | None, ...] = (None, 1) if sides.target_free and sides.own_target != 1 else (None,)
    alphabet = card_types(sides.left) if every_type else search_card_types(sides.left)
    return Bound(cards, most, decisions, alphabet, low, targets, reshuffles, rounds)


@dataclass
class DiffResult:
    """What a diff found: the smallest game that tells the sides apart (``found``, with the search that found
    it and how it was shrunk), or none; what the exhaustive search covered; the games tried beyond it; and,
    at the observation level when the observations never differed, a game on which the events do."""

    sides: Sides
    settings: Settings
    bound: Bound | None
    covered: Covered | None
    found: Found | None = None
    found_by: str = ""
    shrunk: Shrunk | None = None
    tried: Tried = field(default_factory=Tried)
    used: int = 0
    events_only: Found | None = None

    @property
    def game(self) -> Found | None:
        """The smallest game found (shrunk when it was found beyond the bound)."""
        return self.shrunk.found if self.shrunk is not None else self.found

    def minimal_within(self) -> str | None:
        """Against which games the game found is smallest, in words (None when nothing was found)."""
        found = self.game
        if found is None:
            return None
        d = found.game.key[0]
        if self.found_by == "exhaustive" and self.bound is not None:
            own = self.sides.own_target
            return (f"no smaller game within the bound ({self.bound.describe(own)}): none with fewer decisions, "
                    "nor with as many and fewer players or cards")
        shrunk = self.shrunk
        if shrunk is not None and shrunk.bound is not None and shrunk.covered is not None:
            covered = shrunk.covered
            types = " ".join(shrunk.bound.alphabet)
            if covered.found is not None and covered.found.game == found.game:
                return (f"no smaller game of at most {shrunk.bound.cards} cards of its card types ({types}), "
                        f"{shrunk.bound.low} to {shrunk.bound.players} players and the Dealer in seat 0")
            if covered.levels >= d - 1:
                return (f"no game of at most {shrunk.bound.cards} cards of its card types ({types}) with fewer "
                        "decisions, the Dealer in seat 0")
            searched = "none" if covered.levels < 0 else f"up to {covered.levels} decisions"
            return (f"shrunk step by step; of the smaller games of its card types ({types}) the budget searched "
                    f"{searched}: a smaller game may exist")
        return "shrunk step by step only: a smaller game may exist"


def diff(sides: Sides, settings: Settings, report: Any = None) -> DiffResult:
    """Search for the smallest game on which ``sides`` differ at ``settings.level`` (see the package's
    description); ``report`` receives a line of progress now and then."""
    budget = Budget(settings.budget, report)
    bound = settings.bound if settings.bound is not None else default_bound(sides)
    result = DiffResult(sides, settings, None, None)
    level = settings.level
    found: Found | None = None
    if sides.deck_free:
        share = budget.share(EXHAUSTIVE_SHARE)
        share.stage = "every game within the bound"
        covered = search(sides.left, sides.right, bound, share, level)
        budget.settle(share)
        result.bound, result.covered = bound, covered
        if covered.found is not None:
            result.found, result.found_by = covered.found, "exhaustive"
            result.used = budget.used
            return result
    share = budget.share(1 / 3)
    found = search_aimed(sides, settings.seed, share, result.tried, level)
    budget.settle(share)
    by = "aimed"
    share = budget.share(1.0)
    drawn = search_drawn(sides, share, result.tried, level)  # shrunk by Hypothesis: often smaller still
    budget.settle(share)
    if drawn is not None and (found is None or drawn.game.key < found.game.key):
        found, by = drawn, "hypothesis"
    if found is not None:
        result.found, result.found_by = found, by
        shrinking = Budget(max(1, int(settings.budget * SHRINK_SHARE)), report)
        result.shrunk = minimise(sides, found, shrinking, level, bound.reshuffles)
        budget.used += shrinking.used
    elif level == OBSERVATIONS and sides.deck_free:
        events = Budget(EVENTS_BUDGET, report)
        events.stage = "a difference in the events"
        small = replace(bound, cards=min(bound.cards, 3), decisions=1)
        result.events_only = search(sides.left, sides.right, small, events, EVENTS).found
        budget.used += events.used
    result.used = budget.used
    return result
