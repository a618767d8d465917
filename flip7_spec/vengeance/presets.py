"""The Vengeance presets: the official game and the reading of seed 004, as deck data and option values."""

from __future__ import annotations

from typing import Final

from flip7_spec.rulesets import Ruleset, register_preset

# [V-DECK] 108 cards: The Zero; v copies of each value v from 1 to 13, one 7 being the Unlucky 7 and one 13
# the Lucky 13; -2 -4 -6 -8 -10 and /2 once each; two each of the five Actions.
# [V-DECK-MODIFIERS-ALT] the minority reading (two each of -2 ... -10) is a ruleset file [deck] table.
VENGEANCE_DECK: Final[tuple[tuple[str, int], ...]] = (
    ("ZERO", 1),
    *((str(v), v) for v in range(1, 7)),
    ("7", 6),
    ("U7", 1),
    *((str(v), v) for v in range(8, 13)),
    ("13", 12),
    ("L13", 1),
    ("-2", 1),
    ("-4", 1),
    ("-6", 1),
    ("-8", 1),
    ("-10", 1),
    ("/2", 1),
    ("ONEMORE", 2),
    ("FLIP4", 2),
    ("SWAP", 2),
    ("STEAL", 2),
    ("DISCARD", 2),
)

# [V-BASIC] seed 004: Numbers 1..13 with v copies of v and no special Number; the counts the seed leaves
# open are chosen here (docs/vengeance.md): six malus cards as in the official game (-5 x3, -10 x2, /2 x1,
# 35 points of minus against the official 30) and the official two of each of the four Actions.
VENGEANCE_BASIC_DECK: Final[tuple[tuple[str, int], ...]] = (
    *((str(v), v) for v in range(1, 14)),
    ("-5", 3),
    ("-10", 2),
    ("/2", 1),
    ("STEAL", 2),
    ("SWAP", 2),
    ("DISCARD", 2),
    ("FLIP4", 2),
)


def vengeance() -> Ruleset:
    """Flip 7: With a Vengeance, official rules (Ruleset Edition 1) with the best-sourced rulings."""
    return Ruleset(
        name="vengeance",
        game="vengeance",
        base="vengeance",
        description="Flip 7: With a Vengeance, official rules (Ruleset Edition 1, 108 cards)",
        deck=VENGEANCE_DECK,
        min_players=3,  # [V-PLAYERS]
        players_per_deck=18,  # [V-TWO-DECKS]
        target_score=200,
    )


def vengeance_basic() -> Ruleset:
    """The Vengeance of seed 004 (RULES.md section E), with the counts the seed leaves open chosen."""
    return Ruleset(
        name="vengeance-basic",
        game="vengeance",
        base="vengeance-basic",
        description="Vengeance as read by seed 004: 2-6 players, Numbers 1..13 (v copies of v, no special "
                    "Number), malus -5 x3, -10 x2, /2 x1, Steal Swap Discard Flip Four x2 each, no Just "
                    "One More; Steal, Discard and Flip Four aim at opponents, Steal and Discard take Number "
                    "cards, the victim picks the discarded card; negative scores allowed; target 200 (the "
                    "counts are overridable by a [deck] table)",
        deck=VENGEANCE_BASIC_DECK,
        min_players=2,
        max_players=6,
        target_score=200,
        special_numbers=False,
        negative_scores=True,
        steal_discard_cards="numbers",
        discard_chooser="victim",
        discard_self=False,
        flip4_self=False,
    )


register_preset("vengeance", vengeance)
register_preset("vengeance-basic", vengeance_basic)
