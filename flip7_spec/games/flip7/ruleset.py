"""The Flip 7 ruleset: its deck, its options and its presets (``flip7`` and ``flip7-no-deal``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Final

from flip7_spec.cards import Card, Kind
from flip7_spec.games.flip7.cards import FLIP7_CARDS
from flip7_spec.rulesets import Option, Ruleset, machine_options

GAME: Final = "flip7"

# Official base-game deck (clause F7-DECK): one 0, v copies of v for 1..12, six modifiers, nine actions.
FLIP7_DECK: Final[tuple[tuple[str, int], ...]] = (
    ("0", 1),
    *((str(v), v) for v in range(1, 13)),
    ("+2", 1),
    ("+4", 1),
    ("+6", 1),
    ("+8", 1),
    ("+10", 1),
    ("x2", 1),
    ("FREEZE", 3),
    ("FLIP3", 3),
    ("CHANCE", 3),
)

# [F7-PLAYERS] the player limits (checked by Ruleset.check_players) and [F7-TWO-DECKS] another whole deck for
# each players_per_deck players (Ruleset.decks_for) are shared options; [F7-CUSTOM-DECK] a ruleset file's
# [deck] table replaces FLIP7_DECK (rulesets.ruleset_from_json).
FLIP7_OPTIONS: Final[Mapping[str, Option]] = {
    **machine_options(deal="F7-DEAL", deal_order="F7-DEAL-ORDER", tie="F7-TIE", game_end="F7-GAME-END",
                      bonus="F7-FLIP7-BONUS", players="F7-PLAYERS", decks="F7-TWO-DECKS", reshuffle="F7-RESHUFFLE",
                      reshuffle_emptied="F7-RESHUFFLE-EMPTIED", round_limit="F7-CHALLENGE",
                      no_deal="F7-NO-DEAL-VARIANT"),
    "second_chance_ends_turn": Option(
        "second_chance_ends_turn", bool, None, "F7-CHANCE-ENDS-TURN",
        "using a Second Chance on a Hit ends the turn (false: a replacement card is dealt at once; never for a "
        "deal card)"),
    "set_aside_on_bust": Option(
        "set_aside_on_bust", str, ("discard", "pass_to_other_active"), "F7-FLIP3-SETASIDE-BUST",
        "what happens to cards set aside in a Flip Three whose target busts or Flips 7",
        {"pass_to_other_active": "F7-SETASIDE-PASS-VARIANT"}),
    "flip3_card_discard": Option(
        "flip3_card_discard", str, ("after_draws", "after_set_aside"), "F7-FLIP3-DISCARDED",
        "when the Flip Three card goes to the discard pile: after its three draws, or once its set-aside cards "
        "are resolved", {"after_set_aside": "F7-FLIP3-DISCARDED-LATE"}),
    "set_aside_resolution": Option(
        "set_aside_resolution", str, ("assign_all_first", "resolve_each"), "F7-FLIP3-ASSIGN",
        "set-aside cards: all assigned, then resolved in draw order; or each resolved as soon as it is assigned",
        {"resolve_each": "F7-FLIP3-ASSIGN-EACH"}),
    "deal_after_flip3_cards": Option(
        "deal_after_flip3_cards", str, ("hit_or_stay", "deal_anyway"), "F7-DEAL-STAY-INSTEAD",
        "the deal turn of a player who already took cards through a Flip Three: Hit or Stay, or dealt anyway",
        {"deal_anyway": "F7-DEAL-ANYWAY"}),
    "stalled_round": Option(
        "stalled_round", str, ("end", "reshuffle"), "F7-STALLED-ROUND",
        "a discard pile of Flip Threes and Second Chances only, when a card is needed: the round ends, or it is "
        "reshuffled like any other", {"reshuffle": "F7-STALLED-RESHUFFLE"}),
}


@dataclass(frozen=True, slots=True)
class Flip7Ruleset(Ruleset):
    """A ruleset of Flip 7: the shared options plus the Second Chance and Flip Three readings."""

    OPTIONS: ClassVar[Mapping[str, Option]] = FLIP7_OPTIONS
    # Numbers, +N, xN, Freeze, Flip Three, Second Chance: the kinds of the game's cards
    CARD_KINDS: ClassVar[frozenset[Kind]] = frozenset(t.kind for t in FLIP7_CARDS)

    name: str = "flip7"
    game: str = GAME
    description: str = "Flip 7, official rules (Ruleset Edition 3.1)"
    deck: tuple[tuple[str, int], ...] = FLIP7_DECK  # [F7-DECK] the composition is data
    second_chance_ends_turn: bool = True
    set_aside_on_bust: str = "discard"
    flip3_card_discard: str = "after_draws"
    set_aside_resolution: str = "assign_all_first"
    deal_after_flip3_cards: str = "hit_or_stay"
    stalled_round: str = "end"
    base: str = field(default="flip7", compare=False)

    def has_effect(self, c: Card) -> bool:
        """Numbers 0-12 and beyond, +N, xN, Freeze, Flip Three, Second Chance; no Vengeance special Number."""
        return c.kind in self.CARD_KINDS and c.special is None


def flip7() -> Flip7Ruleset:
    """The official rules."""
    return Flip7Ruleset()


def flip7_challenge() -> Flip7Ruleset:
    """The official challenge for two players or fewer: 200 points in fewer than 5 rounds."""
    return Flip7Ruleset(
        name="flip7-challenge",
        description="Flip 7's challenge for two players or fewer: reach 200 in fewer than 5 rounds",
        min_players=1,
        max_players=2,
        round_limit=4,  # [F7-CHALLENGE] "in under 5 rounds"
    )


def flip7_no_deal() -> Flip7Ruleset:
    """Seed 000's reading: no initial deal."""
    return Flip7Ruleset(
        name="flip7-no-deal",
        description="Flip 7 as read by seed 000: no initial deal, the Dealer only offers Hit/Stay in turn (at the "
                    "default options every observation is the same as flip7's: the forced Hits of the first turn "
                    "are the deal)",
        initial_deal=False,
    )
