"""Flip 7's catalogue of known misreadings: each a small variant of the reference game (a mixin overriding one
hook or one card's effect), with the clause it breaks.

The diagnosis plays the reference under each of them to find the ones an engine's observations match; none is
matched by its symptoms. They are written from the rules they misread, family by family.
"""

from __future__ import annotations

from flip7_spec.cards import Card, Kind
from flip7_spec.events import HIT, STAY, Decision, DecisionKind
from flip7_spec.games.flip7.cards import FLIP_THREE, FREEZE, SECOND_CHANCE
from flip7_spec.games.flip7.engine import (
    Assign,
    Effects,
    Flip7Game,
    FlipThree,
    Give,
    Replacement,
    Rotation,
    Row,
)
from flip7_spec.machine import ACTIVE, BUSTED, FROZEN, STAYED, Frame
from flip7_spec.machine_misreadings import (
    DealerFixed,
    DiscardBackEachRound,
    EmptyPilesEndGame,
    ReshuffleAtTurnStart,
    ReshuffleEveryRound,
    ReshuffleTakesTableCards,
    TieToFirstSeat,
    TurnsReversed,
)
from flip7_spec.misreadings import Misreading
from flip7_spec.scoring import FLIP7_SIZE

# ---- scoring: one hook each, so that several compose ----------------------------------------------------


class _Rescored(Flip7Game):
    """Round scores, shown and banked alike, from hooks that the scoring misreadings override one by one
    (with no override it scores as the reference does)."""

    def round_score(self, seat: int) -> int:
        return self._scored(self.players[seat])

    def _round_scores(self) -> list[int]:
        return [self._scored(p) for p in self.players]

    def _scored(self, player: Row) -> int:
        if not self._banks(player):
            return 0
        numbers = sum(c.value for c in player.cards if c.kind is Kind.NUMBER)
        multiplier = 1
        adds = 0
        for c in player.cards:
            if c.kind is Kind.MULTIPLY:
                multiplier *= c.value
            elif c.kind is Kind.ADD:
                adds += c.value
        return self._combine(numbers, multiplier, adds) + self._bonus(player, multiplier)

    def _banks(self, player: Row) -> bool:
        return player.status is not BUSTED

    def _combine(self, numbers: int, multiplier: int, adds: int) -> int:
        return numbers * multiplier + adds

    def _bonus(self, player: Row, multiplier: int) -> int:
        return self.ruleset.flip7_bonus if self._made_flip7(player) else 0

    def _made_flip7(self, player: Row) -> bool:
        return len({c.value for c in player.cards if c.kind is Kind.NUMBER}) >= FLIP7_SIZE


class BustBanksCards(_Rescored):
    def _banks(self, player: Row) -> bool:
        return True


class FreezeBanksNothing(_Rescored):
    def _banks(self, player: Row) -> bool:
        return super()._banks(player) and player.status is not FROZEN


class Flip7OthersBankNothing(_Rescored):
    def _banks(self, player: Row) -> bool:
        makers = [p for p in self.players if p.status is not BUSTED and self._made_flip7(p)]
        return super()._banks(player) and (not makers or player in makers)


class NoFlip7Bonus(_Rescored):
    def _bonus(self, player: Row, multiplier: int) -> int:
        return 0


class X2DoublesAdds(_Rescored):
    def _combine(self, numbers: int, multiplier: int, adds: int) -> int:
        return (numbers + adds) * multiplier


class X2DoublesBonus(_Rescored):
    def _bonus(self, player: Row, multiplier: int) -> int:
        return super()._bonus(player, multiplier) * multiplier


class X2AddsTwo(_Rescored):
    """An xN card is added to the score like a +N card (x2 counts as +2) instead of multiplying."""

    def _scored(self, player: Row) -> int:
        if not self._banks(player):
            return 0
        numbers = sum(c.value for c in player.cards if c.kind is Kind.NUMBER)
        modifiers = sum(c.value for c in player.cards if c.kind is Kind.ADD or c.kind is Kind.MULTIPLY)
        return numbers + modifiers + self._bonus(player, 1)


