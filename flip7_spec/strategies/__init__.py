"""Hypothesis strategies for Flip 7 and Flip 7: With a Vengeance.

Chance is always explicit, as everywhere in flip7-spec: a draw pile is a permutation of the ruleset's deck
(top card first), a reshuffle order is a permutation of the discard pile drawn from Hypothesis at the moment
the reshuffle is needed, and a decision is one of the pending decision's legal options chosen by
Hypothesis. A generated game is therefore a plain value, the record of a played game that every tool shares
(:class:`~flip7_spec.trace.record.GameRecord`): it replays without any random number generator, shrinks like
any other Hypothesis value, and exports as a trace.

The strategies, from the smallest to the largest:

- :mod:`.setups`: :func:`rulesets`, presets and combinations of their options (:func:`playable_presets` says
  which presets); :func:`player_counts`, player counts a ruleset allows, above 18 (a second deck) included;
  :func:`draw_piles`, :func:`rigged_piles`, :func:`special_tops`, whole draw piles, plain or with chosen
  cards on top; :func:`game_setups`, a ruleset, a player count, a Dealer and a draw pile;
  :func:`reshuffle_orders`;
- :mod:`.choosers`: :func:`choosers`, :func:`data_chooser`, :func:`index_chooser`, :func:`threshold_chooser`,
  decision policies;
- :mod:`.hands`: :func:`hands`, possible final hands of one player, for scoring;
- :mod:`.games`: :func:`played_games`, whole games (or their first ``max_decisions`` decisions);
  :func:`traces`, the same as trace dicts; :func:`conform_games`, the games `flip7-spec conform` generates
  (the same generator), as traces;
- :mod:`.rare_states`: :func:`rare_games`, games steered into a rare state (:data:`SCENARIOS`), one script
  per state.

Vengeance presets take part only when :func:`flip7_spec.rulesets.preset_names` lists them and the reference
can start and finish a game under them, so these strategies work whether or not Vengeance is finished.
"""

from typing import TYPE_CHECKING

from flip7_spec.strategies.choosers import (
    Chooser,
    choosers,
    data_chooser,
    index_chooser,
    threshold_chooser,
    threshold_choosers,
)
from flip7_spec.strategies.games import (
    DEFAULT_MAX_DECISIONS,
    Reshuffle,
    Script,
    conform_games,
    play,
    play_steered,
    played_games,
    traces,
)
from flip7_spec.strategies.hands import FinalHand, hands
from flip7_spec.strategies.rare_states import SCENARIOS, rare_games
from flip7_spec.strategies.setups import (
    SMALL_TARGETS,
    Draw,
    deck_texts,
    draw_piles,
    game_setups,
    option_values,
    playable_presets,
    player_counts,
    reshuffle_orders,
    rigged_piles,
    rulesets,
    special_tops,
)
from flip7_spec.trace.record import GameRecord, GameSetup

__all__ = [
    "DEFAULT_MAX_DECISIONS",
    "SCENARIOS",
    "SMALL_TARGETS",
    "Chooser",
    "Draw",
    "FinalHand",
    "GameRecord",
    "GameSetup",
    "Reshuffle",
    "Script",
    "choosers",
    "conform_games",
    "data_chooser",
    "deck_texts",
    "draw_piles",
    "game_setups",
    "hands",
    "index_chooser",
    "option_values",
    "play",
    "play_steered",
    "playable_presets",
    "played_games",
    "player_counts",
    "rare_games",
    "reshuffle_orders",
    "rigged_piles",
    "rulesets",
    "special_tops",
    "threshold_chooser",
    "threshold_choosers",
    "traces",
]

if TYPE_CHECKING:
    from flip7_spec.strategies.hands import FinalHand as Hand  # noqa: F401  (the old name: flip7_spec.moved.RENAMED)
else:
    from flip7_spec.moved import old_names

    __getattr__ = old_names(__name__, globals())
