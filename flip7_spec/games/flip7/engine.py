"""The Flip 7 state machine: the game's rows, the effects of its cards, and its frames.

:class:`Flip7Game` fills the hooks of the shared :class:`~flip7_spec.machine.Game` (the round opens with
the deal and the Hit/Stay rotation; a row keeps a running score tally) and receives cards into rows (bust,
Second Chance, Flip 7, the Actions). Each rule clause is cited by its id in square brackets at the place
that implements it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from flip7_spec.cards import Card, Kind
from flip7_spec.events import HIT, STAY, Choice, Decision, DecisionKind, Status
from flip7_spec.games.flip7.cards import FLIP_THREE, FREEZE, SECOND_CHANCE
from flip7_spec.games.flip7.ruleset import Flip7Ruleset
from flip7_spec.games.flip7.scoring import combine, flip7_round_score
from flip7_spec.machine import (
    ACTIVE,
    BUSTED,
    FROZEN,
    STAYED,
    Frame,
    Game,
    MachineClauses,
    PlayerRound,
    hit_or_stay,
    next_active,
)
from flip7_spec.scoring import FLIP7_SIZE


class Row(PlayerRound):
    """One player's part of a Flip 7 round, with a running tally of its scoring cards and its Second Chance.

    ``number_sum``, ``multiplier`` and ``adds`` are kept as cards arrive so that a round score is known at
    once (simulators ask for it at every decision). The round's end still banks what
    :func:`~flip7_spec.games.flip7.scoring.flip7_round_score` says of the cards themselves.
    """

    __slots__ = ("adds", "has_chance", "multiplier", "number_sum")

    def __init__(self) -> None:
        self.cards: list[Card] = []  # PlayerRound's fields, set here: a row is made for every seat every round
        self.values: set[int] = set()
        self.status = ACTIVE
        self.has_chance = False
        self.number_sum = 0
        self.multiplier = 1
        self.adds = 0

    def clear(self) -> None:
        super().clear()
        self.number_sum, self.multiplier, self.adds = 0, 1, 0


# [F7-ROUND-END] [F7-ALL-BUST] the machine ends the round when no active player is left, on a Flip 7, or when
# nothing is left to draw; [F7-BANK] it banks the round scores; [F7-DISCARD-PILE] [F7-CHANCE-ROUND-END] every
# card of the round goes to the discard pile, and [F7-DEALER-ROTATION] the deck passes left without reshuffling;
# [F7-GAME-END] the game ends at the end of a round where a total reaches the target, [F7-WINNER] with the
# highest total winning, [F7-TIE] or another round for everyone on a tie at the top (option tie_at_target);
# [F7-DEAL-ORDER] [F7-SEATS] turns go clockwise from the Dealer's left, the Dealer last (option deal_start).
FLIP7_MACHINE_CLAUSES = MachineClauses(
    deal="F7-DEAL",
    forced_choice="F7-FORCED-CHOICE",  # [F7-FORCED-CHOICE] a decision with one legal choice is made at once
    empty_deck="F7-EMPTY-DECK",  # [F7-EMPTY-DECK] nothing left to draw (or nothing that could change the round)
    # [F7-RESHUFFLE] the discard pile becomes the new deck, in an order given from outside;
    # [F7-RESHUFFLE-TABLE-STAYS] [F7-RESHUFFLE-IN-FLIP3] only the discard pile is shuffled: table and in-play
    # cards (a Flip Three being resolved, set-aside cards) are elsewhere and stay out
    reshuffle="F7-RESHUFFLE",
    # [F7-RESHUFFLE-EMPTIED] (option reshuffle_moment) or as soon as the last card is drawn
    reshuffle_emptied="F7-RESHUFFLE-EMPTIED",
    score="F7-SCORE",
    winner="F7-WINNER",
    tie="F7-TIE",
    round_limit="F7-CHALLENGE",  # [F7-CHALLENGE] (option round_limit) the game ends after that round
    unreachable="F7-TARGET-UNREACHABLE",  # [F7-TARGET-UNREACHABLE] refused when making the game
    endless="F7-ENDLESS",  # [F7-ENDLESS] the deck drawn ten times over without a decision ends the game
)

class Rotation(Frame["Flip7Game"]):
    """The deal (one card to each player in order) and then the Hit/Stay rotation."""

    __slots__ = ("dealing", "pos")

    def __init__(self, dealing: bool) -> None:
        self.dealing = dealing
        self.pos = 0

    def step(self, game: Flip7Game) -> None:
        order = game.order
        if self.dealing:
            # [F7-DEAL] one card to every player in turn order; a player who is out by now is skipped.
            if self.pos >= len(order):
                self.dealing = False
                self.pos = 0
                return
            seat = order[self.pos]
            self.pos += 1  # [F7-DEAL-RESUME] the deal goes on after this player, whatever their card does
            player = game.players[seat]
            if player.status is not ACTIVE:
                return
            if player.cards and game.ruleset.deal_after_flip3_cards == "hit_or_stay":
                # [F7-DEAL-STAY-INSTEAD] cards received through a Flip Three before the deal turn
                game._ask(hit_or_stay(seat))
                self.pos -= 1
                return
            # [F7-DEAL-ANYWAY] (option deal_after_flip3_cards) such a player is dealt like everyone else
            game._deal_to(seat, "deal", "F7-DEAL")
            return
        # [F7-HIT-STAY] offers go round the table in order, to active players only
        players = game.players
        pos = self.pos
        if pos >= len(order) or players[order[pos]].status is not ACTIVE:
            self.pos = pos = next_active(order, players, pos)
        seat = order[pos]
        if players[seat].cards:
            game._ask(hit_or_stay(seat))
        else:
            # [F7-STAY-NEEDS-CARD] with nothing in front of you, Hit is the only choice
            game._forced(hit_or_stay(seat, (HIT,)), "F7-STAY-NEEDS-CARD")

    def decide(self, game: Flip7Game, choice: Choice) -> None:
        seat = game.order[self.pos]
        self.pos += 1
        if choice == STAY:
            # [F7-HIT-STAY] [F7-ACTIVE] staying banks the cards in front of you at the round's end
            # [F7-STAY-MODIFIERS-ONLY] [F7-STAY-CHANCE-ONLY] any card in front of you allows a Stay
            game._set_status(seat, STAYED)
            game._emit("stay", "F7-HIT-STAY", seat)
        else:
            game._deal_to(seat, "deal" if self.dealing else "hit", "F7-DEAL" if self.dealing else "F7-HIT-STAY")


class Replacement(Frame["Flip7Game"]):
    """One replacement card after a Second Chance was used on a Hit (option second_chance_ends_turn=false)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def step(self, game: Flip7Game) -> None:
        game._stack.pop()
        if game.players[self.seat].status is ACTIVE:
            game._deal_to(self.seat, "replacement", "F7-CHANCE-ENDS-TURN")


