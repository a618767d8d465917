"""One game played by the reference under two rulesets at once, compared after the start and after every
decision: where the two first differ, or why the game stopped.

A game of the rules diff (:class:`DiffGame`) is a setup (player count, Dealer, a deck top first, and, when
both sides allow it, a custom deck composition and a target score) with the decisions and reshuffle orders
made in it. :func:`play_pair` plays it under the left and the right ruleset side by side and returns the first
:class:`Split` (the observations differ, or at the ``events`` level the events, or one side cannot go on
with the chance the other used), or how it ended.

The deck may be *lazy*: positions not yet chosen hold :data:`HOLE`, and drawing one stops the play with
:class:`NeedCard` (the bounded exhaustive search then tries every card there); so may the order of a
reshuffle (:class:`Chance`): drawing a card whose place in it is not chosen yet stops the play with
:class:`NeedDraw`; a decision with no choice yet stops it with :class:`NeedChoice`. A play that ends
without needing what is not chosen is the same game whatever it would be.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Final, SupportsIndex, TypeVar, cast, overload

from flip7_spec.cards import Card, Kind, card
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.judge.diagnosis import REPLAY_ERRORS
from flip7_spec.machine import Game
from flip7_spec.misreadings import game_class_for
from flip7_spec.play import check_reachable
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.compare import Difference, differences

_T = TypeVar("_T")

OBSERVATIONS: Final = "observations"
EVENTS: Final = "events"
LEVELS: Final = (OBSERVATIONS, EVENTS)
"""What is compared after each step: the canonical observations, or the observations and the events."""


@dataclass(frozen=True, slots=True)
class DiffGame:
    """A game both sides play: the setup, then the decisions and reshuffle orders made in it.

    ``composition`` is the custom deck composition both rulesets take for it (None: their own deck, of
    which ``deck`` is then a permutation); ``target`` the target score both take (None: their own).
    ``choices`` are the decisions in order, ``orders`` the reshuffle orders (top first) in the order used.
    """

    players: int
    dealer: int
    deck: tuple[str, ...]
    composition: tuple[tuple[str, int], ...] | None = None
    target: int | None = None
    choices: tuple[Choice, ...] = ()
    orders: tuple[tuple[str, ...], ...] = ()

    @property
    def key(self) -> tuple[int, int, int]:
        """The order of the search: fewest decisions, then fewest players, then smallest deck."""
        return len(self.choices), self.players, len(self.deck)

    def size(self) -> str:
        """``N decisions, P players, K cards``, for people."""
        d, p, k = self.key
        return f"{d} decision{'s' * (d != 1)}, {p} player{'s' * (p != 1)}, {k} card{'s' * (k != 1)}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "dealer": self.dealer, "deck": list(self.deck),
                               "choices": list(self.choices), "reshuffles": [list(o) for o in self.orders]}
        if self.composition is not None:
            out["composition"] = {text: count for text, count in self.composition}
        if self.target is not None:
            out["target_score"] = self.target
        return out


def composition_of(deck: Sequence[str], order: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """The composition of ``deck``, its card texts in the order of ``order`` (the ruleset's own)."""
    counts = Counter(deck)
    rank = {text: i for i, text in enumerate(order)}
    return tuple((text, counts[text]) for text in sorted(counts, key=lambda t: (rank.get(t, len(rank)), t)))


def setup_ruleset(ruleset: Ruleset, game: DiffGame) -> Ruleset:
    """``ruleset`` with the game's custom deck composition and target score (each when the game has one)."""
    ruleset = _targeted(ruleset, game.target)
    return replace(ruleset, deck=game.composition) if game.composition is not None else ruleset


@cache
def _targeted(ruleset: Ruleset, target: int | None) -> Ruleset:
    """``ruleset`` with the target score ``target`` (None: its own)."""
    return ruleset if target is None or target == ruleset.target_score else replace(ruleset, target_score=target)


# ---- where the two sides part --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Split:
    """Where the two sides first differ: after ``decisions`` decisions (0: at the start), in ``kind``
    (``observation``, ``events``, ``chance``: one side needed a reshuffle of other cards, or ``error``: one
    side could not play on), with every differing field and both sides' observations and events there."""

    decisions: int
    kind: str
    fields: tuple[Difference, ...]
    left: dict[str, Any] | None
    right: dict[str, Any] | None
    left_events: tuple[dict[str, Any], ...] = ()
    right_events: tuple[dict[str, Any], ...] = ()
    message: str = ""


class Stop(Exception):
    """The play cannot go on without something the caller has not chosen yet."""


class NeedCard(Stop):
    """A card is drawn from a position of the deck that holds no card yet (:data:`HOLE`)."""


class NeedDraw(Stop):
    """A card is drawn from a reshuffled pile whose next card is not chosen yet: ``reshuffle`` is its
    number (0 for the first), ``cards`` the different cards it could be."""

    def __init__(self, reshuffle: int, cards: tuple[str, ...]) -> None:
        super().__init__(f"the next card of reshuffle {reshuffle + 1}")
        self.reshuffle = reshuffle
        self.cards = cards


class Cut(Stop):
    """A side needs more reshuffles than the search allows (see :class:`Chance`)."""


class NeedChoice(Stop):
    """A decision is pending and the game has no more choices."""

    def __init__(self, decision: Decision) -> None:
        super().__init__(f"a {decision.kind} decision")
        self.decision = decision


class _Unplayable(Exception):
    """One side cannot play what the other played (a reshuffle order of other cards, an error)."""

    def __init__(self, side: str, kind: str, message: str) -> None:
        super().__init__(message)
        self.side = side
        self.kind = kind


class _Carried(Flip7Error):
    """A :class:`Stop` or :class:`_Unplayable` raised in a reshuffle, on its way out of the machine (which
    passes on a :class:`~flip7_spec.errors.Flip7Error` from its reshuffler as raised on purpose, and turns
    any other exception into a ChanceError); :func:`_unwrapped` raises the signal again."""

    def __init__(self, signal: Stop | _Unplayable) -> None:
        super().__init__(str(signal))
        self.signal = signal


def _unwrapped(call: Callable[..., _T], *args: Any) -> _T:
    """``call(*args)``, raising again a signal a reshuffle carried out of the machine."""
    try:
        return call(*args)
    except _Carried as carried:
        raise carried.signal from None


class _Hole(Card):
    """A deck position not chosen yet (see :class:`LazyPile`): a card to whatever looks at the deck before
    play (a game's check of its cards), never drawn."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__("?", Kind.NUMBER, 0)

    def __repr__(self) -> str:
        return "HOLE"


HOLE: Final = _Hole()


class Chance:
    """The reshuffles of a game, shared by both sides: each side's reshuffle ``i`` takes the same cards
    (:attr:`piles`, as the first side to reshuffle found them) in the same order.

    The orders are given whole (``orders``), made by ``make`` from the discard pile the first time they are
    needed, or, ``lazy``, drawn one card at a time: ``orders`` then holds the cards drawn from each
    reshuffled pile so far, and a :class:`LazyPile` raises :class:`NeedDraw` for the next one (unless the
    pile has one kind of card left). A side that needs more than ``limit`` reshuffles raises :class:`Cut`.
    A side whose reshuffle ``i`` holds other cards than the other side's takes them in the order that keeps
    most of the other side's (the cards it shares, in that order, then the others sorted), and the first
    such difference is kept in :attr:`mismatch`: a trace of the one side cannot be replayed by the other.
    """

    def __init__(self, orders: Sequence[Sequence[str]] = (), make: Callable[[list[Card]], list[Card]] | None = None,
                 limit: int | None = None, lazy: bool = False) -> None:
        self.given = tuple(tuple(o) for o in orders)
        self.orders: list[list[str]] = [list(o) for o in orders]
        self.piles: list[tuple[str, ...]] = []
        self.make = make
        self.limit = limit
        self.lazy = lazy
        self.mismatch: str | None = None
        self.own: set[tuple[str, int]] = set()
        """The reshuffles a side took in an order of its own (its cards differ from the other side's)."""

    def again(self, limit: int | None) -> Chance:
        """A fresh chance with the same orders given, ``make``, laziness, and ``limit``."""
        return Chance(self.given, self.make, limit, self.lazy)

    def reshuffler(self, name: str) -> Callable[[list[Card]], list[Card]]:
        """The reshuffler of one side (``name`` says which)."""
        count = [0]

        def reshuffle(discard: list[Card]) -> list[Card]:
            try:
                return order(discard)
            except (Stop, _Unplayable) as signal:
                raise _Carried(signal) from None

        def order(discard: list[Card]) -> list[Card]:
            index = count[0]
            if self.limit is not None and index >= self.limit:
                raise Cut(f"more than {self.limit} reshuffles")
            count[0] += 1
            texts = tuple(sorted(c.text for c in discard))
            if index == len(self.piles):
                self.piles.append(texts)
            elif self.piles[index] != texts:
                if self.mismatch is None:
                    self.mismatch = (f"the {name} side reshuffles other cards at reshuffle {index + 1} "
                                     f"({' '.join(texts)}; the other side: {' '.join(self.piles[index])}): a "
                                     "trace of the one side cannot be replayed by the other")
                self.own.add((name, index))
                return _keeping(discard, self.orders[index] if index < len(self.orders) else [])
            if self.lazy:
                while len(self.orders) <= index:
                    self.orders.append([])
                return list(discard)  # any order: the LazyPile draws from it as the orders say
            if index == len(self.orders):
                if self.make is None:
                    raise _Unplayable(name, "chance", f"no order for reshuffle {index + 1}")
                self.orders.append([c.text for c in self.make(list(discard))])
            return [card(t) for t in self.orders[index]]

        return reshuffle

    def whole_orders(self) -> tuple[tuple[str, ...], ...]:
        """Every reshuffle order used, whole: for a lazy one, the cards drawn, then the others sorted."""
        out = []
        for index, pile in enumerate(self.piles):
            drawn = self.orders[index] if index < len(self.orders) else []
            rest = Counter(pile)
            rest.subtract(drawn)
            out.append((*drawn, *sorted(rest.elements())))
        return tuple(out)


def _keeping(discard: Sequence[Card], order: Sequence[str]) -> list[Card]:
    """``discard`` in an order that keeps ``order`` as far as it can: the cards it holds of ``order``, in
    that order, then the others sorted."""
    left = sorted(discard, key=lambda c: c.text)
    out: list[Card] = []
    for text in order:
        at = next((i for i, c in enumerate(left) if c.text == text), None)
        if at is not None:
            out.append(left.pop(at))
    return out + left


class LazyPile(list[Card]):
    """A draw pile with cards not chosen yet. Before the first reshuffle its undrawn positions may hold
    :data:`HOLE`: drawing one raises :class:`NeedCard`. After a reshuffle (the machine replaces the whole
    pile) with a lazy :class:`Chance`, its cards are drawn in the order the chance's orders say, and the next
    card not said yet raises :class:`NeedDraw`. Reading or moving the pile's cards any other way while a card
    is not chosen raises the same (the caller chooses it and plays the game again); its length is always the
    pile's size."""

    __slots__ = ("chance", "reshuffles", "segment", "side", "taken")

    def __init__(self, cards: Sequence[Any], chance: Chance, side: str = "") -> None:
        super().__init__(cards)
        self.chance = chance
        self.side = side
        self.taken = 0
        """Cards drawn from the initial deck."""
        self.reshuffles = 0
        self.segment: int | None = None
        """The reshuffle whose cards the pile holds in no chosen order yet (None: the order is chosen)."""

    def _next(self) -> Card:
        """The top card of a reshuffled pile whose order is being chosen, taken out of the pile."""
        assert self.segment is not None
        drawn = self.chance.orders[self.segment]
        taken = self.chance.piles[self.segment]
        position = len(taken) - list.__len__(self)
        if position < len(drawn):
            text = drawn[position]
        else:
            left = sorted({c.text for c in list.__iter__(self)})
            if len(left) > 1:
                raise NeedDraw(self.segment, tuple(left))
            text = left[0]
            drawn.append(text)
        for index in range(list.__len__(self) - 1, -1, -1):
            if list.__getitem__(self, index).text == text:
                return list.pop(self, index)
        raise _Unplayable("", "chance", f"reshuffle {self.segment + 1} holds no {text} to draw")

    def _whole(self) -> None:
        if self.segment is not None:
            if list.__len__(self):  # every card's place is needed: choose them all, top first
                order = [self._next() for _ in range(list.__len__(self))]
                list.extend(self, reversed(order))
            self.segment = None
        elif list.__contains__(self, HOLE):
            raise NeedCard("a card of the deck that is not chosen yet")

    def pop(self, index: SupportsIndex = -1) -> Card:
        if int(index) != -1:
            self._whole()
        elif self.segment is not None:
            return self._next()
        drawn = list.pop(self, index)
        if drawn is HOLE:
            raise NeedCard("a card of the deck that is not chosen yet")
        if not self.reshuffles:
            self.taken += 1
        return drawn

    def __iter__(self) -> Any:
        self._whole()
        return list.__iter__(self)

    def __reversed__(self) -> Any:
        self._whole()
        return list.__reversed__(self)

    def __contains__(self, value: object) -> bool:
        self._whole()
        return list.__contains__(self, value)

    @overload
    def __getitem__(self, index: SupportsIndex) -> Card: ...

    @overload
    def __getitem__(self, index: slice) -> list[Card]: ...

    def __getitem__(self, index: Any) -> Any:
        self._whole()
        return list.__getitem__(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        self._whole()
        list.__setitem__(self, index, value)
        if isinstance(index, slice) and index == slice(None):
            # the machine replaces the whole pile only to reshuffle (Game._reshuffle)
            if self.chance.lazy and (self.side, self.reshuffles) not in self.chance.own:
                self.segment = self.reshuffles
            self.reshuffles += 1

    def __delitem__(self, index: Any) -> None:
        self._whole()
        list.__delitem__(self, index)

    def clear(self) -> None:
        self._whole()
        list.clear(self)

    def insert(self, index: SupportsIndex, value: Card) -> None:
        self._whole()
        list.insert(self, index, value)

    def remove(self, value: Card) -> None:
        self._whole()
        list.remove(self, value)

    def extend(self, values: Any) -> None:
        self._whole()
        list.extend(self, values)

    def __copy__(self) -> LazyPile:
        self._whole()
        return LazyPile(list(list.__iter__(self)), self.chance, self.side)

    def __deepcopy__(self, memo: dict[int, object]) -> LazyPile:
        return self.__copy__()


# ---- playing a game on both sides ------------------------------------------------------------------------

Chooser = Callable[[int, Decision, Game], Choice]
"""Chooses the decision after ``n`` decisions: the game's scripted choice, a random one, or raises
:class:`NeedChoice` / :class:`Stop`."""


def scripted_choices(choices: Sequence[Choice]) -> Chooser:
    """A chooser that makes ``choices`` in order, then raises :class:`NeedChoice`."""

    def choose(made: int, decision: Decision, game: Game) -> Choice:
        if made < len(choices):
            return choices[made]
        raise NeedChoice(decision)

    return choose


@dataclass
class Played:
    """How a play on both sides ended: a :class:`Split`, or none (``over``: the game ended alike; else it
    stopped at ``max_decisions`` or at a :class:`Stop`, kept in ``stop``); the ``choices`` made, and the
    ``orders`` of the reshuffles as the :class:`Chance` holds them (for a lazy one, the cards drawn) and
    ``whole_orders``."""

    split: Split | None
    choices: list[Choice] = field(default_factory=list)
    orders: tuple[tuple[str, ...], ...] = ()
    whole_orders: tuple[tuple[str, ...], ...] = ()
    over: bool = False
    stop: Stop | None = None
    drawn: int = 0
    """The most cards of the initial deck either side drew (the whole deck once a side reshuffled)."""


def _start(ruleset: Ruleset, game: DiffGame, deck: list[Any], chance: Chance, name: str, record: bool,
           rounds: int | None) -> Game:
    # The deck's composition plays no part in a game once its deck is given (the search checks a custom
    # deck's composition on its own): one factory serves every deck.
    played = _factory(_targeted(ruleset, game.target))(game.players, cast(list[Card], deck), game.dealer,
                                                       chance.reshuffler(name), record)
    played.pile = LazyPile(played.pile, chance, name)
    if rounds is not None:
        cast(_RoundsCut, played).most_rounds = rounds
    return played


class _RoundsCut(Game):
    """Stops a game, with :class:`Cut`, when it would start a round past ``most_rounds`` (the bound of the
    exhaustive search; a game is compared up to its last decision before)."""

    most_rounds: int | None = None

    def _start_round(self) -> None:
        if self.most_rounds is not None and self.round >= self.most_rounds:
            raise Cut(f"more than {self.most_rounds} rounds")
        super()._start_round()


@cache
def _factory(ruleset: Ruleset) -> Callable[[int, list[Card], int, Any, bool], Game]:
    """What :func:`flip7_spec.play.make_game` does for ``ruleset``, its checks and class worked out once (a
    search starts many games under the same two rulesets)."""
    check_reachable(ruleset)  # a ruleset under which no game could end is refused, as make_game refuses it
    reference = game_class_for(definition_of(ruleset).game_class, ruleset.game, ruleset.misreadings())
    game_class: type[Game] = type(f"{reference.__name__}Cut", (_RoundsCut, reference), {})
    played = ruleset.played()

    def start(players: int, deck: list[Card], dealer: int, reshuffler: Any, record: bool) -> Game:
        game: Game = game_class(played, players, dealer, deck, (), reshuffler, record)
        game.named_ruleset = ruleset
        return game

    return start


def _view(game: Game, events: list[Event], with_events: bool) -> _View:
    # Both sides are the reference: their observations hold the same JSON types, so == compares them exactly.
    return game.observation(), [e.to_json() for e in events] if with_events else []


def play_pair(left: Ruleset, right: Ruleset, game: DiffGame, deck: Sequence[Any] | None = None,
              choose: Chooser | None = None, chance: Chance | None = None, level: str = OBSERVATIONS,
              max_decisions: int | None = None, rounds: int | None = None) -> Played:
    """Play ``game`` under ``left`` and ``right`` side by side, comparing after the start and after every
    decision, until they differ, the game ends, ``max_decisions`` decisions are made, the sides would start
    a round past ``rounds`` or reshuffle more often than ``chance`` allows (:class:`Cut`), or a
    :class:`Stop` is raised (kept in the result, with what was played up to it).

    ``deck`` (default: the game's) may hold :data:`HOLE`; ``choose`` (default: the game's choices, then
    :class:`NeedChoice`) makes the decisions; ``chance`` (default: the game's orders) gives the reshuffle
    orders. At the ``events`` level the events of each step are compared too.

    When only one side would pass the rounds or the reshuffles allowed during a step, the step is played
    again past them (the other side's step may have ended the game, which the comparison must see); when
    both would, the play stops there.
    """
    shared = chance or Chance(game.orders)
    played = _play_pair(left, right, game, deck, choose, shared, level, max_decisions, rounds)
    if isinstance(played.stop, _OneSided):
        again = shared.again(None)
        played = _play_pair(left, right, game, deck, choose, again, level, played.stop.decisions, None)
        if played.split is None and played.stop is None and not played.over:
            played.stop = Cut("one side passes the bound here")
    return played


class _OneSided(Stop):
    """One side would pass the rounds or reshuffles allowed in the step that makes ``decisions`` decisions,
    the other would not."""

    def __init__(self, decisions: int) -> None:
        super().__init__("one side passes the bound")
        self.decisions = decisions


def _play_pair(left: Ruleset, right: Ruleset, game: DiffGame, deck: Sequence[Any] | None,
               choose: Chooser | None, shared: Chance, level: str, max_decisions: int | None,
               rounds: int | None) -> Played:
    dealt: list[Any] = [c if c is HOLE else card(c) for c in (game.deck if deck is None else deck)]
    chooser = choose or scripted_choices(game.choices)
    with_events = level == EVENTS
    made: list[Choice] = []
    sides: list[Game | None] = []
    result = Played(None, made)
    playing = 0  # the decisions made once the step being played is done
    choice: Choice = None
    try:
        views: list[_View] = []
        cut: list[Cut] = []
        for name, ruleset in (("left", left), ("right", right)):
            try:
                played = _start(ruleset, game, dealt, shared, name, with_events, rounds)
                views.append(_view(played, _unwrapped(played.start), with_events))
            except Cut as stop:
                cut.append(stop)
                played = None
            except REPLAY_ERRORS as error:
                views.append(_failed(name, f"cannot start this game: {error}"))
                played = None
            sides.append(played)
        _cuts(cut, 0)
        split = _compare(views, 0, with_events, shared)
        while split is None:
            a, b = sides
            assert a is not None and b is not None
            if a.pending is None:
                result.over = True
                break
            if max_decisions is not None and len(made) >= max_decisions:
                break
            choice = chooser(len(made), a.pending, a)
            playing = len(made) + 1
            views = []
            for name, played in (("left", a), ("right", b)):
                try:
                    views.append(_view(played, _unwrapped(played.apply, choice), with_events))
                except Cut as stop:
                    cut.append(stop)
                except REPLAY_ERRORS as error:
                    views.append(_failed(name, f"cannot play {choice!r}: {error}"))
            made.append(choice)
            _cuts(cut, playing)
            split = _compare(views, len(made), with_events, shared)
        result.split = split
    except Stop as stop:
        result.stop = stop
    except _Unplayable as problem:
        if playing > len(made):
            made.append(choice)  # the step in which a side could not follow
        result.split = Split(playing, problem.kind, (), None, None, message=str(problem))
    result.orders = tuple(tuple(o) for o in shared.orders)
    result.whole_orders = shared.whole_orders()
    piles = [s.pile for s in sides if s is not None and isinstance(s.pile, LazyPile)]
    result.drawn = max((len(dealt) if p.reshuffles else p.taken for p in piles), default=0)
    return result


def _cuts(cut: list[Cut], decisions: int) -> None:
    """Stop the play: with the :class:`Cut` when both sides passed the bound in this step, to play it again
    past the bound (:class:`_OneSided`) when one did."""
    if len(cut) == 2:
        raise cut[0]
    if cut:
        raise _OneSided(decisions)


class Unplayable(Stop):
    """Neither side can play the game (a setup neither ruleset takes, or an error on both sides)."""


_View = tuple[dict[str, Any] | str, list[dict[str, Any]]]
"""A side's observation and events after a step, or (a string) why it could not play it."""


def _failed(side: str, message: str) -> _View:
    """The view of a side that could not play on: the message."""
    return f"{side} {message}", []


def _compare(views: list[_View], decisions: int, with_events: bool, chance: Chance) -> Split | None:
    (left, left_events), (right, right_events) = views
    if isinstance(left, str) or isinstance(right, str):
        if isinstance(left, str) and isinstance(right, str):
            raise Unplayable(f"neither side can play on: the {left}; the {right}")
        message = f"the {left if isinstance(left, str) else right}"
        return Split(decisions, "error", (), None if isinstance(left, str) else left,
                     None if isinstance(right, str) else right, message=message)
    if left == right and left_events == right_events:
        if chance.mismatch is not None:
            return Split(decisions, "chance", (), left, right, message=chance.mismatch)
        return None
    fields = differences(left, right)
    kind = "observation"
    if not fields and with_events:
        kind = "events"
        fields = differences(left_events, right_events)
    return Split(decisions, kind, tuple(fields), left, right, tuple(left_events), tuple(right_events))
