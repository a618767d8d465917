"""The reference state machine for Flip 7.

A :class:`Game` is one whole game. It always stands at a pending :class:`~flip7_spec.events.Decision`
(or is over). :meth:`Game.apply` takes one legal choice, resolves everything that follows until the next
decision, and returns the events it caused. Nothing is random: the deck is given top card first, and every
reshuffle takes its order from outside (a queue of recorded orders, or a reshuffler function supplied by a
simulator), so the same inputs always give the same game.

The work between two decisions is kept as an explicit stack of small frames (a turn rotation, a Flip Three
in progress, set-aside cards being assigned, ...). Each frame step does one atomic thing (deal or draw one
card, ask or make one choice), which makes the state copyable at every decision and lets a round end at
once, from any depth, by a single flag.

``apply`` mutates the game in place, which is what simulators want; :meth:`Game.after` is the pure form
(copy, then apply). Each rule clause is cited by its id in square brackets at the place that implements it.
"""

from __future__ import annotations

import copy
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, ClassVar

from flip7_spec.arguments import check_game_arguments
from flip7_spec.cards import Card, Kind, card
from flip7_spec.errors import ChanceError, IllegalDecision, SetupError
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.rulesets import Ruleset
from flip7_spec.scoring import FLIP7_SIZE, combine, round_score

ACTIVE = "active"
STAYED = "stayed"
FROZEN = "frozen"
BUSTED = "busted"

HIT = "hit"
STAY = "stay"

Reshuffler = Callable[[list[Card]], list[Card]]


class PlayerRound:
    """One player's part of the current round: cards in the order received, and status.

    ``number_sum``, ``multiplier`` and ``adds`` are the running tally of the scoring cards in the row, kept
    as cards arrive so that a round score is known at once (simulators ask for it at every decision). The
    round's end still banks what :func:`flip7_spec.scoring.round_score` says of the cards themselves.
    """

    __slots__ = ("adds", "cards", "has_chance", "multiplier", "number_sum", "status", "values")

    def __init__(self) -> None:
        self.cards: list[Card] = []
        self.values: set[int] = set()
        self.status = ACTIVE
        self.has_chance = False
        self.number_sum = 0
        self.multiplier = 1
        self.adds = 0

    def clear(self) -> None:
        """Give up every card (the round is over); the status stays for the last observation of a game."""
        self.cards = []
        self.values = set()
        self.number_sum, self.multiplier, self.adds = 0, 1, 0


@cache
def _hit_or_stay(seat: int) -> Decision:
    """The Hit-or-Stay decision of ``seat`` (decisions are immutable values, so one per seat serves all)."""
    return Decision(seat, "hit_or_stay", (HIT, STAY))


def next_active(order: list[int], players: list[PlayerRound], pos: int) -> int:
    """The index in ``order``, from ``pos`` round the table, of the next active player's seat."""
    n = len(order)
    for offset in range(n):
        index = (pos + offset) % n
        if players[order[index]].status is ACTIVE:
            return index
    raise AssertionError("turn rotation with no active player")


class Frame:
    """A piece of unfinished work. ``step`` does one atomic thing; ``decide`` consumes a pending choice."""

    __slots__ = ()

    def step(self, game: Game) -> None:
        raise NotImplementedError

    def decide(self, game: Game, choice: Choice) -> None:
        raise AssertionError(f"{type(self).__name__} asks no decision")


class Rotation(Frame):
    """The deal (one card to each player in order) and then the Hit/Stay rotation."""

    __slots__ = ("dealing", "pos")

    def __init__(self, dealing: bool) -> None:
        self.dealing = dealing
        self.pos = 0

    def step(self, game: Game) -> None:
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
            if player.cards:
                # [F7-DEAL-STAY-INSTEAD] cards received through a Flip Three before the deal turn
                game.ask(_hit_or_stay(seat))
                self.pos -= 1
                return
            game.deal_to(seat, "deal", "F7-DEAL")
            return
        # [F7-HIT-STAY] offers go round the table in order, to active players only
        self.pos = next_active(order, game.players, self.pos)
        seat = order[self.pos]
        if game.players[seat].cards:
            game.ask(_hit_or_stay(seat))
        else:
            # [F7-STAY-NEEDS-CARD] with nothing in front of you, Hit is the only choice
            game.forced(Decision(seat, "hit_or_stay", (HIT,)), "F7-STAY-NEEDS-CARD")

    def decide(self, game: Game, choice: Choice) -> None:
        seat = game.order[self.pos]
        self.pos += 1
        if choice == STAY:
            # [F7-HIT-STAY] [F7-ACTIVE] staying banks the cards in front of you at the round's end
            # [F7-STAY-MODIFIERS-ONLY] [F7-STAY-CHANCE-ONLY] any card in front of you allows a Stay
            game.set_status(seat, STAYED)
            game.emit("stay", "F7-HIT-STAY", seat)
        else:
            game.deal_to(seat, "deal" if self.dealing else "hit", "F7-DEAL" if self.dealing else "F7-HIT-STAY")


