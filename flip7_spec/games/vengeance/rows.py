"""Card references into the players' rows, and the lists of legal references that Vengeance choices offer.

A card reference is the plain JSON value ``{"player": p, "index": i}``: card ``i`` of player ``p``'s
``cards`` list as the observation shows it. Lists of references are always in seat order, then index order,
so that every engine offers the same options in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from flip7_spec.machine import BUSTED, PlayerRound

CardRef = dict[str, int]


def card_ref(player: int, index: int) -> CardRef:
    """The reference to card ``index`` of ``player``'s row."""
    return {"player": player, "index": index}


def row_refs(players: Sequence[PlayerRound], seats: Iterable[int],
             numbers_only: bool = False) -> list[CardRef]:
    """References to the face-up cards of ``seats`` (busted rows are face down and give none), in seat order
    then index order; with ``numbers_only``, Number cards only."""
    refs: list[CardRef] = []
    for seat in sorted(seats):
        player = players[seat]
        if player.status is BUSTED:
            continue
        refs.extend(card_ref(seat, i) for i, c in enumerate(player.cards) if c.is_number or not numbers_only)
    return refs


def swap_pairs(refs: Sequence[CardRef]) -> list[list[CardRef]]:
    """Every unordered pair of ``refs`` from two different rows, as ``[earlier, later]`` in the order of
    ``refs``."""
    return [[a, b] for i, a in enumerate(refs) for b in refs[i + 1:] if a["player"] != b["player"]]


def face_up_on_table(players: Sequence[PlayerRound]) -> bool:
    """Whether any player who has not busted has a card in front of them."""
    return any(p.cards and p.status is not BUSTED for p in players)
