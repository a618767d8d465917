"""flop7 1.0.2 (a public pure-Python Flip 7 engine, in the test extra) playing the reference's games in-process.

The baseline of the whole-game figures: the same games as the reference's batches (game ``i`` starts from the
deck order and Dealer that :func:`flip7_spec.simulation.simulate.game_rng` gives the reference, and every
reshuffle draws from that game's generator), the same policy (hit below 20 points, stay at 20; a Freeze or Flip
Three aimed at the opponent with the highest round score, then total), driven by flop7's own ``GameEngine.play``
loop with plain callbacks (no bot views), so that what is timed is flop7's engine, not its bot layer.

flop7 does not play every rule as the reference does (examples/flop7/README.md), so the games are the same
until the first of those moments; they are the same work, one whole game each, to 200 points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from flop7.core.classes.cards import ALL_CARDS
from flop7.core.classes.cards import Card as Flop7Card
from flop7.core.classes.deck import Deck
from flop7.core.classes.player import Player
from flop7.core.engine.engine import GameEngine

from flip7_spec.cards import Card
from flip7_spec.rulesets import Ruleset
from flip7_spec.simulation.simulate import game_rng

_TEXT: dict[str, str] = {card.abbrv: card.abbrv for card in ALL_CARDS}
_TEXT.update({"F": "FLIP3", "Z": "FREEZE", "C": "CHANCE", "X": "x2"})
CARD_OF: dict[str, Flop7Card] = {_TEXT[card.abbrv]: card for card in ALL_CARDS}
"""flop7's card for each card text of the reference."""


class SeededDeck(Deck):
    """flop7's deck, reshuffled from the game's own generator instead of the global one."""

    def __init__(self, cards: Sequence[Flop7Card], rng: random.Random) -> None:
        super().__init__(list(cards))
        self.rng = rng

    def shuffle(self) -> None:
        self.rng.shuffle(self.draw_pile)


def _deal(game: GameEngine, player: Player) -> Flop7Card:
    card: Flop7Card = game.deck.deal()
    return card


def flop7_game(ruleset: Ruleset, players: int, rng: random.Random, stay: int = 20) -> GameEngine:
    """One whole game of flop7 from ``rng`` (the reference's deck order and Dealer), threshold ``stay``."""
    deck: list[Card] = ruleset.deck_cards(players)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    seats = [Player(str(seat)) for seat in range(players)]

    def hit(game: GameEngine, player: Player) -> bool:
        return bool(player.active_score < stay)

    def target(game: GameEngine, event: Any, source: Player, eligible: list[Player]) -> Player:
        others = [p for p in eligible if p is not source] or eligible
        return max(others, key=lambda p: (0 if p.busted else p.active_score, p.score))

    engine = GameEngine(SeededDeck([CARD_OF[c.text] for c in deck], rng), seats, _deal, hit, target,
                        dealer_index=dealer)
    engine.play()
    return engine


def flop7_batch(ruleset: Ruleset, players: int, seed: str, games: int, stay: int = 20) -> int:
    """flop7 games ``0 .. games-1`` of the run seeded ``seed``; returns the rounds played (a checksum)."""
    return sum(flop7_game(ruleset, players, game_rng(seed, index), stay).round_number for index in range(games))