class Target(Frame["Flip7Game"]):
    """A revealed Freeze or Flip Three waiting for its target (``entry``: its place in play)."""

    __slots__ = ("action", "chooser", "entry")

    def __init__(self, action: Card, chooser: int, entry: int | None = None) -> None:
        self.action = action
        self.chooser = chooser
        self.entry = entry

    def step(self, game: Flip7Game) -> None:
        # [F7-ACTION-TARGET] any active player, the revealer included; [F7-FREEZE-SELF]
        # [F7-DEAL-TARGET-UNDEALT] an undealt player is active; [F7-ACTION-ALONE] alone: yourself
        options = tuple(game._active_seats())
        decision = Decision(self.chooser, DecisionKind.TARGET, options, self.action.text)
        if len(options) == 1:
            game._forced(decision, "F7-ACTION-ALONE")
        else:
            game._ask(decision)

    def decide(self, game: Flip7Game, choice: Choice) -> None:
        game._stack.pop()
        game._emit("target", "F7-ACTION-TARGET", self.chooser, self.action.text, (("target", choice),))
        game._take_effect(self.action, choice, self.entry)


class Give(Frame["Flip7Game"]):
    """A Second Chance received by a player who holds one already."""

    __slots__ = ("chance", "entry", "giver")

    def __init__(self, chance: Card, giver: int, entry: int | None = None) -> None:
        self.chance = chance
        self.giver = giver
        self.entry = entry

    def step(self, game: Flip7Game) -> None:
        # [F7-CHANCE-GIVE] to another active player who holds none; discarded if nobody qualifies
        options = tuple(s for s in game._active_seats() if s != self.giver and not game.players[s].has_chance)
        if not options:
            game._stack.pop()
            game._discard_in_play(self.chance, "no active player can take it", "F7-CHANCE-GIVE", self.entry)
            return
        decision = Decision(self.giver, DecisionKind.GIVE, options, self.chance.text)
        if len(options) == 1:
            game._forced(decision, "F7-CHANCE-GIVE")
        else:
            game._ask(decision)

    def decide(self, game: Flip7Game, choice: Choice) -> None:
        game._stack.pop()
        game._take_from_play(self.chance, self.entry)
        receiver = game.players[choice]
        receiver.cards.append(self.chance)
        receiver.has_chance = True
        game._emit("give", "F7-CHANCE-GIVE", self.giver, self.chance.text, (("target", choice),))