class Replacement(Frame):
    """One replacement card after a Second Chance was used on a Hit (option second_chance_ends_turn=false)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def step(self, game: Game) -> None:
        game.stack.pop()
        if game.players[self.seat].status is ACTIVE:
            game.deal_to(self.seat, "replacement", "F7-CHANCE-ENDS-TURN")


class Target(Frame):
    """A revealed Freeze or Flip Three waiting for its target."""

    __slots__ = ("action", "chooser")

    def __init__(self, action: Card, chooser: int) -> None:
        self.action = action
        self.chooser = chooser

    def step(self, game: Game) -> None:
        # [F7-ACTION-TARGET] any active player, the revealer included; [F7-FREEZE-SELF]
        # [F7-DEAL-TARGET-UNDEALT] an undealt player is active; [F7-ACTION-ALONE] alone: yourself
        options = tuple(game.active_seats())
        decision = Decision(self.chooser, "target", options, self.action.text)
        if len(options) == 1:
            game.forced(decision, "F7-ACTION-ALONE")
        else:
            game.ask(decision)

    def decide(self, game: Game, choice: Choice) -> None:
        game.stack.pop()
        game.emit("target", "F7-ACTION-TARGET", self.chooser, self.action.text, (("target", choice),))
        game.take_effect(self.action, choice)


class Give(Frame):
    """A Second Chance received by a player who holds one already."""

    __slots__ = ("chance", "giver")

    def __init__(self, chance: Card, giver: int) -> None:
        self.chance = chance
        self.giver = giver

    def step(self, game: Game) -> None:
        # [F7-CHANCE-GIVE] to another active player who holds none; discarded if nobody qualifies
        options = tuple(s for s in game.active_seats() if s != self.giver and not game.players[s].has_chance)
        if not options:
            game.stack.pop()
            game.discard_in_play(self.chance, "no active player can take it", "F7-CHANCE-GIVE")
            return
        decision = Decision(self.giver, "give", options, self.chance.text)
        if len(options) == 1:
            game.forced(decision, "F7-CHANCE-GIVE")
        else:
            game.ask(decision)

    def decide(self, game: Game, choice: Choice) -> None:
        game.stack.pop()
        game.in_play.remove(self.chance)
        receiver = game.players[choice]
        receiver.cards.append(self.chance)
        receiver.has_chance = True
        game.emit("give", "F7-CHANCE-GIVE", self.giver, self.chance.text, (("target", choice),))


class FlipThree(Frame):
    """A Flip Three in progress: its target accepts the next three cards one at a time."""

    __slots__ = ("action", "remaining", "set_aside", "target")

    def __init__(self, action: Card, target: int) -> None:
        self.action = action
        self.target = target
        self.remaining = 3
        self.set_aside: list[Card] = []

    def step(self, game: Game) -> None:
        player = game.players[self.target]
        # [F7-FLIP3-STOP] a bust stops the Flip Three early (a Flip 7 ends the round before we get here)
        if self.remaining and player.status is ACTIVE:
            self.remaining -= 1  # [F7-FLIP3-COUNTS-ALL] every card counts toward the three
            game.deal_to(self.target, "flip3", "F7-FLIP3", self)
            return
        game.stack.pop()
        # [F7-FLIP3-DISCARDED] the Flip Three card is discarded once its three cards are done
        game.discard_in_play(self.action, "resolved", "F7-FLIP3-DISCARDED")
        game.emit("flip3_end", "F7-FLIP3", self.target)
        if not self.set_aside:
            return
        if player.status is ACTIVE:
            # [F7-FLIP3-SETASIDE] resolved only now that all three came and went cleanly
            game.stack.append(Assign(self.target, self.set_aside, "F7-FLIP3-ASSIGN"))
        elif game.ruleset.set_aside_on_bust == "pass_to_other_active":
            # [F7-SETASIDE-PASS-VARIANT] seed 003: they must go to another player still in
            game.stack.append(Assign(self.target, self.set_aside, "F7-SETASIDE-PASS-VARIANT"))
        else:
            # [F7-FLIP3-SETASIDE-BUST] discarded, not passed on
            for action in self.set_aside:
                game.discard_in_play(action, "its Flip Three target busted", "F7-FLIP3-SETASIDE-BUST")


class Assign(Frame):
    """Set-aside cards assigned one by one in draw order; none takes effect until all are assigned."""

    __slots__ = ("assigned", "chooser", "clause", "pending_cards")

    def __init__(self, chooser: int, cards: list[Card], clause: str) -> None:
        self.chooser = chooser
        self.pending_cards = list(cards)
        self.assigned: list[tuple[Card, int]] = []
        self.clause = clause

    def step(self, game: Game) -> None:
        if not self.pending_cards:
            # [F7-FLIP3-ASSIGN] all assigned: now they take effect, in draw order
            game.stack.pop()
            game.stack.append(Effects(self.assigned))
            return
        action = self.pending_cards[0]
        options = tuple(game.active_seats())
        if not options:
            self.pending_cards.pop(0)
            game.discard_in_play(action, "no active player to receive it", self.clause)
            return
        decision = Decision(self.chooser, "assign", options, action.text)
        if len(options) == 1:
            game.forced(decision, "F7-ACTION-ALONE")
        else:
            game.ask(decision)

    def decide(self, game: Game, choice: Choice) -> None:
        action = self.pending_cards.pop(0)
        self.assigned.append((action, choice))
        game.emit("assign", self.clause, self.chooser, action.text, (("target", choice),))


class Effects(Frame):
    """Assigned set-aside cards taking effect one after the other."""

    __slots__ = ("assigned",)

    def __init__(self, assigned: list[tuple[Card, int]]) -> None:
        self.assigned = assigned

    def step(self, game: Game) -> None:
        if not self.assigned:
            game.stack.pop()
            return
        action, seat = self.assigned.pop(0)
        if game.players[seat].status is not ACTIVE:
            # [F7-FLIP3-ASSIGN-INACTIVE] frozen or busted by an earlier one: this card is discarded
            game.discard_in_play(action, "its receiver is no longer active", "F7-FLIP3-ASSIGN-INACTIVE")
            return
        # [F7-FLIP3-NESTED] a Flip Three started here runs to its end before the next card takes effect
        game.take_effect(action, seat)


class Game:
    """One game of Flip 7 under a ruleset. Create it with :func:`new_game`."""

    frame_types: ClassVar[tuple[type[Frame], ...]] = (Rotation, Replacement, Target, Give, FlipThree, Assign,
                                                      Effects)

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        dealer: int,
        deck: Sequence[Card],
        reshuffles: Iterable[Sequence[Card]] = (),
        reshuffler: Reshuffler | None = None,
        record: bool = True,
    ) -> None:
        self.ruleset = ruleset
        self.n = players
        self.dealer = dealer
        self.round = 0
        self.totals = [0] * players
        self.pile: list[Card] = list(reversed(deck))  # the top card is the last element
        self.discard: list[Card] = []
        self.in_play: list[Card] = []
        self.players = [PlayerRound() for _ in range(players)]
        self.order: list[int] = []
        self.stack: list[Frame] = []
        self.pending: Decision | None = None
        self.over = False
        self.winners: list[int] = []
        self.reshuffles: deque[list[Card]] = deque(list(order) for order in reshuffles)
        self.reshuffler = reshuffler
        self.active = 0
        self.ending = False
        self.last_scores: list[int] = []
        self.last_busted: list[bool] = []
        self.last_flip7: int | None = None
        self.on_round_end: Callable[[Game], None] | None = None
        self._events: list[Event] | None = [] if record else None

    # ---- public interface -------------------------------------------------------------------------

    def apply(self, choice: Choice) -> list[Event]:
        """Make the pending decision with ``choice`` and run to the next decision.

        Returns the events caused, in order (an empty list when the game was created with
        ``record=False``). Raises :class:`IllegalDecision` naming the legal choices if ``choice`` is not
        one of them; the game is then unchanged.
        """
        pending = self.pending
        if pending is None:
            raise IllegalDecision("no decision is pending: the game is over")
        kind = type(choice)
        if not (((kind is str or kind is int) and choice in pending.options) or _is_option(choice, pending.options)):
            raise IllegalDecision(
                f"{choice!r} is not a legal choice for the pending {pending.kind} decision of player "
                f"{pending.player}; legal choices: {', '.join(map(_show, pending.options))}",
                list(pending.options),
            )
        self.pending = None
        events = self._events
        if events is not None:
            events.clear()
        self.stack[-1].decide(self, choice)
        self._run()
        return list(events) if events is not None else []

    def after(self, choice: Choice) -> tuple[Game, list[Event]]:
        """The pure form of :meth:`apply`: a new game after ``choice``, and its events. ``self`` is unchanged."""
        successor = self.copy()
        return successor, successor.apply(choice)

    def copy(self) -> Game:
        """An independent copy of the game (cards and ruleset are immutable and shared)."""
        return copy.deepcopy(self, {id(self.ruleset): self.ruleset})

    def supply_reshuffle(self, order: Sequence[Card]) -> None:
        """Queue the order (top first) of a future reshuffle; checked when it is used."""
        self.reshuffles.append(list(order))

    def legal(self) -> list[Choice]:
        """The legal choices of the pending decision (empty when the game is over)."""
        return list(self.pending.options) if self.pending else []

    def draw_pile(self) -> list[Card]:
        """The draw pile, top card first."""
        return self.pile[::-1]

    def status(self, seat: int) -> str:
        """``active``, ``stayed``, ``frozen`` or ``busted``."""
        return self.players[seat].status

    def round_score(self, seat: int) -> int:
        """What ``seat`` would bank if the round ended now (0 once busted), from the running tally."""
        player = self.players[seat]
        if player.status is BUSTED:
            return 0
        return combine(self.ruleset, player.number_sum, player.multiplier, player.adds, len(player.values))[3]

    def table_cards(self) -> list[Card]:
        """Every card in front of a player, seat by seat."""
        return [c for p in self.players for c in p.cards]

    def observation(self) -> dict[str, Any]:
        """The canonical observation (see docs/trace-format.md): the same JSON value in every engine."""
        return {
            "round": self.round,
            "dealer": self.dealer,
            "draw_pile": len(self.pile),
            "discard_pile": len(self.discard),
            "in_play": [c.text for c in self.in_play],
            "players": [
                {
                    "cards": [c.text for c in p.cards],
                    "status": p.status,
                    "round_score": self.round_score(seat),
                    "total": self.totals[seat],
                }
                for seat, p in enumerate(self.players)
            ],
            "pending": self.pending.to_json() if self.pending else None,
            "over": self.over,
            "winners": list(self.winners),
        }

    # ---- the loop ---------------------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Deal the first round and run to the first decision; returns the events."""
        self._start_round()
        self._run()
        events = self._events
        return list(events) if events is not None else []

    def _run(self) -> None:
        while not self.over:
            if self.ending or not self.active:
                self._end_round()  # replaces self.stack: never cache it across this call
                continue
            if self.pending is not None:
                return
            self.stack[-1].step(self)

    # ---- helpers used by frames ---------------------------------------------------------------------

    def emit(self, kind: str, clause: str, player: int | None = None, card_text: str | None = None,
             data: tuple[tuple[str, Any], ...] = ()) -> None:
        if self._events is not None:
            self._events.append(Event(kind, clause, player, card_text, data))

    def ask(self, decision: Decision) -> None:
        self.pending = decision

    def forced(self, decision: Decision, clause: str) -> None:
        """[F7-FORCED-CHOICE] a decision with one legal choice is made at once and recorded."""
        choice = decision.options[0]
        self.emit("forced", "F7-FORCED-CHOICE", decision.player, decision.card,
                  (("kind", decision.kind), ("choice", choice), ("because", clause)))
        self.stack[-1].decide(self, choice)

    def active_seats(self) -> list[int]:
        return [seat for seat, p in enumerate(self.players) if p.status is ACTIVE]

    def set_status(self, seat: int, status: str) -> None:
        player = self.players[seat]
        if player.status is ACTIVE:
            self.active -= 1
        player.status = status

    def discard_in_play(self, action: Card, reason: str, clause: str) -> None:
        self.in_play.remove(action)
        self.discard.append(action)
        self.emit("discard", clause, None, action.text, (("reason", reason),))

    def draw(self) -> Card | None:
        """The top card, reshuffling the discard pile first if the deck is empty; None if both are empty."""
        pile = self.pile
        if not pile:
            if not self.discard or self._stalled():
                # [F7-EMPTY-DECK] nothing left to draw from (or nothing that could change the round): it ends
                self.emit("empty_deck", "F7-EMPTY-DECK")
                self.ending = True
                return None
            self._reshuffle()
        return pile.pop()

    def _stalled(self) -> bool:
        """Whether nothing left to draw can change the round: no Number, modifier or Freeze among the cards
        still to come, so Flip Threes and Second Chances would only cycle through the piles forever."""
        return not any(c.is_number or c.is_modifier or c.kind is Kind.FREEZE for c in self.discard)

    def _reshuffle(self) -> None:
        # [F7-RESHUFFLE] the discard pile becomes the new deck, in an order given from outside
        # [F7-RESHUFFLE-TABLE-STAYS] [F7-RESHUFFLE-IN-FLIP3] only the discard pile is shuffled: table and
        # in-play cards (a Flip Three being resolved, set-aside cards) are elsewhere and stay out
        discard = self.discard
        if self.reshuffles:
            order = self.reshuffles.popleft()
            if Counter(c.text for c in order) != Counter(c.text for c in discard):
                raise ChanceError(
                    f"reshuffle order is not a permutation of the discard pile ({len(discard)} cards: "
                    f"{' '.join(sorted(c.text for c in discard))}); got {len(order)} cards: "
                    f"{' '.join(c.text for c in order)}"
                )
        elif self.reshuffler is not None:
            order = self.reshuffler(list(discard))
        else:
            raise ChanceError(f"a reshuffle of the {len(discard)}-card discard pile is needed in round "
                              f"{self.round}, but no reshuffle order was supplied")
        self.emit("reshuffle", "F7-RESHUFFLE", None, None, (("order", [c.text for c in order]),))
        self.pile[:] = order[::-1]
        discard.clear()

    def deal_to(self, seat: int, via: str, clause: str, flip3: FlipThree | None = None) -> None:
        """Draw one card and give it to ``seat``."""
        drawn = self.draw()
        if drawn is None:
            return
        if self._events is not None:  # the hottest path of a simulation: build nothing unless recording
            self.emit("draw", clause, seat, drawn.text, (("via", via),))
        self.receive(seat, drawn, flip3, via)

    def receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        """``seat`` receives ``drawn`` face up and its effect happens at once."""
        player = self.players[seat]
        kind = drawn.kind
        if kind is Kind.NUMBER:
            if drawn.value in player.values:
                if player.has_chance:
                    # [F7-CHANCE-USE] both cards are discarded and the player stays in
                    chance = next(c for c in player.cards if c.kind is Kind.SECOND_CHANCE)
                    player.cards.remove(chance)
                    player.has_chance = False
                    self.discard.append(drawn)
                    self.discard.append(chance)
                    self.emit("chance_used", "F7-CHANCE-USE", seat, drawn.text)
                    if via == "hit" and not self.ruleset.second_chance_ends_turn:
                        self.stack.append(Replacement(seat))
                    # [F7-CHANCE-ENDS-TURN] otherwise the turn ends here; in a Flip Three it continues
                    return
                # [F7-BUST] [F7-BUST-CARDS-STAY] the duplicate joins the row and the player is out;
                # [F7-ROW] every card joins the player's cards in the order received
                player.cards.append(drawn)
                self.set_status(seat, BUSTED)
                self.emit("bust", "F7-BUST", seat, drawn.text)
                return
            player.cards.append(drawn)
            player.values.add(drawn.value)
            player.number_sum += drawn.value
            if len(player.values) >= FLIP7_SIZE:
                # [F7-FLIP7] [F7-FLIP7-ZERO] [F7-FLIP7-IN-FLIP3] seven different Numbers end the round now
                self.emit("flip7", "F7-FLIP7", seat)
                self.ending = True
            return
        if drawn.is_modifier:
            # [F7-MOD-NO-BUST] [F7-BUST-ONLY-NUMBERS] a modifier sits above the row
            player.cards.append(drawn)
            if kind is Kind.ADD:
                player.adds += drawn.value
            elif kind is Kind.MULTIPLY:
                player.multiplier *= drawn.value
            return
        if kind is Kind.SECOND_CHANCE:
            # [F7-FLIP3-CHANCE-AT-ONCE] taken at once, even during a Flip Three
            if not player.has_chance:
                # [F7-CHANCE-KEEP]
                player.cards.append(drawn)
                player.has_chance = True
                return
            self.in_play.append(drawn)
            self.stack.append(Give(drawn, seat))
            return
        if kind is Kind.FREEZE or kind is Kind.FLIP_THREE:
            self.in_play.append(drawn)
            if flip3 is not None:
                # [F7-FLIP3-SETASIDE]
                flip3.set_aside.append(drawn)
                self.emit("set_aside", "F7-FLIP3-SETASIDE", seat, drawn.text)
                return
            # [F7-ACTION-AT-ONCE] [F7-DEAL-ACTION-PAUSE]
            self.stack.append(Target(drawn, seat))
            return
        raise AssertionError(f"card {drawn.text} has no effect in {self.ruleset.game}")

    def take_effect(self, action: Card, seat: int) -> None:
        """A Freeze or Flip Three takes effect on ``seat``."""
        if action.kind is Kind.FREEZE:
            # [F7-FREEZE] [F7-FREEZE-KEEPS-CARDS] banks at round end; the Freeze card stays with them
            # [F7-DEAL-FREEZE-EMPTY] even with no cards, then banking 0
            self.in_play.remove(action)
            self.players[seat].cards.append(action)
            self.set_status(seat, FROZEN)
            self.emit("freeze", "F7-FREEZE", seat, action.text)
        else:
            # [F7-FLIP3] the target accepts the next three cards, one at a time (see FlipThree)
            self.emit("flip3_start", "F7-FLIP3", seat, action.text)
            self.stack.append(FlipThree(action, seat))

    # ---- rounds -----------------------------------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        n = self.n
        dealer = self.dealer
        if self.ruleset.deal_start == "dealer":
            self.order = [(dealer + i) % n for i in range(n)]
        else:
            # [F7-DEAL-ORDER] [F7-SEATS] clockwise from the Dealer's left, the Dealer last
            self.order = [(dealer + 1 + i) % n for i in range(n)]
        self.players = [PlayerRound() for _ in range(n)]
        self.active = n
        self.ending = False
        self.stack = [Rotation(dealing=self.ruleset.initial_deal)]  # [F7-DEAL] / [F7-NO-DEAL-VARIANT]
        if self._events is not None:
            self.emit("round_start", "F7-DEAL", None, None, (("round", self.round), ("dealer", dealer)))

    def _round_scores(self) -> list[int]:
        """What each seat banks for the round that is ending, in seat order (overridden by other games)."""
        # [F7-SCORE] [F7-SCORE-BUST] [F7-FLIP7-OTHERS-BANK] [F7-FLIP7-BONUS]
        return [round_score(self.ruleset, p.cards, p.status is BUSTED) for p in self.players]

    def _flip7_seat(self) -> int | None:
        """The seat whose Flip 7 ended the round that is ending, if any (overridden by other games)."""
        return next((seat for seat, p in enumerate(self.players)
                     if p.status is ACTIVE and len(p.values) >= FLIP7_SIZE), None)

    def _end_round(self) -> None:
        # [F7-ROUND-END] [F7-ALL-BUST] no active player left, a Flip 7, or nothing left to draw
        self.pending = None
        scores = self._round_scores()
        self.last_scores = scores
        self.last_busted = [p.status is BUSTED for p in self.players]
        self.last_flip7 = self._flip7_seat()
        for seat, value in enumerate(scores):
            self.totals[seat] += value  # [F7-BANK]
        if self.on_round_end is not None:
            self.on_round_end(self)
        # [F7-DISCARD-PILE] [F7-CHANCE-ROUND-END] every card of the round goes to the discard pile
        for player in self.players:
            self.discard.extend(player.cards)
            player.clear()
        self.discard.extend(self.in_play)
        self.in_play = []
        self.stack = []
        if self._events is not None:
            self.emit("round_end", "F7-SCORE", None, None, (("scores", scores), ("totals", list(self.totals))))
        top = max(self.totals)
        if top >= self.ruleset.target_score:  # [F7-GAME-END]
            leaders = [seat for seat, total in enumerate(self.totals) if total == top]
            if len(leaders) == 1 or self.ruleset.tie_at_target == "shared_win":
                # [F7-WINNER]
                self.over = True
                self.winners = leaders
                self.emit("game_end", "F7-WINNER", None, None, (("winners", leaders),))
                return
            # [F7-TIE] a tie at the top: everyone plays another round
            self.emit("tie", "F7-TIE", None, None, (("leaders", leaders),))
        # [F7-DEALER-ROTATION] the deck passes left; [F7-DISCARD-PILE] without reshuffling
        self.dealer = (self.dealer + 1) % self.n
        self._start_round()