class BustBanksAdds(_Rescored):
    """A busted player still banks their +N cards (only the Numbers and multipliers are lost)."""

    def _scored(self, player: Row) -> int:
        if player.status is BUSTED:
            return sum(c.value for c in player.cards if c.kind is Kind.ADD)
        return super()._scored(player)


class FrozenBanksNumbers(_Rescored):
    """A frozen player banks the sum of their Numbers only: their modifiers are ignored."""

    def _scored(self, player: Row) -> int:
        if player.status is not FROZEN or not self._banks(player):
            return super()._scored(player)
        numbers = sum(c.value for c in player.cards if c.kind is Kind.NUMBER)
        return numbers + self._bonus(player, 1)


class ZeroNotForFlip7(_Rescored):
    """Seven different Numbers other than the 0 are needed for a Flip 7 (and its bonus)."""

    def _made_flip7(self, player: Row) -> bool:
        return len({c.value for c in player.cards if c.kind is Kind.NUMBER and c.value}) >= FLIP7_SIZE

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        ending = self._ending
        super()._receive(seat, drawn, flip3, via)
        player = self.players[seat]
        if self._ending and not ending and player.status is ACTIVE and not self._made_flip7(player):
            self._ending = False  # the reference counted the 0 among the seven

    def _flip7_seat(self) -> int | None:
        return next((seat for seat, p in enumerate(self.players)
                     if p.status is ACTIVE and self._made_flip7(p)), None)


# ---- the Dealer -----------------------------------------------------------------------------------------


class DealerKeepsDeckAfterAllBust(Flip7Game):
    """After a round in which every player busted, the same Dealer deals again instead of passing the deck."""

    def _start_round(self) -> None:
        if self.round and self.last_busted and all(self.last_busted):
            self.dealer = (self.dealer - 1) % self.n  # the round's end passed the deck on
        super()._start_round()


# ---- the deal -------------------------------------------------------------------------------------------


class _DealToFrozen(Rotation):
    """The deal and the Hit/Stay rotation, with a deal card for a player frozen earlier in the deal."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        if self.dealing and self.pos < len(game.order):
            seat = game.order[self.pos]
            if game.players[seat].status is FROZEN:
                self.pos += 1
                game._deal_to(seat, "deal", "F7-DEAL")
                return
        super().step(game)


class DealToFrozenPlayer(Flip7Game):
    """The deal skips busted players only: a player frozen earlier in the same deal (a Freeze dealt before
    their turn, or set aside in a Flip Three) is still dealt their card, which joins their row and takes
    effect as any dealt card. [F7-DEAL-FREEZE-EMPTY] says such a player banks 0 and is out of the round."""

    def _begin_round(self) -> Frame[Flip7Game]:
        super()._begin_round()
        return _DealToFrozen(dealing=self.ruleset.initial_deal)


# ---- the turn: Stay, bust, Flip 7 ---------------------------------------------------------------------


class StayWithNoCards(Flip7Game):
    """A player with no card in front of them may Stay."""

    def _forced(self, decision: Decision, because: str) -> None:
        if because == "F7-STAY-NEEDS-CARD":
            self._ask(Decision(decision.player, decision.kind, (HIT, STAY), decision.card))
            return
        super()._forced(decision, because)


class BustDiscardsCards(Flip7Game):
    """A player who busts discards their cards at once instead of leaving them in front of them."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        before = player.status
        super()._receive(seat, drawn, flip3, via)
        if before is not BUSTED and player.status is BUSTED:
            self.discard.extend(player.cards)
            player.cards.clear()


