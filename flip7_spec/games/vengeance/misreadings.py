"""Flip 7: With a Vengeance's catalogue of known misreadings: each a small variant of the reference game (a mixin
overriding one hook, one frame or one card's effect), with the clause it breaks.

The diagnosis plays the reference under each of them to find the ones an engine's observations match; none is
matched by its symptoms. They are written from the rules they misread (RULES.md part B), family by family;
what the options already read (``halve_order``, ``negative_scores``, ``special_numbers``, ...) is not repeated
here. Within a family the narrower misreading comes first, so that the diagnosis names it when both fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from flip7_spec.cards import Card, Kind
from flip7_spec.events import HIT, STAY, Choice, Decision, DecisionKind
from flip7_spec.games.vengeance.cards import DISCARD, FLIP_FOUR, JUST_ONE_MORE, STEAL, SWAP, Special
from flip7_spec.games.vengeance.engine import (
    ChooseTarget,
    Discard,
    FlipFour,
    JustOneMore,
    PlayModifier,
    ResolveHeld,
    Steal,
    Swap,
    Turns,
    VengeanceGame,
)
from flip7_spec.games.vengeance.rows import CardRef, card_ref
from flip7_spec.games.vengeance.scoring import (
    THIRTEEN,
    flip7_count,
    floors_at_zero,
    is_special,
    lucky_pair_allowed,
    vengeance_score,
)
from flip7_spec.machine import ACTIVE, BUSTED, STAYED, Frame, PlayerRound
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

SEVEN: Final = 7
_TABLE_ACTIONS: Final = frozenset({STEAL, SWAP, DISCARD})

# ---- scoring: one hook each, so that several compose ----------------------------------------------------


class _Rescored(VengeanceGame):
    """Round scores, shown and banked alike, from hooks that the scoring misreadings override one by one
    (with no override it scores as the reference does, Brutal Mode's Flip 7 choices included)."""

    def round_score(self, seat: int) -> int:
        return self._scored(self.players[seat])

    def _round_scores(self) -> list[int]:
        scores = [self._scored(p) for p in self.players]
        for seat, target in self.brutal_choices.items():
            if target != seat:
                scores[seat] -= self.ruleset.flip7_bonus
                scores[target] -= self.ruleset.flip7_bonus
        return scores

    def _scored(self, player: PlayerRound) -> int:
        hand = player.cards
        if player.status is BUSTED:
            return vengeance_score(self.ruleset, hand, True).total  # Brutal Mode's busted Modifiers included
        number_sum = sum(c.value for c in hand if c.is_number)
        flip7 = flip7_count(self.ruleset, hand) >= FLIP7_SIZE
        total = self._combine(number_sum, hand, self._bonus(flip7))
        return 0 if self._zeroed(hand, flip7) else total

    def _combine(self, number_sum: int, hand: Sequence[Card], bonus: int) -> int:
        malus = sum(c.value for c in hand if c.kind is Kind.SUBTRACT)
        if self.ruleset.halve_order == "whole_total":
            return self._floor(self._halve(number_sum - malus + bonus, hand))
        return self._floor(self._halve(number_sum, hand) - malus) + bonus

    def _halve(self, value: int, hand: Sequence[Card]) -> int:
        for c in hand:
            if c.kind is Kind.HALVE:
                value //= 2
        return value

    def _floor(self, value: int) -> int:
        return max(0, value) if floors_at_zero(self.ruleset) else value

    def _bonus(self, flip7: bool) -> int:
        return self.ruleset.flip7_bonus if flip7 else 0

    def _zeroed(self, hand: Sequence[Card], flip7: bool) -> bool:
        return not flip7 and any(is_special(self.ruleset, c, Special.ZERO) for c in hand)


class HalveRoundsUp(_Rescored):
    """A /2 rounds the halved value up (21 halves to 11)."""

    def _halve(self, value: int, hand: Sequence[Card]) -> int:
        for c in hand:
            if c.kind is Kind.HALVE:
                value = -(-value // 2)
        return value


class MalusBeforeHalve(_Rescored):
    """The -N cards come off the Numbers' sum before the /2 halves it; the Flip 7 bonus is added after."""

    def _combine(self, number_sum: int, hand: Sequence[Card], bonus: int) -> int:
        if self.ruleset.halve_order == "whole_total":
            return super()._combine(number_sum, hand, bonus)
        malus = sum(c.value for c in hand if c.kind is Kind.SUBTRACT)
        return self._floor(self._halve(number_sum - malus, hand)) + bonus


class HalveBonus(_Rescored):
    """The Flip 7 bonus joins the Numbers' sum before the /2 halves it; the -N cards come off after."""

    def _combine(self, number_sum: int, hand: Sequence[Card], bonus: int) -> int:
        if self.ruleset.halve_order == "whole_total":
            return super()._combine(number_sum, hand, bonus)
        malus = sum(c.value for c in hand if c.kind is Kind.SUBTRACT)
        return self._floor(self._halve(number_sum + bonus, hand) - malus)


class FloorAfterBonus(_Rescored):
    """The floor at 0 is applied to the round total after the Flip 7 bonus is added, not before."""

    def _combine(self, number_sum: int, hand: Sequence[Card], bonus: int) -> int:
        if self.ruleset.halve_order == "whole_total":
            return super()._combine(number_sum, hand, bonus)
        malus = sum(c.value for c in hand if c.kind is Kind.SUBTRACT)
        return self._floor(self._halve(number_sum, hand) - malus + bonus)


class NoFlip7Bonus(_Rescored):
    """A Flip 7 ends the round but earns no bonus."""

    def _bonus(self, flip7: bool) -> int:
        return 0


class ZeroScoresItsValue(_Rescored):
    """The Zero scores as a plain 0: the rest of its holder's row still scores."""

    def _zeroed(self, hand: Sequence[Card], flip7: bool) -> bool:
        return False


class ZeroCancelsFlip7(_Rescored):
    """The Zero makes its holder's round 0 even with a Flip 7."""

    def _zeroed(self, hand: Sequence[Card], flip7: bool) -> bool:
        return any(is_special(self.ruleset, c, Special.ZERO) for c in hand)


# ---- the deal -------------------------------------------------------------------------------------------


class DealTableActionsDiscarded(VengeanceGame):
    """A Steal, Swap or Discard dealt in the initial deal is discarded with no effect, as if no card were
    on the table yet, even when cards dealt before it could be taken."""

    _dealing = False

    def _deal_to(self, seat: int, via: str, clause: str, flip4: FlipFour | None = None) -> None:
        self._dealing = via == "deal"
        try:
            super()._deal_to(seat, via, clause, flip4)
        finally:
            self._dealing = False

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if self._dealing and revealed.kind in _TABLE_ACTIONS:
            self._discard_in_play(revealed, "no face-up card on the table", "V-ACTION-START-NO-CARDS")
            return
        super()._resolve_revealed(seat, revealed)


class _DealFirst(Turns):
    """The initial deal, keeping the Actions and Modifiers dealt until every player has a card, then the
    Hit/Stay rotation."""

    __slots__ = ("dealt",)

    def __init__(self, dealing: bool) -> None:
        super().__init__(dealing)
        self.dealt: list[tuple[int, Card]] = []

    def step(self, game: VengeanceGame) -> None:
        if self.dealing and self.pos >= len(game.order) and self.dealt:
            game._stack.append(_ResolveDealt(self.dealt))
            self.dealt = []
            return
        super().step(game)


class _ResolveDealt(Frame["VengeanceGame"]):
    """The Actions and Modifiers of the deal, each resolved in deal order by the player dealt it (discarded
    if that player has busted meanwhile)."""

    __slots__ = ("cards",)

    def __init__(self, cards: list[tuple[int, Card]]) -> None:
        self.cards = list(cards)

    def step(self, game: VengeanceGame) -> None:
        if not self.cards:
            game._stack.pop()
            return
        seat, dealt = self.cards.pop(0)
        if game.players[seat].status is BUSTED:
            game._discard_in_play(dealt, "its receiver busted", "V-DEAL-PAUSE")
            return
        game._resolve_revealed(seat, dealt)


class DealActionsAfterDeal(VengeanceGame):
    """The deal does not pause: Actions and Modifiers dealt wait until every player has been dealt a card,
    then are resolved in deal order."""

    def _begin_round(self) -> Frame[VengeanceGame]:
        super()._begin_round()
        return _DealFirst(dealing=self.ruleset.initial_deal)

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        top = self._stack[-1]
        if isinstance(top, _DealFirst) and top.dealing:
            top.dealt.append((seat, revealed))
            return
        super()._resolve_revealed(seat, revealed)


class _DealToStayed(Turns):
    """The deal and the Hit/Stay rotation, with a deal card for a player made to Stay earlier in the deal."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        if self.dealing and self.pos < len(game.order):
            seat = game.order[self.pos]
            if game.players[seat].status is STAYED:
                self.pos += 1
                game._deal_to(seat, "deal", "V-DEAL")
                return
        super().step(game)


class DealToStayedPlayer(VengeanceGame):
    """The deal skips busted players only: a player who stayed earlier in the same deal (the target of a Just
    One More dealt before their turn) is still dealt their card, which takes effect as any dealt card (they
    stay stayed). [V-DEAL-ALWAYS] skips every player out of the round."""

    def _begin_round(self) -> Frame[VengeanceGame]:
        super()._begin_round()
        return _DealToStayed(dealing=self.ruleset.initial_deal)


# ---- Actions in general ---------------------------------------------------------------------------------

_ACTIONS: Final = frozenset({JUST_ONE_MORE, FLIP_FOUR, STEAL, SWAP, DISCARD})


class ActionsDiscardedWhenRevealed(VengeanceGame):
    """An Action card goes to the discard pile the moment it is revealed (held back in a Flip Four too), before
    it is resolved: it is never in play, and a Just One More or a Flip Four lies in the discard pile while its
    cards are drawn (and is reshuffled with it). [V-ACTION-AT-ONCE] discards it after use."""

    def _put_in_play(self, card: Card) -> int:
        if card.kind not in _ACTIONS:
            return super()._put_in_play(card)
        self.discard.append(card)
        self._emit("discard", "V-ACTION-AT-ONCE", None, card.text, (("reason", "revealed"),))
        return -1  # in no place in play: taking it from play or discarding it later does nothing

    def _take_from_play(self, card: Card, entry: int | None = None) -> None:
        if card.kind not in _ACTIONS:
            super()._take_from_play(card, entry)

    def _discard_in_play(self, card: Card, reason: str, clause: str, entry: int | None = None) -> None:
        if card.kind not in _ACTIONS:
            super()._discard_in_play(card, reason, clause, entry)


# ---- staying, and whom an Action or a Modifier may aim at -----------------------------------------------


class StayedUntargetable(VengeanceGame):
    """A player who stayed is out of reach, as if they had banked: only active players can be targeted,
    stolen from, swapped with or discarded from (all players not busted while nobody is active)."""

    def _not_busted(self) -> list[int]:
        active = [seat for seat, p in enumerate(self.players) if p.status is ACTIVE]
        return active if active else super()._not_busted()


class ZeroMayStay(VengeanceGame):
    """A player holding The Zero may Stay like anyone else."""

    def _hit_stay_options(self, seat: int) -> tuple[tuple[str, ...], str]:
        options, because = super()._hit_stay_options(seat)
        if because != "V-ZERO-MUST-HIT":
            return options, because
        player = self.players[seat]
        minimum = self.ruleset.stay_minimum
        numbers = sum(1 for c in player.cards if c.is_number)
        if (minimum == "one_card" and not player.cards) or (minimum == "two_numbers" and numbers < 2):
            return (HIT,), "V-STAY-MINIMUM"
        return (HIT, STAY), "V-HIT-STAY"


class ModifierKeptByRevealer(VengeanceGame):
    """A revealed Modifier stays with the player who revealed it, as in the base game."""

    def _offer(self, decision: Decision, because: str) -> None:
        if isinstance(self._stack[-1], PlayModifier) and decision.kind is DecisionKind.TARGET \
                and decision.player in decision.options:
            self._forced(Decision(decision.player, decision.kind, (decision.player,), decision.card), because)
            return
        super()._offer(decision, because)


class ModifierToBusted(VengeanceGame):
    """A Modifier may be played on a busted player outside Brutal Mode too."""

    def _offer(self, decision: Decision, because: str) -> None:
        if isinstance(self._stack[-1], PlayModifier) and decision.kind is DecisionKind.TARGET:
            decision = Decision(decision.player, decision.kind, tuple(range(self.n)), decision.card)
        super()._offer(decision, because)


# ---- bust -----------------------------------------------------------------------------------------------


class TakenCardNeverBusts(VengeanceGame):
    """A Number taken by a Steal or a Swap joins its new row without busting it, even when its value is
    already there."""

    def _receive_into_row(self, seat: int, received: Card) -> None:
        player = self.players[seat]
        ruleset = self.ruleset
        if received.is_number and received.value in player.values \
                and not is_special(ruleset, received, Special.UNLUCKY_7) \
                and not lucky_pair_allowed(ruleset, player.cards, received):
            player.cards.append(received)
            return
        super()._receive_into_row(seat, received)


class _DiscardFromAnyRow(Discard):
    """A Discard that reaches busted rows as well."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        text = self.action.text
        numbers_only = game.ruleset.steal_discard_cards == "numbers"

        def refs(seats: Sequence[int]) -> list[CardRef]:
            return [card_ref(seat, i) for seat in seats for i, c in enumerate(game.players[seat].cards)
                    if c.is_number or not numbers_only]

        if self.victim is not None:
            game._offer(Decision(self.victim, DecisionKind.CARD, tuple(refs([self.victim])), text), "V-DISCARD")
            return
        seats = [s for s in range(game.n) if game.ruleset.discard_self or s != self.resolver]
        offered = refs(seats)
        if not offered:
            game._no_target(self.action)
            return
        if game.ruleset.discard_chooser == "resolver":
            game._offer(Decision(self.resolver, DecisionKind.CARD, tuple(offered), text), "V-DISCARD")
        else:
            victims = sorted({ref["player"] for ref in offered})
            game._offer(Decision(self.resolver, DecisionKind.TARGET, tuple(victims), text), "V-DISCARD")


class BustedCardsDiscardable(VengeanceGame):
    """A Discard may take a card from a busted player's row, which stays in play."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is DISCARD:
            self._stack.append(_DiscardFromAnyRow(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


# ---- Flip 7 ---------------------------------------------------------------------------------------------


class Flip7OnlyByDraw(VengeanceGame):
    """Seven different Numbers end the round only when the seventh is drawn: a Flip 7 made by a Steal or a
    Swap lets the round go on (it still scores the bonus)."""

    def _receive_into_row(self, seat: int, received: Card) -> None:
        ending = self._ending
        makers = len(self.flip7_seats)
        super()._receive_into_row(seat, received)
        if self._ending and not ending and len(self.flip7_seats) > makers:
            self._ending = False
            del self.flip7_seats[makers:]


# ---- special Number cards -------------------------------------------------------------------------------


def _bust(game: VengeanceGame, seat: int, number: Card) -> None:
    """``number`` joins ``seat``'s row and busts it."""
    game.players[seat].cards.append(number)
    game._set_status(seat, BUSTED)
    game._emit("bust", "V-BUST", seat, number.text)


class Unlucky7KeepsModifiers(VengeanceGame):
    """The Unlucky 7 discards its receiver's other Numbers only: their Modifiers stay in the row."""

    def _place_number(self, seat: int, number: Card) -> None:
        player = self.players[seat]
        if not is_special(self.ruleset, number, Special.UNLUCKY_7):
            super()._place_number(seat, number)
            return
        modifiers = [c for c in player.cards if c.is_modifier]
        player.cards = [c for c in player.cards if not c.is_modifier]
        super()._place_number(seat, number)
        player.cards[:0] = modifiers


class Unlucky7BustsOn7(VengeanceGame):
    """The Unlucky 7 busts a player who already holds a 7, like any duplicate."""

    def _place_number(self, seat: int, number: Card) -> None:
        if is_special(self.ruleset, number, Special.UNLUCKY_7) and SEVEN in self.players[seat].values:
            _bust(self, seat, number)
            return
        super()._place_number(seat, number)


class Lucky13MustComeFirst(VengeanceGame):
    """A second 13 is safe only when the Lucky 13 was already held: a Lucky 13 received on a regular 13
    busts."""

    def _place_number(self, seat: int, number: Card) -> None:
        player = self.players[seat]
        lucky_held = any(c.is_number and c.value == THIRTEEN and is_special(self.ruleset, c, Special.LUCKY_13)
                         for c in player.cards)
        if is_special(self.ruleset, number, Special.LUCKY_13) and THIRTEEN in player.values and not lucky_held:
            _bust(self, seat, number)  # [V-LUCKY13-PAIR] misread: a Lucky 13 already held still protects
            return
        super()._place_number(seat, number)


class Lucky13NoPair(VengeanceGame):
    """A second 13 busts, Lucky 13 or not."""

    def _place_number(self, seat: int, number: Card) -> None:
        if number.value == THIRTEEN and THIRTEEN in self.players[seat].values:
            _bust(self, seat, number)
            return
        super()._place_number(seat, number)


# ---- Just One More --------------------------------------------------------------------------------------


class _OneMoreTarget(ChooseTarget):
    """A revealed Just One More or Flip Four waiting for its target; a Just One More then plays as
    :class:`_OneMore`."""

    __slots__ = ()

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        if self.action.kind is not JUST_ONE_MORE:
            super().decide(game, choice)
            return
        game._stack.pop()
        game._emit("target", "V-ACTION-TARGET", self.resolver, self.action.text, (("target", choice),))
        game._stack.append(_OneMore(self.action, choice))


class _OneMore(JustOneMore):
    """Just One More, with the Stay after its card decided by the game's :meth:`_OneMoreReread._stays`."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        if not self.drawn:
            super().step(game)
            return
        assert isinstance(game, _OneMoreReread)
        game._stack.pop()
        game._finish_action(self.action)
        if game.players[self.target].status is ACTIVE and game._stays(self.target):
            game._set_status(self.target, STAYED)
            game._emit("stay", "V-ONEMORE-STAY", self.target)


class _OneMoreReread(VengeanceGame):
    """Just One More played through :class:`_OneMore`; the misreadings below say when its target Stays."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is JUST_ONE_MORE:
            self._stack.append(_OneMoreTarget(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)

    def _stays(self, target: int) -> bool:
        """Whether the active target of a Just One More must Stay once its card is resolved."""
        return True


class OneMoreZeroKeepsHitting(_OneMoreReread):
    """The Zero's must-Hit wins over the Stay that ends a Just One More: a target holding it plays on."""

    def _stays(self, target: int) -> bool:
        return not any(is_special(self.ruleset, c, Special.ZERO) for c in self.players[target].cards)


class OneMoreNoStay(_OneMoreReread):
    """The target of a Just One More takes the card and stays in the Hit/Stay rotation."""

    def _stays(self, target: int) -> bool:
        return False


# ---- Flip Four ------------------------------------------------------------------------------------------


class Flip4ActionsAtOnce(VengeanceGame):
    """An Action or Modifier revealed in a Flip Four is resolved at once instead of being held back."""

    def _deal_to(self, seat: int, via: str, clause: str, flip4: FlipFour | None = None) -> None:
        super()._deal_to(seat, via, clause, None)


class Flip4NumbersOnlyCount(VengeanceGame):
    """Only Number cards count toward a Flip Four's four: an Action or Modifier drawn in it is held back
    and another card is drawn in its place."""

    def _deal_to(self, seat: int, via: str, clause: str, flip4: FlipFour | None = None) -> None:
        held = len(flip4.held) if flip4 is not None else 0
        super()._deal_to(seat, via, clause, flip4)
        if flip4 is not None and len(flip4.held) > held:
            flip4.remaining += 1


class HeldDroppedWhenTargetOut(VengeanceGame):
    """The held-back cards of a Flip Four are resolved only while its target is active: once the target has
    stayed (before the Flip Four, or by a held Just One More they played on themselves) the rest are
    discarded, as after a bust. [V-STAYED-TARGET] has a stayed player resolve what they receive, and
    [V-FLIP4-RESOLVER-OUT] discards the rest only after a bust."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        top = self._stack[-1] if self._stack else None
        if isinstance(top, ResolveHeld) and self.players[seat].status is not ACTIVE:
            self._discard_in_play(revealed, "its Flip Four target is out of the round", "V-STAYED-TARGET")
            return
        super()._resolve_revealed(seat, revealed)


# ---- Swap and Steal -------------------------------------------------------------------------------------


class SwapNeedsOwnCard(VengeanceGame):
    """A Swap always gives one of the resolver's cards: two other players' cards cannot be swapped."""

    def _offer(self, decision: Decision, because: str) -> None:
        frame = self._stack[-1]
        if decision.kind is DecisionKind.SWAP and isinstance(frame, Swap):
            pairs = tuple(pair for pair in decision.options
                          if any(ref["player"] == frame.resolver for ref in _refs(pair)))
            if not pairs:
                self._no_target(frame.action)
                return
            decision = Decision(decision.player, decision.kind, pairs, decision.card)
        super()._offer(decision, because)


def _refs(pair: Choice) -> list[CardRef]:
    assert isinstance(pair, list)
    return pair


class _StealAnyRow(Steal):
    """A Steal offering every face-up card of the players who have not busted, the resolver's own included."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        refs = game._takeable_refs(game._not_busted())
        if not refs:
            game._no_target(self.action)
            return
        game._offer(Decision(self.resolver, DecisionKind.CARD, tuple(refs), self.action.text), "V-STEAL")


class StealFromOwnRow(VengeanceGame):
    """A Steal may take one of the resolver's own face-up cards: it leaves its place and is received again at
    the end of their row (an Unlucky 7 so taken wipes the rest of the row). [V-STEAL] takes another player's
    card only."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is STEAL:
            self._stack.append(_StealAnyRow(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


def _entry(name: str, family: str, clause: str, description: str, mixin: type) -> Misreading:
    return Misreading(name, "vengeance", family, description, clause, mixin)


MISREADINGS: tuple[Misreading, ...] = (
    _entry("deal_table_actions_discarded", "deal", "V-ACTION-MANDATORY",
           "a Steal, Swap or Discard dealt in the initial deal is discarded with no effect",
           DealTableActionsDiscarded),
    _entry("deal_actions_after_deal", "deal", "V-DEAL-PAUSE",
           "Actions and Modifiers dealt in the initial deal are resolved only once everyone has been dealt",
           DealActionsAfterDeal),
    _entry("deal_to_stayed_player", "deal", "V-DEAL-ALWAYS",
           "a player made to Stay earlier in the deal is still dealt a card", DealToStayedPlayer),
    _entry("actions_discarded_when_revealed", "actions", "V-ACTION-AT-ONCE",
           "an Action card goes to the discard pile as soon as it is revealed, before it resolves",
           ActionsDiscardedWhenRevealed),
    _entry("turns_to_the_right", "turn order", "V-DEAL-ORDER",
           "the deal and the turns go to the right of the Dealer", TurnsReversed),
    _entry("zero_may_stay", "the zero", "V-ZERO-MUST-HIT", "a player holding The Zero may Stay", ZeroMayStay),
    _entry("stayed_untargetable", "stay", "V-STAYED-TARGET",
           "a player who stayed can no longer be targeted, stolen from, swapped with or discarded from",
           StayedUntargetable),
    _entry("modifier_kept_by_revealer", "modifiers", "V-MOD-TARGET",
           "a revealed Modifier stays with the player who revealed it", ModifierKeptByRevealer),
    _entry("modifier_to_busted", "modifiers", "V-MOD-TARGET",
           "a Modifier may be played on a busted player outside Brutal Mode", ModifierToBusted),
    _entry("taken_card_never_busts", "bust", "V-BUST-BY-ACTION",
           "a Number taken by a Steal or a Swap never busts its new owner", TakenCardNeverBusts),
    _entry("busted_cards_discardable", "bust", "V-BUST-OUT-OF-PLAY",
           "a Discard may take a card from a busted player's row", BustedCardsDiscardable),
    _entry("flip7_only_by_draw", "flip 7", "V-FLIP7-ANY-MEANS",
           "a Flip 7 made by a Steal or a Swap does not end the round", Flip7OnlyByDraw),
    _entry("unlucky7_keeps_modifiers", "unlucky 7", "V-UNLUCKY7-WIPE",
           "the Unlucky 7 discards the other Numbers only, not the Modifiers", Unlucky7KeepsModifiers),
    _entry("unlucky7_busts_on_7", "unlucky 7", "V-UNLUCKY7-NO-BUST",
           "the Unlucky 7 busts a player who already holds a 7", Unlucky7BustsOn7),
    _entry("lucky13_must_come_first", "lucky 13", "V-LUCKY13-PAIR",
           "a Lucky 13 received on a regular 13 busts; only a Lucky 13 already held allows a second 13",
           Lucky13MustComeFirst),
    _entry("lucky13_no_pair", "lucky 13", "V-LUCKY13-PAIR", "a second 13 busts, Lucky 13 or not", Lucky13NoPair),
    _entry("onemore_zero_keeps_hitting", "just one more", "V-ONEMORE-STAY",
           "a Just One More target holding The Zero is not made to Stay", OneMoreZeroKeepsHitting),
    _entry("onemore_no_stay", "just one more", "V-ONEMORE-STAY",
           "the target of a Just One More is not made to Stay after its card", OneMoreNoStay),
    _entry("flip4_actions_at_once", "flip four", "V-FLIP4-HOLD",
           "an Action or Modifier revealed in a Flip Four is resolved at once", Flip4ActionsAtOnce),
    _entry("flip4_numbers_only_count", "flip four", "V-FLIP4",
           "only Number cards count toward a Flip Four's four", Flip4NumbersOnlyCount),
    _entry("held_dropped_when_target_out", "flip four", "V-STAYED-TARGET",
           "a Flip Four's held-back cards are discarded once its target has stayed", HeldDroppedWhenTargetOut),
    _entry("swap_needs_own_card", "swap steal discard", "V-SWAP",
           "a Swap must give one of the resolver's own cards", SwapNeedsOwnCard),
    _entry("steal_from_own_row", "swap steal discard", "V-STEAL",
           "a Steal may take one of the resolver's own cards, which moves to the end of their row",
           StealFromOwnRow),
    _entry("halve_rounds_up", "scoring", "V-SCORE", "a /2 rounds the halved sum up", HalveRoundsUp),
    _entry("malus_before_halve", "scoring", "V-SCORE",
           "the -N cards come off before the /2 halves the sum (the bonus is added after)", MalusBeforeHalve),
    _entry("halve_bonus", "scoring", "V-SCORE",
           "the /2 halves the Flip 7 bonus with the Numbers (the -N cards come off after)", HalveBonus),
    _entry("floor_after_bonus", "scoring", "V-SCORE-FLOOR",
           "the floor at 0 applies after the Flip 7 bonus is added", FloorAfterBonus),
    _entry("no_flip7_bonus", "scoring", "V-FLIP7", "a Flip 7 earns no bonus", NoFlip7Bonus),
    _entry("zero_scores_its_value", "the zero", "V-ZERO-SCORE",
           "The Zero scores as a plain 0; the rest of its holder's row still scores", ZeroScoresItsValue),
    _entry("zero_cancels_flip7", "the zero", "V-ZERO-FLIP7",
           "The Zero makes the round 0 even with a Flip 7", ZeroCancelsFlip7),
    _entry("dealer_fixed", "dealer", "V-NEXT-ROUND", "the Dealer never changes", DealerFixed),
    _entry("reshuffle_every_round", "reshuffle", "V-NEXT-ROUND",
           "the discard pile is reshuffled into the deck before every round", ReshuffleEveryRound),
    _entry("discard_back_each_round", "reshuffle", "V-NEXT-ROUND",
           "the discard pile goes back under the deck, unshuffled, before every round", DiscardBackEachRound),
    _entry("reshuffle_takes_table_cards", "reshuffle", "V-RESHUFFLE",
           "a reshuffle puts the cards in front of the players into the new deck too", ReshuffleTakesTableCards),
    _entry("reshuffle_at_turn_start", "reshuffle", "V-RESHUFFLE",
           "the discard pile is reshuffled at the start of a turn when the deck is empty, not when a card is "
           "needed", ReshuffleAtTurnStart),
    _entry("tie_to_first_seat", "game end", "V-TIE",
           "a tie for the highest total at the target goes to the lowest seat", TieToFirstSeat),
    _entry("game_ends_on_empty_piles", "game end", "V-EMPTY-DECK",
           "when a card is needed and the deck and the discard pile are both empty, the game ends",
           EmptyPilesEndGame),
)
"""Vengeance's known misreadings, in the order the diagnosis tries them."""