def _is_option(choice: Choice, options: tuple[Choice, ...]) -> bool:
    kind = type(choice)
    if kind is str or kind is int:  # the common case; options never hold bools or floats
        return choice in options
    return any(_same_json(choice, o) for o in options)


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values, type by type at every depth: bool is an int in Python, and True must not pass
    for seat 1, not even inside a card reference; a list parsed from JSON matches a list option."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _show(choice: Choice) -> str:
    return choice if isinstance(choice, str) else repr(choice)


def _ruleset_deck_check(ruleset: Ruleset, players: int, deck: Sequence[Card]) -> None:
    expected = Counter(c.text for c in ruleset.deck_cards(players))
    given = Counter(c.text for c in deck)
    if expected != given:
        missing = expected - given
        extra = given - expected
        parts = []
        if missing:
            parts.append("missing " + " ".join(f"{t}x{k}" if k > 1 else t for t, k in sorted(missing.items())))
        if extra:
            parts.append("extra " + " ".join(f"{t}x{k}" if k > 1 else t for t, k in sorted(extra.items())))
        raise SetupError(f"the deck is not a permutation of the {ruleset.name} deck for {players} players "
                         f"({len(deck)} cards, expected {sum(expected.values())}): {'; '.join(parts)}")


def new_game(
    ruleset: Ruleset,
    players: int,
    deck: Sequence[Card] | Sequence[str],
    dealer: int = 0,
    reshuffles: Iterable[Sequence[Card]] = (),
    reshuffler: Reshuffler | None = None,
    record: bool = True,
    check_deck: bool = True,
) -> tuple[Game, list[Event]]:
    """Start a game and run it to its first decision; returns the game and the events so far.

    ``deck`` is the whole draw pile, top card first, and must be a permutation of the ruleset's deck for
    that many players ([F7-DECK], [F7-TWO-DECKS]). Reshuffle orders come from ``reshuffles`` first, then
    from ``reshuffler`` (which receives the discard pile and returns the new order, top first). Raises
    :class:`SetupError` for a bad player count, dealer or deck.
    """
    check_game_arguments(ruleset, players, deck, dealer, reshuffles, reshuffler)  # types and limits first
    if players < 1:
        raise SetupError(f"a game needs at least one player, got {players}")
    try:
        ruleset.check_players(players)  # [F7-PLAYERS]
    except Exception as error:
        raise SetupError(str(error)) from None
    if not 0 <= dealer < players:
        raise SetupError(f"dealer must be a seat from 0 to {players - 1}, got {dealer}")
    cards_ = [c if isinstance(c, Card) else card(c) for c in deck]
    if check_deck:
        _ruleset_deck_check(ruleset, players, cards_)
    game = make_game(ruleset, players, cards_, dealer, reshuffler, record, reshuffles)
    return game, game.start()


def make_game(
    ruleset: Ruleset,
    players: int,
    deck: Sequence[Card],
    dealer: int,
    reshuffler: Reshuffler | None = None,
    record: bool = True,
    reshuffles: Iterable[Sequence[Card]] = (),
) -> Game:
    """A game of the right class for ``ruleset``, not yet started and with no checks (see :func:`new_game`)."""
    if ruleset.game == "flip7":
        return Game(ruleset, players, dealer, deck, reshuffles, reshuffler, record)
    from flip7_spec.vengeance.engine import VengeanceGame

    return VengeanceGame(ruleset, players, dealer, deck, reshuffles, reshuffler, record)
