"""The Flip 7: With a Vengeance state machine: the game's rows, the effects of its cards, and its frames.

:class:`VengeanceGame` fills the hooks of the shared :class:`~flip7_spec.machine.Game` with Vengeance rows:
Numbers received as if dealt (busts, The Zero, Unlucky 7, Lucky 13, Flip 7 by any means), Modifiers played
on a player, and the frames for the five Actions and Brutal Mode. Each rule clause is cited, as
``[V-...]``, at the place that implements it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, cast

from flip7_spec.cards import Card
from flip7_spec.errors import SetupError
from flip7_spec.events import HIT, STAY, Choice, Decision, DecisionKind
from flip7_spec.games.vengeance.cards import DISCARD, FLIP_FOUR, JUST_ONE_MORE, STEAL, SWAP, Special
from flip7_spec.games.vengeance.rows import CardRef, face_up_on_table, row_refs, swap_pairs
from flip7_spec.games.vengeance.ruleset import VengeanceRuleset
from flip7_spec.games.vengeance.scoring import flip7_count, is_special, lucky_pair_allowed, vengeance_score
from flip7_spec.machine import ACTIVE, BUSTED, STAYED, Frame, Game, MachineClauses, PlayerRound, Reshuffler, next_active
from flip7_spec.scoring import FLIP7_SIZE

# [V-NEXT-ROUND] [V-BANK] [V-GAME-END] [V-WINNER] [V-TIE]: the machine's round end banks, discards the round's
# cards, passes the deck left, and ends the game or plays a tie round, under the same options as Flip 7.
VENGEANCE_MACHINE_CLAUSES = MachineClauses(
    deal="V-DEAL",
    forced_choice="V-FORCED-CHOICE",  # [V-FORCED-CHOICE]
    empty_deck="V-EMPTY-DECK",  # [V-EMPTY-DECK] nothing left to draw: the round ends
    reshuffle="V-RESHUFFLE",  # [V-RESHUFFLE] only the discard pile: table and in-play cards stay out
    reshuffle_emptied="V-RESHUFFLE-EMPTIED",  # [V-RESHUFFLE-EMPTIED] (option reshuffle_moment)
    score="V-SCORE",
    winner="V-WINNER",
    tie="V-TIE",
    round_limit="V-ROUND-LIMIT",  # [V-ROUND-LIMIT] (option round_limit)
    unreachable="V-TARGET-UNREACHABLE",  # [V-TARGET-UNREACHABLE] refused when making the game
    endless="V-ENDLESS",  # [V-ENDLESS] the deck drawn ten times over without a decision ends the game
)


class VengeanceGame(Game):
    """One game of Flip 7: With a Vengeance under a ruleset. Create it with :func:`flip7_spec.new_game`."""

    CLAUSES: ClassVar[MachineClauses] = VENGEANCE_MACHINE_CLAUSES
    FINISH_ACTIONS: ClassVar[bool] = True  # [V-ROUND-END] an Action on a stayed player is done first
    ruleset: VengeanceRuleset

    def __init__(
        self,
        ruleset: VengeanceRuleset,
        players: int,
        dealer: int,
        deck: Sequence[Card],
        reshuffles: Iterable[Sequence[Card]] = (),
        reshuffler: Reshuffler | None = None,
        record: bool = True,
    ) -> None:
        foreign = sorted({c.text for c in deck if c.kind not in ruleset.CARD_KINDS})
        if foreign:
            # [V-NO-BASE-CARDS]
            raise SetupError(f"ruleset {ruleset.name}: card(s) {', '.join(foreign)} have no effect in "
                             "Vengeance")
        super().__init__(ruleset, players, dealer, deck, reshuffles, reshuffler, record)
        self.flip7_seats: list[int] = []
        self.brutal_next = 0
        self.brutal_choices: dict[int, int] = {}

    # ---- the loop and the round -------------------------------------------------------------------

    def _begin_round(self) -> Frame[VengeanceGame]:
        # [V-DEAL-ORDER] [V-SEATS] the base game's order: clockwise from the Dealer's left (option deal_start)
        self.flip7_seats = []
        self.brutal_next = 0
        self.brutal_choices = {}
        return Turns(dealing=self.ruleset.initial_deal)  # [V-DEAL] or, with initial_deal off, turns

    def _before_scoring(self) -> Frame[VengeanceGame] | None:
        if self.ruleset.brutal_mode and self.brutal_next < len(self.flip7_seats):
            # [V-BRUTAL] before the round is scored, each Flip 7 decides: bonus or 15 off another
            self.brutal_next += 1
            return BrutalFlip7(self.flip7_seats[self.brutal_next - 1])
        return None

    def _stalled(self) -> str | None:
        """Never: Steal, Swap and Discard change rows, so any card left can still change the round."""
        return None

    def round_score(self, seat: int) -> int:
        """What ``seat`` would bank if the round ended now: rows change in too many ways here (Steal, Swap,
        Discard, Unlucky 7) for a running tally, so the scorer reads the cards."""
        player = self.players[seat]
        return vengeance_score(self.ruleset, player.cards, player.status is BUSTED).total

    def _round_scores(self) -> list[int]:
        ruleset = self.ruleset
        scores = [vengeance_score(ruleset, p.cards, p.status is BUSTED).total for p in self.players]
        for seat, target in self.brutal_choices.items():
            if target != seat:
                # [V-BRUTAL-FLIP7] no bonus for the Flip 7; 15 off the other player's total instead
                scores[seat] -= ruleset.flip7_bonus
                scores[target] -= ruleset.flip7_bonus
        return scores

    def _flip7_seat(self) -> int | None:
        return self.flip7_seats[0] if self.flip7_seats else None

    # ---- helpers used by frames ---------------------------------------------------------------------

    def _not_busted(self) -> list[int]:
        """The seats that have not busted (active or stayed), in seat order."""
        return [seat for seat, p in enumerate(self.players) if p.status is not BUSTED]

    def _hit_stay_options(self, seat: int) -> tuple[tuple[str, ...], str]:
        """The Hit/Stay options of ``seat`` on their turn, and the clause that decides them."""
        player = self.players[seat]
        ruleset = self.ruleset
        if any(is_special(ruleset, c, Special.ZERO) for c in player.cards):
            return (HIT,), "V-ZERO-MUST-HIT"  # [V-ZERO-MUST-HIT] no voluntary Stay while holding it
        minimum = ruleset.stay_minimum
        # [V-STAY-MINIMUM] "none": an empty row may Stay
        if (minimum == "one_card" and not player.cards) or (
                minimum == "two_numbers" and sum(1 for c in player.cards if c.is_number) < 2):
            return (HIT,), "V-STAY-MINIMUM"
        return (HIT, STAY), "V-HIT-STAY"

    def _takeable_refs(self, seats: Iterable[int]) -> list[CardRef]:
        """References to the cards of ``seats`` that a Steal or Discard may take, in seat then index order."""
        # [V-STEAL-DISCARD-CARDS] any face-up card, or (seed 004) Number cards only;
        # [V-MOD-NO-BUST] Modifiers can be stolen or discarded; [V-BUST-OUT-OF-PLAY] never a busted row
        return row_refs(self.players, seats, numbers_only=self.ruleset.steal_discard_cards == "numbers")

    def _deal_to(self, seat: int, via: str, clause: str, flip4: FlipFour | None = None) -> None:
        """Draw one card for ``seat`` (in a deal, a Hit, a Just One More or a Flip Four) and reveal it."""
        drawn = self._draw()
        if drawn is None:
            return
        self._emit("draw", clause, seat, drawn.text, (("via", via),))
        if drawn.is_number:
            self._place_number(seat, drawn)
            return
        self._put_in_play(drawn)
        if flip4 is not None:
            # [V-FLIP4-HOLD] held back until the four cards are done, so none can save the target from a bust
            flip4.held.append(drawn)
            self._emit("hold", "V-FLIP4-HOLD", seat, drawn.text)
            return
        self._resolve_revealed(seat, drawn)

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        """Start resolving a revealed Modifier or Action (already in play); ``seat`` makes its choices."""
        # [V-ACTION-AT-ONCE] resolved now; [V-ACTION-RESOLVER] by the player who received it
        kind = revealed.kind
        frame: Frame[VengeanceGame]
        if revealed.is_modifier:
            frame = PlayModifier(revealed, seat)
        elif kind is JUST_ONE_MORE or kind is FLIP_FOUR:
            frame = ChooseTarget(revealed, seat)
        elif kind is STEAL:
            frame = Steal(revealed, seat)
        elif kind is SWAP:
            frame = Swap(revealed, seat)
        elif kind is DISCARD:
            frame = Discard(revealed, seat)
        else:
            raise AssertionError(f"card {revealed.text} has no effect in Vengeance")
        self._stack.append(frame)

    def _finish_action(self, action: Card) -> None:
        """An Action that has been used goes to the discard pile."""
        self._discard_in_play(action, "resolved", "V-ACTION-AT-ONCE")

    def _no_target(self, action: Card) -> None:
        """Pop the frame of ``action``, which has no valid target, and discard the card with no effect."""
        self._stack.pop()
        if face_up_on_table(self.players):
            # [V-ACTION-MANDATORY] used when it can be, discarded when it cannot
            self._discard_in_play(action, "no valid target", "V-ACTION-MANDATORY")
        else:
            # [V-ACTION-START-NO-CARDS]
            self._discard_in_play(action, "no face-up card on the table", "V-ACTION-START-NO-CARDS")

    def _take_from_row(self, seat: int, index: int) -> Card:
        """Remove card ``index`` of ``seat``'s row and return it."""
        player = self.players[seat]
        taken = player.cards.pop(index)
        _sync_values(player)
        return taken

    def _receive_into_row(self, seat: int, received: Card) -> None:
        """``seat`` receives a face-up card from another row (Steal, Swap) as if dealt it."""
        if received.is_number:
            # [V-BUST-BY-ACTION] busts, Unlucky 7, Lucky 13 and Flip 7 apply, to a stayed player too
            self._place_number(seat, received)
        else:
            self.players[seat].cards.append(received)

    def _place_number(self, seat: int, number: Card) -> None:
        """``seat`` receives a Number card, by a draw or from another row; its effect happens at once."""
        player = self.players[seat]
        ruleset = self.ruleset
        if is_special(ruleset, number, Special.UNLUCKY_7):
            # [V-UNLUCKY7-WIPE] [V-FLIP4-UNLUCKY7] every other Number and Modifier is discarded, at once;
            # [V-UNLUCKY7-NO-BUST] even a 7 already held goes, so the Unlucky 7 never busts
            wiped = player.cards
            player.cards = [number]
            self.discard.extend(wiped)
            _sync_values(player)
            self._emit("wipe", "V-UNLUCKY7-WIPE", seat, number.text, (("discarded", [c.text for c in wiped]),))
            return
        if number.value in player.values:
            if not lucky_pair_allowed(ruleset, player.cards, number):
                # [V-BUST] [V-UNLUCKY7-LATER-7] the duplicate joins the row, which turns face down
                player.cards.append(number)
                self._set_status(seat, BUSTED)
                self._emit("bust", "V-BUST", seat, number.text)
                return
            self._emit("lucky13", "V-LUCKY13-PAIR", seat, number.text)
        # [V-ROW] the card joins the end of the row
        player.cards.append(number)
        player.values.add(number.value)
        if flip7_count(ruleset, player.cards) >= FLIP7_SIZE:
            # [V-FLIP7] [V-FLIP7-ANY-MEANS] seven values end the round now, however they came
            self._emit("flip7", "V-FLIP7", seat)
            self._ending = True
            self.flip7_seats.append(seat)


