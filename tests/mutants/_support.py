"""What the mutant engines share: an adapter that plays a subclass of the reference game, and a game whose
round scoring is replaced.

A mutant changes the base game (``flip7``) only: a Vengeance ruleset is played by the plain reference, so
that running a mutant against every preset reports the one bug it has and nothing else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from flip7_spec.cards import Card, cards
from flip7_spec.engine import BUSTED, STAYED, Game
from flip7_spec.protocol.adapter import ReferenceAdapter
from flip7_spec.rulesets import Ruleset, ruleset_from_json
from flip7_spec.scoring import round_score


class MutantAdapter(ReferenceAdapter):
    """The reference adapter, playing ``game_class`` with ``forced_options`` set on every base-game ruleset.

    ``forced_options`` turns a documented variant into a bug: the engine plays that reading whatever the
    ruleset it was given says.
    """

    game_class: ClassVar[type[Game]] = Game
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


class ScoredGame(Game):
    """The reference game with its round scores, shown and banked alike, computed by ``scorer`` (the
    adapter's :meth:`MutantAdapter.hand_score`, set before the game starts)."""

    scorer: HandScorer

    def round_score(self, seat: int) -> int:
        player = self.players[seat]
        return self.scorer(self.ruleset, player.cards, player.status)

    def _round_scores(self) -> list[int]:
        return [self.round_score(seat) for seat in range(self.n)]