class Flip7EndsOwnTurn(Flip7Game):
    """Seven different Numbers end only their maker's round (they stay, with the bonus); the others play on."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        ending = self._ending
        super()._receive(seat, drawn, flip3, via)
        player = self.players[seat]
        if self._ending and not ending and player.status is ACTIVE and len(player.values) >= FLIP7_SIZE:
            self._ending = False
            self._set_status(seat, STAYED)


class ModifiersCountForFlip7(_Rescored):
    """Modifier cards count toward the seven cards of a Flip 7: seven Number and modifier cards in front of a
    player end the round at once and earn the bonus."""

    def _made_flip7(self, player: Row) -> bool:
        return sum(1 for c in player.cards if c.is_number or c.is_modifier) >= FLIP7_SIZE

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        super()._receive(seat, drawn, flip3, via)
        player = self.players[seat]
        if not self._ending and player.status is ACTIVE and self._made_flip7(player):
            self._emit("flip7", "F7-FLIP7", seat)
            self._ending = True

    def _flip7_seat(self) -> int | None:
        return next((seat for seat, p in enumerate(self.players)
                     if p.status is ACTIVE and self._made_flip7(p)), None)


class GameEndsAtTarget(Flip7Game):
    """The game ends the moment a player's total and the points in front of them reach the target: the round
    stops there and is scored as usual, instead of being played out."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        super()._receive(seat, drawn, flip3, via)
        if not self._ending and self.players[seat].status is not BUSTED and \
                self.totals[seat] + self.round_score(seat) >= self.ruleset.target_score:
            self._ending = True


# ---- Second Chance --------------------------------------------------------------------------------------


class SecondChanceKeptTwice(Flip7Game):
    """A player who holds a Second Chance keeps a second one too (each saves them once)."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        if drawn.kind is SECOND_CHANCE and player.has_chance:
            player.cards.append(drawn)
            return
        super()._receive(seat, drawn, flip3, via)
        if any(c.kind is SECOND_CHANCE for c in player.cards) and player.status is ACTIVE:
            player.has_chance = True


class SpareChanceDiscarded(Flip7Game):
    """A second Second Chance is discarded instead of being given to another player."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        if drawn.kind is SECOND_CHANCE and self.players[seat].has_chance:
            entry = self._put_in_play(drawn)
            self._discard_in_play(drawn, "a second Second Chance", "F7-CHANCE-GIVE", entry)
            return
        super()._receive(seat, drawn, flip3, via)


class SecondChanceStays(Flip7Game):
    """A used Second Chance stays in front of its player (spent); only the duplicate Number is discarded."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        if drawn.kind is Kind.NUMBER and drawn.value in player.values and player.has_chance:
            player.has_chance = False
            self.discard.append(drawn)
            self._emit("chance_used", "F7-CHANCE-USE", seat, drawn.text)
            if via == "hit" and not self.ruleset.second_chance_ends_turn:
                self._stack.append(Replacement(seat))
            return
        super()._receive(seat, drawn, flip3, via)


class ChanceEndsFlipThree(Flip7Game):
    """Using a Second Chance during a Flip Three ends the Flip Three, as it ends a turn: none of its remaining
    cards is drawn (its set-aside cards are resolved as usual)."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        saved = drawn.kind is Kind.NUMBER and drawn.value in player.values and player.has_chance
        super()._receive(seat, drawn, flip3, via)
        if saved and flip3 is not None:
            flip3.remaining = 0


class ChanceKeptNextRound(Flip7Game):
    """A Second Chance still held at the end of a round is not discarded: its player starts the next round
    with it in front of them."""

    def _start_round(self) -> None:
        holders = [seat for seat, p in enumerate(self.players) if p.has_chance]
        kept: list[tuple[int, Card]] = []
        for seat in holders:  # the round just ended sent every held Second Chance to the discard pile
            index = max(i for i, c in enumerate(self.discard) if c.kind is SECOND_CHANCE)
            kept.append((seat, self.discard.pop(index)))
        super()._start_round()
        for seat, chance in kept:
            row = self.players[seat]
            row.cards.append(chance)
            row.has_chance = True


