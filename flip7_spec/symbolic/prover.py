"""The prover's entry points: find the z3 plug-in of a ruleset's game, prove its theorems, search the hands
that expose its scoring misreadings.

The game-neutral machinery these call lives below: :mod:`.theorems` (how a theorem set is proved and checked
against a scorer) and :mod:`.misreadings` (how a smallest distinguishing hand is searched); each game's
plug-in (:class:`~flip7_spec.symbolic.plugin.SymbolicGame`) builds on them.
"""

from __future__ import annotations

from typing import Any

from flip7_spec.play import round_score
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset
from flip7_spec.symbolic import DEFAULT_TIMEOUT_MS
from flip7_spec.symbolic.misreadings import CaseSearch, ScoringCase, SymbolicMisreading
from flip7_spec.symbolic.plugin import SymbolicGame
from flip7_spec.symbolic.terms import Scorer, SymbolicError
from flip7_spec.symbolic.theorems import NoTheorems, ProofReport, TheoremSet


def plugin_of(ruleset: Ruleset) -> SymbolicGame | None:
    """The z3 plug-in of ``ruleset``'s game, or None when the game brings none."""
    plugin = definition_of(ruleset).symbolic()
    if plugin is None:
        return None
    if not isinstance(plugin, SymbolicGame):
        raise TypeError(f"game {ruleset.game}: its symbolic hook returned {type(plugin).__name__}, "
                        "not a SymbolicGame")
    return plugin


def theorem_set(ruleset: Ruleset, players: int | None = None) -> TheoremSet:
    """The theorem set for ``ruleset`` (``players`` fixes how many decks are in play; ``None``: one deck).

    Raises :class:`NoTheorems` when the ruleset's game brings no theorems.
    """
    plugin = plugin_of(ruleset)
    if plugin is None:
        raise NoTheorems(f"no theorems exist for the game {ruleset.game} (ruleset {ruleset.name})")
    return plugin.theorems(ruleset, players)


def prove(ruleset: Ruleset, scorer: Scorer | None = round_score, timeout_ms: int = DEFAULT_TIMEOUT_MS,
          players: int | None = None) -> ProofReport:
    """Prove every theorem of ``ruleset``'s game and check each against ``scorer`` (the game's theorem set
    says how: see :func:`theorem_set`).

    Raises :class:`NoTheorems` for a game without theorems and :class:`SymbolicError` for a ruleset the
    game's model cannot represent.
    """
    return theorem_set(ruleset, players).prove(scorer, timeout_ms)


def misreadings_for(ruleset: Ruleset) -> list[SymbolicMisreading[Any]]:
    """The misreadings of ``ruleset``'s game. Raises :class:`SymbolicError` for a game without any."""
    plugin = plugin_of(ruleset)
    if plugin is None:
        raise SymbolicError(f"no scoring misreadings exist for the game {ruleset.game} (ruleset {ruleset.name})")
    return list(plugin.misreadings(ruleset))



def search_cases(ruleset: Ruleset, players: int | None = None,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[CaseSearch]:
    """Search a distinguishing hand for every misreading of ``ruleset``'s game (see :func:`distinguishing_cases`).

    Raises :class:`SymbolicError` for a game without misreadings, a ruleset the model cannot represent, or a
    search z3 could not finish in ``timeout_ms``.
    """
    plugin = plugin_of(ruleset)
    if plugin is None:
        raise SymbolicError(f"no scoring misreadings exist for the game {ruleset.game} (ruleset {ruleset.name})")
    return plugin.search_cases(ruleset, players, timeout_ms)


def distinguishing_cases(ruleset: Ruleset, players: int | None = None,
                         timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[ScoringCase]:
    """For each misreading of the scoring rules that some hand of ``ruleset`` can expose, a hand with the
    fewest cards on which the misreading's score differs from the specification's.

    ``players`` sets how many decks are in play (``None``: one deck, so hands needing a card's second copy
    from a second deck are not considered). Each case's ``expected`` comes from
    :func:`flip7_spec.play.round_score` and is checked against the game's z3 model; misreadings that no hand
    exposes are left out (see :func:`search_cases`). Raises :class:`SymbolicError` as :func:`search_cases`
    does.
    """
    return [s.case for s in search_cases(ruleset, players, timeout_ms) if s.case is not None]
