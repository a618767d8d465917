"""``flip7-spec score``: the round score of one player's final cards."""

from __future__ import annotations

import click

from flip7_spec.cards import cards
from flip7_spec.cli.common import ruleset_option, say, within
from flip7_spec.limits import PLAYERS, check_game_size
from flip7_spec.play import check_hand, score
from flip7_spec.rulesets import Ruleset


@click.command("score", context_settings={"ignore_unknown_options": True})
@ruleset_option()
@click.option("--players", type=click.IntRange(1), default=3, show_default=True, callback=within(PLAYERS),
              help="player count (more than 18 adds a deck, which allows more copies)")
@click.option("--busted", is_flag=True, help="the player busted (scores 0)")
@click.option("--explain", is_flag=True, help="print each scoring step before the total")
@click.argument("card_texts", metavar="CARD...", nargs=-1, required=True, type=click.UNPROCESSED)
def command(ruleset: Ruleset, players: int, busted: bool, explain: bool, card_texts: tuple[str, ...]) -> None:
    """Print the round score of a player holding CARD... at the end of a round (last line of stdout).

    Cards are written in their short form: numbers 0-12, +2 +4 +6 +8 +10, x2, FREEZE, CHANCE (and for
    Vengeance ZERO U7 L13 -2 ... -10 /2; a card such as -4 is read as a card, not an option). A hand that
    cannot occur is an error (exit 2).

    \b
    Example: flip7-spec score 3 11 5 7 10 x2   ->  72
    """
    check_game_size(ruleset, players)  # the hand is checked against the whole deck of that many players
    hand = cards(list(card_texts))
    if not busted:
        check_hand(ruleset, hand, players)
    result = score(ruleset, hand, busted)
    if explain:
        for line in result.steps()[:-1]:
            say(line)
    say(str(result.total))