class FlipThree(Frame["Flip7Game"]):
    """A Flip Three in progress: its target accepts the next three cards one at a time."""

    __slots__ = ("action", "entries", "entry", "remaining", "set_aside", "target")

    DRAWS_FOR_ACTION: ClassVar[bool] = True

    def __init__(self, action: Card, target: int, entry: int | None = None) -> None:
        self.action = action
        self.target = target
        self.entry = entry  # the Flip Three card's place in play
        self.remaining = 3
        self.set_aside: list[Card] = []
        self.entries: list[int | None] = []  # the set-aside cards' places in play, in the same order

    def step(self, game: Flip7Game) -> None:
        player = game.players[self.target]
        # [F7-FLIP3-STOP] a bust stops the Flip Three early (a Flip 7 ends the round before we get here)
        if self.remaining and player.status is ACTIVE:
            self.remaining -= 1  # [F7-FLIP3-COUNTS-ALL] every card counts toward the three
            game._deal_to(self.target, "flip3", "F7-FLIP3", self)
            return
        game._stack.pop()
        ruleset = game.ruleset
        assigning = bool(self.set_aside) and (
            player.status is ACTIVE or ruleset.set_aside_on_bust == "pass_to_other_active")
        if assigning and ruleset.flip3_card_discard == "after_set_aside":
            # [F7-FLIP3-DISCARDED-LATE] it stays in play until its set-aside cards are resolved
            game._stack.append(DiscardWhenDone(self.action, self.entry))
        else:
            # [F7-FLIP3-DISCARDED] the Flip Three card is discarded once its three cards are done
            game._discard_in_play(self.action, "resolved", "F7-FLIP3-DISCARDED", self.entry)
        game._emit("flip3_end", "F7-FLIP3", self.target)
        if not self.set_aside:
            return
        if player.status is ACTIVE:
            # [F7-FLIP3-SETASIDE] resolved only now that all three came and went cleanly
            game._stack.append(Assign(self.target, self.set_aside, "F7-FLIP3-ASSIGN", self._entries()))
        elif ruleset.set_aside_on_bust == "pass_to_other_active":
            # [F7-SETASIDE-PASS-VARIANT] seed 003: they must go to another player still in
            game._stack.append(Assign(self.target, self.set_aside, "F7-SETASIDE-PASS-VARIANT", self._entries()))
        else:
            # [F7-FLIP3-SETASIDE-BUST] discarded, not passed on
            for action, entry in zip(self.set_aside, self._entries(), strict=True):
                game._discard_in_play(action, "its Flip Three target busted", "F7-FLIP3-SETASIDE-BUST", entry)

    def _entries(self) -> list[int | None]:
        """The places in play of the set-aside cards (None for a card set aside without one)."""
        return self.entries + [None] * (len(self.set_aside) - len(self.entries))


class DiscardWhenDone(Frame["Flip7Game"]):
    """A resolved Flip Three card waiting, in play, for its set-aside cards to be resolved (the frames above)."""

    __slots__ = ("action", "entry")

    def __init__(self, action: Card, entry: int | None = None) -> None:
        self.action = action
        self.entry = entry

    def step(self, game: Flip7Game) -> None:
        game._stack.pop()
        game._discard_in_play(self.action, "resolved", "F7-FLIP3-DISCARDED-LATE", self.entry)


