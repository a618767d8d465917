"""The game-neutral state machine that every game of the Flip 7 family runs on.

A :class:`Game` is one whole game. It always stands at a pending :class:`~flip7_spec.events.Decision`
(or is over). :meth:`Game.apply` takes one legal choice, resolves everything that follows until the next
decision, and returns the events it caused. Nothing is random: the deck is given top card first, and every
reshuffle takes its order from outside (a queue of recorded orders, or a reshuffler function supplied by a
simulator), so the same inputs always give the same game.

The work between two decisions is kept as an explicit stack of small :class:`Frame` objects (a turn
rotation, an Action in progress, ...). Each ``step`` does one atomic thing (deal or draw one card, ask or make
one choice), which makes the state copyable at every decision and lets a round end at once, from any depth,
by a single flag.

This module knows the parts every game shares: seats and turn order, the frame stack, drawing and
reshuffling, the end of a round (banking, discarding, passing the deck), the end of the game (target score,
ties), the observation and the history. A game (see :mod:`flip7_spec.games`) subclasses :class:`Game`, brings
its frames, and fills the named hooks (the ``_begin_round`` ... ``_stalled`` methods and :attr:`Game.CLAUSES`);
it names its own clause ids, so the machine cites none.

``apply`` mutates the game in place, which is what simulators want; :meth:`Game.after` is the pure form
(copy, then apply).
"""

from __future__ import annotations

import copy
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from flip7_spec.cards import Card, card
from flip7_spec.errors import CardError, ChanceError, Flip7Error, IllegalDecision
from flip7_spec.events import HIT, STAY, Choice, Decision, DecisionKind, Event, Status
from flip7_spec.moved import RenamedAttribute

if TYPE_CHECKING:
    from flip7_spec.rulesets import Ruleset

ACTIVE = Status.ACTIVE
STAYED = Status.STAYED
FROZEN = Status.FROZEN
BUSTED = Status.BUSTED

_STATUS_TEXT = {status: status.value for status in Status}
"""Each status as the text observations show (a table: the enum's ``value`` is a slower property)."""

Reshuffler = Callable[[list[Card]], list[Card]]
"""Receives the discard pile and returns the new draw pile, top card first."""

GameT = TypeVar("GameT", bound="Game")

STALL_PASSES = 10
"""How many times the whole deck may be drawn with no decision and no point banked in between before play
counts as endless (Flip Threes and Second Chances that only bring each other back, a deck dealt out round
after round without a point): a real game asks a decision long before that."""


@dataclass(frozen=True, slots=True)
class MachineClauses:
    """The clause ids a game gives to the rules the machine carries out for it, as its events name them."""

    deal: str
    """The round's opening (the ``round_start`` event)."""
    forced_choice: str
    """A decision with one legal choice, made at once (the ``forced`` event)."""
    empty_deck: str
    """Nothing left to draw: the round ends (the ``empty_deck`` event)."""
    reshuffle: str
    """The discard pile becomes the draw pile (the ``reshuffle`` event)."""
    score: str
    """Round scores banked (the ``round_end`` event)."""
    winner: str
    """The game ends with its winners (the ``game_end`` event)."""
    tie: str
    """A tie for the lead at the target: another round (the ``tie`` event)."""
    reshuffle_emptied: str
    """Option reshuffle_moment=when_emptied: the discard pile is reshuffled as the last card is drawn."""
    round_limit: str
    """Option round_limit: the game ends after that many rounds (the ``game_end`` event)."""
    unreachable: str
    """A ruleset under which no hand scores a point while the target is above 0 is refused (no game could end)."""
    endless: str
    """Play that only cycles: :data:`STALL_PASSES` times the whole deck drawn with no decision and no point
    banked ends the round as if nothing were left to draw, and the game with it (see :meth:`Game._draw`)."""


@dataclass(frozen=True, slots=True)
class Ply:
    """One entry of a game's history: the decision that was pending, the choice made, the events it caused."""

    decision: Decision
    choice: Choice
    events: tuple[Event, ...]


class PlayerRound:
    """One player's part of the current round: cards in the order received, their Number values, and status.

    Games that keep more per player (a running score tally, a held card) subclass it and return theirs from
    :meth:`Game._new_row`.
    """

    __slots__ = ("cards", "status", "values")

    def __init__(self) -> None:
        self.cards: list[Card] = []
        self.values: set[int] = set()
        self.status = ACTIVE

    def clear(self) -> None:
        """Give up every card (the round is over); the status stays for the last observation of a game."""
        self.cards = []
        self.values = set()


