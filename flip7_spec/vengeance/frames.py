"""The unfinished work of a Vengeance round, as frames of the base engine's explicit stack.

Each ``run`` does one atomic thing (deal or draw one card, ask or make one choice); each ``choose``
consumes the pending decision. The frames receive a :class:`~flip7_spec.vengeance.engine.VengeanceGame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from flip7_spec.cards import Card, Kind
from flip7_spec.engine import ACTIVE, BUSTED, STAY, STAYED, Frame, Game, next_active
from flip7_spec.events import Choice, Decision
from flip7_spec.vengeance.rows import CardRef, row_refs, swap_pairs

if TYPE_CHECKING:
    from flip7_spec.vengeance.engine import VengeanceGame


class VFrame(Frame):
    """A frame of a Vengeance game: ``run`` and ``choose`` get the game with its Vengeance helpers."""

    __slots__ = ()

    def step(self, game: Game) -> None:
        self.run(cast("VengeanceGame", game))

    def decide(self, game: Game, choice: Choice) -> None:
        self.choose(cast("VengeanceGame", game), choice)

    def run(self, game: VengeanceGame) -> None:
        raise NotImplementedError

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        raise AssertionError(f"{type(self).__name__} asks no decision")


def _offer(game: VengeanceGame, decision: Decision, because: str) -> None:
    """Ask ``decision``, or make it at once when it has one option (a forced event naming ``because``)."""
    if len(decision.options) == 1:
        game.forced(decision, because)
    else:
        game.ask(decision)


class Turns(VFrame):
    """The initial deal (one card to each player in order), then the Hit/Stay rotation."""

    __slots__ = ("dealing", "pos")

    def __init__(self, dealing: bool) -> None:
        self.dealing = dealing
        self.pos = 0

    def run(self, game: VengeanceGame) -> None:
        order = game.order
        if self.dealing:
            if self.pos >= len(order):
                self.dealing = False
                self.pos = 0
                return
            seat = order[self.pos]
            self.pos += 1
            if game.players[seat].status is not ACTIVE:
                return  # [V-DEAL-ALWAYS] out of the round (stayed through Just One More): no deal card
            # [V-DEAL] [V-DEAL-PAUSE] an Action or Modifier dealt here is resolved (frames on top of this
            # one) before the deal resumes with the next player
            game.deal(seat, "deal", "V-DEAL")
            return
        self.pos = next_active(order, game.players, self.pos)
        seat = order[self.pos]
        options, because = game.hit_stay_options(seat)
        _offer(game, Decision(seat, "hit_or_stay", options), because)

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        seat = game.order[self.pos]
        self.pos += 1
        if choice == STAY:
            # [V-STAY-NO-BANK] out of the rotation; the row stays face up, targetable, and unbanked
            game.set_status(seat, STAYED)
            game.emit("stay", "V-STAY-NO-BANK", seat)
        else:
            game.deal(seat, "hit", "V-HIT-STAY")  # [V-HIT-STAY] one card, resolved at once


class PlayModifier(VFrame):
    """A revealed Modifier waiting for the player it is played on."""

    __slots__ = ("chooser", "modifier")

    def __init__(self, modifier: Card, chooser: int) -> None:
        self.modifier = modifier
        self.chooser = chooser

    def run(self, game: VengeanceGame) -> None:
        # [V-MOD-TARGET] any player not busted, stayed players and the revealer included;
        # [V-BRUTAL-MOD-BUSTED] in Brutal Mode busted players too
        seats = list(range(game.n)) if game.ruleset.brutal_mode else game.not_busted()
        # [V-MOD-ALONE] the only player not busted keeps it
        _offer(game, Decision(self.chooser, "target", tuple(seats), self.modifier.text), "V-MOD-ALONE")

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        game.stack.pop()
        game.in_play.remove(self.modifier)
        game.players[choice].cards.append(self.modifier)
        game.emit("modifier", "V-MOD-TARGET", self.chooser, self.modifier.text, (("target", choice),))


class ChooseTarget(VFrame):
    """A revealed Just One More or Flip Four waiting for its target."""

    __slots__ = ("action", "resolver")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver

    def run(self, game: VengeanceGame) -> None:
        # [V-ACTION-TARGET] any player not busted, the resolver and stayed players included
        seats = game.not_busted()
        because = "V-ACTION-ALONE"  # [V-ACTION-ALONE] the only player not busted plays it on themselves
        if self.action.kind is Kind.FLIP_FOUR and not game.ruleset.flip4_self and len(seats) > 1:
            # [V-FLIP4-SELF] seed 004: a Flip Four goes to an opponent while there is one
            seats = [s for s in seats if s != self.resolver]
            because = "V-FLIP4-SELF"
        _offer(game, Decision(self.resolver, "target", tuple(seats), self.action.text), because)

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        game.stack.pop()
        game.emit("target", "V-ACTION-TARGET", self.resolver, self.action.text, (("target", choice),))
        if self.action.kind is Kind.FLIP_FOUR:
            game.emit("flip4_start", "V-FLIP4", choice, self.action.text)
            game.stack.append(FlipFour(self.action, choice))
        else:
            game.stack.append(JustOneMore(self.action, choice))


class JustOneMore(VFrame):
    """Just One More: its target accepts the next card, resolves it, then must Stay."""

    __slots__ = ("action", "drawn", "target")

    def __init__(self, action: Card, target: int) -> None:
        self.action = action
        self.target = target
        self.drawn = False

    def run(self, game: VengeanceGame) -> None:
        if not self.drawn:
            self.drawn = True
            # [V-ONEMORE] the next card; an Action drawn here is resolved by the target (frames on top)
            game.deal(self.target, "one_more", "V-ONEMORE")
            return
        game.stack.pop()
        game.finish_action(self.action)
        if game.players[self.target].status is ACTIVE:
            # [V-ONEMORE-STAY] then Stay, even while holding The Zero; a busted target stays busted and
            # [V-STAYED-TARGET] a stayed target simply stays stayed
            game.set_status(self.target, STAYED)
            game.emit("stay", "V-ONEMORE-STAY", self.target)


class FlipFour(VFrame):
    """A Flip Four in progress: its target accepts the next four cards, one at a time."""

    __slots__ = ("action", "held", "remaining", "target")

    def __init__(self, action: Card, target: int) -> None:
        self.action = action
        self.target = target
        self.remaining = 4
        self.held: list[Card] = []

    def run(self, game: VengeanceGame) -> None:
        busted = game.players[self.target].status is BUSTED
        # [V-FLIP4-STOP] a bust stops it here; a Flip 7 ends the round before this frame runs again
        if self.remaining and not busted:
            self.remaining -= 1  # [V-FLIP4] every card counts toward the four
            game.deal(self.target, "flip4", "V-FLIP4", self)
            return
        game.stack.pop()
        game.finish_action(self.action)
        game.emit("flip4_end", "V-FLIP4", self.target)
        if busted:
            # [V-FLIP4-HOLD-DISCARD] (after a Flip 7 the round's end discards them with everything else)
            for held in self.held:
                game.discard_in_play(held, "its Flip Four target busted", "V-FLIP4-HOLD-DISCARD")
        elif self.held:
            game.stack.append(ResolveHeld(self.target, self.held))


class ResolveHeld(VFrame):
    """The held-back cards of a Flip Four, resolved by its target one at a time in draw order."""

    __slots__ = ("cards", "target")

    def __init__(self, target: int, cards: list[Card]) -> None:
        self.target = target
        self.cards = list(cards)

    def run(self, game: VengeanceGame) -> None:
        if not self.cards:
            game.stack.pop()
            return
        held = self.cards.pop(0)
        if game.players[self.target].status is BUSTED:
            # [V-FLIP4-RESOLVER-OUT] busted by an earlier held-back card: the rest are discarded
            game.discard_in_play(held, "its Flip Four target busted", "V-FLIP4-RESOLVER-OUT")
            return
        game.resolve_revealed(self.target, held)


class Steal(VFrame):
    """Steal: the resolver takes one face-up card of another player who has not busted."""

    __slots__ = ("action", "resolver")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver

    def run(self, game: VengeanceGame) -> None:
        # [V-STEAL] another player's card only, never a busted one
        refs = game.takeable_refs(s for s in game.not_busted() if s != self.resolver)
        if not refs:
            game.no_target(self.action)
            return
        _offer(game, Decision(self.resolver, "card", tuple(refs), self.action.text), "V-STEAL")

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        game.stack.pop()
        victim = choice["player"]
        taken = game.take_from_row(victim, choice["index"])
        game.emit("steal", "V-STEAL", self.resolver, taken.text, (("from", victim),))
        game.receive_into_row(self.resolver, taken)
        game.finish_action(self.action)


class Swap(VFrame):
    """Swap: two face-up cards of two different rows change places."""

    __slots__ = ("action", "resolver")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver

    def run(self, game: VengeanceGame) -> None:
        # [V-SWAP-LIMITS] two rows, neither busted; [V-SWAP] the resolver's row or two other rows, any cards
        pairs = swap_pairs(row_refs(game.players, game.not_busted()))
        if not pairs:
            game.no_target(self.action)
            return
        _offer(game, Decision(self.resolver, "swap", tuple(pairs), self.action.text), "V-SWAP-LIMITS")

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        game.stack.pop()
        first, second = cast(list[CardRef], choice)
        one, other = first["player"], second["player"]
        to_other = game.take_from_row(one, first["index"])
        to_one = game.take_from_row(other, second["index"])
        game.emit("swap", "V-SWAP", self.resolver, None,
                  (("players", [one, other]), ("cards", [to_other.text, to_one.text])))
        # [V-SWAP-RECEIVE] both cards have moved; each receipt now takes effect, in seat order
        game.receive_into_row(one, to_one)
        game.receive_into_row(other, to_other)
        game.finish_action(self.action)


class Discard(VFrame):
    """Discard: a player who has not busted discards one face-up card (option discard_chooser: who picks)."""

    __slots__ = ("action", "resolver", "victim")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver
        self.victim: int | None = None

    def run(self, game: VengeanceGame) -> None:
        text = self.action.text
        if self.victim is not None:
            refs = game.takeable_refs([self.victim])
            _offer(game, Decision(self.victim, "card", tuple(refs), text), "V-DISCARD")
            return
        seats = game.not_busted()
        if not game.ruleset.discard_self:
            seats = [s for s in seats if s != self.resolver]  # [V-DISCARD-SELF] off: opponents only
        refs = game.takeable_refs(seats)
        if not refs:
            game.no_target(self.action)
            return
        if game.ruleset.discard_chooser == "resolver":
            # [V-DISCARD-CHOOSER] the resolver picks the player and the card in one choice
            _offer(game, Decision(self.resolver, "card", tuple(refs), text), "V-DISCARD")
        else:
            victims = sorted({ref["player"] for ref in refs})
            _offer(game, Decision(self.resolver, "target", tuple(victims), text), "V-DISCARD")

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        if isinstance(choice, int):
            # the resolver named the victim, who now picks the card
            self.victim = choice
            game.emit("target", "V-DISCARD-CHOOSER", self.resolver, self.action.text, (("target", choice),))
            return
        game.stack.pop()
        seat = choice["player"]
        discarded = game.take_from_row(seat, choice["index"])
        game.discard.append(discarded)
        # [V-DISCARD] its effect stops with it: without The Zero there is no must-Hit
        game.emit("discard_card", "V-DISCARD", seat, discarded.text, (("by", self.resolver),))
        game.finish_action(self.action)


class BrutalFlip7(VFrame):
    """Brutal Mode: the player who Flipped 7 takes the bonus (own seat) or takes 15 from another player."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def run(self, game: VengeanceGame) -> None:
        options = tuple(range(game.n))
        _offer(game, Decision(self.seat, "target", options, None), "V-BRUTAL-FLIP7")

    def choose(self, game: VengeanceGame, choice: Choice) -> None:
        game.stack.pop()
        # [V-BRUTAL-FLIP7] applied when the round is scored (VengeanceGame._round_scores)
        game.brutal_choices[self.seat] = choice
        game.emit("brutal_flip7", "V-BRUTAL-FLIP7", self.seat, None,
                  (("target", choice), ("bonus", choice == self.seat)))
