"""The Vengeance ruleset: its decks, its options and its presets (the official game and seed 004's reading)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Final

from flip7_spec.cards import Kind
from flip7_spec.games.vengeance.cards import VENGEANCE_CARDS
from flip7_spec.rulesets import Option, Ruleset, machine_options

GAME: Final = "vengeance"

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


VENGEANCE_OPTIONS: Final[Mapping[str, Option]] = {
    **machine_options(deal="V-DEAL", deal_order="V-DEAL-ORDER", tie="V-TIE", game_end="V-GAME-END",
                      bonus="V-SCORE", players="V-PLAYERS", decks="V-TWO-DECKS", reshuffle="V-RESHUFFLE",
                      reshuffle_emptied="V-RESHUFFLE-EMPTIED", round_limit="V-ROUND-LIMIT"),
    **{o.name: o for o in [
        Option("special_numbers", bool, None, "V-SPECIAL-NUMBERS",
               "The Zero, Unlucky 7 and Lucky 13 have their effects (false: plain Numbers 0, 7 and 13)"),
        Option("flip7_two_13s", str, ("count_once", "count_both"), "V-LUCKY13-FLIP7",
               "how a Lucky 13 and another 13 count toward the seven different Numbers"),
        Option("discard_chooser", str, ("resolver", "victim"), "V-DISCARD-CHOOSER",
               "who picks the card a Discard removes: the player resolving it, or its victim"),
        Option("discard_self", bool, None, "V-DISCARD-SELF", "a Discard may be played on the resolver's own row"),
        Option("flip4_self", bool, None, "V-FLIP4-SELF",
               "a Flip Four may target its resolver while another player is not busted"),
        Option("steal_discard_cards", str, ("any", "numbers"), "V-STEAL-DISCARD-CARDS",
               "which face-up cards Steal and Discard may take: any, or Number cards only (seed 004)"),
        Option("stay_minimum", str, ("none", "one_card", "two_numbers"), "V-STAY-MINIMUM",
               "what a player must hold to Stay voluntarily"),
        Option("negative_scores", bool, None, "V-SCORE-FLOOR",
               "round scores may go below 0 (false: floored at 0, as in the standard rules)"),
        Option("brutal_mode", bool, None, "V-BRUTAL",
               "the optional Brutal Mode: negative round scores, Modifiers on busted players, and a Flip 7 "
               "may take 15 from another player instead of the bonus"),
        Option("halve_order", str, ("numbers_then_minus", "whole_total"), "V-SCORE",
               "what a /2 halves: the Numbers' sum before the -N cards, or the whole round total (seed 004)",
               {"whole_total": "V-HALVE-WHOLE-TOTAL"}),
        Option("brutal_busted_modifier", str, ("from_zero", "no_effect"), "V-BRUTAL-MOD-BUSTED",
               "Brutal Mode: a busted row's Modifiers score from a base of 0, or change nothing",
               {"no_effect": "V-BRUTAL-MOD-BUSTED-NO-EFFECT"}),
        Option("brutal_flip7_target", str, ("any_seat", "in_round"), "V-BRUTAL-FLIP7",
               "Brutal Mode: whom a Flip 7 may take 15 from: any other seat, or only a player still in the round",
               {"in_round": "V-BRUTAL-FLIP7-IN-ROUND"}),
    ]},
}


@dataclass(frozen=True, slots=True)
class VengeanceRuleset(Ruleset):
    """A ruleset of Flip 7: With a Vengeance: the shared options plus the Vengeance readings (RULES.md B.2, E)."""

    OPTIONS: ClassVar[Mapping[str, Option]] = VENGEANCE_OPTIONS
    # [V-NO-BASE-CARDS] no Freeze, Flip Three, Second Chance, +N or xN card
    # (Numbers, -N, /2 and the five Actions: the kinds of the game's cards)
    CARD_KINDS: ClassVar[frozenset[Kind]] = frozenset(t.kind for t in VENGEANCE_CARDS)

    name: str = "vengeance"
    game: str = GAME
    description: str = "Flip 7: With a Vengeance, official rules (Ruleset Edition 1, 108 cards)"
    deck: tuple[tuple[str, int], ...] = VENGEANCE_DECK
    special_numbers: bool = True
    flip7_two_13s: str = "count_once"
    discard_chooser: str = "resolver"
    discard_self: bool = True
    flip4_self: bool = True
    steal_discard_cards: str = "any"
    stay_minimum: str = "none"
    negative_scores: bool = False
    brutal_mode: bool = False
    brutal_flip7_target: str = "any_seat"
    halve_order: str = "numbers_then_minus"
    brutal_busted_modifier: str = "from_zero"
    base: str = field(default="vengeance", compare=False)


def vengeance() -> VengeanceRuleset:
    """Flip 7: With a Vengeance, official rules (Ruleset Edition 1) with the best-sourced rulings."""
    return VengeanceRuleset(
        min_players=3,  # [V-PLAYERS]
        players_per_deck=18,  # [V-TWO-DECKS]
        target_score=200,
    )


def vengeance_basic() -> VengeanceRuleset:
    """The Vengeance of seed 004 (RULES.md section E), with the counts the seed leaves open chosen."""
    return VengeanceRuleset(
        name="vengeance-basic",
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
        halve_order="whole_total",  # [V-HALVE-WHOLE-TOTAL] "score total divided by 2 (rounded down)"
    )