@cache
def hit_or_stay(seat: int, options: tuple[str, ...] = (HIT, STAY)) -> Decision:
    """The Hit-or-Stay decision of ``seat`` (decisions are immutable values, so one per seat serves all)."""
    return Decision(seat, DecisionKind.HIT_OR_STAY, options)


def next_active(order: list[int], players: Sequence[PlayerRound], pos: int) -> int:
    """The index in ``order``, from ``pos`` round the table, of the next active player's seat."""
    n = len(order)
    for offset in range(n):
        index = (pos + offset) % n
        if players[order[index]].status is ACTIVE:
            return index
    raise AssertionError("turn rotation with no active player")


class Frame(Generic[GameT]):
    """A piece of unfinished work. ``step`` does one atomic thing; ``decide`` consumes a pending choice."""

    __slots__ = ()

    DRAWS_FOR_ACTION: ClassVar[bool] = False
    """Whether this frame draws cards for an Action in progress (a Flip Three, say): tools that look for a
    reshuffle in the middle of an Action read it through :attr:`Game.drawing_for_action`."""

    def step(self, game: GameT) -> None:
        raise NotImplementedError

    def decide(self, game: GameT, choice: Choice) -> None:
        raise AssertionError(f"{type(self).__name__} asks no decision")


_PROTECTED = "the machinery is protected now (docs/architecture.md, 'The machine and its hooks'): "


