"""The reference state machine for Flip 7: With a Vengeance.

:class:`VengeanceGame` is the base :class:`~flip7_spec.engine.Game` (explicit frame stack, decisions,
draws and reshuffles, round and game ends, dealer rotation) with Vengeance rows: Numbers received as if
dealt (busts, The Zero, Unlucky 7, Lucky 13, Flip 7 by any means), Modifiers played on a player, and the
frames of :mod:`flip7_spec.vengeance.frames` for the five Actions and Brutal Mode. Each rule clause is
cited, as ``[V-...]``, at the place that implements it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Final

from flip7_spec.cards import Card, Kind, Special
from flip7_spec.engine import BUSTED, HIT, STAY, Frame, Game, PlayerRound, Reshuffler
from flip7_spec.errors import SetupError
from flip7_spec.events import Event
from flip7_spec.rulesets import Ruleset
from flip7_spec.scoring import FLIP7_SIZE, round_score
from flip7_spec.vengeance.frames import (
    BrutalFlip7,
    ChooseTarget,
    Discard,
    FlipFour,
    JustOneMore,
    PlayModifier,
    ResolveHeld,
    Steal,
    Swap,
    Turns,
)
from flip7_spec.vengeance.rows import CardRef, face_up_on_table, row_refs
from flip7_spec.vengeance.scoring import flip7_count, is_special, lucky_pair_allowed, vengeance_score

# The base machinery names base-game clauses in the events it emits; in a Vengeance game they are these.
# [V-NEXT-ROUND] [V-BANK] [V-GAME-END] [V-WINNER] [V-TIE]: the base round end banks, discards the round's
# cards, passes the deck left, and ends the game or plays a tie round, under the same options.
_BASE_CLAUSES: Final = {
    "F7-DEAL": "V-DEAL",
    "F7-SCORE": "V-SCORE",
    "F7-WINNER": "V-WINNER",
    "F7-TIE": "V-TIE",
    "F7-EMPTY-DECK": "V-EMPTY-DECK",  # [V-EMPTY-DECK] nothing left to draw: the round ends
    "F7-RESHUFFLE": "V-RESHUFFLE",  # [V-RESHUFFLE] only the discard pile: table and in-play cards stay out
    "F7-FORCED-CHOICE": "V-FORCED-CHOICE",  # [V-FORCED-CHOICE]
}
_BASE_GAME_KINDS: Final = frozenset(
    {Kind.ADD, Kind.MULTIPLY, Kind.FREEZE, Kind.FLIP_THREE, Kind.SECOND_CHANCE}
)


class VengeanceGame(Game):
    """One game of Flip 7: With a Vengeance under a ruleset. Create it with :func:`flip7_spec.new_game`."""

    frame_types: ClassVar[tuple[type[Frame], ...]] = (
        Turns, PlayModifier, ChooseTarget, JustOneMore, FlipFour, ResolveHeld, Steal, Swap, Discard,
        BrutalFlip7,
    )

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
        foreign = sorted({c.text for c in deck if c.kind in _BASE_GAME_KINDS})
        if foreign:
            # [V-NO-BASE-CARDS]
            raise SetupError(f"ruleset {ruleset.name}: card(s) {', '.join(foreign)} have no effect in "
                             "Vengeance")
        super().__init__(ruleset, players, dealer, deck, reshuffles, reshuffler, record)
        self.flip7_seats: list[int] = []
        self.brutal_next = 0
        self.brutal_choices: dict[int, int] = {}

    # ---- the loop and the round -------------------------------------------------------------------

    def emit(self, kind: str, clause: str, player: int | None = None, card_text: str | None = None,
             data: tuple[tuple[str, Any], ...] = ()) -> None:
        if self._events is not None:
            self._events.append(Event(kind, _BASE_CLAUSES.get(clause, clause), player, card_text, data))

    def _start_round(self) -> None:
        # [V-DEAL-ORDER] [V-SEATS] the base game's order: clockwise from the Dealer's left (option deal_start)
        super()._start_round()
        self.stack = [Turns(dealing=self.ruleset.initial_deal)]  # [V-DEAL] or, with initial_deal off, turns
        self.flip7_seats = []
        self.brutal_next = 0
        self.brutal_choices = {}

    def _run(self) -> None:
        while not self.over:
            if self.pending is not None:
                return
            # [V-ROUND-END] at once on a Flip 7; otherwise when nobody is active and the Action being
            # resolved (a Flip Four on a stayed player, say) is done
            if self.ending or (not self.active and len(self.stack) == 1):
                if self.ruleset.brutal_mode and self.brutal_next < len(self.flip7_seats):
                    # [V-BRUTAL] before the round is scored, each Flip 7 decides: bonus or 15 off another
                    frame = BrutalFlip7(self.flip7_seats[self.brutal_next])
                    self.brutal_next += 1
                    self.stack.append(frame)
                    frame.step(self)
                    continue
                self._end_round()  # replaces self.stack
                continue
            self.stack[-1].step(self)

    def _stalled(self) -> bool:
        """Never: Steal, Swap and Discard change rows, so any card left can still change the round."""
        return False

    def round_score(self, seat: int) -> int:
        """What ``seat`` would bank if the round ended now: rows change in too many ways here (Steal, Swap,
        Discard, Unlucky 7) for a running tally, so the scorer reads the cards."""
        player = self.players[seat]
        return round_score(self.ruleset, player.cards, player.status is BUSTED)

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

    def not_busted(self) -> list[int]:
        """The seats that have not busted (active or stayed), in seat order."""
        return [seat for seat, p in enumerate(self.players) if p.status is not BUSTED]

    def hit_stay_options(self, seat: int) -> tuple[tuple[str, ...], str]:
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

    def takeable_refs(self, seats: Iterable[int]) -> list[CardRef]:
        """References to the cards of ``seats`` that a Steal or Discard may take, in seat then index order."""
        # [V-STEAL-DISCARD-CARDS] any face-up card, or (seed 004) Number cards only;
        # [V-MOD-NO-BUST] Modifiers can be stolen or discarded; [V-BUST-OUT-OF-PLAY] never a busted row
        return row_refs(self.players, seats, numbers_only=self.ruleset.steal_discard_cards == "numbers")

    def deal(self, seat: int, via: str, clause: str, flip4: FlipFour | None = None) -> None:
        """Draw one card for ``seat`` (in a deal, a Hit, a Just One More or a Flip Four) and reveal it."""
        drawn = self.draw()
        if drawn is None:
            return
        self.emit("draw", clause, seat, drawn.text, (("via", via),))
        if drawn.is_number:
            self.place_number(seat, drawn)
            return
        self.in_play.append(drawn)
        if flip4 is not None:
            # [V-FLIP4-HOLD] held back until the four cards are done, so none can save the target from a bust
            flip4.held.append(drawn)
            self.emit("hold", "V-FLIP4-HOLD", seat, drawn.text)
            return
        self.resolve_revealed(seat, drawn)

    def resolve_revealed(self, seat: int, revealed: Card) -> None:
        """Start resolving a revealed Modifier or Action (already in play); ``seat`` makes its choices."""
        # [V-ACTION-AT-ONCE] resolved now; [V-ACTION-RESOLVER] by the player who received it
        kind = revealed.kind
        frame: Frame
        if revealed.is_modifier:
            frame = PlayModifier(revealed, seat)
        elif kind is Kind.JUST_ONE_MORE or kind is Kind.FLIP_FOUR:
            frame = ChooseTarget(revealed, seat)
        elif kind is Kind.STEAL:
            frame = Steal(revealed, seat)
        elif kind is Kind.SWAP:
            frame = Swap(revealed, seat)
        elif kind is Kind.DISCARD:
            frame = Discard(revealed, seat)
        else:
            raise AssertionError(f"card {revealed.text} has no effect in Vengeance")
        self.stack.append(frame)

    def finish_action(self, action: Card) -> None:
        """An Action that has been used goes to the discard pile."""
        self.discard_in_play(action, "resolved", "V-ACTION-AT-ONCE")

    def no_target(self, action: Card) -> None:
        """Pop the frame of ``action``, which has no valid target, and discard the card with no effect."""
        self.stack.pop()
        if face_up_on_table(self.players):
            # [V-ACTION-MANDATORY] used when it can be, discarded when it cannot
            self.discard_in_play(action, "no valid target", "V-ACTION-MANDATORY")
        else:
            # [V-ACTION-START-NO-CARDS]
            self.discard_in_play(action, "no face-up card on the table", "V-ACTION-START-NO-CARDS")

    def take_from_row(self, seat: int, index: int) -> Card:
        """Remove card ``index`` of ``seat``'s row and return it."""
        player = self.players[seat]
        taken = player.cards.pop(index)
        _sync_values(player)
        return taken

    def receive_into_row(self, seat: int, received: Card) -> None:
        """``seat`` receives a face-up card from another row (Steal, Swap) as if dealt it."""
        if received.is_number:
            # [V-BUST-BY-ACTION] busts, Unlucky 7, Lucky 13 and Flip 7 apply, to a stayed player too
            self.place_number(seat, received)
        else:
            self.players[seat].cards.append(received)

    def place_number(self, seat: int, number: Card) -> None:
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
            self.emit("wipe", "V-UNLUCKY7-WIPE", seat, number.text, (("discarded", [c.text for c in wiped]),))
            return
        if number.value in player.values:
            if not lucky_pair_allowed(ruleset, player.cards, number):
                # [V-BUST] [V-UNLUCKY7-LATER-7] the duplicate joins the row, which turns face down
                player.cards.append(number)
                self.set_status(seat, BUSTED)
                self.emit("bust", "V-BUST", seat, number.text)
                return
            self.emit("lucky13", "V-LUCKY13-PAIR", seat, number.text)
        # [V-ROW] the card joins the end of the row
        player.cards.append(number)
        player.values.add(number.value)
        if flip7_count(ruleset, player.cards) >= FLIP7_SIZE:
            # [V-FLIP7] [V-FLIP7-ANY-MEANS] seven values end the round now, however they came
            self.emit("flip7", "V-FLIP7", seat)
            self.ending = True
            self.flip7_seats.append(seat)


def _sync_values(player: PlayerRound) -> None:
    player.values = {c.value for c in player.cards if c.is_number}
