"""The third-party engine flop7 (https://pypi.org/project/flop7/, MIT) behind the flip7-spec protocol.

    pip install flip7-spec flop7==1.0.2
    flip7-spec conform --engine "python examples/flop7/engine.py"

flop7's ``GameEngine.play()`` runs the whole game and calls back a ``card_provider``, a ``hit_stay_decider``
and a ``target_selector``. This adapter runs that loop through flip7-spec's callback bridge and translates:
protocol cards to flop7 cards and back, each callback to a pending decision, flop7's state to the canonical
observation. It never corrects flop7: where flop7 plays differently, the observation shows what flop7 did.

What it has to decide, because flop7 keeps no such record (see README.md):

- reshuffles: flop7's ``Deck.shuffle`` is the one source of chance in its loop; here it takes the next order
  of the ``start`` request when that order is a permutation of the pile flop7 shuffles, and otherwise keeps
  the pile as it is (no order the reference gave can apply to it);
- ``in_play``: flop7 does not place a card between its draw and its resolution; the census derives it;
- statuses: flop7 has ``is_active`` and ``busted``; an inactive player holding a Freeze is ``frozen``, any
  other inactive one ``stayed``;
- the final observation: flop7 resets every player and passes the deck on after the last round too; the
  observation shows, as the protocol asks, the statuses at the end of the last round, its number and its
  Dealer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from flop7 import __version__ as flop7_version
from flop7.core.classes.cards import ALL_CARDS, FREEZE, Card
from flop7.core.classes.deck import Deck
from flop7.core.classes.player import Player
from flop7.core.engine.engine import GameEngine
from flop7.core.engine.requests import Flip7Event, FlipThreeResolvedEvent, FlipThreeStartEvent, RoundOverEvent
from flop7.core.enum.decisions import TargetEvent

from flip7_spec.protocol import LEVELS, PROTOCOL_VERSION
from flip7_spec.protocol.adapter import Observation, Skipped
from flip7_spec.protocol.bridge import Ask, AskFunction
from flip7_spec.protocol.callback_adapter import CallbackAdapter, StartRequest
from flip7_spec.protocol.census import Census
from flip7_spec.protocol.main import serve_main

# Protocol card texts of flop7's cards (flop7's abbreviations for the Actions and x2).
TEXT_OF: dict[str, str] = {card.abbrv: card.abbrv for card in ALL_CARDS}
TEXT_OF.update({"F": "FLIP3", "Z": "FREEZE", "C": "CHANCE", "X": "x2"})
CARD_OF: dict[str, Card] = {TEXT_OF[card.abbrv]: card for card in ALL_CARDS}
TARGET_KIND = {TargetEvent.FREEZE: ("target", "FREEZE"), TargetEvent.FLIP_THREE: ("target", "FLIP3"),
               TargetEvent.SECOND_CHANCE: ("give", "CHANCE")}


def text(card: Card) -> str:
    return TEXT_OF[card.abbrv]


class OrderedDeck(Deck):
    """flop7's own Deck, with its shuffle taking the reshuffle orders of the ``start`` request."""

    def __init__(self, cards: Sequence[Card], reshuffles: Sequence[Sequence[str]], census: Census) -> None:
        super().__init__(list(cards))
        self.orders = [list(order) for order in reshuffles]
        self.census = census

    def shuffle(self) -> None:
        pile = Counter(text(c) for c in self.draw_pile)
        if self.orders and Counter(self.orders[0]) == pile:
            self.draw_pile = [CARD_OF[t] for t in self.orders.pop(0)]

    def deal(self) -> Card:
        card = super().deal()
        self.census.revealed(text(card))
        return card