class Game:
    """One game under a ruleset. Create it with :func:`flip7_spec.new_game`; each game's class fills the hooks.

    The public face: :attr:`pending`, :meth:`apply` (and :meth:`after`), :meth:`legal`, :meth:`observation`,
    :attr:`over`, :attr:`winners`, :attr:`totals`, :meth:`copy`, :attr:`history`. The state is plain data
    (``ruleset``, ``named_ruleset``, ``n`` the number of players, ``players``, ``pile``, ``discard``,
    ``in_play``, ``order``, ``dealer``, ``round``) for tools that inspect it, with :meth:`status`,
    :meth:`round_score`, :meth:`score_hand`, :meth:`draw_pile` and :attr:`drawing_for_action` reading it.
    What a record of the game takes: ``start_events`` (the events of the first deal), :attr:`history`,
    :attr:`initial_deck`, :attr:`initial_dealer`, :attr:`orders_used`, :attr:`orders_waiting`,
    :attr:`recording`. The last round's end, for an ``on_round_end`` observer (called with the game as each
    round ends): ``last_scores``, ``last_busted``, ``last_flip7``. Chance and driving: ``reshuffler`` (orders
    a reshuffle no order was supplied for), :meth:`supply_reshuffle`, :meth:`restack`, :meth:`start`,
    :meth:`play_out`.

    Everything else is the machinery and starts with ``_``: the frame stack (``_stack``), the round's
    bookkeeping (``_active``, ``_ending``), the queued reshuffle orders, the recording buffers and counters;
    the frames' helpers (``_emit``, ``_ask``, ``_draw``, ...) and the game's hooks (``_begin_round``,
    ``_round_scores``, ...), which a game's subclass and the misreadings override (docs/architecture.md, "The
    machine and its hooks"). The frames of a game push and pop on ``_stack``. The names the machinery had
    before it was protected (``stack``, ``active``, ``ending``, ``reshuffles``) still give the same objects,
    with a ``DeprecationWarning``, for a plug-in game written against them.
    """

    CLAUSES: ClassVar[MachineClauses]
    """The clause ids of the machine's rules in this game."""
    FINISH_ACTIONS: ClassVar[bool] = False
    """Whether a round with no active player left waits until the frame being resolved is done (an Action
    played on a stayed player, say) instead of ending at once."""

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
        self.named_ruleset = ruleset
        """The ruleset the game was created under, as named: :attr:`ruleset` with its deviations unapplied
        (:func:`flip7_spec.play.make_game` plays a ruleset's option deviations as :attr:`ruleset`)."""
        self.n = players
        self.dealer = dealer
        self.round = 0
        self.totals = [0] * players
        self.pile: list[Card] = list(reversed(deck))  # the top card is the last element
        self.discard: list[Card] = []
        self.in_play: list[Card] = []
        self._play_entries: list[int] = []  # a number for each card in play, in the same order
        self._next_entry = 0
        self.players: list[PlayerRound] = []
        self.order: list[int] = []
        self._stack: list[Frame[Any]] = []
        self.pending: Decision | None = None
        self.over = False
        self.winners: list[int] = []
        self._reshuffles: deque[list[Card]] = deque(list(order) for order in reshuffles)
        self.reshuffler = reshuffler
        self._active = 0
        self._ending = False
        self.last_scores: list[int] = []
        self.last_busted: list[bool] = []
        self.last_flip7: int | None = None
        self.on_round_end: Callable[[Game], None] | None = None
        self.start_events: tuple[Event, ...] = ()
        self.history: list[Ply] = []
        """Every decision made so far, with its choice and events (kept only when recording)."""
        self._events: list[Event] | None = [] if record else None
        self._setup = (tuple(deck), dealer, record)  # what a rejected call rebuilds the game from
        self._orders: list[list[Card]] = []  # every reshuffle order used so far, in order
        self._choices: list[Choice] = []  # every choice made so far
        self._draws_without_decision = 0
        self._cycle_limit = STALL_PASSES * max(len(deck), 1)
        self._stalled_game = False
        self._pilot: Callable[[Game, Decision], Choice] | None = None  # see play_out

    # ---- public interface -------------------------------------------------------------------------

    def start(self) -> list[Event]:
        """Deal the first round and run to the first decision; returns the events."""
        self._start_round()
        self._run()
        events = self._events
        if events is None:
            return []
        self.start_events = tuple(events)
        return list(events)

    def apply(self, choice: Choice) -> list[Event]:
        """Make the pending decision with ``choice`` and run to the next decision.

        Returns the events caused, in order (an empty list when the game was created with
        ``record=False``). Raises :class:`IllegalDecision` naming the legal choices if ``choice`` is not
        one of them, and :class:`ChanceError` when a reshuffle it needs has no order (or an order that is
        not a permutation of the discard pile); either way the game is then exactly as it was.
        """
        pending = self.pending
        if pending is None:
            raise IllegalDecision("no decision is pending: the game is over")
        kind = type(choice)
        if not (((kind is str or kind is int) and choice in pending.options) or _is_option(choice, pending.options)):
            raise _illegal(pending, choice)
        queued = list(self._reshuffles) if self._reshuffles else None  # the orders waiting, for a rebuild
        self.pending = None
        self._draws_without_decision = 0
        events = self._events
        if events is not None:
            events.clear()
        try:
            self._stack[-1].decide(self, choice)
            self._run()
        except ChanceError:
            self._rebuild(queued or [])
            raise
        self._choices.append(choice)
        if events is None:
            return []
        self.history.append(Ply(pending, choice, tuple(events)))
        return list(events)

    def play_out(self, choose: Callable[[Game, Decision], Choice]) -> None:
        """Play the game to its end, ``choose`` making every pending decision: what calling :meth:`apply`
        with its choice at each decision does, for a game created with ``record=False`` (a simulation's,
        which keeps no history), without leaving the loop that runs the game between two decisions.

        ``choose`` is asked for each decision as it becomes pending, the game standing at it; a choice that
        is not legal raises :class:`IllegalDecision` as :meth:`apply` does, the game still at that decision.
        An exception from ``choose``, or a :class:`ChanceError` (a reshuffle with no valid order), ends the
        play there, the game left where it stopped (:meth:`apply` would put it back as it was before the
        decision, for a caller that goes on). Raises ValueError for a recording game (use :meth:`apply`,
        which returns the events of each decision) and for one not started.
        """
        if self._events is not None:
            raise ValueError("play_out is for a game created with record=False; a recording game uses apply")
        if self.pending is None and not self.over:
            raise ValueError("play_out needs a started game")
        self._pilot = choose
        try:
            self._run()
        finally:
            self._pilot = None

    @property
    def recording(self) -> bool:
        """Whether the game keeps its events and :attr:`history` (created with ``record=True``)."""
        return self._events is not None

    @property
    def initial_deck(self) -> tuple[Card, ...]:
        """The draw pile the game started from, top card first."""
        return self._setup[0]

    @property
    def initial_dealer(self) -> int:
        """The Dealer of the first round."""
        return self._setup[1]

    @property
    def orders_used(self) -> list[list[Card]]:
        """Every reshuffle order used so far (top first), in the order the reshuffles happened."""
        return [list(order) for order in self._orders]

    @property
    def orders_waiting(self) -> int:
        """How many reshuffle orders were supplied (to the constructor or :meth:`supply_reshuffle`) and not
        used yet: a replay whose orders are all used leaves none."""
        return len(self._reshuffles)

    # The names of the machinery before it became protected, for a plug-in game written against them: each
    # warns and stands for the same object (a frame still pushes itself with ``game.stack.append(frame)``).

    stack = RenamedAttribute("_stack", _PROTECTED)
    active = RenamedAttribute("_active", _PROTECTED)
    ending = RenamedAttribute("_ending", _PROTECTED)
    reshuffles = RenamedAttribute("_reshuffles", _PROTECTED)

    @property
    def drawing_for_action(self) -> bool:
        """Whether a frame of an Action in progress (a Flip Three, say: :attr:`Frame.DRAWS_FOR_ACTION`) is
        under way, so that a reshuffle now happens in the middle of that Action."""
        return any(frame.DRAWS_FOR_ACTION for frame in self._stack)

    def _rebuild(self, queued: list[list[Card]]) -> None:
        """Put the game back as it was before the call that failed: play it again from its start with the
        reshuffle orders it used, then queue ``queued`` (the orders that were waiting) again."""
        deck, dealer, record = self._setup
        again = type(self)(self.ruleset, self.n, dealer, deck, self._orders, None, record)
        again.start()
        for choice in self._choices:
            again.apply(choice)
        again._reshuffles = deque(queued)
        again.reshuffler = self.reshuffler
        again.on_round_end = self.on_round_end
        again.named_ruleset = self.named_ruleset
        self.__dict__.update(again.__dict__)

    def after(self, choice: Choice) -> tuple[Game, list[Event]]:
        """The pure form of :meth:`apply`: a new game after ``choice``, and its events. ``self`` is unchanged."""
        successor = self.copy()
        return successor, successor.apply(choice)

    def copy(self) -> Game:
        """An independent copy of the game (cards and ruleset are immutable and shared)."""
        return copy.deepcopy(self, {id(self.ruleset): self.ruleset, id(self.named_ruleset): self.named_ruleset})

    def supply_reshuffle(self, order: Sequence[Card | str]) -> None:
        """Queue the order (top first) of a future reshuffle, as cards or their texts; checked against the
        discard pile when it is used. Raises :class:`ChanceError` now for an order that is no list of cards."""
        if isinstance(order, (str, bytes)) or not isinstance(order, Iterable):
            raise ChanceError(f"a reshuffle order is a list of cards (or their texts), not {type(order).__name__}")
        try:
            self._reshuffles.append([c if isinstance(c, Card) else card(c) for c in order])
        except CardError as error:
            raise ChanceError(f"reshuffle order: {error}") from None

    def restack(self, top_first: Sequence[Card]) -> None:
        """Put the draw pile in the order ``top_first`` (its cards, top first), as if the deck had been dealt
        so: :attr:`initial_deck` becomes the cards already drawn, then this order. Raises ValueError after a
        reshuffle (the pile is no longer the rest of that deck) or for cards that are not the pile's."""
        if self._orders:
            raise ValueError("the draw pile can be restacked only before the first reshuffle")
        if Counter(c.text for c in top_first) != Counter(c.text for c in self.pile):
            raise ValueError("a restacked draw pile must hold the cards of the draw pile")
        deck, dealer, record = self._setup
        drawn = len(deck) - len(self.pile)
        self.pile[:] = list(top_first)[::-1]
        self._setup = (deck[:drawn] + tuple(top_first), dealer, record)

    def legal(self) -> list[Choice]:
        """The legal choices of the pending decision (empty when the game is over)."""
        return list(self.pending.options) if self.pending else []

    def draw_pile(self) -> list[Card]:
        """The draw pile, top card first."""
        return self.pile[::-1]

    def status(self, seat: int) -> Status:
        """``active``, ``stayed``, ``frozen`` or ``busted``."""
        return self.players[seat].status

    def round_score(self, seat: int) -> int:
        """What ``seat`` would bank if the round ended now."""
        raise NotImplementedError

    def score_hand(self, hand: Sequence[Card], busted: bool = False) -> int:
        """The round score this game's rules give a player holding ``hand`` when a round ends (stayed, or
        busted), as a one-player table would bank it; the game itself is left as it was."""
        saved = self.players
        row = self._new_row()
        row.cards.extend(hand)
        row.status = BUSTED if busted else self._status_at_end(hand)
        self.players = [row]
        try:
            return self._round_scores()[0]
        finally:
            self.players = saved

    def _status_at_end(self, hand: Sequence[Card]) -> Status:
        """The status of a player who did not bust and ends a round holding ``hand`` (for :meth:`score_hand`)."""
        return STAYED

    def observation(self) -> dict[str, Any]:
        """The canonical observation (see docs/trace-format.md): the same JSON value in every engine."""
        pending = self.pending
        round_score = self.round_score
        totals = self.totals
        return {
            "round": self.round,
            "dealer": self.dealer,
            "draw_pile": len(self.pile),
            "discard_pile": len(self.discard),
            "in_play": [c.text for c in self.in_play],
            "players": [
                {
                    "cards": [c.text for c in p.cards],
                    "status": _STATUS_TEXT[p.status],
                    "round_score": round_score(seat),
                    "total": totals[seat],
                }
                for seat, p in enumerate(self.players)
            ],
            "pending": pending.to_json() if pending else None,
            "over": self.over,
            "winners": list(self.winners),
        }

    # ---- hooks a game fills -----------------------------------------------------------------------

    def _new_row(self) -> PlayerRound:
        """A fresh row for one player at the start of a round."""
        return PlayerRound()

    def _begin_round(self) -> Frame[Any]:
        """Reset the game's own per-round state, and return the frame that opens the round."""
        raise NotImplementedError

    def _before_scoring(self) -> Frame[Any] | None:
        """A frame to run once the round is over but before it is scored (a last decision), or None."""
        return None

    def _round_scores(self) -> list[int]:
        """What each seat banks for the round that is ending, in seat order."""
        raise NotImplementedError

    def _flip7_seat(self) -> int | None:
        """The seat whose seven different Numbers ended the round that is ending, if any."""
        return None

    def _stalled(self) -> str | None:
        """The clause that ends the round when nothing left in the discard pile could change it (reshuffling
        would only cycle cards), or None when the discard pile may be reshuffled."""
        return None

    # ---- helpers used by frames ---------------------------------------------------------------------

    def _emit(self, kind: str, clause: str, player: int | None = None, card_text: str | None = None,
              data: tuple[tuple[str, Any], ...] = ()) -> None:
        if self._events is not None:
            self._events.append(Event(kind, clause, player, card_text, data))

    def _ask(self, decision: Decision) -> None:
        self.pending = decision

    def _forced(self, decision: Decision, because: str) -> None:
        """A decision with one legal choice is made at once and recorded, naming the clause that left one."""
        choice = decision.options[0]
        self._emit("forced", self.CLAUSES.forced_choice, decision.player, decision.card,
                   (("kind", str(decision.kind)), ("choice", choice), ("because", because)))
        self._stack[-1].decide(self, choice)

    def _offer(self, decision: Decision, because: str) -> None:
        """Ask ``decision``, or make it at once when it has one option (a forced event naming ``because``)."""
        if len(decision.options) == 1:
            self._forced(decision, because)
        else:
            self.pending = decision

    def _active_seats(self) -> list[int]:
        return [seat for seat, p in enumerate(self.players) if p.status is ACTIVE]

    def _set_status(self, seat: int, status: Status) -> None:
        player = self.players[seat]
        if player.status is ACTIVE:
            self._active -= 1
        player.status = status

    def _put_in_play(self, card: Card) -> int:
        """Put ``card`` in play (after the cards in play already); returns the number of its entry, which
        :meth:`_take_from_play` takes: cards of the same face are one object, so only that tells them apart."""
        self._sync_entries()
        entry = self._next_entry
        self._next_entry += 1
        self.in_play.append(card)
        self._play_entries.append(entry)
        return entry

    def _take_from_play(self, card: Card, entry: int | None = None) -> None:
        """Take ``card`` out of play: the entry ``entry`` (see :meth:`_put_in_play`) when it is still in play,
        else the first card in play with that face."""
        self._sync_entries()
        entries = self._play_entries
        if entry is not None and entry in entries:
            index = entries.index(entry)
        else:
            index = next((i for i, c in enumerate(self.in_play) if c is card), -1)
            if index < 0:
                raise ValueError(f"{card.text} is not in play")
        del self.in_play[index]
        del entries[index]

    def _sync_entries(self) -> None:
        # cards put in play another way (a state built by hand): give each a fresh entry
        if len(self._play_entries) != len(self.in_play):
            start = self._next_entry
            self._play_entries = list(range(start, start + len(self.in_play)))
            self._next_entry = start + len(self.in_play)

    def _discard_in_play(self, card: Card, reason: str, clause: str, entry: int | None = None) -> None:
        self._take_from_play(card, entry)
        self.discard.append(card)
        self._emit("discard", clause, None, card.text, (("reason", reason),))

    def _draw(self) -> Card | None:
        """The top card, reshuffling the discard pile first if the deck is empty; None if both are empty
        (or only cards that cannot change the round are left), which ends the round. None too once play
        is endless (:data:`STALL_PASSES` times the deck drawn with no decision and no point banked): the
        round ends, and the game with it (the ``endless`` clause)."""
        self._draws_without_decision += 1
        if self._draws_without_decision > self._cycle_limit:
            self._emit("empty_deck", self.CLAUSES.endless)
            self._ending = True
            self._stalled_game = True
            return None
        pile = self.pile
        if not pile:
            stall = self._stalled() if self.discard else None
            if not self.discard or stall is not None:
                self._emit("empty_deck", stall or self.CLAUSES.empty_deck)
                self._ending = True
                return None
            self._reshuffle(self.CLAUSES.reshuffle)
        drawn = pile.pop()
        if not pile and self.discard and self.ruleset.reshuffle_moment == "when_emptied" \
                and self._stalled() is None:
            # the last card taken: the discard pile becomes the new deck at once, before that card's effect
            # (the card is in play meanwhile, on its way to its receiver, so that no card is ever unaccounted)
            entry = self._put_in_play(drawn)
            try:
                self._reshuffle(self.CLAUSES.reshuffle_emptied)
            finally:
                self._take_from_play(drawn, entry)
        return drawn

    def _reshuffle(self, clause: str) -> None:
        # The discard pile becomes the new deck, in an order given from outside; table and in-play cards are
        # elsewhere and stay out.
        discard = self.discard
        if self._reshuffles:
            order = self._reshuffles.popleft()
            if Counter(c.text for c in order) != Counter(c.text for c in discard):
                held = sorted(c.text for c in discard)
                raise ChanceError(
                    f"reshuffle order is not a permutation of the discard pile ({len(discard)} cards: "
                    f"{' '.join(held)}); got {len(order)} cards: {' '.join(c.text for c in order)}",
                    {"problem": "not_a_permutation", "discard_pile": held, "index": len(self._orders)},
                )
        elif self.reshuffler is not None:
            try:
                offered = self.reshuffler(list(discard))
            except Flip7Error:  # raised on purpose (a hunt giving a game up): the caller's own to handle
                raise
            except Exception as error:  # the caller's callback failed: the game must stay as it was
                raise ChanceError(f"the reshuffler raised {type(error).__name__}") from error
            order = _checked_order(offered, discard)
        else:
            raise ChanceError(f"a reshuffle of the {len(discard)}-card discard pile is needed in round "
                              f"{self.round}, but no reshuffle order was supplied",
                              {"problem": "no_order", "discard_pile": sorted(c.text for c in discard),
                               "index": len(self._orders)})
        self._emit("reshuffle", clause, None, None, (("order", [c.text for c in order]),))
        self._orders.append(list(order))
        self.pile[:] = order[::-1]
        discard.clear()

    # ---- the loop and the rounds ------------------------------------------------------------------

    def _run(self) -> None:
        while not self.over:
            pending = self.pending
            if pending is not None:
                pilot = self._pilot
                if pilot is None:
                    return
                # play_out: the pending decision is made here, as apply makes it
                choice = pilot(self, pending)
                kind = type(choice)
                if not (((kind is str or kind is int) and choice in pending.options)
                        or _is_option(choice, pending.options)):
                    raise _illegal(pending, choice)
                self.pending = None
                self._draws_without_decision = 0
                self._stack[-1].decide(self, choice)
                self._choices.append(choice)
                continue
            if self._ending or (not self._active and (not self.FINISH_ACTIONS or len(self._stack) == 1)):
                last = self._before_scoring()
                if last is not None:
                    self._stack.append(last)
                    last.step(self)
                    continue
                self._end_round()  # replaces self._stack: never cache it across this call
                continue
            self._stack[-1].step(self)

    def _turn_order(self) -> list[int]:
        """The seats in turn order for this round: clockwise from the Dealer's left, the Dealer last (option
        ``deal_start``: from the Dealer)."""
        n = self.n
        first = self.dealer if self.ruleset.deal_start == "dealer" else self.dealer + 1
        return [(first + i) % n for i in range(n)]

    def _start_round(self) -> None:
        self.round += 1
        n = self.n
        self.order = self._turn_order()
        self.players = [self._new_row() for _ in range(n)]
        self._active = n
        self._ending = False
        self._stack = [self._begin_round()]
        if self._events is not None:
            self._emit("round_start", self.CLAUSES.deal, None, None, (("round", self.round), ("dealer", self.dealer)))

    def _winners_at_target(self, leaders: list[int]) -> list[int] | None:
        """Who wins when the highest total, held by ``leaders``, has reached the target: the one leader, or
        every tied one under ``tie_at_target = shared_win``; None means another round (a tie)."""
        if len(leaders) == 1 or self.ruleset.tie_at_target == "shared_win":
            return leaders
        return None

    def _last_round(self) -> bool:
        limit = self.ruleset.round_limit
        return bool(limit) and self.round >= limit

    def _end_game(self, winners: list[int], clause: str) -> None:
        self.over = True
        self.winners = winners
        self._emit("game_end", clause, None, None, (("winners", winners),))

    def _end_round(self) -> None:
        # The round is over (no active player left, seven different Numbers, or nothing left to draw).
        self.pending = None
        scores = self._round_scores()
        self.last_scores = scores
        self.last_busted = [p.status is BUSTED for p in self.players]
        self.last_flip7 = self._flip7_seat()
        for seat, value in enumerate(scores):
            self.totals[seat] += value
        if any(scores):
            self._draws_without_decision = 0  # points banked: the game goes somewhere
        if self.on_round_end is not None:
            self.on_round_end(self)
        # Every card of the round goes to the discard pile.
        for player in self.players:
            self.discard.extend(player.cards)
            player.clear()
        self.discard.extend(self.in_play)
        self.in_play = []
        self._play_entries = []
        self._stack = []
        clauses = self.CLAUSES
        if self._events is not None:
            self._emit("round_end", clauses.score, None, None, (("scores", scores), ("totals", list(self.totals))))
        ruleset = self.ruleset
        top = max(self.totals)
        if self._stalled_game:  # play could only cycle: the game ends here, the highest total winning
            self._end_game([seat for seat, total in enumerate(self.totals) if total == top], clauses.endless)
            return
        last_round = self._last_round()
        if top >= ruleset.target_score:
            leaders = [seat for seat, total in enumerate(self.totals) if total == top]
            winners = self._winners_at_target(leaders)
            if winners is not None:
                self._end_game(winners, clauses.winner)
                return
            if not last_round:
                self._emit("tie", clauses.tie, None, None, (("leaders", leaders),))
        if last_round:
            # the rounds are up: whoever reached the target has won (nobody, perhaps)
            self._end_game([s for s, total in enumerate(self.totals) if total >= ruleset.target_score],
                           clauses.round_limit)
            return
        # The deck passes left, without reshuffling.
        self.dealer = (self.dealer + 1) % self.n
        self._start_round()


def _checked_order(order: Any, discard: list[Card]) -> list[Card]:
    """The reshuffler's ``order`` if it is a list of the discard pile's cards (a permutation of them);
    :class:`ChanceError` if not (a deck must never gain or lose a card)."""
    if not isinstance(order, list) or not all(isinstance(c, Card) for c in order):
        raise ChanceError(f"the reshuffler returned {type(order).__name__}, not a list of the discard pile's cards")
    if Counter(c.text for c in order) != Counter(c.text for c in discard):
        raise ChanceError(f"the reshuffler returned {len(order)} cards that are not a permutation of the "
                          f"{len(discard)}-card discard pile")
    return order


def _illegal(pending: Decision, choice: Choice) -> IllegalDecision:
    """The error for ``choice`` made at ``pending`` when it is none of its options."""
    return IllegalDecision(
        f"{choice!r} is not a legal choice for the pending {pending.kind} decision of player "
        f"{pending.player}; legal choices: {', '.join(map(_show, pending.options))}",
        list(pending.options),
    )


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