class SavedByChanceStays(Flip7Game):
    """A player saved by their Second Chance Stays: both cards are discarded and the player leaves the round
    with what is in front of them (a Flip Three they were taking stops there). [F7-CHANCE-ENDS-TURN] ends
    only their turn: they stay in the round (and a Flip Three goes on)."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        saved = drawn.kind is Kind.NUMBER and drawn.value in player.values and player.has_chance
        super()._receive(seat, drawn, flip3, via)
        if saved and player.status is ACTIVE:
            self._set_status(seat, STAYED)
            self._emit("stay", "F7-CHANCE-ENDS-TURN", seat)


class _GiveToAnyone(Give):
    """A Second Chance its drawer cannot keep, given to any other player they choose."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        options = tuple(seat for seat in range(game.n) if seat != self.giver)
        if not options:  # a game of one player: nobody to give it to
            game._stack.pop()
            game._discard_in_play(self.chance, "no other player", "F7-CHANCE-GIVE", self.entry)
            return
        game._offer(Decision(self.giver, DecisionKind.GIVE, options, self.chance.text), "F7-CHANCE-GIVE")


class ChanceGivenToAnyone(Flip7Game):
    """A Second Chance drawn by a player who holds one goes to any other player the drawer chooses: one who
    already holds a Second Chance (they then hold two, and each saves them once) or one who is out of the
    round (stayed, frozen or busted) included. [F7-CHANCE-GIVE] allows only an active player who holds none,
    and discards the card when nobody qualifies."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        player = self.players[seat]
        if drawn.kind is SECOND_CHANCE and player.has_chance:
            self._stack.append(_GiveToAnyone(drawn, seat, self._put_in_play(drawn)))
            return
        protected = player.has_chance
        super()._receive(seat, drawn, flip3, via)
        if protected and not player.has_chance and any(c.kind is SECOND_CHANCE for c in player.cards):
            player.has_chance = True  # one used, another still in front of them


# ---- Freeze and Flip Three ----------------------------------------------------------------------------


class FreezeNotSelf(Flip7Game):
    """A Freeze cannot target the player who revealed it while another player is active."""

    def _ask(self, decision: Decision) -> None:
        if decision.kind is DecisionKind.TARGET and decision.card == "FREEZE" and len(decision.options) > 1:
            options = tuple(seat for seat in decision.options if seat != decision.player)
            narrowed = Decision(decision.player, decision.kind, options, decision.card)
            if len(options) == 1:
                self._forced(narrowed, "F7-ACTION-ALONE")
                return
            decision = narrowed
        super()._ask(decision)


class FreezeCardDiscarded(Flip7Game):
    """The Freeze card is discarded when it freezes its target, instead of staying in front of them."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        if action.kind is not FREEZE:
            super()._take_effect(action, seat, entry)
            return
        self._set_status(seat, FROZEN)
        self._emit("freeze", "F7-FREEZE", seat, action.text)
        self._discard_in_play(action, "its target is frozen", "F7-FREEZE", entry)


class Flip3ActionsAtOnce(Flip7Game):
    """A Freeze or Flip Three revealed during a Flip Three takes effect at once instead of being set aside."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        if flip3 is not None and drawn.kind in (FREEZE, FLIP_THREE):
            flip3 = None
        super()._receive(seat, drawn, flip3, via)


class _ThreeWhateverTheStatus(FlipThree):
    """A Flip Three whose target takes all three cards unless they bust, frozen or not."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        player = game.players[self.target]
        if self.remaining and player.status is FROZEN:
            self.remaining -= 1
            game._deal_to(self.target, "flip3", "F7-FLIP3", self)
            return
        super().step(game)


class Flip3ThroughFreeze(Flip7Game):
    """A Flip Three goes on to its three cards after its target is frozen (only a bust stops it early)."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        top = self._stack[-1] if self._stack else None
        if type(top) is FlipThree:
            self._stack[-1] = _ThreeWhateverTheStatus(top.action, top.target, top.entry)


class Flip3CardCounted(Flip7Game):
    """The Flip Three card counts as the first of its three cards: its target takes only two more."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        frame = self._stack[-1]
        if action.kind is FLIP_THREE and isinstance(frame, FlipThree):
            frame.remaining -= 1


class Flip3SetAsideNotCounted(Flip7Game):
    """A Freeze or Flip Three set aside in a Flip Three does not count toward its three cards: another card is
    drawn in its place."""

    def _receive(self, seat: int, drawn: Card, flip3: FlipThree | None, via: str) -> None:
        super()._receive(seat, drawn, flip3, via)
        if flip3 is not None and drawn.kind in (FREEZE, FLIP_THREE):
            flip3.remaining += 1


