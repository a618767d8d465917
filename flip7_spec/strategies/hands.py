"""Possible final hands of one player, for scoring."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from flip7_spec.cards import Card, card
from flip7_spec.errors import CardError
from flip7_spec.play import check_hand
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset
from flip7_spec.strategies.setups import deck_texts


@dataclass(frozen=True, slots=True)
class FinalHand:
    """One player's cards when a round ends, in the order received, and whether they busted."""

    cards: tuple[str, ...]
    busted: bool

    def as_cards(self) -> list[Card]:
        """The hand as cards."""
        return [card(t) for t in self.cards]


@st.composite
def hands(draw: st.DrawFn, ruleset: Ruleset, players: int = 3, busted: bool | None = None) -> FinalHand:
    """Possible final hands under ``ruleset``: different Number values (at most seven), any of the deck's
    Modifiers, and the game's Actions that stay in front of a player (the base game's Second Chance, the Freeze
    of a frozen player: :attr:`~flip7_spec.cards.CardType.kept`); in any order. A
    non-busted hand always passes :func:`~flip7_spec.scoring.check_hand`; a busted hand (``busted`` True,
    or drawn when None) holds one Number value twice (its last card is not necessarily the duplicate)."""
    deck = Counter(deck_texts(ruleset, players))
    by_value: dict[int, list[str]] = {}
    for text in sorted(deck):
        c = card(text)
        if c.is_number:
            by_value.setdefault(c.value, []).append(text)
    is_busted = draw(st.booleans()) if busted is None else busted
    values = sorted(by_value)
    if is_busted:
        values = [v for v in values if sum(deck[t] for t in by_value[v]) >= 2]
        if not values:
            raise InvalidArgument(f"ruleset {ruleset.name}: no Number value has two copies to bust with")
    chosen_values = draw(st.lists(st.sampled_from(values), unique=True, min_size=1 if is_busted else 0,
                                  max_size=6 if is_busted else 7))
    hand = [draw(st.sampled_from(by_value[v])) for v in chosen_values]
    if is_busted:
        value = draw(st.sampled_from(chosen_values))
        spare = [t for t in by_value[value] if deck[t] - hand.count(t) > 0]
        hand.append(draw(st.sampled_from(spare)))
    modifiers = [t for t, count in sorted(deck.items()) for _ in range(count) if card(t).is_modifier]
    if modifiers:
        picked = draw(st.lists(st.integers(0, len(modifiers) - 1), unique=True, max_size=len(modifiers)))
        hand += [modifiers[i] for i in picked]
    # the cards that stay in front of a player in the game (the base game's Second Chance and Freeze)
    for kept in sorted(t.text for t in definition_of(ruleset).cards if t.kept):
        if deck[kept] and draw(st.booleans()):
            hand.append(kept)
    ordered = draw(st.permutations(hand))
    if not is_busted:
        try:
            check_hand(ruleset, [card(t) for t in ordered], players)
        except CardError:
            from hypothesis import reject

            reject()  # a Vengeance hand its own rules exclude (a Lucky 13 pair needs the Lucky 13, ...)
    return FinalHand(tuple(ordered), is_busted)
