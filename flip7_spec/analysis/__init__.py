"""Exact values by computation, not sampling, where the state space allows.

:func:`solitaire` gives the exact distribution of one player's round on a fresh deck under a stay rule
(:func:`stay_at`, :func:`stay_with_cards`, :func:`never_stay`, or any function of a :class:`SolitaireHand`);
:func:`seven_distinct_probability` the chance of seven different Numbers before a duplicate; and
:func:`threshold_table` a solitaire threshold table; :func:`solitaire_ruleset` the same deck as a ruleset the
simulator plays (``flip7-spec simulate --solitaire``). See docs/simulation.md.
"""

from typing import TYPE_CHECKING

from flip7_spec.analysis.solitaire import (
    ACTIONS_AND_X2,
    BLANK,
    AnalysisError,
    SolitaireDeck,
    SolitaireHand,
    SolitaireOutcome,
    StayRule,
    actions_and_x2,
    never_stay,
    seven_distinct_probability,
    solitaire,
    solitaire_deck,
    solitaire_ruleset,
    stay_at,
    stay_with_cards,
    threshold_table,
)

__all__ = [
    "ACTIONS_AND_X2",
    "BLANK",
    "AnalysisError",
    "SolitaireDeck",
    "SolitaireHand",
    "SolitaireOutcome",
    "StayRule",
    "actions_and_x2",
    "never_stay",
    "seven_distinct_probability",
    "solitaire",
    "solitaire_deck",
    "solitaire_ruleset",
    "stay_at",
    "stay_with_cards",
    "threshold_table",
]

if TYPE_CHECKING:
    from flip7_spec.analysis.solitaire import Hand as Hand  # the old name (flip7_spec.moved.RENAMED)
else:
    from flip7_spec.moved import old_names

    __getattr__ = old_names(__name__, globals())
