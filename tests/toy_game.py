"""A toy third game, defined entirely outside the package, to show that a game is a plug-in.

"Freeze Tag": Numbers 1 to 6, two copies each, two Freeze cards and two Tag cards. No deal: players take turns
to Hit or Stay (with no card in front of you, Hit is the only choice); a duplicate Number busts; a Freeze is
aimed by whoever revealed it at any active player, who is out of the round and banks their cards; a Tag stays
in front of whoever revealed it, who draws another card at once. A round ends when nobody is active or the
piles are empty; a player banks the sum of their Numbers (0 once busted). The first total to reach 20 wins; a
tie at the top plays another round.

It names no code of the built-in games: its ruleset class, its clauses, its cards, its frames and its scoring
are here. The Tag is a card of a kind of its own (``TAG``, which the core and the built-in games know
nothing of): listing it among the game's cards is all it takes for traces, the protocol and the schemas to
read it. The Freeze is the base game's card, shared by its text and its kind's name.
``register()`` registers it (``python -m tests.toy_game`` serves it over the protocol).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from flip7_spec.cards import Card, CardType, Family, Kind
from flip7_spec.clauses import Clause
from flip7_spec.errors import CardError
from flip7_spec.events import HIT, STAY, Choice, Decision, DecisionKind, Status
from flip7_spec.machine import ACTIVE, BUSTED, FROZEN, STAYED, Frame, Game, MachineClauses, hit_or_stay, next_active
from flip7_spec.registry import GameDefinition, Role, register_game, unregister_game
from flip7_spec.rulesets import Option, Ruleset, machine_options
from flip7_spec.scoring import Score

TOY_GAME: Final = "freeze-tag"
TOY_PRESET: Final = "freeze-tag"


def _c(clause_id: str, statement: str) -> Clause:
    return Clause(clause_id, TOY_GAME, statement, "tests/toy_game.py", "H", "-")


TOY_CLAUSES: Final = [
    _c("TOY-DECK", "The deck holds two each of the Numbers 1 to 6 and two Freeze cards."),
    _c("TOY-TURN", "Players take turns to Hit or Stay; with no card in front of you, Hit is the only choice."),
    _c("TOY-BUST", "A duplicate Number busts: the player is out and banks nothing."),
    _c("TOY-FREEZE", "A Freeze is aimed by its revealer at any active player, who is out and banks."),
    _c("TOY-TAG", "A Tag stays in front of its revealer, who draws another card at once."),
    _c("TOY-ROUND", "A round ends when nobody is active or nothing is left to draw; cards go to the discard "
                    "pile, the dealer passes left, the discard pile is reshuffled when the deck runs out."),
    _c("TOY-SCORE", "A player banks the sum of their Numbers."),
    _c("TOY-END", "The first total to reach 20 wins; a tie at the top plays another round."),
    _c("TOY-FORCED", "A decision with one legal choice is made at once."),
]

FREEZE: Final = Kind("freeze", Family.ACTION)
"""The base game's Freeze kind, named as it names it (a kind is one per name)."""
TAG: Final = Kind("tag", Family.ACTION)
"""The toy's own kind of card."""

TOY_CARDS: Final = (
    *(CardType(str(v), Kind.NUMBER, v) for v in range(1, 7)),
    CardType("FREEZE", FREEZE, name="Freeze", kept=True, clauses=("TOY-FREEZE",)),
    CardType("TAG", TAG, name="Tag", label="Tag!", kept=True, draws=1, aliases=("TAG!",), clauses=("TOY-TAG",)),
)
TOY_DECK: Final = (*((str(v), 2) for v in range(1, 7)), ("FREEZE", 2), ("TAG", 2))


@dataclass(frozen=True, slots=True)
class ToyRuleset(Ruleset):
    """The toy game's ruleset: the shared options only."""

    OPTIONS: ClassVar[Mapping[str, Option]] = machine_options(
        deal="TOY-TURN", deal_order="TOY-TURN", tie="TOY-END", game_end="TOY-END", bonus="TOY-SCORE",
        players="TOY-TURN", decks="TOY-DECK", reshuffle="TOY-ROUND", reshuffle_emptied="TOY-ROUND",
        round_limit="TOY-END")
    CARD_KINDS: ClassVar[frozenset[Kind]] = frozenset(t.kind for t in TOY_CARDS)

    name: str = TOY_PRESET
    game: str = TOY_GAME
    description: str = "Freeze Tag, a toy game of the Flip 7 family"
    deck: tuple[tuple[str, int], ...] = TOY_DECK
    initial_deal: bool = False
    target_score: int = 20
    min_players: int = 2
    max_players: int = 4
    base: str = field(default=TOY_PRESET, compare=False)


