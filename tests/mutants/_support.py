"""What the mutant engines share: an adapter that plays a subclass of the reference game, and a game whose
round scoring is replaced; the same two for the Vengeance game.

A base-game mutant changes the base game (``flip7``) only: a Vengeance ruleset is played by the plain
reference, so that running a mutant against every preset reports the one bug it has and nothing else. A
Vengeance mutant (``v_*``) is the other way round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from flip7_spec.cards import Card, Kind, cards
from flip7_spec.games.flip7.engine import Flip7Game
from flip7_spec.games.vengeance.engine import VengeanceGame
from flip7_spec.games.vengeance.scoring import vengeance_score
from flip7_spec.machine import BUSTED, STAYED, Game
from flip7_spec.play import round_score
from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.rulesets import Ruleset, ruleset_from_json


class MutantAdapter(ReferenceAdapter):
    """The reference adapter, playing ``game_class`` with ``forced_options`` set on every base-game ruleset.

    ``forced_options`` turns a documented variant into a bug: the engine plays that reading whatever the
    ruleset it was given says.
    """

    game_class: ClassVar[type[Game]] = Flip7Game
    forced_options: ClassVar[Mapping[str, Any]] = {}

    def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]]) -> Game:
        rules = ruleset_from_json(ruleset)
        if rules.game != "flip7":
            return super().make_game(ruleset, players, dealer, deck, reshuffles)
        rules.check_players(players)
        rules = dataclasses.replace(rules, **self.forced_options)
        game = self.game_class(rules, players, dealer, cards(list(deck)),
                               [cards(list(order)) for order in reshuffles], record=False)
        if isinstance(game, ScoredGame):
            game.scorer = self.hand_score
        game.start()
        return game

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        """The round score of ``hand`` for a player in ``status`` (the reference's; scoring mutants override)."""
        return round_score(ruleset, hand, status == BUSTED)

    def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
        rules = ruleset_from_json(ruleset)
        if rules.game != "flip7":
            return super().score(ruleset, hand, busted)
        return self.hand_score(rules, cards(list(hand)), BUSTED if busted else STAYED)


HandScorer = Callable[[Ruleset, Sequence[Card], str], int]


class ScoredGame(Flip7Game):
    """The reference game with its round scores, shown and banked alike, computed by ``scorer`` (the
    adapter's :meth:`MutantAdapter.hand_score`, set before the game starts)."""

    scorer: HandScorer

    def round_score(self, seat: int) -> int:
        player = self.players[seat]
        return self.scorer(self.ruleset, player.cards, player.status)

    def _round_scores(self) -> list[int]:
        return [self.round_score(seat) for seat in range(self.n)]


# ---- Vengeance ------------------------------------------------------------------------------------------


class VengeanceMutantAdapter(ReferenceAdapter):
    """The reference adapter, playing ``game_class`` (a :class:`VengeanceGame`) with ``forced_options`` set on
    every Vengeance ruleset; base-game rulesets get the plain reference."""

    game_class: ClassVar[type[VengeanceGame]] = VengeanceGame
    forced_options: ClassVar[Mapping[str, Any]] = {}

    def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]]) -> Game:
        rules = ruleset_from_json(ruleset)
        if rules.game != "vengeance":
            return super().make_game(ruleset, players, dealer, deck, reshuffles)
        rules.check_players(players)
        rules = dataclasses.replace(rules, **self.forced_options)
        game = self.game_class(rules, players, dealer, cards(list(deck)),
                               [cards(list(order)) for order in reshuffles], record=False)
        if isinstance(game, VScoredGame):
            game.scorer = self.hand_score
        game.start()
        return game

    def hand_score(self, ruleset: Ruleset, hand: Sequence[Card], status: str) -> int:
        """The round score of ``hand`` for a player in ``status`` (the reference's; scoring mutants override)."""
        return vengeance_score(ruleset, hand, status == BUSTED).total

    def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
        rules = ruleset_from_json(ruleset)
        if rules.game != "vengeance":
            return super().score(ruleset, hand, busted)
        rules = dataclasses.replace(rules, **self.forced_options)
        return self.hand_score(rules, cards(list(hand)), BUSTED if busted else STAYED)


class VScoredGame(VengeanceGame):
    """The reference Vengeance game with its round scores, shown and banked alike, computed by ``scorer``
    (the adapter's :meth:`VengeanceMutantAdapter.hand_score`, set before the game starts). Brutal Mode's
    Flip 7 choices still apply on top."""

    scorer: HandScorer

    def round_score(self, seat: int) -> int:
        player = self.players[seat]
        return self.scorer(self.ruleset, player.cards, player.status)

    def _round_scores(self) -> list[int]:
        reference = super()._round_scores()
        return [banked - vengeance_score(self.ruleset, p.cards, p.status is BUSTED).total + self.round_score(seat)
                for seat, (banked, p) in enumerate(zip(reference, self.players, strict=True))]


def halvings(hand: Sequence[Card]) -> int:
    """How many /2 cards ``hand`` holds."""
    return sum(1 for c in hand if c.kind is Kind.HALVE)


def malus(hand: Sequence[Card]) -> int:
    """The points the -N cards of ``hand`` take off."""
    return sum(c.value for c in hand if c.kind is Kind.SUBTRACT)


def out_of_cards_end(game: Game) -> None:
    """End ``game`` at the end of its round as an engine that stops when no card is left anywhere would: the
    round is scored, every card of the round goes to the discard pile, and the highest total wins (all tied
    players)."""
    game.pending = None
    for seat, score in enumerate(game._round_scores()):
        game.totals[seat] += score
    for player in game.players:
        game.discard.extend(player.cards)
        player.clear()
    game.discard.extend(game.in_play)
    game.in_play = []
    game._stack = []
    top = max(game.totals)
    game.over = True
    game.winners = [seat for seat, total in enumerate(game.totals) if total == top]
