"""The cards of Flip 7: its three Actions' kinds and every card of its deck, as its definition lists them.

Numbers 0-12 and the modifiers ``+2`` ... ``+10`` and ``x2`` are written in the shared notation; Freeze
(``FREEZE``), Flip Three (``FLIP3``) and Second Chance (``CHANCE``) are the game's own.
"""

from __future__ import annotations

from typing import Final

from flip7_spec.cards import CardType, Family, Kind

FREEZE: Final = Kind("freeze", Family.ACTION)
FLIP_THREE: Final = Kind("flip_three", Family.ACTION)
SECOND_CHANCE: Final = Kind("second_chance", Family.ACTION)

_FREEZE_CLAUSES: Final = ("F7-FREEZE", "F7-FREEZE-SELF", "F7-FREEZE-KEEPS-CARDS", "F7-DEAL-FREEZE-EMPTY")
_FLIP3_CLAUSES: Final = ("F7-FLIP3", "F7-FLIP3-COUNTS-ALL", "F7-FLIP3-STOP", "F7-FLIP3-SETASIDE",
                         "F7-FLIP3-SETASIDE-BUST", "F7-SETASIDE-PASS-VARIANT", "F7-FLIP3-ASSIGN",
                         "F7-FLIP3-ASSIGN-EACH", "F7-FLIP3-ASSIGN-INACTIVE", "F7-FLIP3-NESTED",
                         "F7-FLIP3-DISCARDED", "F7-FLIP3-DISCARDED-LATE", "F7-FLIP7-IN-FLIP3",
                         "F7-RESHUFFLE-IN-FLIP3", "F7-FLIP3-CHANCE-AT-ONCE", "F7-DEAL-STAY-INSTEAD",
                         "F7-DEAL-ANYWAY")
_CHANCE_CLAUSES: Final = ("F7-CHANCE-KEEP", "F7-CHANCE-USE", "F7-CHANCE-GIVE", "F7-CHANCE-ROUND-END",
                          "F7-CHANCE-ENDS-TURN", "F7-STAY-CHANCE-ONLY")

FLIP7_CARDS: Final[tuple[CardType, ...]] = (
    CardType("0", Kind.NUMBER, 0, clauses=("F7-FLIP7-ZERO",)),
    *(CardType(str(v), Kind.NUMBER, v) for v in range(1, 13)),
    *(CardType(f"+{v}", Kind.ADD, v) for v in (2, 4, 6, 8, 10)),
    CardType("x2", Kind.MULTIPLY, 2, clauses=("F7-MOD-X2",)),
    # [F7-FREEZE] the target keeps the Freeze in front of them and banks
    CardType("FREEZE", FREEZE, name="Freeze", kept=True, clauses=_FREEZE_CLAUSES),
    # [F7-FLIP3] the target flips the next three cards
    CardType("FLIP3", FLIP_THREE, name="Flip Three", label="Flip 3", draws=3,
             aliases=("FLIPTHREE", "FLIP THREE", "FLIP_THREE"), clauses=_FLIP3_CLAUSES),
    # [F7-CHANCE-KEEP] kept in front of its holder until used or the round ends
    CardType("CHANCE", SECOND_CHANCE, name="Second Chance", label="2nd Chance", kept=True,
             aliases=("SECONDCHANCE", "SECOND CHANCE", "SECOND_CHANCE"), clauses=_CHANCE_CLAUSES),
)
"""Every card of the game's deck (clause F7-DECK), with the clauses only a deck holding it can exercise."""
