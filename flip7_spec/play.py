"""The rules of whichever game a ruleset names: start a game, score a hand, check a hand.

These are the entry points of the public API (:func:`new_game`, :func:`score`, :func:`round_score`,
:func:`check_hand`); each finds the game's definition through :mod:`flip7_spec.registry`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache

from flip7_spec.arguments import check_game_arguments
from flip7_spec.cards import Card, card
from flip7_spec.errors import SetupError
from flip7_spec.events import Event
from flip7_spec.machine import Game, Reshuffler
from flip7_spec.misreadings import game_class_for
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset
from flip7_spec.scoring import Score


def score(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> Score:
    """The round score of a player holding ``hand`` at the end of a round, step by step, under ``ruleset``'s
    game. Does not check that the hand is possible: see :func:`check_hand`.

    >>> from flip7_spec import cards, preset
    >>> score(preset("flip7"), cards("3 11 5 7 10 x2")).total
    72
    """
    return definition_of(ruleset).score(ruleset, hand, busted)


def round_score(ruleset: Ruleset, hand: Sequence[Card], busted: bool = False) -> int:
    """The round score as a number: the same rules as :func:`score`, without building the breakdown.

    >>> from flip7_spec import cards, preset
    >>> round_score(preset("flip7"), cards("3 11 5 7 10 +10"))
    46
    """
    return definition_of(ruleset).round_score(ruleset, hand, busted)


def check_hand(ruleset: Ruleset, hand: Sequence[Card], players: int = 3) -> None:
    """Raise :class:`~flip7_spec.errors.CardError` unless ``hand`` could be a non-busted player's cards at a
    round's end under ``ruleset`` (cards of its deck, no duplicate Number, ...)."""
    definition_of(ruleset).check_hand(ruleset, hand, players)


def _ruleset_deck_check(ruleset: Ruleset, players: int, deck: Sequence[Card]) -> None:
    expected = Counter(c.text for c in ruleset.deck_cards(players))
    given = Counter(c.text for c in deck)
    if expected != given:
        missing = expected - given
        extra = given - expected
        parts = []
        if missing:
            parts.append("missing " + " ".join(f"{t}x{k}" if k > 1 else t for t, k in sorted(missing.items())))
        if extra:
            parts.append("extra " + " ".join(f"{t}x{k}" if k > 1 else t for t, k in sorted(extra.items())))
        raise SetupError(f"the deck is not a permutation of the {ruleset.name} deck for {players} players "
                         f"({len(deck)} cards, expected {sum(expected.values())}): {'; '.join(parts)}")


def new_game(
    ruleset: Ruleset,
    players: int,
    deck: Sequence[Card] | Sequence[str],
    dealer: int = 0,
    reshuffles: Iterable[Sequence[Card]] = (),
    reshuffler: Reshuffler | None = None,
    record: bool = True,
    check_deck: bool = True,
) -> tuple[Game, list[Event]]:
    """Start a game and run it to its first decision; returns the game and the events so far.

    ``deck`` is the whole draw pile, top card first, and must be a permutation of the ruleset's deck for
    that many players (its game's deck clauses). Reshuffle orders come from ``reshuffles`` first, then
    from ``reshuffler`` (which receives the discard pile and returns the new order, top first). Raises
    :class:`SetupError` for a bad player count, dealer or deck, :class:`~flip7_spec.errors.ArgumentError` for
    an argument of the wrong type and :class:`~flip7_spec.errors.LimitError` for one over a limit.
    """
    check_game_arguments(ruleset, players, deck, dealer, reshuffles, reshuffler)  # types and limits first
    if players < 1:
        raise SetupError(f"a game needs at least one player, got {players}")
    try:
        ruleset.check_players(players)
    except Exception as error:
        raise SetupError(str(error)) from None
    if not 0 <= dealer < players:
        raise SetupError(f"dealer must be a seat from 0 to {players - 1}, got {dealer}")
    cards_ = [c if isinstance(c, Card) else card(c) for c in deck]
    if check_deck:
        _ruleset_deck_check(ruleset, players, cards_)
    game = make_game(ruleset, players, cards_, dealer, reshuffler, record, reshuffles)
    return game, game.start()


def make_game(
    ruleset: Ruleset,
    players: int,
    deck: Sequence[Card],
    dealer: int,
    reshuffler: Reshuffler | None = None,
    record: bool = True,
    reshuffles: Iterable[Sequence[Card]] = (),
) -> Game:
    """A game of the class of ``ruleset``'s game, not yet started and with no checks (see :func:`new_game`)
    but the one that no game could end under ``ruleset`` (:func:`check_reachable`)."""
    check_reachable(ruleset)
    game_class = definition_of(ruleset).game_class
    if not ruleset.deviations:
        return game_class(ruleset, players, dealer, deck, reshuffles, reshuffler, record)
    # a known engine's readings, played by the reference (flip7_spec.misreadings)
    game_class = game_class_for(game_class, ruleset.game, ruleset.misreadings())
    game = game_class(ruleset.played(), players, dealer, deck, reshuffles, reshuffler, record)
    game.named_ruleset = ruleset
    return game


@cache
def check_reachable(ruleset: Ruleset) -> None:
    """Raise :class:`SetupError` when no game under ``ruleset`` could ever end: no hand of its deck scores a
    point, the target score is above 0 and there is no round limit (the game's ``unreachable`` clause).

    A hand scores a point if one of its cards does alone, or if seven different Numbers give the Flip 7
    bonus: every other card adds nothing, multiplies a sum of 0 or takes points away.
    """
    if ruleset.round_limit or ruleset.target_score <= 0:
        return
    definition = definition_of(ruleset)
    composition = [card(text) for text, count in ruleset.deck if count > 0]
    scoring = [c for c in composition if c.is_number or c.is_modifier]
    hands = [[c] for c in scoring]
    numbers = {c.value: c for c in scoring if c.is_number}
    if len(numbers) >= 7:
        hands.append(list(numbers.values())[:7])
    if any(definition.round_score(ruleset, hand, False) > 0 for hand in hands):
        return
    clause = definition.game_class.CLAUSES.unreachable
    raise SetupError(f"ruleset {ruleset.name}: no hand of its deck scores a point, so the target score of "
                     f"{ruleset.target_score} can never be reached and no game could end [{clause}]")
