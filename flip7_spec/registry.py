"""The registry of games: each game of the family registers one :class:`GameDefinition`, the core looks it up.

A game is a plug-in: a folder (``flip7_spec/games/<name>/`` for the built-in ones, or any importable module
outside the package) that defines its ruleset class and presets, its clauses, its :class:`~flip7_spec.machine.Game`
subclass with its frames, and its round scoring, and calls :func:`register_game` once. Nothing in the core
names a game: replay, the protocol, conformance, the prover and the command line find what they need here,
by the name a ruleset carries (``ruleset.game``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from flip7_spec.cards import Card, CardType, Kind, register_card_types, unregister_card_types
from flip7_spec.clauses import Clause, register, unregister
from flip7_spec.errors import RulesetError
from flip7_spec.events import Choice, Decision, Status
from flip7_spec.evidence import Evidence
from flip7_spec.machine import Game
from flip7_spec.misreadings import Misreading, register_misreadings, unregister_misreadings
from flip7_spec.rulesets import Ruleset, register_preset, unregister_presets
from flip7_spec.scoring import Score


class Role(StrEnum):
    """A rule that the core must sometimes name without an event of the game to read it from (a divergence
    found in a pile size, a total, the dealer, ...). Each game says which of its clauses plays each role."""

    DECK = "deck"
    """The composition of the deck."""
    HIT_STAY = "hit_stay"
    """The Hit-or-Stay turn (the default blame for a decision)."""
    STAY_MINIMUM = "stay_minimum"
    """When a player may not Stay."""
    ACTION_TARGET = "action_target"
    """Who an Action is aimed at."""
    BUST = "bust"
    FLIP7 = "flip7"
    OUT_OF_ROUND = "out_of_round"
    """A player put out of the rotation without busting (a Freeze, or a Stay forced by an Action)."""
    SCORE = "score"
    SCORE_BUST = "score_bust"
    BANK = "bank"
    """Round scores added to the totals."""
    DISCARD_PILE = "discard_pile"
    """Where the round's cards go at its end."""
    RESHUFFLE = "reshuffle"
    ROUND_END = "round_end"
    ALL_OUT = "all_out"
    """The round ends when nobody is left in it."""
    DEALER_ROTATION = "dealer_rotation"
    GAME_END = "game_end"
    WINNER = "winner"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """A hand scored in a game's rule book: its cards, the printed total, the clause it illustrates, and the
    options whose official values the printed total assumes."""

    id: str
    hand: str
    printed: int
    clause: str
    options: tuple[str, ...] = ()


def _no_symbolic() -> None:
    return None


def _never_below_zero(ruleset: Any) -> bool:
    return False


def _no_checks(game: Any) -> None:
    return None


def _no_witness(evidence: Evidence) -> Iterable[str]:
    return ()


def _no_legal_options(ruleset: Any, observation: Mapping[str, Any]) -> list[Choice] | None:
    return None