class Assign(Frame["Flip7Game"]):
    """Set-aside cards assigned one by one in draw order; none takes effect until all are assigned (option
    set_aside_resolution=resolve_each: each takes effect as soon as it is assigned). ``entries``: the cards'
    places in play."""

    __slots__ = ("assigned", "chooser", "clause", "entries", "pending_cards")

    def __init__(self, chooser: int, cards: list[Card], clause: str, entries: list[int | None] | None = None) -> None:
        self.chooser = chooser
        self.pending_cards = list(cards)
        self.entries: list[int | None] = list(entries) if entries is not None else [None] * len(cards)
        self.assigned: list[tuple[Card, int, int | None]] = []
        self.clause = clause

    def step(self, game: Flip7Game) -> None:
        if not self.pending_cards:
            # [F7-FLIP3-ASSIGN] all assigned: now they take effect, in draw order
            game._stack.pop()
            game._stack.append(Effects(self.assigned))
            return
        action = self.pending_cards[0]
        options = tuple(game._active_seats())
        if not options:
            self.pending_cards.pop(0)
            game._discard_in_play(action, "no active player to receive it", self.clause, self.entries.pop(0))
            return
        decision = Decision(self.chooser, DecisionKind.ASSIGN, options, action.text)
        if len(options) == 1:
            game._forced(decision, "F7-ACTION-ALONE")
        else:
            game._ask(decision)

    def decide(self, game: Flip7Game, choice: Choice) -> None:
        action = self.pending_cards.pop(0)
        entry = self.entries.pop(0)
        game._emit("assign", self.clause, self.chooser, action.text, (("target", choice),))
        if game.ruleset.set_aside_resolution == "resolve_each":
            # [F7-FLIP3-ASSIGN-EACH] it takes effect now (a Flip Three runs to its end before the next is assigned)
            game._take_effect(action, choice, entry)
            return
        self.assigned.append((action, choice, entry))


class Effects(Frame["Flip7Game"]):
    """Assigned set-aside cards taking effect one after the other (each with its place in play)."""

    __slots__ = ("assigned",)

    def __init__(self, assigned: list[tuple[Card, int, int | None]]) -> None:
        self.assigned = assigned

    def step(self, game: Flip7Game) -> None:
        if not self.assigned:
            game._stack.pop()
            return
        action, seat, entry = self.assigned.pop(0)
        if game.players[seat].status is not ACTIVE:
            # [F7-FLIP3-ASSIGN-INACTIVE] frozen or busted by an earlier one: this card is discarded
            game._discard_in_play(action, "its receiver is no longer active", "F7-FLIP3-ASSIGN-INACTIVE", entry)
            return
        # [F7-FLIP3-NESTED] a Flip Three started here runs to its end before the next card takes effect
        game._take_effect(action, seat, entry)


