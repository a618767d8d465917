"""flip7-spec: the executable reference specification of Flip 7 and Flip 7: With a Vengeance.

The small public API::

    from flip7_spec import preset, new_game, card, round_score

    game, events = new_game(preset("flip7"), players=3, deck=deck_top_first)
    game.pending            # Decision(player, kind, options, card)
    events = game.apply("hit")
    game.observation()      # the canonical JSON observation
"""

from flip7_spec.cards import Card, Kind, card, cards
from flip7_spec.checked import round_score, score  # scoring's functions, arguments checked
from flip7_spec.clauses import CLAUSES, Clause, clauses_for
from flip7_spec.engine import Game, new_game
from flip7_spec.errors import (
    CardError,
    ChanceError,
    Flip7Error,
    IllegalDecision,
    RulesetError,
    SetupError,
)
from flip7_spec.events import Decision, Event
from flip7_spec.rulesets import Ruleset, load_ruleset, preset, preset_names

__version__ = "0.1.0"
RULES_VERSION = "2026.1"
"""The version of the rules as specified here; traces record it."""

__all__ = [
    "CLAUSES",
    "RULES_VERSION",
    "Card",
    "CardError",
    "ChanceError",
    "Clause",
    "Decision",
    "Event",
    "Flip7Error",
    "Game",
    "IllegalDecision",
    "Kind",
    "Ruleset",
    "RulesetError",
    "SetupError",
    "card",
    "cards",
    "clauses_for",
    "load_ruleset",
    "new_game",
    "preset",
    "preset_names",
    "round_score",
    "score",
]