def _sync_values(player: PlayerRound) -> None:
    player.values = {c.value for c in player.cards if c.is_number}


class Turns(Frame["VengeanceGame"]):
    """The initial deal (one card to each player in order), then the Hit/Stay rotation."""

    __slots__ = ("dealing", "pos")

    def __init__(self, dealing: bool) -> None:
        self.dealing = dealing
        self.pos = 0

    def step(self, game: VengeanceGame) -> None:
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
            game._deal_to(seat, "deal", "V-DEAL")
            return
        self.pos = next_active(order, game.players, self.pos)
        seat = order[self.pos]
        options, because = game._hit_stay_options(seat)
        game._offer(Decision(seat, DecisionKind.HIT_OR_STAY, options), because)

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        seat = game.order[self.pos]
        self.pos += 1
        if choice == STAY:
            # [V-STAY-NO-BANK] out of the rotation; the row stays face up, targetable, and unbanked
            game._set_status(seat, STAYED)
            game._emit("stay", "V-STAY-NO-BANK", seat)
        else:
            game._deal_to(seat, "hit", "V-HIT-STAY")  # [V-HIT-STAY] one card, resolved at once


class PlayModifier(Frame["VengeanceGame"]):
    """A revealed Modifier waiting for the player it is played on."""

    __slots__ = ("chooser", "modifier")

    def __init__(self, modifier: Card, chooser: int) -> None:
        self.modifier = modifier
        self.chooser = chooser

    def step(self, game: VengeanceGame) -> None:
        # [V-MOD-TARGET] any player not busted, stayed players and the revealer included;
        # [V-BRUTAL-MOD-BUSTED] in Brutal Mode busted players too
        seats = list(range(game.n)) if game.ruleset.brutal_mode else game._not_busted()
        # [V-MOD-ALONE] the only player not busted keeps it
        game._offer(Decision(self.chooser, DecisionKind.TARGET, tuple(seats), self.modifier.text), "V-MOD-ALONE")

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        game._stack.pop()
        game._take_from_play(self.modifier)
        game.players[choice].cards.append(self.modifier)
        game._emit("modifier", "V-MOD-TARGET", self.chooser, self.modifier.text, (("target", choice),))