class Flip7Game(Game):
    """One game of Flip 7 under a ruleset. Create it with :func:`flip7_spec.new_game`."""

    CLAUSES: ClassVar[MachineClauses] = FLIP7_MACHINE_CLAUSES
    ruleset: Flip7Ruleset
    players: list[Row]  # type: ignore[assignment]

    def round_score(self, seat: int) -> int:
        """What ``seat`` would bank if the round ended now (0 once busted), from the running tally."""
        player = self.players[seat]
        if player.status is BUSTED:
            return 0
        return combine(self.ruleset, player.number_sum, player.multiplier, player.adds, len(player.values))[3]

    # ---- hooks ------------------------------------------------------------------------------------

    def _new_row(self) -> Row:
        return Row()

    def _begin_round(self) -> Frame[Flip7Game]:
        return Rotation(dealing=self.ruleset.initial_deal)  # [F7-DEAL] / [F7-NO-DEAL-VARIANT]

    def _round_scores(self) -> list[int]:
        # [F7-SCORE] [F7-SCORE-BUST] [F7-FLIP7-OTHERS-BANK] [F7-FLIP7-BONUS]
        return [flip7_round_score(self.ruleset, p.cards, p.status is BUSTED) for p in self.players]

    def _flip7_seat(self) -> int | None:
        return next((seat for seat, p in enumerate(self.players)
                     if p.status is ACTIVE and len(p.values) >= FLIP7_SIZE), None)

    def _status_at_end(self, hand: Sequence[Card]) -> Status:
        # [F7-FREEZE-KEEPS-CARDS] a Freeze in front of a player means that player was frozen
        return FROZEN if any(c.kind is FREEZE for c in hand) else STAYED

    def _stalled(self) -> str | None:
        """No Number, modifier or Freeze among the cards still to come: Flip Threes and Second Chances
        would only cycle through the piles forever."""
        if self.ruleset.stalled_round == "reshuffle":
            return None  # [F7-STALLED-RESHUFFLE]
        if any(c.is_number or c.is_modifier or c.kind is FREEZE for c in self.discard):
            return None
        return "F7-STALLED-ROUND"  # [F7-STALLED-ROUND]

    # ---- card effects -----------------------------------------------------------------------------

    def _deal_to(self, seat: int, via: str, clause: str, flip3: FlipThree | None = None) -> None:
        """Draw one card and give it to ``seat``."""
        drawn = self._draw()
        if drawn is None:
            return
        if self._events is not None:  # the hottest path of a simulation: build nothing unless recording
            self._emit("draw", clause, seat, drawn.text, (("via", via),))
        self._receive(seat, drawn, flip3, via)

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        """``seat`` receives ``drawn`` face up and its effect happens at once."""
        player = self.players[seat]
        kind = drawn.kind
        if kind is Kind.NUMBER:
            if drawn.value in player.values:
                if player.has_chance:
                    # [F7-CHANCE-USE] both cards are discarded and the player stays in
                    chance = next(c for c in player.cards if c.kind is SECOND_CHANCE)
                    player.cards.remove(chance)
                    player.has_chance = False
                    self.discard.append(drawn)
                    self.discard.append(chance)
                    self._emit("chance_used", "F7-CHANCE-USE", seat, drawn.text)
                    if via == "hit" and not self.ruleset.second_chance_ends_turn:
                        self._stack.append(Replacement(seat))
                    # [F7-CHANCE-ENDS-TURN] otherwise the turn ends here; in a Flip Three it continues
                    return
                # [F7-BUST] [F7-BUST-CARDS-STAY] the duplicate joins the row and the player is out;
                # [F7-ROW] every card joins the player's cards in the order received
                player.cards.append(drawn)
                self._set_status(seat, BUSTED)
                self._emit("bust", "F7-BUST", seat, drawn.text)
                return
            player.cards.append(drawn)
            player.values.add(drawn.value)
            player.number_sum += drawn.value
            if len(player.values) >= FLIP7_SIZE:
                # [F7-FLIP7] [F7-FLIP7-ZERO] [F7-FLIP7-IN-FLIP3] seven different Numbers end the round now
                self._emit("flip7", "F7-FLIP7", seat)
                self._ending = True
            return
        if drawn.is_modifier:
            # [F7-MOD-NO-BUST] [F7-BUST-ONLY-NUMBERS] a modifier sits above the row
            player.cards.append(drawn)
            if kind is Kind.ADD:
                player.adds += drawn.value
            elif kind is Kind.MULTIPLY:
                player.multiplier *= drawn.value
            return
        if kind is SECOND_CHANCE:
            # [F7-FLIP3-CHANCE-AT-ONCE] taken at once, even during a Flip Three
            if not player.has_chance:
                # [F7-CHANCE-KEEP]
                player.cards.append(drawn)
                player.has_chance = True
                return
            self._stack.append(Give(drawn, seat, self._put_in_play(drawn)))
            return
        if kind is FREEZE or kind is FLIP_THREE:
            entry = self._put_in_play(drawn)
            if flip3 is not None:
                # [F7-FLIP3-SETASIDE]
                flip3.entries.extend([None] * (len(flip3.set_aside) - len(flip3.entries)))
                flip3.set_aside.append(drawn)
                flip3.entries.append(entry)
                self._emit("set_aside", "F7-FLIP3-SETASIDE", seat, drawn.text)
                return
            # [F7-ACTION-AT-ONCE] [F7-DEAL-ACTION-PAUSE]
            self._stack.append(Target(drawn, seat, entry))
            return
        raise AssertionError(f"card {drawn.text} has no effect in Flip 7")

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        """A Freeze or Flip Three (in play at ``entry``) takes effect on ``seat``."""
        if action.kind is FREEZE:
            # [F7-FREEZE] [F7-FREEZE-KEEPS-CARDS] banks at round end; the Freeze card stays with them
            # [F7-DEAL-FREEZE-EMPTY] even with no cards, then banking 0
            self._take_from_play(action, entry)
            self.players[seat].cards.append(action)
            self._set_status(seat, FROZEN)
            self._emit("freeze", "F7-FREEZE", seat, action.text)
        else:
            # [F7-FLIP3] the target accepts the next three cards, one at a time (see FlipThree)
            self._emit("flip3_start", "F7-FLIP3", seat, action.text)
            self._stack.append(FlipThree(action, seat, entry))
