"""The rule clauses of Flip 7: With a Vengeance (RULES.md B.1, B.2, C.3, D and E), each with a stable id.

Sources are those of RULES.md section 0: V1 the official rulebook (known through V3), V2 the official FAQ,
V3 the 2222-42/flip7_strategy paraphrase, V4 secondary implementations; ``seed 004`` is the French summary
that the ``vengeance-basic`` preset reads. Registered by the game's definition.
"""

from __future__ import annotations

from typing import Final

from flip7_spec.clauses import Clause


def _v(clause_id: str, statement: str, source: str, confidence: str, where: str,
       option: str | None = None) -> Clause:
    return Clause(clause_id, "vengeance", statement, source, confidence, where, option)


VENGEANCE_CLAUSES: Final[list[Clause]] = [
    # Components, players, seats
    _v("V-DECK", "The deck has 108 cards: The Zero; v copies of each value v from 1 to 13, one 7 being the "
       "Unlucky 7 and one 13 the Lucky 13; -2 -4 -6 -8 -10 and /2 once each; Just One More, Flip Four, Swap, "
       "Steal and Discard twice each.", "V3, V4", "M", "B.1#1", "deck"),
    _v("V-DECK-MODIFIERS-ALT", "Minority reading of one public engine: two each of -2 ... -10 and one of "
       "each Action (also 108 cards); expressible as a ruleset file deck table.",
       "V4 (one engine)", "L", "B.1#1", "deck"),
    _v("V-NO-BASE-CARDS", "There is no Freeze, Flip Three, Second Chance, +N or x2 card in Vengeance; a "
       "Vengeance deck holding one cannot be played.", "V3, V4", "M", "B.1#1"),
    _v("V-PLAYERS", "A game has 3 or more players.", "V3, V4", "M", "B.1#2", "min_players"),
    _v("V-TWO-DECKS", "One deck serves up to 18 players; beyond that a second whole deck is added.",
       "V3, V4", "M", "B.1#2, C.2", "players_per_deck"),
    _v("V-TWO-DECKS-EFFECTS", "With two decks each /2 held halves again, and a Lucky 13 still allows exactly "
       "one other 13 (which may be the other Lucky 13).", "sources silent (GUESS)", "L", "B.2#14"),
    _v("V-SEATS", "Seats are numbered clockwise: seat i+1 sits to the left of seat i, and the deck passes "
       "from seat i to seat i+1.", "V3", "M", "B.1#3, B.1#7"),
    _v("V-ROW", "Cards in front of a player are listed in the order received; a card that arrives by a draw, "
       "a Modifier, a Steal or a Swap joins the end of the row.", "V3", "M", "B.1#4"),
    # The deal and turns
    _v("V-DEAL", "Each round opens with a deal of one face-up card to each player, the Dealer included.",
       "V3", "M", "B.1#3", "initial_deal"),
    _v("V-DEAL-ORDER", "The deal and the Hit/Stay offers go clockwise from the Dealer's left, the Dealer "
       "last.", "V3", "M", "B.1#3", "deal_start"),
    _v("V-DEAL-PAUSE", "An Action or Modifier card dealt in the initial deal pauses the deal and is resolved "
       "at once; the deal then resumes with the next player.", "V3", "M", "B.1#3"),
    _v("V-DEAL-ALWAYS", "In the deal every player who has neither busted nor stayed is dealt a card, even "
       "one who already received cards from an earlier Action or Modifier; a player out of the round is "
       "skipped.", "V3 (silent on the case; GUESS)", "L", "B.1#3"),
    _v("V-HIT-STAY", "In turn each active player chooses Hit (take one card and resolve it at once) or Stay.",
       "V3", "M", "B.1#4"),
    _v("V-STAY-NO-BANK", "Staying takes a player out of the active rotation; nothing is banked until the "
       "round ends, and the stayed player's cards stay face up and targetable.", "V3, V4", "M", "B.1#4"),
    _v("V-STAYED-TARGET", "A stayed player who receives cards or an Action (Just One More, Flip Four, a "
       "Modifier, Steal, Swap, Discard) resolves it and stays stayed.", "V3", "M", "B.1#12, B.2#6"),
    _v("V-STAY-MINIMUM", "A player may Stay with an empty row (V3's reading); the companion app's two-Number "
       "minimum and the base game's one-card minimum are options.",
       "V3; V4 (gjcodess)", "L", "B.2#9", "stay_minimum"),
    _v("V-FORCED-CHOICE", "A choice with exactly one legal option is made automatically and recorded as an "
       "event, never asked.", "protocol convention", "H", "DESIGN"),
    # Bust and Flip 7
    _v("V-BUST", "Receiving a Number card whose value is already held busts the player (except as Lucky 13 "
       "and Unlucky 7 allow): out of the round, scoring 0.", "V3", "M", "B.1#5"),
    _v("V-BUST-OUT-OF-PLAY", "A busted player's cards are face down and out of play: they cannot be stolen, "
       "swapped or discarded, and the player cannot be targeted.", "V3", "M", "B.1#5, B.1#12"),
    _v("V-BUST-BY-ACTION", "A card received through Steal or Swap busts like a dealt card, a stayed player "
       "included.", "V3, V4", "M", "B.1#5"),
    _v("V-FLIP7", "Holding seven different Number values ends the round at once; that player scores a "
       "15-point bonus.", "V3, V2", "M", "B.1#6", "flip7_bonus"),
    _v("V-FLIP7-ANY-MEANS", "A Flip 7 reached by a Steal, a Swap, a Just One More or a Flip Four, a stayed "
       "player's included, ends the round at once (GUESS for Steal and Swap).", "V3", "L", "B.2#8"),
    # Round end, deck, game end
    _v("V-ROUND-END", "A round ends when no player is active and the Action being resolved is done, or at "
       "once on a Flip 7.", "V3", "M", "B.1#7"),
    _v("V-NEXT-ROUND", "At the end of a round all its cards go to the discard pile without reshuffling, and "
       "the deck passes left to the next Dealer.", "V3", "M", "B.1#7"),
    _v("V-RESHUFFLE", "When the deck runs out the discard pile is shuffled into a new deck; table cards "
       "(busted ones included), a Flip Four being resolved and its held-back cards stay out.",
       "V3", "M", "B.1#7", "reshuffle_moment"),
    _v("V-RESHUFFLE-EMPTIED", "Reading (option reshuffle_moment=when_emptied): the discard pile is shuffled into "
       "a new deck as soon as the last card is drawn, before that card's effect.",
       "V3 ('when the deck runs out' fits it as well)", "L", "B.1#7", "reshuffle_moment"),
    _v("V-EMPTY-DECK", "When a card is needed and both the deck and the discard pile are empty, the round "
       "ends.", "sources silent (GUESS)", "L", "D"),
    _v("V-BANK", "At the end of a round each player's round score is added to their total; a total can go "
       "below 0 when a round score can.", "V3", "M", "B.1#8, C.3"),
    _v("V-GAME-END", "The game ends after a round in which at least one player has reached the target score "
       "(200).", "V3, V2", "M", "B.1#2, B.1#8", "target_score"),
    _v("V-WINNER", "The player with the highest total at the end of the game wins.", "V3", "M", "B.1#8"),
    _v("V-TIE", "A tie for the highest total at 200 or more means another round, as in the base game.",
       "base-game FAQ (GUESS)", "L", "B.2#10, D", "tie_at_target"),
    _v("V-ROUND-LIMIT", "With a round limit (option round_limit, the base game's challenge for two players or "
       "fewer), the game ends after that round and whoever reached the target has won (nobody, perhaps).",
       "base-game rulebook S2, applied to Vengeance (GUESS)", "L", "C#1", "round_limit"),
    _v("V-TARGET-UNREACHABLE", "A ruleset under which no hand scores a point while the target score is above 0 "
       "and there is no round limit is refused when a game is made: no game under it could end.",
       "sources silent (ruling)", "L", "D", "deck"),
    _v("V-ENDLESS", "When ten times as many cards as the whole deck holds have been drawn with no decision and "
       "no point banked in between, play can only cycle: the round ends as if nothing were left to draw, is "
       "scored, and the game ends, the highest total winning.", "sources silent (ruling)", "L", "D"),
    # Special Number cards
    _v("V-SPECIAL-NUMBERS", "The Zero, Unlucky 7 and Lucky 13 are Number cards (they count toward Flip 7, "
       "score their value, can be stolen or swapped) whose effect lasts only while held.",
       "V3, V4", "M", "B.1 special Number cards", "special_numbers"),
    _v("V-ZERO-SCORE", "A player holding The Zero scores 0 for the round unless they Flipped 7.",
       "V3, V4", "M", "B.1#9, B.1#20"),
    _v("V-ZERO-FLIP7", "The Zero with a Flip 7 scores normally plus the bonus; The Zero counts as one of the "
       "seven.", "V3", "M", "B.1#9, B.2#1"),
    _v("V-ZERO-MUST-HIT", "A player holding The Zero must Hit on their turn and cannot Stay voluntarily.",
       "V3, V4", "M", "B.1#9, B.2#9"),
    _v("V-UNLUCKY7-WIPE", "A player who receives the Unlucky 7 discards all their other Number and Modifier "
       "cards and keeps it as their 7.", "V3, V4", "M", "B.1#10"),
    _v("V-UNLUCKY7-NO-BUST", "Receiving the Unlucky 7 never busts, even when a 7 is already held.",
       "V3", "M", "B.1#10, B.2#4"),
    _v("V-UNLUCKY7-LATER-7", "A 7 received while holding the Unlucky 7 busts.", "V3, V4", "M", "B.1#10"),
    _v("V-LUCKY13-PAIR", "A player holding a Lucky 13 may hold one other 13 without busting, whichever came "
       "first; both score 13.", "V3, V4", "M", "B.1#11, B.2#3"),
    _v("V-LUCKY13-FLIP7", "A Lucky 13 and another 13 count once toward the seven different values (V4 counts "
       "them twice).", "V3; V4 disagrees", "M", "B.1#11, B.2#2", "flip7_two_13s"),
    _v("V-LUCKY13-THIRD", "A third 13 busts, Lucky 13 or not.", "V3, V4", "M", "B.1#11"),
    # Actions in general
    _v("V-ACTION-AT-ONCE", "An Action card is resolved as soon as it is revealed and is discarded after use.",
       "V3", "M", "B.1#12"),
    _v("V-ACTION-TARGET", "Just One More and Flip Four may be played on any player who has not busted, the "
       "resolver and stayed players included.", "V3", "M", "B.1#12"),
    _v("V-ACTION-ALONE", "The only player not busted plays an Action on themselves.", "V3", "M", "B.1#12"),
    _v("V-ACTION-RESOLVER", "The player who receives an Action makes its choices: Steal, Swap and Discard are "
       "resolved by the player who revealed them; an Action drawn under Just One More or Flip Four is resolved "
       "by that card's receiver.", "V3, V4", "M", "B.1#12, B.2#5"),
    _v("V-ACTION-MANDATORY", "An Action must be used when it has a valid target and is discarded with no "
       "effect when it has none.", "V2 FAQ", "M", "B.1#13"),
    _v("V-ACTION-START-NO-CARDS", "A Swap, Steal or Discard revealed when no face-up card is on the table "
       "(at the start of a round) is discarded with no effect.", "V3", "M", "B.1#13"),
    # Just One More
    _v("V-ONEMORE", "The target of Just One More accepts the next card and resolves it (an Action included).",
       "V3, V4", "M", "B.1#14, B.2#5"),
    _v("V-ONEMORE-STAY", "After that card the target must Stay unless they busted or the round ended; this "
       "overrides The Zero's must-Hit.", "V3", "M", "B.1#14"),
    # Flip Four
    _v("V-FLIP4", "The target of a Flip Four accepts the next four cards one at a time; every card type "
       "counts toward the four.", "V3, V2", "M", "B.1#15"),
    _v("V-FLIP4-SELF", "A Flip Four may target its resolver (seed 004 reads it as played on an opponent, "
       "unless the resolver is alone).", "V3; seed 004", "M", "B.1#12, E", "flip4_self"),
    _v("V-FLIP4-STOP", "A Flip Four stops at once when its target busts or Flips 7.",
       "V3, V2", "M", "B.1#15"),
    _v("V-FLIP4-HOLD", "Action and Modifier cards revealed in a Flip Four are held back; after the four "
       "cards the target resolves them in draw order (choosing each Modifier's receiver then); they cannot "
       "save the target from a bust inside the Flip Four.", "V3, V2 FAQ", "M", "B.1#15, B.2#13"),
    _v("V-FLIP4-HOLD-DISCARD", "Held-back cards of a Flip Four whose target busted or Flipped 7 are "
       "discarded.", "V3", "M", "B.1#15, B.2#7"),
    _v("V-FLIP4-UNLUCKY7", "An Unlucky 7 in a Flip Four wipes the target's other cards at once and the Flip "
       "Four goes on; it counts as one of the four.", "V3", "M", "B.1#15"),
    _v("V-FLIP4-RESOLVER-OUT", "If the target busts while resolving held-back cards, the rest are discarded.",
       "sources silent (GUESS, as F7-FLIP3-ASSIGN-INACTIVE)", "L", "B.1#15"),
    # Swap, Steal, Discard
    _v("V-SWAP", "Swap exchanges two face-up cards: one of the resolver's with another player's, or two "
       "cards of two other players; a Number may be swapped for a Modifier.", "V3, V4", "M", "B.1#16"),
    _v("V-SWAP-LIMITS", "Never two cards of one row, never a busted player's card, never the deck or the "
       "discard pile.", "V3", "M", "B.1#16"),
    _v("V-SWAP-RECEIVE", "Each owner receives the incoming card as if dealt it (busts, Unlucky 7, Lucky 13, "
       "Flip 7 apply); both cards move first, then the two receipts take effect in seat order, so one Swap "
       "can bust both players.", "V3, V4 (order: GUESS)", "M", "B.1#16"),
    _v("V-STEAL", "Steal takes one face-up card of another player who has not busted into the resolver's "
       "row, received as if dealt.", "V3, V4", "M", "B.1#17, B.2#12"),
    _v("V-DISCARD", "Discard forces a player who has not busted to discard one of their face-up cards; its "
       "effect stops (discarding The Zero ends the must-Hit).", "V3, V4", "M", "B.1#18"),
    _v("V-DISCARD-SELF", "A Discard may be played on the resolver's own row (GUESS: 'any player' not "
       "busted).", "V3", "L", "B.2#11", "discard_self"),
    _v("V-DISCARD-CHOOSER", "The resolver of a Discard picks both the player and the card; the card text can "
       "also be read as the victim picking the card.", "V3, V4; fan UI", "L", "B.2#15", "discard_chooser"),
    _v("V-STEAL-DISCARD-CARDS", "Steal and Discard may take any face-up card (seed 004 reads Number cards "
       "only).", "V3, V4; seed 004", "M", "B.1#17, B.1#18, E", "steal_discard_cards"),
    # Modifiers
    _v("V-MOD-TARGET", "A revealed Modifier is played by its revealer on any player who has not busted, "
       "stayed players and the revealer included.", "V3, V4", "M", "B.1#19, B.2#13"),
    _v("V-MOD-ALONE", "The only player not busted keeps a Modifier they reveal.", "V3", "M", "B.1#19"),
    _v("V-MOD-NO-BUST", "Modifiers never bust, never count toward Flip 7, and can be swapped, stolen or "
       "discarded.", "V3, V4", "M", "B.1#19"),
    # Scoring
    _v("V-SCORE", "A player who did not bust scores: the sum of the Number values, halved (rounded down) by "
       "/2, minus the -N cards, plus 15 for a Flip 7.", "V3, V4", "M", "B.1#20", "halve_order"),
    _v("V-HALVE-WHOLE-TOTAL", "Reading (option halve_order=whole_total, seed 004's literal 'score total divided "
       "by 2, rounded down'): the round total (Numbers, minus the -N cards, plus the Flip 7 bonus) is halved "
       "once per /2, rounded down, then floored at 0 unless negative scores are allowed.", "seed 004", "L", "E",
       "halve_order"),
    _v("V-SCORE-BUST", "A busted player scores 0 for the round.", "V3, V4", "M", "B.1#5, B.1#20"),
    _v("V-SCORE-FLOOR", "A round score cannot go below 0; the floor applies before the Flip 7 bonus.",
       "V3", "M", "B.1#20", "negative_scores"),
    # Brutal Mode
    _v("V-BRUTAL", "Brutal Mode is an optional set of rules from the rulebook.",
       "V3", "M", "C.3", "brutal_mode"),
    _v("V-BRUTAL-NEGATIVE", "In Brutal Mode round scores may go below 0.", "V3", "M", "C.3", "brutal_mode"),
    _v("V-BRUTAL-MOD-BUSTED", "In Brutal Mode a Modifier may be given to a busted player, and it applies: the "
       "busted row scores its Modifiers from a base of 0 (a busted row holding -10 scores -10), or the rule "
       "would do nothing.", "V3; the most detailed public write-up of the Vengeance rules", "L", "C.3",
       "brutal_busted_modifier"),
    _v("V-BRUTAL-MOD-BUSTED-NO-EFFECT", "Reading (option brutal_busted_modifier=no_effect): a Modifier given to a "
       "busted player in Brutal Mode changes nothing; the busted row scores 0.", "a literal reading of V3", "L",
       "C.3", "brutal_busted_modifier"),
    _v("V-BRUTAL-FLIP7", "In Brutal Mode the player who Flips 7 takes the 15-point bonus or subtracts 15 "
       "from another player's total instead (a decision; a total may go below 0); any other seat may be "
       "chosen.", "V3 ('another player's score')", "M", "C.3", "brutal_flip7_target"),
    _v("V-BRUTAL-FLIP7-IN-ROUND", "Reading (option brutal_flip7_target=in_round): the 15 points may be taken only "
       "from a player still in the round (not busted).", "a reading of V3", "L", "C.3", "brutal_flip7_target"),
    # Seed 004
    _v("V-BASIC", "Seed 004's reading (preset vengeance-basic): 2-6 players, Numbers 1..13 with v copies of "
       "v and no special Number, malus -5, -10 and /2, Steal, Swap, Discard and Flip Four, no Just One More, "
       "negative round scores and totals, target 200; the counts it leaves open are chosen.",
       "seed 004", "L", "E", "deck"),
]
