"""The cards of Flip 7: With a Vengeance: its special Numbers, its five Actions' kinds and every card of its
decks, as its definition lists them.

Numbers, the ``-N`` modifiers and ``/2`` are written in the shared notation; The Zero (``ZERO``), Unlucky 7
(``U7``), Lucky 13 (``L13``), Just One More (``ONEMORE``), Flip Four (``FLIP4``), Swap, Steal and Discard are
the game's own.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from flip7_spec.cards import CardType, Family, Kind


class Special(Enum):
    """The Vengeance Number cards with an effect of their own (clause V-SPECIAL-NUMBERS)."""

    ZERO = "zero"
    UNLUCKY_7 = "unlucky7"
    LUCKY_13 = "lucky13"


JUST_ONE_MORE: Final = Kind("just_one_more", Family.ACTION)
FLIP_FOUR: Final = Kind("flip_four", Family.ACTION)
SWAP: Final = Kind("swap", Family.ACTION)
STEAL: Final = Kind("steal", Family.ACTION)
DISCARD: Final = Kind("discard", Family.ACTION)

VENGEANCE_CARDS: Final[tuple[CardType, ...]] = (
    # [V-SPECIAL-NUMBERS] Numbers with an effect of their own
    CardType("ZERO", Kind.NUMBER, 0, name="The Zero", label="0", caption="zero", special=Special.ZERO,
             aliases=("THE ZERO",), clauses=("V-ZERO-SCORE", "V-ZERO-FLIP7", "V-ZERO-MUST-HIT",
                                             "V-SPECIAL-NUMBERS")),
    CardType("U7", Kind.NUMBER, 7, name="Unlucky 7", label="7", caption="unlucky", special=Special.UNLUCKY_7,
             aliases=("UNLUCKY 7",), clauses=("V-UNLUCKY7-WIPE", "V-UNLUCKY7-NO-BUST", "V-UNLUCKY7-LATER-7",
                                              "V-FLIP4-UNLUCKY7", "V-SPECIAL-NUMBERS")),
    CardType("L13", Kind.NUMBER, 13, name="Lucky 13", label="13", caption="lucky", special=Special.LUCKY_13,
             aliases=("LUCKY 13",), clauses=("V-LUCKY13-PAIR", "V-LUCKY13-FLIP7", "V-LUCKY13-THIRD",
                                             "V-SPECIAL-NUMBERS")),
    # [V-ONEMORE] the target draws one more card
    CardType("ONEMORE", JUST_ONE_MORE, name="Just One More", label="1 More", draws=1,
             aliases=("JUSTONEMORE", "JUST ONE MORE", "JUST ONE MORE!"),
             clauses=("V-ONEMORE", "V-ONEMORE-STAY", "V-ACTION-ALONE")),
    # [V-FLIP4] the target flips the next four cards
    CardType("FLIP4", FLIP_FOUR, name="Flip Four", label="Flip 4", draws=4,
             aliases=("FLIP FOUR", "FLIP FOUR!", "FLIPFOUR"),
             clauses=("V-FLIP4", "V-FLIP4-SELF", "V-FLIP4-STOP", "V-FLIP4-HOLD", "V-FLIP4-HOLD-DISCARD",
                      "V-FLIP4-RESOLVER-OUT", "V-ACTION-ALONE")),
    CardType("SWAP", SWAP, name="Swap", clauses=("V-SWAP", "V-SWAP-LIMITS", "V-SWAP-RECEIVE")),
    CardType("STEAL", STEAL, name="Steal", clauses=("V-STEAL",)),
    CardType("DISCARD", DISCARD, name="Discard", clauses=("V-DISCARD", "V-DISCARD-SELF", "V-DISCARD-CHOOSER")),
    *(CardType(str(v), Kind.NUMBER, v) for v in range(1, 14)),
    *(CardType(f"-{v}", Kind.SUBTRACT, v) for v in (2, 4, 5, 6, 8, 10)),
    CardType("/2", Kind.HALVE, 2, clauses=("V-HALVE-WHOLE-TOTAL",)),
)
"""Every card of the game's decks (clauses V-DECK and V-BASIC: the official deck, seed 004's ``-5``), with
the clauses only a deck holding it can exercise."""