_EARLY_DISCARDED = frozenset({FREEZE, FLIP_THREE})


class ActionsDiscardedWhenRevealed(Flip7Game):
    """A Freeze or Flip Three goes to the discard pile the moment it is revealed (set aside in a Flip Three
    too), before it is resolved: it is never in play, a Flip Three card lies in the discard pile while its
    three cards are drawn (and is reshuffled with it), and a Freeze does not stay with the player it froze.
    [F7-FLIP3-DISCARDED] discards the Flip Three card once its three cards are done, and
    [F7-FREEZE-KEEPS-CARDS] leaves the Freeze with the frozen player."""

    def _put_in_play(self, card: Card) -> int:
        if card.kind not in _EARLY_DISCARDED:
            return super()._put_in_play(card)
        self.discard.append(card)
        self._emit("discard", "F7-FLIP3-DISCARDED", None, card.text, (("reason", "revealed"),))
        return -1  # in no place in play: taking it from play or discarding it later does nothing

    def _take_from_play(self, card: Card, entry: int | None = None) -> None:
        if card.kind not in _EARLY_DISCARDED:
            super()._take_from_play(card, entry)

    def _discard_in_play(self, card: Card, reason: str, clause: str, entry: int | None = None) -> None:
        if card.kind not in _EARLY_DISCARDED:
            super()._discard_in_play(card, reason, clause, entry)

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        if action.kind is not FREEZE:
            super()._take_effect(action, seat, entry)
            return
        self._set_status(seat, FROZEN)  # the Freeze card is in the discard pile already
        self._emit("freeze", "F7-FREEZE", seat, action.text)


class _EffectsWhileIn(Effects):
    """Assigned set-aside cards taking effect while the target of their Flip Three is still active; once it is
    not, the rest are discarded."""

    __slots__ = ("target",)

    def __init__(self, assigned: list[tuple[Card, int, int | None]], target: int) -> None:
        super().__init__(assigned)
        self.target = target

    def step(self, game: Flip7Game) -> None:
        if self.assigned and game.players[self.target].status is not ACTIVE:
            for action, _seat, entry in self.assigned:
                game._discard_in_play(action, "its Flip Three target is out of the round", "F7-FLIP3-ASSIGN", entry)
            self.assigned.clear()
        super().step(game)


