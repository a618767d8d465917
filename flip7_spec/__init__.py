"""flip7-spec: the executable reference specification of Flip 7 and Flip 7: With a Vengeance.

The small public API: start a game from an explicit deck (top card first), make its decisions, read its
canonical observation, score hands.

>>> from flip7_spec import new_game, preset
>>> rules = preset("flip7")
>>> top = ["5", "9", "12", "FREEZE"]
>>> rest = sorted(c.text for c in rules.deck_cards(3))
>>> for text in top:
...     rest.remove(text)
>>> game, events = new_game(rules, players=3, deck=top + rest, dealer=0)
>>> [row["cards"] for row in game.observation()["players"]]
[['12'], ['5'], ['9']]
>>> game.pending.player, game.pending.kind, game.pending.options
(1, <DecisionKind.HIT_OR_STAY: 'hit_or_stay'>, ('hit', 'stay'))
>>> [(e.kind, e.clause, e.card) for e in game.apply("hit")]
[('draw', 'F7-HIT-STAY', 'FREEZE')]
>>> game.pending.kind, game.pending.card, game.pending.options
(<DecisionKind.TARGET: 'target'>, 'FREEZE', (0, 1, 2))
>>> game.apply(1)[-1].kind, game.observation()["players"][1]["status"]
('freeze', 'frozen')
"""

from flip7_spec import games as _games  # noqa: F401  (registers the built-in games)
from flip7_spec.cards import Card, Kind, card, cards
from flip7_spec.checked import check_hand, round_score, score  # play's functions, arguments checked
from flip7_spec.clauses import CLAUSES, Clause, clauses_for
from flip7_spec.errors import (
    CardError,
    ChanceError,
    Flip7Error,
    IllegalDecision,
    RulesetError,
    SetupError,
)
from flip7_spec.events import Decision, DecisionKind, Event, Status
from flip7_spec.machine import Game
from flip7_spec.play import new_game
from flip7_spec.registry import GameDefinition, game_definition, game_names, register_game
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
    "DecisionKind",
    "Event",
    "Flip7Error",
    "Game",
    "GameDefinition",
    "IllegalDecision",
    "Kind",
    "Ruleset",
    "RulesetError",
    "SetupError",
    "Status",
    "card",
    "cards",
    "check_hand",
    "clauses_for",
    "game_definition",
    "game_names",
    "load_ruleset",
    "new_game",
    "preset",
    "preset_names",
    "register_game",
    "round_score",
    "score",
]
