"""The rule clauses of Flip 7 (RULES.md part A, C and E), each with a stable id ``F7-...``.

Sources are those of RULES.md section 0 (S1-S9); the location in RULES.md (for example ``A.1#14``) is given
with each clause so the full text is one search away.
"""

from __future__ import annotations

from typing import Final

from flip7_spec.clauses import Clause

_F7: Final = "flip7"

FLIP7_CLAUSES: Final[list[Clause]] = [
    # Components and setup
    Clause("F7-DECK", _F7, "The deck has 94 cards: 79 Numbers (one 0, v copies of each v from 1 to 12), "
           "+2 +4 +6 +8 +10 and x2 once each, and 3 each of Freeze, Flip Three and Second Chance.",
           "S1, S2, S8", "H", "A.1#1", "deck"),
    Clause("F7-PLAYERS", _F7, "A game has at least 3 players (the box says 3+); a ruleset may set other limits.",
           "S1, S2", "H", "A.1#2", "min_players"),
    Clause("F7-TWO-DECKS", _F7, "With more than 18 players a second deck is shuffled in.",
           "S1, S2", "H", "A.1#2, C.2", "players_per_deck"),
    Clause("F7-TWO-DECKS-EFFECTS", _F7, "With two decks each x2 held applies, and a player may still hold only "
           "one Second Chance.", "sources silent", "L", "A.2#16"),
    Clause("F7-SEATS", _F7, "Seats are numbered clockwise: seat i+1 sits to the left of seat i, so the deck "
           "passes from seat i to seat i+1.", "S2, S9", "M", "A.2#1"),
    # The deal and the turn order
    Clause("F7-DEAL", _F7, "Each round opens with a deal of one face-up card to every player, the Dealer "
           "included.", "S2, S3, S8", "H", "A.1#5", "initial_deal"),
    Clause("F7-DEAL-ORDER", _F7, "The deal and the Hit/Stay offers go clockwise starting left of the Dealer, "
           "the Dealer last.", "S2, S3, S6-R22, S9", "M", "A.2#1", "deal_start"),
    Clause("F7-DEAL-ACTION-PAUSE", _F7, "An Action card dealt in the initial deal pauses the deal and is resolved "
           "at once.", "S2, S3, S8", "H", "A.1#5, A.2#2"),
    Clause("F7-DEAL-RESUME", _F7, "After an Action resolves in the deal, dealing resumes with the player after "
           "the one originally dealt it.", "S3", "H", "A.2#2"),
    Clause("F7-DEAL-TARGET-UNDEALT", _F7, "An Action in the deal may target a player who has not been dealt yet.",
           "S6-O05, community cases 14-16", "M", "A.2#2"),
    Clause("F7-DEAL-FREEZE-EMPTY", _F7, "A Freeze in the deal may hit a player with no cards, who banks 0 and is "
           "out of the round.", "S6-O06", "M", "A.2#2"),
    Clause("F7-DEAL-STAY-INSTEAD", _F7, "A player who took cards through a Flip Three before their deal turn may "
           "Stay instead of taking their deal card; so may one who was given a Second Chance by then (any "
           "card in front of them allows a Stay).", "S6-O05, community cases 14-16; the extension: F7-STAY-"
           "CHANCE-ONLY", "M", "A.2#2, A.2#14", "deal_after_flip3_cards"),
    Clause("F7-DEAL-ANYWAY", _F7, "Reading (option deal_after_flip3_cards=deal_anyway): a player who took cards "
           "through a Flip Three before their deal turn is dealt their deal card anyway, with no decision.",
           "one published engine (flop7); the rules describe the deal as one card to each player", "L", "A.2#2",
           "deal_after_flip3_cards"),
    Clause("F7-NO-DEAL-VARIANT", _F7, "Variant of seed 000: no initial deal; the Dealer only offers Hit/Stay "
           "in turn.", "seed 000", "L", "E", "initial_deal"),
    Clause("F7-HIT-STAY", _F7, "Each active player in turn chooses Hit (one more face-up card) or Stay (leave "
           "the round and bank).", "S2", "H", "A.1#6"),
    Clause("F7-STAY-NEEDS-CARD", _F7, "A player may Stay only with at least one card in front of them; with "
           "none, Hit is the only choice.", "S2, S6-R08", "H", "A.1#7"),
    Clause("F7-STAY-MODIFIERS-ONLY", _F7, "A player holding only modifier cards may Stay, and scores the + cards.",
           "S2", "H", "A.2#14"),
    Clause("F7-STAY-CHANCE-ONLY", _F7, "A player holding only a Second Chance may Stay (it is a card in front "
           "of them).", "S6 engine", "L", "A.2#14"),
    Clause("F7-ROW", _F7, "Cards in front of a player are listed in the order received; Numbers form the row, "
           "modifiers and kept Actions sit above it.", "S2", "H", "A.1#8"),
    Clause("F7-ACTIVE", _F7, "An active player has neither busted nor stayed; a frozen player counts as stayed.",
           "S2, S3", "H", "A.1#9"),
    # Bust and Flip 7
    Clause("F7-BUST", _F7, "Receiving a Number equal to one already held busts the player: out of the round, "
           "scoring 0.", "S1, S2", "H", "A.1#10"),
    Clause("F7-BUST-ONLY-NUMBERS", _F7, "Only Number cards can cause a bust.", "S2", "H", "A.1#10"),
    Clause("F7-BUST-CARDS-STAY", _F7, "A busted player's cards stay on the table until the round ends.",
           "S2", "H", "A.1#10"),
    Clause("F7-FLIP7", _F7, "Holding 7 Number cards of different values ends the round at once for everyone.",
           "S1, S2, S3", "H", "A.1#11"),
    Clause("F7-FLIP7-BONUS", _F7, "The player who Flips 7 scores a 15-point bonus.", "S1, S2", "H", "A.1#11",
           "flip7_bonus"),
    Clause("F7-FLIP7-OTHERS-BANK", _F7, "On a Flip 7 every other player who has not busted banks the points "
           "in front of them.", "S6-R03, S9", "H", "A.1#11"),
    Clause("F7-FLIP7-ZERO", _F7, "The 0 counts as one of the seven different Numbers and is worth 0 points.",
           "S1, S2", "H", "A.1#11, A.2#11"),
    Clause("F7-FLIP7-IN-FLIP3", _F7, "A Flip 7 reached during a Flip Three ends the round at once; no further "
           "cards are drawn.", "S3, S6-C11b", "H", "A.2#13"),
    # Actions
    Clause("F7-ACTION-AT-ONCE", _F7, "An Action card is resolved as soon as it is revealed, in the deal or on a "
           "Hit.", "S2, S3", "H", "A.1#12"),
    Clause("F7-ACTION-TARGET", _F7, "Freeze and Flip Three may be played on any active player, the one who "
           "revealed them included.", "S2, S3", "H", "A.1#12"),
    Clause("F7-ACTION-ALONE", _F7, "The only active player must play an Action on themselves.", "S2, S3, S9",
           "H", "A.1#12, A.2#8"),
    Clause("F7-FORCED-CHOICE", _F7, "A choice with exactly one legal option is made automatically and recorded "
           "as an event, never asked.", "protocol convention", "H", "DESIGN"),
    Clause("F7-FREEZE", _F7, "A frozen player banks the points in front of them and is out of the round.",
           "S2", "H", "A.1#13"),
    Clause("F7-FREEZE-SELF", _F7, "A player may Freeze themselves while others are active.",
           "S6-O07, Dized FAQ, S9", "M", "A.2#3"),
    Clause("F7-FREEZE-KEEPS-CARDS", _F7, "A frozen player keeps their cards, and the Freeze card stays with them "
           "until the round ends.", "S6-O03, S6-C02", "M", "A.2#9"),
    Clause("F7-FLIP3", _F7, "The target of a Flip Three accepts the next three cards, one at a time.",
           "S2, S3", "H", "A.1#14"),
    Clause("F7-FLIP3-COUNTS-ALL", _F7, "Number, modifier and Action cards all count toward the three.",
           "S2, S3", "H", "A.1#14"),
    Clause("F7-FLIP3-STOP", _F7, "A Flip Three stops early when its target busts or Flips 7.", "S2, S3", "H",
           "A.1#14"),
    Clause("F7-FLIP3-CHANCE-AT-ONCE", _F7, "A Second Chance revealed during a Flip Three is taken at once: kept, "
           "or given away if the player already holds one; it may be used later in the same Flip Three.",
           "S2, S3, S7, S6-C20", "H", "A.1#14, A.2#6"),
    Clause("F7-FLIP3-SETASIDE", _F7, "A Freeze or Flip Three revealed during a Flip Three is set aside and "
           "resolved only after the three cards, if the target neither busted nor Flipped 7.",
           "S2, S3, S6-C11/C12", "H", "A.1#14, A.2#4"),
    Clause("F7-FLIP3-SETASIDE-BUST", _F7, "Set-aside cards of a Flip Three whose target busts or Flips 7 are "
           "discarded, not passed to another player.", "S3", "H", "A.2#5, A.2#13", "set_aside_on_bust"),
    Clause("F7-SETASIDE-PASS-VARIANT", _F7, "Variant of seed 003: set-aside cards of a busted Flip Three target "
           "must go to another active player.", "seed 003", "L", "E", "set_aside_on_bust"),
    Clause("F7-FLIP3-ASSIGN", _F7, "Set-aside cards are assigned by the target, in draw order, to any active "
           "player (themselves included); none takes effect until all are assigned.", "community case 13",
           "M", "A.2#4", "set_aside_resolution"),
    Clause("F7-FLIP3-ASSIGN-EACH", _F7, "Reading (option set_aside_resolution=resolve_each): each set-aside card "
           "takes effect as soon as its receiver is chosen (a Flip Three started so runs to its end), and the "
           "next is then assigned among the players still active.", "S2 and S3 say the set-aside cards are "
           "resolved after the three draws, not in which order they are assigned and resolved", "L", "A.2#4",
           "set_aside_resolution"),
    Clause("F7-FLIP3-ASSIGN-INACTIVE", _F7, "An assigned set-aside card whose receiver is no longer active when it "
           "takes effect is discarded (Freeze then Flip Three: frozen, the Flip Three discarded; two Flip "
           "Threes: the second is discarded if the first busts).", "community cases 13a, 13b", "M", "A.2#4"),
    Clause("F7-FLIP3-NESTED", _F7, "A Flip Three resolved from a set-aside card runs to completion, its own "
           "set-aside cards included, before the next assigned card takes effect.", "S6 note", "L", "A.2#4"),
    Clause("F7-FLIP3-DISCARDED", _F7, "The Flip Three card itself goes to the discard pile once its three draws "
           "are done, before its set-aside cards are assigned.", "community case 9", "M", "A.2#4",
           "flip3_card_discard"),
    Clause("F7-FLIP3-DISCARDED-LATE", _F7, "Reading (option flip3_card_discard=after_set_aside): the Flip Three "
           "card stays in play until the cards it set aside have been assigned and resolved, then goes to the "
           "discard pile.", "one published engine (flop7); 'once resolved' can be read so", "L", "A.2#4",
           "flip3_card_discard"),
    Clause("F7-CHANCE-KEEP", _F7, "A player who receives a Second Chance and holds none keeps it in front of them.",
           "S4, S2", "H", "A.1#15"),
    Clause("F7-CHANCE-USE", _F7, "A player holding a Second Chance who receives a duplicate Number discards both "
           "the duplicate and the Second Chance, and does not bust.", "S4, S2", "H", "A.1#15"),
    Clause("F7-CHANCE-GIVE", _F7, "A player may hold one Second Chance; a further one goes to an active player "
           "who holds none, or is discarded if nobody qualifies.", "S4, S2, S7", "H", "A.1#15, A.2#6, A.2#8"),
    Clause("F7-CHANCE-ROUND-END", _F7, "Every Second Chance still held is discarded at the end of the round.",
           "S4, S2", "H", "A.1#15"),
    Clause("F7-CHANCE-ENDS-TURN", _F7, "Using a Second Chance on a Hit ends the turn (no replacement card); in "
           "a Flip Three the Flip Three simply continues.", "S6-R15, S6-C19", "M", "A.2#7",
           "second_chance_ends_turn"),
    # Modifiers and scoring
    Clause("F7-MOD-NO-BUST", _F7, "Modifier cards never bust and never count toward Flip 7.", "S2", "H",
           "A.1#16"),
    Clause("F7-MOD-ADD", _F7, "A +N card adds N to the round score.", "S2", "H", "A.1#16"),
    Clause("F7-MOD-X2", _F7, "x2 doubles the sum of the Number cards only, never the +N cards or the bonus.",
           "S2, S6-R06", "H", "A.1#16, A.1#17"),
    Clause("F7-MOD-ONLY", _F7, "A hand of only modifiers scores its + cards; x2 on its own scores 0.",
           "S2, S6-R07", "H", "A.1#16"),
    Clause("F7-SCORE", _F7, "A player who did not bust scores: sum of Numbers, doubled by x2, plus the +N cards, "
           "plus 15 for a Flip 7.", "S2, S6-R06/O01", "H", "A.1#17"),
    Clause("F7-SCORE-BUST", _F7, "A busted player scores 0 for the round.", "S2", "H", "A.1#17"),
    # Round end, deck, next round
    Clause("F7-ROUND-END", _F7, "A round ends when no active player remains, or when someone Flips 7.",
           "S2", "H", "A.1#18"),
    Clause("F7-ALL-BUST", _F7, "If everyone busts the round ends and everyone scores 0 for it.", "S2", "H",
           "A.2#12"),
    Clause("F7-BANK", _F7, "At the end of a round each player's round score is added to their total.",
           "S2", "H", "A.1#17, A.1#20"),
    Clause("F7-DISCARD-PILE", _F7, "At the end of a round all its cards go to the discard pile; they are not "
           "shuffled back into the deck.", "S2", "H", "A.1#19"),
    Clause("F7-DEALER-ROTATION", _F7, "The remaining deck passes left; that player is the next Dealer.",
           "S2", "H", "A.1#19"),
    Clause("F7-RESHUFFLE", _F7, "When the deck runs out, the discard pile is shuffled to form a new deck: when "
           "a card is needed and none is left.", "S2", "H", "A.1#19", "reshuffle_moment"),
    Clause("F7-RESHUFFLE-EMPTIED", _F7, "Reading (option reshuffle_moment=when_emptied): the discard pile is "
           "shuffled into a new deck as soon as the last card is drawn, before that card's effect.",
           "S2 ('when the deck runs out' fits it as well); one published engine (flop7)", "L", "A.1#19",
           "reshuffle_moment"),
    Clause("F7-RESHUFFLE-TABLE-STAYS", _F7, "In a reshuffle during a round, every card in front of a player stays "
           "where it is, a busted player's included.", "S2", "H", "A.1#19"),
    Clause("F7-RESHUFFLE-IN-FLIP3", _F7, "In a reshuffle during a Flip Three, the Flip Three being resolved and "
           "any set-aside cards also stay out of the new deck.", "S6 engine tests, cases 9, 11, 12", "M",
           "A.2#10"),
    Clause("F7-EMPTY-DECK", _F7, "When a card is needed and both the deck and the discard pile are empty, the "
           "round ends.", "sources silent (GUESS)", "L", "A.2#10, D"),
    Clause("F7-STALLED-ROUND", _F7, "When a card is needed, the deck is empty and the discard pile to reshuffle "
           "holds no Number, modifier or Freeze (only Flip Threes and Second Chances, which would cycle "
           "forever), the round ends as if nothing were left to draw.", "sources silent (GUESS)", "L", "A.2#10, D",
           "stalled_round"),
    Clause("F7-STALLED-RESHUFFLE", _F7, "Reading (option stalled_round=reshuffle): a discard pile of Flip Threes and "
           "Second Chances only is reshuffled like any other; the round goes on until players Stay.",
           "the general reshuffle rule of S2, read literally", "L", "A.1#19, A.2#10", "stalled_round"),
    # End of game
    Clause("F7-GAME-END", _F7, "The game ends at the end of a round in which at least one player has reached the "
           "target score (200).", "S1, S2", "H", "A.1#3, A.1#20", "target_score"),
    Clause("F7-WINNER", _F7, "The player with the most points at the end of the game wins.", "S2", "H",
           "A.1#20, A.2#15"),
    Clause("F7-TIE", _F7, "A tie for the highest total at the end means everyone plays another round.",
           "S5 via S6-O04, S9", "M", "A.1#20, A.2#15", "tie_at_target"),
    Clause("F7-CHALLENGE", _F7, "The challenge for two players or fewer: score 200 in fewer than 5 rounds; with a "
           "round limit, the game ends after that round and whoever reached the target has won (nobody, "
           "perhaps).", "S2 ('Party of two or less?')", "H", "C#1", "round_limit"),
    Clause("F7-TARGET-UNREACHABLE", _F7, "A ruleset under which no hand scores a point (no Number above 0, no +N, "
           "never seven different Numbers) while the target score is above 0 and there is no round limit is "
           "refused when a game is made: no game under it could end.", "sources silent (ruling)", "L", "D", "deck"),
    Clause("F7-ENDLESS", _F7, "When ten times as many cards as the whole deck holds have been drawn with no "
           "decision and no point banked in between, play can only cycle (a deck dealt out round after round "
           "without a point, Flip Threes and Second Chances that only bring each other back): the round ends as "
           "if nothing were left to draw, is scored, and the game ends, the highest total winning.",
           "sources silent (ruling)", "L", "D"),
    Clause("F7-CUSTOM-DECK", _F7, "A ruleset may define its own deck composition (seed 003 reads the modifiers "
           "as +5, +10, +15 and x2).", "seed 003", "L", "E", "deck"),
]