@dataclass(frozen=True)
class GameDefinition:
    """Everything the core needs to know of one game, found by its name.

    The callables are the game's own rules: ``score`` gives the breakdown of a round score, ``round_score``
    the number alone (the fast path), ``check_hand`` raises :class:`~flip7_spec.errors.CardError` unless a
    hand can be a player's final cards; ``decision_clause`` names the clause behind the options of a pending
    decision (by its kind and card, None when the game has no better answer than its Hit/Stay role);
    ``scoring_clause`` names the most specific scoring clause for one player's row as an observation shows it;
    ``policy_choice`` is a simple sensible choice for the game's own kinds of decision (simulated players use
    it); ``symbolic`` returns the game's z3 plug-in (loaded only when called, so that the spec never loads z3).
    """

    name: str
    title: str
    game_class: type[Game]
    ruleset_class: type[Ruleset]
    presets: Sequence[tuple[str, Callable[[], Ruleset]]]
    clauses: Sequence[Clause]
    roles: Mapping[Role, str]
    score: Callable[[Any, Sequence[Card], bool], Score]
    round_score: Callable[[Any, Sequence[Card], bool], int]
    check_hand: Callable[[Any, Sequence[Card], int], None]
    decision_clause: Callable[[str, str], str | None]
    scoring_clause: Callable[[Mapping[str, Any]], str]
    policy_choice: Callable[[Game, Decision], Choice]
    worked_examples: Sequence[WorkedExample] = ()
    """The rule book's scored hands, sent to engines as scoring cases with their printed totals."""
    statuses: frozenset[Status] = frozenset(Status)
    """The statuses a player can have in this game."""
    scores_below_zero: Callable[[Any], bool] = field(default=_never_below_zero)
    """Whether a round score can be negative under a ruleset (so a total may fall)."""
    check_state: Callable[[Any], None] = field(default=_no_checks)
    """The game's own invariants of a state at a decision (raises AssertionError), beyond the shared ones."""
    symbolic: Callable[[], Any] = field(default=_no_symbolic)
    default_preset: bool = False
    """Whether the game's first preset is the default ruleset (the built-in Flip 7 is)."""
    misreadings: Sequence[Misreading] = ()
    """The game's catalogue of known misreadings (:mod:`flip7_spec.misreadings`), tried by the diagnosis."""
    clause_witness: Callable[[Evidence], Iterable[str]] = field(default=_no_witness)
    """The clauses a played game shows applied beyond its events' own clauses (see :mod:`flip7_spec.evidence`)."""
    cards: Sequence[CardType] = ()
    """The game's cards (every card of its official decks, :class:`~flip7_spec.cards.CardType`): registering
    the game teaches the card reader its own card texts; the pages, the steering, the strategies and the
    coverage read the rest from here instead of listing card texts again."""
    legal_options: Callable[[Any, Mapping[str, Any]], list[Choice] | None] = field(default=_no_legal_options)
    """The game's judge of legal choices: given a ruleset and a canonical observation, the choices the rules
    allow for its pending decision, in the canonical order, or None when the observation alone does not say
    (the ``legal`` conformance level then judges that decision by the step-by-step comparison alone). The
    default judges nothing."""

    def clause_of(self, role: Role) -> str:
        """The clause of this game that plays ``role``."""
        return self.roles[role]

    @cached_property
    def card_types(self) -> Mapping[str, CardType]:
        """The game's cards by canonical text."""
        return {listed.text: listed for listed in self.cards}

    def card_type(self, text: str) -> CardType | None:
        """The game's card written ``text`` (canonical), or None when the game does not list it (a card of
        the shared notation that only a ruleset file's deck holds, say)."""
        return self.card_types.get(text)

    @cached_property
    def clause_cards(self) -> Mapping[str, frozenset[str]]:
        """For a clause about particular cards, those cards (any one will do): a deck without them cannot
        reach it (each card's :attr:`~flip7_spec.cards.CardType.clauses`)."""
        found: dict[str, set[str]] = {}
        for listed in self.cards:
            for clause_id in listed.clauses:
                found.setdefault(clause_id, set()).add(listed.text)
        return {clause_id: frozenset(texts) for clause_id, texts in found.items()}

    @cached_property
    def card_kinds(self) -> frozenset[Kind]:
        """The kinds of the game's cards."""
        return frozenset(listed.kind for listed in self.cards)

    def has_cards(self, texts: Iterable[str]) -> bool:
        """Whether the game lists every card of ``texts``."""
        return all(text in self.card_types for text in texts)

    @cached_property
    def plain_numbers(self) -> bool:
        """Whether every Number card of the game is a plain one (no Number with an effect of its own: two
        Numbers of one value are then alike)."""
        return all(listed.special is None for listed in self.cards if listed.kind is Kind.NUMBER)


_GAMES: dict[str, GameDefinition] = {}
_REVISION: list[int] = [0]


def revision() -> int:
    """A number that changes whenever a game is registered or removed (what depends on the registered games
    and their cards, such as the schemas' card texts, is cached by it)."""
    return _REVISION[0]


def register_game(definition: GameDefinition) -> GameDefinition:
    """Register a game: its cards, its clauses, its presets and its definition. Raises :class:`RulesetError`
    when a game of that name is registered already, ``ValueError`` when a role is left without a clause, and
    :class:`~flip7_spec.errors.CardError` when one of its cards clashes with a card the reader knows (another
    card of that text, an alias read as another card), registering nothing."""
    if definition.name in _GAMES:
        raise RulesetError(f"game {definition.name!r} is registered twice")
    missing = [role.value for role in Role if role not in definition.roles]
    if missing:
        raise ValueError(f"game {definition.name}: no clause for the roles {', '.join(missing)}")
    register_card_types(definition.name, definition.cards)
    register(definition.clauses)
    register_misreadings(definition.name, definition.misreadings)
    for index, (name, build) in enumerate(definition.presets):
        register_preset(name, build, default=definition.default_preset and index == 0)
    _GAMES[definition.name] = definition
    _REVISION[0] += 1
    return definition


def unregister_game(name: str) -> None:
    """Remove a registered game with its clauses and presets (for tests of a game of one's own)."""
    definition = _GAMES.pop(name, None)
    if definition is None:
        return
    unregister(c.id for c in definition.clauses)
    unregister_misreadings(name)
    unregister_presets(preset for preset, _ in definition.presets)
    unregister_card_types(name)
    _REVISION[0] += 1


def game_definition(name: str) -> GameDefinition:
    """The definition of the game called ``name``. Raises :class:`RulesetError` listing the games if unknown."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise RulesetError(f"unknown game {name!r:.60}; games are {', '.join(game_names())}") from None


def definition_of(ruleset: Ruleset) -> GameDefinition:
    """The definition of the game ``ruleset`` is a ruleset of."""
    return game_definition(ruleset.game)


def game_names() -> list[str]:
    """The names of every registered game, in registration order."""
    return list(_GAMES)