class ChooseTarget(Frame["VengeanceGame"]):
    """A revealed Just One More or Flip Four waiting for its target."""

    __slots__ = ("action", "resolver")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver

    def step(self, game: VengeanceGame) -> None:
        # [V-ACTION-TARGET] any player not busted, the resolver and stayed players included
        seats = game._not_busted()
        because = "V-ACTION-ALONE"  # [V-ACTION-ALONE] the only player not busted plays it on themselves
        if self.action.kind is FLIP_FOUR and not game.ruleset.flip4_self and len(seats) > 1:
            # [V-FLIP4-SELF] seed 004: a Flip Four goes to an opponent while there is one
            seats = [s for s in seats if s != self.resolver]
            because = "V-FLIP4-SELF"
        game._offer(Decision(self.resolver, DecisionKind.TARGET, tuple(seats), self.action.text), because)

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        game._stack.pop()
        game._emit("target", "V-ACTION-TARGET", self.resolver, self.action.text, (("target", choice),))
        if self.action.kind is FLIP_FOUR:
            game._emit("flip4_start", "V-FLIP4", choice, self.action.text)
            game._stack.append(FlipFour(self.action, choice))
        else:
            game._stack.append(JustOneMore(self.action, choice))


class JustOneMore(Frame["VengeanceGame"]):
    """Just One More: its target accepts the next card, resolves it, then must Stay."""

    __slots__ = ("action", "drawn", "target")

    def __init__(self, action: Card, target: int) -> None:
        self.action = action
        self.target = target
        self.drawn = False

    def step(self, game: VengeanceGame) -> None:
        if not self.drawn:
            self.drawn = True
            # [V-ONEMORE] the next card; an Action drawn here is resolved by the target (frames on top)
            game._deal_to(self.target, "one_more", "V-ONEMORE")
            return
        game._stack.pop()
        game._finish_action(self.action)
        if game.players[self.target].status is ACTIVE:
            # [V-ONEMORE-STAY] then Stay, even while holding The Zero; a busted target stays busted and
            # [V-STAYED-TARGET] a stayed target simply stays stayed
            game._set_status(self.target, STAYED)
            game._emit("stay", "V-ONEMORE-STAY", self.target)