class Turns(Frame["ToyGame"]):
    """The Hit/Stay rotation."""

    __slots__ = ("pos",)

    def __init__(self) -> None:
        self.pos = 0

    def step(self, game: ToyGame) -> None:
        self.pos = next_active(game.order, game.players, self.pos)
        seat = game.order[self.pos]
        if game.players[seat].cards:
            game._ask(hit_or_stay(seat))
        else:
            game._forced(hit_or_stay(seat, (HIT,)), "TOY-TURN")

    def decide(self, game: ToyGame, choice: Choice) -> None:
        seat = game.order[self.pos]
        self.pos += 1
        if choice == STAY:
            game._set_status(seat, STAYED)
            game._emit("stay", "TOY-TURN", seat)
            return
        row = game.players[seat]
        drawn = game._draw()
        via = "hit"
        while drawn is not None and drawn.kind is TAG:
            game._emit("draw", "TOY-TURN" if via == "hit" else "TOY-TAG", seat, drawn.text, (("via", via),))
            row.cards.append(drawn)  # [TOY-TAG] the Tag stays, and its revealer draws again
            via = "tag"
            drawn = game._draw()
        if drawn is None:
            return
        game._emit("draw", "TOY-TURN" if via == "hit" else "TOY-TAG", seat, drawn.text, (("via", via),))
        if drawn.kind is FREEZE:
            game.in_play.append(drawn)
            game._stack.append(Aim(drawn, seat))
        elif drawn.value in row.values:
            row.cards.append(drawn)
            game._set_status(seat, BUSTED)
            game._emit("bust", "TOY-BUST", seat, drawn.text)
        else:
            row.cards.append(drawn)
            row.values.add(drawn.value)


class Aim(Frame["ToyGame"]):
    """A revealed Freeze waiting for its target."""

    __slots__ = ("chooser", "freeze")

    def __init__(self, freeze: Card, chooser: int) -> None:
        self.freeze = freeze
        self.chooser = chooser

    def step(self, game: ToyGame) -> None:
        options = tuple(game._active_seats())
        game._offer(Decision(self.chooser, DecisionKind.TARGET, options, self.freeze.text), "TOY-FREEZE")

    def decide(self, game: ToyGame, choice: Choice) -> None:
        game._stack.pop()
        game.in_play.remove(self.freeze)
        game.players[choice].cards.append(self.freeze)
        game._set_status(choice, FROZEN)
        game._emit("freeze", "TOY-FREEZE", choice, self.freeze.text)


def toy_score(ruleset: ToyRuleset, hand: Sequence[Card], busted: bool = False) -> Score:
    """The sum of the Numbers, 0 once busted."""
    total = 0 if busted else sum(c.value for c in hand if c.is_number)
    return Score(total, total, total, 0, total, False, busted)


def toy_round_score(ruleset: ToyRuleset, hand: Sequence[Card], busted: bool = False) -> int:
    return toy_score(ruleset, hand, busted).total


def check_toy_hand(ruleset: ToyRuleset, hand: Sequence[Card], players: int = 2) -> None:
    values = [c.value for c in hand if c.is_number]
    if len(values) != len(set(values)):
        raise CardError("a Number appears twice: that player would have busted")


class ToyGame(Game):
    """One game of Freeze Tag."""

    CLAUSES: ClassVar[MachineClauses] = MachineClauses(
        deal="TOY-TURN", forced_choice="TOY-FORCED", empty_deck="TOY-ROUND", reshuffle="TOY-ROUND",
        score="TOY-SCORE", winner="TOY-END", tie="TOY-END", reshuffle_emptied="TOY-ROUND", round_limit="TOY-END",
        unreachable="TOY-END", endless="TOY-END")

    def round_score(self, seat: int) -> int:
        row = self.players[seat]
        return toy_round_score(self.ruleset, row.cards, row.status is BUSTED)

    def _begin_round(self) -> Frame[ToyGame]:
        return Turns()

    def _round_scores(self) -> list[int]:
        return [self.round_score(seat) for seat in range(self.n)]


def _choose(game: Game, decision: Decision) -> Choice:
    return decision.options[0]


ROLES: Final = {role: "TOY-ROUND" for role in Role} | {
    Role.DECK: "TOY-DECK", Role.HIT_STAY: "TOY-TURN", Role.STAY_MINIMUM: "TOY-TURN", Role.BUST: "TOY-BUST",
    Role.OUT_OF_ROUND: "TOY-FREEZE", Role.ACTION_TARGET: "TOY-FREEZE", Role.SCORE: "TOY-SCORE",
    Role.SCORE_BUST: "TOY-BUST", Role.GAME_END: "TOY-END", Role.WINNER: "TOY-END", Role.TIE: "TOY-END",
}

DEFINITION: Final = GameDefinition(
    name=TOY_GAME,
    title="Freeze Tag",
    game_class=ToyGame,
    ruleset_class=ToyRuleset,
    presets=((TOY_PRESET, ToyRuleset),),
    clauses=TOY_CLAUSES,
    roles=ROLES,
    score=toy_score,
    round_score=toy_round_score,
    check_hand=check_toy_hand,
    decision_clause=lambda kind, card: "TOY-FREEZE" if kind == DecisionKind.TARGET else None,
    scoring_clause=lambda row: "TOY-BUST" if row.get("status") == Status.BUSTED else "TOY-SCORE",
    policy_choice=_choose,
    statuses=frozenset({ACTIVE, STAYED, FROZEN, BUSTED}),
    cards=TOY_CARDS,
)


def register() -> None:
    """Register the toy game (once)."""
    from flip7_spec.registry import game_names

    if TOY_GAME not in game_names():
        register_game(DEFINITION)


def unregister() -> None:
    """Remove the toy game from the registry."""
    unregister_game(TOY_GAME)


def engine_main(args: Any = None) -> None:
    """Serve the reference, with the toy game registered, over the protocol (stdin/stdout)."""
    from flip7_spec.protocol.server import serve

    register()
    serve()


if __name__ == "__main__":
    engine_main()