class Flop7Adapter(CallbackAdapter):
    """flop7's GameEngine, driven over the protocol."""

    def __init__(self) -> None:
        super().__init__()
        self.engine: GameEngine | None = None
        self.census: Census | None = None
        self.final_statuses: list[str] = []

    def hello(self) -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "name": "flop7", "version": flop7_version, "rulesets": ["flip7"],
                "levels": list(LEVELS), "options": {"target_score": "any"}, "decks": True}

    def prepare(self, setup: StartRequest) -> None:
        ruleset = setup.ruleset
        if ruleset.get("name") != "flip7" and ruleset.get("base") != "flip7":
            raise Skipped(f"flop7 plays only Flip 7, not {ruleset.get('name')}")
        if setup.players < 3:
            raise Skipped("flop7 needs at least 3 players")
        unknown = sorted({t for t in setup.deck if t not in CARD_OF})
        if unknown:
            raise Skipped(f"flop7 has no card {unknown[0]}")

    def play(self, setup: StartRequest, ask: AskFunction) -> None:
        census = Census(setup.deck)
        deck = OrderedDeck([CARD_OF[t] for t in setup.deck], setup.reshuffles, census)
        players = [Player(f"seat {seat}") for seat in range(setup.players)]

        def seat(player: Player) -> int:
            return next(i for i, p in enumerate(players) if p is player)

        def hit_stay(game: GameEngine, player: Player) -> bool:
            hit = ask(Ask(seat(player), "hit_or_stay", ["hit", "stay"])) == "hit"
            if not hit:  # flop7 makes the player inactive after this returns, with no event to see it by
                self._note_statuses(players, stayed=seat(player))
            return hit

        flip_threes = [0]  # Flip Threes started and not yet resolved (they nest)

        def target(game: GameEngine, event: TargetEvent, source: Player, eligible: list[Player]) -> Player:
            kind, card = TARGET_KIND[event]
            if kind == "target" and flip_threes[0]:
                # flop7 defers a Freeze or Flip Three drawn in a Flip Three and resolves it once the three
                # cards are drawn, its target choosing: the protocol calls that choice an assignment
                kind = "assign"
            chosen = ask(Ask(seat(source), kind, sorted(seat(p) for p in eligible), card))
            return players[chosen]

        def listen(item: Any) -> None:
            if isinstance(item, FlipThreeStartEvent):
                flip_threes[0] += 1
            elif isinstance(item, FlipThreeResolvedEvent):
                flip_threes[0] -= 1
            # Every request and event of the round, before flop7's cleanup forgets the statuses (the round's
            # end is announced after it). A Flip 7 makes every player inactive, flop7's way to end the round,
            # so the statuses before it stand.
            if not isinstance(item, Flip7Event | RoundOverEvent):
                self._note_statuses(players)

        engine = GameEngine(deck, players, card_provider=lambda game, player: game.deck.deal(),
                            hit_stay_decider=hit_stay, target_selector=target, dealer_index=setup.dealer)
        target_score = setup.ruleset.get("options", {}).get("target_score")
        if isinstance(target_score, int):
            engine.WIN_SCORE = target_score
        self.engine, self.census = engine, census
        engine.play(listeners=[listen])

    def _note_statuses(self, players: Sequence[Player], stayed: int | None = None) -> None:
        self.final_statuses = ["stayed" if seat == stayed else self._status(p) for seat, p in enumerate(players)]

    @staticmethod
    def _status(player: Player) -> str:
        if player.busted:
            return "busted"
        if player.is_active:
            return "active"
        return "frozen" if any(c.abbrv == FREEZE.abbrv for c in player.hand) else "stayed"

    def observe(self, pending: Ask | None) -> Observation:
        engine, census = self.engine, self.census
        assert engine is not None and census is not None
        over = pending is None and engine.game_over
        rows = [[text(c) for c in p.hand] for p in engine.players]
        draw = [text(c) for c in engine.deck.draw_pile]
        discard = [text(c) for c in engine.deck.discard_pile]
        count = len(engine.players)
        return {
            # flop7 counts the rounds it finished and passes the deck on after each, the last one too: the
            # final observation shows the last round played and its Dealer.
            "round": engine.round_number if over else engine.round_number + 1,
            "dealer": (engine.dealer_index - 1) % count if over else engine.dealer_index,
            "draw_pile": len(draw),
            "discard_pile": len(discard),
            "in_play": census.in_play(rows, draw, discard),
            "players": [
                {"cards": row,
                 "status": self.final_statuses[seat] if over else self._status(player),
                 "round_score": 0 if player.busted else player.active_score,
                 "total": player.score}
                for seat, (row, player) in enumerate(zip(rows, engine.players, strict=True))
            ],
            "pending": None if pending is None else pending.pending(),
            "over": over,
            "winners": [engine.players.index(engine.winner)] if over and engine.winner is not None else [],
        }

    def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
        if ruleset.get("name") != "flip7" and ruleset.get("base") != "flip7":
            raise Skipped(f"flop7 plays only Flip 7, not {ruleset.get('name')}")
        if busted:
            return 0  # flop7 banks nothing for a busted player
        player = Player("hand")
        player.hand = [CARD_OF[t] for t in hand]
        # flop7's own round end: the hand's score, plus the bonus when its Flip 7 check holds.
        table = GameEngine(Deck([]), [Player("a"), Player("b"), Player("c")], card_provider=lambda g, p: None,
                           hit_stay_decider=lambda g, p: False, target_selector=lambda g, e, s, el: s)
        return player.active_score + (table.FLIP_7_BONUS if table._has_flip7(player) else 0)


if __name__ == "__main__":
    serve_main(Flop7Adapter)