class FlipFour(Frame["VengeanceGame"]):
    """A Flip Four in progress: its target accepts the next four cards, one at a time."""

    __slots__ = ("action", "held", "remaining", "target")

    DRAWS_FOR_ACTION: ClassVar[bool] = True

    def __init__(self, action: Card, target: int) -> None:
        self.action = action
        self.target = target
        self.remaining = 4
        self.held: list[Card] = []

    def step(self, game: VengeanceGame) -> None:
        busted = game.players[self.target].status is BUSTED
        # [V-FLIP4-STOP] a bust stops it here; a Flip 7 ends the round before this frame runs again
        if self.remaining and not busted:
            self.remaining -= 1  # [V-FLIP4] every card counts toward the four
            game._deal_to(self.target, "flip4", "V-FLIP4", self)
            return
        game._stack.pop()
        game._finish_action(self.action)
        game._emit("flip4_end", "V-FLIP4", self.target)
        if busted:
            # [V-FLIP4-HOLD-DISCARD] (after a Flip 7 the round's end discards them with everything else)
            for held in self.held:
                game._discard_in_play(held, "its Flip Four target busted", "V-FLIP4-HOLD-DISCARD")
        elif self.held:
            game._stack.append(ResolveHeld(self.target, self.held))


class ResolveHeld(Frame["VengeanceGame"]):
    """The held-back cards of a Flip Four, resolved by its target one at a time in draw order."""

    __slots__ = ("cards", "target")

    def __init__(self, target: int, cards: list[Card]) -> None:
        self.target = target
        self.cards = list(cards)

    def step(self, game: VengeanceGame) -> None:
        if not self.cards:
            game._stack.pop()
            return
        held = self.cards.pop(0)
        if game.players[self.target].status is BUSTED:
            # [V-FLIP4-RESOLVER-OUT] busted by an earlier held-back card: the rest are discarded
            game._discard_in_play(held, "its Flip Four target busted", "V-FLIP4-RESOLVER-OUT")
            return
        game._resolve_revealed(self.target, held)