class _AssignWhileIn(Assign):
    """Set-aside cards assigned by the target of their Flip Three while that target is active (option
    set_aside_resolution=resolve_each can freeze them meanwhile); once it is not, the rest are discarded."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        if self.pending_cards and game.players[self.chooser].status is not ACTIVE:
            for action, entry in zip(self.pending_cards, self.entries, strict=True):
                game._discard_in_play(action, "its Flip Three target is out of the round", "F7-FLIP3-ASSIGN", entry)
            self.pending_cards.clear()
            self.entries.clear()
        if not self.pending_cards:
            game._stack.pop()
            game._stack.append(_EffectsWhileIn(self.assigned, self.chooser))
            return
        super().step(game)


class _ThreeThenWhileIn(FlipThree):
    """A Flip Three whose set-aside cards are assigned and take effect only while its target is active."""

    __slots__ = ()

    def step(self, game: Flip7Game) -> None:
        finishing = not (self.remaining and game.players[self.target].status is ACTIVE)
        super().step(game)
        top = game._stack[-1] if game._stack else None
        if finishing and type(top) is Assign and top.clause == "F7-FLIP3-ASSIGN":
            game._stack[-1] = _AssignWhileIn(top.chooser, top.pending_cards, top.clause, top.entries)


class SetAsideDroppedWhenTargetOut(Flip7Game):
    """Once the target of a Flip Three is out of the round (frozen by a set-aside Freeze they took, or busted
    in a set-aside Flip Three they took), its remaining set-aside cards are discarded, those assigned to
    other players included (under set_aside_resolution=resolve_each: without being assigned).
    [F7-FLIP3-ASSIGN] has every set-aside card assigned, and [F7-FLIP3-ASSIGN-INACTIVE] discards only a card
    whose own receiver is no longer active."""

    def _take_effect(self, action: Card, seat: int, entry: int | None = None) -> None:
        super()._take_effect(action, seat, entry)
        top = self._stack[-1] if self._stack else None
        if type(top) is FlipThree:
            self._stack[-1] = _ThreeThenWhileIn(top.action, top.target, top.entry)


def _entry(name: str, family: str, clause: str, description: str, mixin: type) -> Misreading:
    return Misreading(name, "flip7", family, description, clause, mixin)


MISREADINGS: tuple[Misreading, ...] = (
    _entry("dealer_fixed", "dealer", "F7-DEALER-ROTATION", "the Dealer never changes", DealerFixed),
    _entry("dealer_keeps_deck_after_all_bust", "dealer", "F7-DEALER-ROTATION",
           "after a round in which every player busted, the same Dealer deals again", DealerKeepsDeckAfterAllBust),
    _entry("turns_to_the_right", "turn order", "F7-DEAL-ORDER",
           "the deal and the turns go to the right of the Dealer", TurnsReversed),
    _entry("deal_to_frozen_player", "deal", "F7-DEAL-FREEZE-EMPTY",
           "a player frozen earlier in the deal is still dealt a card", DealToFrozenPlayer),
    _entry("stay_with_no_cards", "stay", "F7-STAY-NEEDS-CARD",
           "a player with no card in front of them may Stay", StayWithNoCards),
    _entry("bust_banks_cards", "bust", "F7-SCORE-BUST", "a busted player banks their cards instead of 0",
           BustBanksCards),
    _entry("bust_discards_cards", "bust", "F7-BUST-CARDS-STAY",
           "a busted player's cards are discarded at once instead of staying in front of them", BustDiscardsCards),
    _entry("flip7_ends_own_turn", "flip 7", "F7-FLIP7",
           "seven different Numbers end only their maker's round; the others play on", Flip7EndsOwnTurn),
    _entry("modifiers_count_for_flip7", "flip 7", "F7-MOD-NO-BUST",
           "seven Number and modifier cards make a Flip 7: the modifiers count toward the seven",
           ModifiersCountForFlip7),
    _entry("flip7_others_bank_nothing", "flip 7", "F7-FLIP7-OTHERS-BANK",
           "when a player makes Flip 7 the others bank nothing", Flip7OthersBankNothing),
    _entry("zero_not_for_flip7", "flip 7", "F7-FLIP7-ZERO",
           "the 0 does not count toward the seven different Numbers", ZeroNotForFlip7),
    _entry("no_flip7_bonus", "scoring", "F7-FLIP7-BONUS", "a Flip 7 earns no bonus", NoFlip7Bonus),
    _entry("x2_doubles_adds", "scoring", "F7-MOD-X2", "x2 doubles the +N cards too", X2DoublesAdds),
    _entry("x2_doubles_bonus", "scoring", "F7-MOD-X2", "x2 doubles the Flip 7 bonus too", X2DoublesBonus),
    _entry("x2_adds_two", "scoring", "F7-MOD-X2", "an x2 card adds 2 points instead of doubling the Numbers",
           X2AddsTwo),
    _entry("bust_banks_adds", "scoring", "F7-SCORE-BUST", "a busted player still banks their +N cards",
           BustBanksAdds),
    _entry("frozen_banks_nothing", "freeze", "F7-FREEZE", "a frozen player banks 0, as if busted",
           FreezeBanksNothing),
    _entry("frozen_banks_numbers", "freeze", "F7-FREEZE",
           "a frozen player banks their Numbers only: their modifiers are ignored", FrozenBanksNumbers),
    _entry("freeze_not_self", "freeze", "F7-FREEZE-SELF",
           "a Freeze cannot target its revealer while another player is active", FreezeNotSelf),
    _entry("freeze_card_discarded", "freeze", "F7-FREEZE-KEEPS-CARDS",
           "the Freeze card is discarded instead of staying with the frozen player", FreezeCardDiscarded),
    _entry("second_chance_kept_twice", "second chance", "F7-CHANCE-GIVE",
           "a player keeps a second Second Chance instead of giving it away", SecondChanceKeptTwice),
    _entry("spare_chance_discarded", "second chance", "F7-CHANCE-GIVE",
           "a second Second Chance is discarded instead of given to another player", SpareChanceDiscarded),
    _entry("second_chance_stays", "second chance", "F7-CHANCE-USE",
           "a used Second Chance stays in front of its player; only the duplicate is discarded", SecondChanceStays),
    _entry("chance_ends_flip_three", "second chance", "F7-CHANCE-ENDS-TURN",
           "using a Second Chance during a Flip Three ends the Flip Three", ChanceEndsFlipThree),
    _entry("chance_kept_next_round", "second chance", "F7-CHANCE-ROUND-END",
           "a Second Chance still held at the end of a round stays with its player into the next round",
           ChanceKeptNextRound),
    _entry("chance_given_to_anyone", "second chance", "F7-CHANCE-GIVE",
           "a Second Chance its drawer cannot keep may go to any other player, one who holds one or is out of "
           "the round included", ChanceGivenToAnyone),
    _entry("saved_by_chance_stays", "second chance", "F7-CHANCE-ENDS-TURN",
           "a player saved by their Second Chance Stays: they bank and leave the round", SavedByChanceStays),
    _entry("flip3_through_freeze", "flip three", "F7-FLIP3-STOP",
           "a Flip Three goes on to its three cards after its target is frozen", Flip3ThroughFreeze),
    _entry("flip3_actions_at_once", "flip three", "F7-FLIP3-SETASIDE",
           "a Freeze or Flip Three revealed in a Flip Three takes effect at once", Flip3ActionsAtOnce),
    _entry("flip3_card_counted", "flip three", "F7-FLIP3",
           "the Flip Three card counts as the first of its three cards: its target takes two more",
           Flip3CardCounted),
    _entry("flip3_setaside_not_counted", "flip three", "F7-FLIP3-COUNTS-ALL",
           "a Freeze or Flip Three set aside in a Flip Three does not count toward its three cards",
           Flip3SetAsideNotCounted),
    _entry("setaside_dropped_when_target_out", "flip three", "F7-FLIP3-ASSIGN",
           "once a Flip Three's target is out of the round, its remaining set-aside cards are discarded",
           SetAsideDroppedWhenTargetOut),
    _entry("actions_discarded_when_revealed", "actions", "F7-FLIP3-DISCARDED",
           "a Freeze or Flip Three goes to the discard pile as soon as it is revealed, before it resolves",
           ActionsDiscardedWhenRevealed),
    _entry("reshuffle_every_round", "reshuffle", "F7-DISCARD-PILE",
           "the discard pile is reshuffled into the deck before every round", ReshuffleEveryRound),
    _entry("discard_back_each_round", "reshuffle", "F7-DISCARD-PILE",
           "the discard pile goes back under the deck, unshuffled, before every round", DiscardBackEachRound),
    _entry("reshuffle_takes_table_cards", "reshuffle", "F7-RESHUFFLE-TABLE-STAYS",
           "a reshuffle puts the cards in front of the players into the new deck too", ReshuffleTakesTableCards),
    _entry("reshuffle_at_turn_start", "reshuffle", "F7-RESHUFFLE",
           "the discard pile is reshuffled at the start of a turn when the deck is empty, not when a card is "
           "needed", ReshuffleAtTurnStart),
    _entry("tie_to_first_seat", "game end", "F7-TIE",
           "a tie for the highest total at the target goes to the lowest seat", TieToFirstSeat),
    _entry("game_ends_at_target", "game end", "F7-GAME-END",
           "the game ends the moment a player's total and round score reach the target, mid-round",
           GameEndsAtTarget),
    _entry("game_ends_on_empty_piles", "game end", "F7-EMPTY-DECK",
           "when a card is needed and the deck and the discard pile are both empty, the game ends",
           EmptyPilesEndGame),
)
"""Flip 7's known misreadings, in the order the diagnosis tries them."""