class Steal(Frame["VengeanceGame"]):
    """Steal: the resolver takes one face-up card of another player who has not busted."""

    __slots__ = ("action", "resolver")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver

    def step(self, game: VengeanceGame) -> None:
        # [V-STEAL] another player's card only, never a busted one
        refs = game._takeable_refs(s for s in game._not_busted() if s != self.resolver)
        if not refs:
            game._no_target(self.action)
            return
        game._offer(Decision(self.resolver, DecisionKind.CARD, tuple(refs), self.action.text), "V-STEAL")

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        game._stack.pop()
        victim = choice["player"]
        taken = game._take_from_row(victim, choice["index"])
        game._emit("steal", "V-STEAL", self.resolver, taken.text, (("from", victim),))
        game._receive_into_row(self.resolver, taken)
        game._finish_action(self.action)


class Swap(Frame["VengeanceGame"]):
    """Swap: two face-up cards of two different rows change places."""

    __slots__ = ("action", "resolver")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver

    def step(self, game: VengeanceGame) -> None:
        # [V-SWAP-LIMITS] two rows, neither busted; [V-SWAP] the resolver's row or two other rows, any cards
        pairs = swap_pairs(row_refs(game.players, game._not_busted()))
        if not pairs:
            game._no_target(self.action)
            return
        game._offer(Decision(self.resolver, DecisionKind.SWAP, tuple(pairs), self.action.text), "V-SWAP-LIMITS")

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        game._stack.pop()
        first, second = cast(list[CardRef], choice)
        one, other = first["player"], second["player"]
        to_other = game._take_from_row(one, first["index"])
        to_one = game._take_from_row(other, second["index"])
        game._emit("swap", "V-SWAP", self.resolver, None,
                  (("players", [one, other]), ("cards", [to_other.text, to_one.text])))
        # [V-SWAP-RECEIVE] both cards have moved; each receipt now takes effect, in seat order
        game._receive_into_row(one, to_one)
        game._receive_into_row(other, to_other)
        game._finish_action(self.action)


class Discard(Frame["VengeanceGame"]):
    """Discard: a player who has not busted discards one face-up card (option discard_chooser: who picks)."""

    __slots__ = ("action", "resolver", "victim")

    def __init__(self, action: Card, resolver: int) -> None:
        self.action = action
        self.resolver = resolver
        self.victim: int | None = None

    def step(self, game: VengeanceGame) -> None:
        text = self.action.text
        if self.victim is not None:
            refs = game._takeable_refs([self.victim])
            game._offer(Decision(self.victim, DecisionKind.CARD, tuple(refs), text), "V-DISCARD")
            return
        seats = game._not_busted()
        if not game.ruleset.discard_self:
            seats = [s for s in seats if s != self.resolver]  # [V-DISCARD-SELF] off: opponents only
        refs = game._takeable_refs(seats)
        if not refs:
            game._no_target(self.action)
            return
        if game.ruleset.discard_chooser == "resolver":
            # [V-DISCARD-CHOOSER] the resolver picks the player and the card in one choice
            game._offer(Decision(self.resolver, DecisionKind.CARD, tuple(refs), text), "V-DISCARD")
        else:
            victims = sorted({ref["player"] for ref in refs})
            game._offer(Decision(self.resolver, DecisionKind.TARGET, tuple(victims), text), "V-DISCARD")

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        if isinstance(choice, int):
            # the resolver named the victim, who now picks the card
            self.victim = choice
            game._emit("target", "V-DISCARD-CHOOSER", self.resolver, self.action.text, (("target", choice),))
            return
        game._stack.pop()
        seat = choice["player"]
        discarded = game._take_from_row(seat, choice["index"])
        game.discard.append(discarded)
        # [V-DISCARD] its effect stops with it: without The Zero there is no must-Hit
        game._emit("discard_card", "V-DISCARD", seat, discarded.text, (("by", self.resolver),))
        game._finish_action(self.action)


class BrutalFlip7(Frame["VengeanceGame"]):
    """Brutal Mode: the player who Flipped 7 takes the bonus (own seat) or takes 15 from another player."""

    __slots__ = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def step(self, game: VengeanceGame) -> None:
        # [V-BRUTAL-FLIP7] any seat (own seat: the bonus)
        seats = list(range(game.n))
        because = "V-BRUTAL-FLIP7"
        if game.ruleset.brutal_flip7_target == "in_round":
            # [V-BRUTAL-FLIP7-IN-ROUND] own seat, or a player who has not busted
            seats = [s for s in seats if s == self.seat or game.players[s].status is not BUSTED]
            because = "V-BRUTAL-FLIP7-IN-ROUND"
        game._offer(Decision(self.seat, DecisionKind.TARGET, tuple(seats), None), because)

    def decide(self, game: VengeanceGame, choice: Choice) -> None:
        game._stack.pop()
        # [V-BRUTAL-FLIP7] applied when the round is scored (VengeanceGame._round_scores)
        game.brutal_choices[self.seat] = choice
        game._emit("brutal_flip7", "V-BRUTAL-FLIP7", self.seat, None,
                  (("target", choice), ("bonus", choice == self.seat)))
