"""Rulesets as data: a deck composition and the options where the sources leave room.

A ruleset is a frozen value. Presets are named rulesets (``flip7`` is the official game); a ruleset file
(TOML or JSON) starts from a preset and changes options or the whole deck::

    name = "seed-003-modifiers"
    base = "flip7"
    description = "The modifiers read in seed 003: +5, +10, +15 and x2."

    [options]
    target_score = 200

    [deck]          # when present, replaces the whole composition: card text = count
    "0" = 1
    "+5" = 1

Every option is listed in :data:`OPTIONS` with its allowed values and the clause it governs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from typing import Any, Final

from flip7_spec.cards import Card, Kind, card
from flip7_spec.errors import ArgumentError, CardError, InputError, RulesetError
from flip7_spec.inputs import read_ruleset_document
from flip7_spec.limits import check_ruleset

# Official base-game deck (clause F7-DECK): one 0, v copies of v for 1..12, six modifiers, nine actions.
FLIP7_DECK: Final[tuple[tuple[str, int], ...]] = (
    ("0", 1),
    *((str(v), v) for v in range(1, 13)),
    ("+2", 1),
    ("+4", 1),
    ("+6", 1),
    ("+8", 1),
    ("+10", 1),
    ("x2", 1),
    ("FREEZE", 3),
    ("FLIP3", 3),
    ("CHANCE", 3),
)


@dataclass(frozen=True, slots=True)
class Option:
    """A ruleset option: its allowed values (``None`` means any value of ``kind``) and its clause."""

    name: str
    kind: type
    choices: tuple[Any, ...] | None
    clause: str
    help: str
    game: str | None = None  # the one game the option applies to; None: every game


OPTIONS: Final[dict[str, Option]] = {
    o.name: o
    for o in [
        Option("initial_deal", bool, None, "F7-DEAL",
               "deal one face-up card to every player at the start of a round (false: seed 000's reading)"),
        Option("deal_start", str, ("left_of_dealer", "dealer"), "F7-DEAL-ORDER",
               "where the deal and the Hit/Stay offers start"),
        Option("second_chance_ends_turn", bool, None, "F7-CHANCE-ENDS-TURN",
               "using a Second Chance on a Hit ends the turn (false: a replacement card is dealt at once; "
               "never for a deal card)",
               "flip7"),
        Option("set_aside_on_bust", str, ("discard", "pass_to_other_active"), "F7-FLIP3-SETASIDE-BUST",
               "what happens to cards set aside in a Flip Three whose target busts or Flips 7", "flip7"),
        Option("tie_at_target", str, ("play_another_round", "shared_win"), "F7-TIE",
               "a tie for the highest total at the end of the game"),
        Option("target_score", int, None, "F7-GAME-END", "the total that ends the game"),
        Option("flip7_bonus", int, None, "F7-FLIP7-BONUS", "the bonus for seven different Numbers"),
        Option("min_players", int, None, "F7-PLAYERS", "the fewest players allowed"),
        Option("max_players", int, None, "F7-PLAYERS", "the most players allowed (0: no limit)"),
        Option("players_per_deck", int, None, "F7-TWO-DECKS",
               "players one deck serves; above it another whole deck is added"),
        # Flip 7: With a Vengeance (RULES.md B.2, C.3, E); see flip7_spec/vengeance/
        Option("special_numbers", bool, None, "V-SPECIAL-NUMBERS",
               "The Zero, Unlucky 7 and Lucky 13 have their effects (false: plain Numbers 0, 7 and 13)",
               "vengeance"),
        Option("flip7_two_13s", str, ("count_once", "count_both"), "V-LUCKY13-FLIP7",
               "how a Lucky 13 and another 13 count toward the seven different Numbers", "vengeance"),
        Option("discard_chooser", str, ("resolver", "victim"), "V-DISCARD-CHOOSER",
               "who picks the card a Discard removes: the player resolving it, or its victim", "vengeance"),
        Option("discard_self", bool, None, "V-DISCARD-SELF",
               "a Discard may be played on the resolver's own row", "vengeance"),
        Option("flip4_self", bool, None, "V-FLIP4-SELF",
               "a Flip Four may target its resolver while another player is not busted", "vengeance"),
        Option("steal_discard_cards", str, ("any", "numbers"), "V-STEAL-DISCARD-CARDS",
               "which face-up cards Steal and Discard may take: any, or Number cards only (seed 004)",
               "vengeance"),
        Option("stay_minimum", str, ("none", "one_card", "two_numbers"), "V-STAY-MINIMUM",
               "what a player must hold to Stay voluntarily", "vengeance"),
        Option("negative_scores", bool, None, "V-SCORE-FLOOR",
               "round scores may go below 0 (false: floored at 0, as in the standard rules)", "vengeance"),
        Option("brutal_mode", bool, None, "V-BRUTAL",
               "the optional Brutal Mode: negative round scores, Modifiers on busted players, and a Flip 7 "
               "may take 15 from another player instead of the bonus", "vengeance"),
    ]
}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A complete, immutable description of the rules of one game variant."""

    name: str = "flip7"
    game: str = "flip7"
    description: str = "Flip 7, official rules (Ruleset Edition 3.1)"
    deck: tuple[tuple[str, int], ...] = FLIP7_DECK
    initial_deal: bool = True
    deal_start: str = "left_of_dealer"
    second_chance_ends_turn: bool = True
    set_aside_on_bust: str = "discard"
    tie_at_target: str = "play_another_round"
    target_score: int = 200
    flip7_bonus: int = 15
    min_players: int = 3
    max_players: int = 0
    players_per_deck: int = 18
    special_numbers: bool = True
    flip7_two_13s: str = "count_once"
    discard_chooser: str = "resolver"
    discard_self: bool = True
    flip4_self: bool = True
    steal_discard_cards: str = "any"
    stay_minimum: str = "none"
    negative_scores: bool = False
    brutal_mode: bool = False
    base: str = field(default="flip7", compare=False)

    def decks_for(self, players: int) -> int:
        """How many whole decks a game of ``players`` uses (clause F7-TWO-DECKS)."""
        return max(1, math.ceil(players / self.players_per_deck))

    def deck_cards(self, players: int = 3) -> list[Card]:
        """The cards of the full deck for ``players`` players, in composition order (not shuffled).

        [F7-DECK] the composition is data; [F7-CUSTOM-DECK] a ruleset file may replace it.
        """
        return list(_deck_of(self.deck, self.decks_for(players)))

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesetError` unless ``players`` is allowed by this ruleset (clause F7-PLAYERS)."""
        if players < self.min_players:
            raise RulesetError(f"ruleset {self.name} needs at least {self.min_players} players, got {players}")
        if self.max_players and players > self.max_players:
            raise RulesetError(f"ruleset {self.name} allows at most {self.max_players} players, got {players}")

    def options(self) -> dict[str, Any]:
        """The values of the options that apply to this ruleset's game, by name."""
        return {name: getattr(self, name) for name, spec in OPTIONS.items()
                if spec.game in (None, self.game)}

    def to_json(self) -> dict[str, Any]:
        """A JSON value that :func:`ruleset_from_json` reads back into an equal ruleset."""
        return {
            "name": self.name,
            "base": self.base,
            "description": self.description,
            "options": self.options(),
            "deck": {text: count for text, count in self.deck},
        }

    def with_options(self, **options: Any) -> Ruleset:
        """A copy with some options changed; each value is checked."""
        return _apply_options(self, options, where="options")


@cache
def _deck_of(composition: tuple[tuple[str, int], ...], decks: int) -> tuple[Card, ...]:
    """The cards of ``decks`` copies of ``composition`` (built once: simulators start many games)."""
    one = [card(text) for text, count in composition for _ in range(count)]
    return tuple(one * decks)


_PRESETS: dict[str, Callable[[], Ruleset]] = {
    "flip7": lambda: Ruleset(),
    "flip7-no-deal": lambda: Ruleset(
        name="flip7-no-deal",
        description="Flip 7 as read by seed 000: no initial deal, the Dealer only offers Hit/Stay in turn",
        initial_deal=False,
    ),
}


def register_preset(name: str, build: Callable[[], Ruleset]) -> None:
    """Add a named preset (used by the Vengeance rules module)."""
    _PRESETS[name] = build


def preset_names() -> list[str]:
    """The names of every preset, sorted."""
    return sorted(_PRESETS)


def preset(name: str) -> Ruleset:
    """The preset called ``name``. Raises :class:`RulesetError` listing the presets if unknown."""
    try:
        return _PRESETS[name]()
    except KeyError:
        raise RulesetError(f"unknown ruleset {name!r}; presets are {', '.join(preset_names())}") from None


def _apply_options(base: Ruleset, options: Mapping[str, Any], where: str) -> Ruleset:
    allowed = {f.name for f in fields(Ruleset)} - {"name", "game", "description", "deck", "base"}
    changes: dict[str, Any] = {}
    for key, value in options.items():
        if key not in allowed:
            raise RulesetError(f"{where}.{key}: unknown option; options are {', '.join(sorted(allowed))}")
        spec = OPTIONS.get(key)
        if spec and spec.game not in (None, base.game):
            raise RulesetError(f"{where}.{key}: applies to {spec.game} rulesets only, not {base.game}")
        kind = spec.kind if spec else type(getattr(base, key))
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesetError(f"{where}.{key}: expected a whole number, got {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise RulesetError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
        if spec and spec.choices is not None and value not in spec.choices:
            raise RulesetError(f"{where}.{key}: expected one of {', '.join(map(str, spec.choices))}, got {value!r}")
        if kind is int and value < 0:
            raise RulesetError(f"{where}.{key}: must not be negative, got {value}")
        changes[key] = value
    ruleset = replace(base, **changes)
    if ruleset.players_per_deck < 1:
        raise RulesetError(f"{where}.players_per_deck: must be at least 1")
    if ruleset.max_players and ruleset.max_players < ruleset.min_players:
        raise RulesetError(f"{where}: max_players is below min_players")
    return ruleset


_GAME_CARD_KINDS: Final = {
    "flip7": frozenset({Kind.NUMBER, Kind.ADD, Kind.MULTIPLY, Kind.FREEZE, Kind.FLIP_THREE, Kind.SECOND_CHANCE}),
    "vengeance": frozenset({Kind.NUMBER, Kind.SUBTRACT, Kind.HALVE, Kind.JUST_ONE_MORE, Kind.FLIP_FOUR, Kind.SWAP,
                            Kind.STEAL, Kind.DISCARD}),
}


def _parse_deck(deck: Any, where: str, game: str = "flip7") -> tuple[tuple[str, int], ...]:
    if not isinstance(deck, Mapping) or not deck:
        raise RulesetError(f"{where}: expected a table of card = count with at least one card")
    parsed: dict[str, int] = {}
    for text, count in deck.items():
        try:
            canonical = card(text).text
        except CardError as error:
            raise RulesetError(f"{where}.{text}: {error}") from None
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesetError(f"{where}.{text}: count must be a whole number >= 0, got {count!r}")
        if canonical in parsed:
            raise RulesetError(f"{where}.{text}: card {canonical} listed twice")
        kind = card(canonical)
        if kind.kind not in _GAME_CARD_KINDS.get(game, frozenset(Kind)) or (game == "flip7" and kind.special):
            raise RulesetError(f"{where}.{text}: card {canonical} has no effect in a {game} game")
        if count:
            parsed[canonical] = count
    if not any(card(t).is_number for t in parsed):
        raise RulesetError(f"{where}: the deck has no Number card")
    return tuple(parsed.items())


def ruleset_from_json(data: Any, where: str = "ruleset") -> Ruleset:
    """Build a ruleset from its JSON (or TOML) value: ``{name, base, description, options, deck}``.

    ``base`` names the preset to start from (default ``flip7``); ``options`` change options; ``deck``,
    when present, replaces the whole composition. Raises :class:`RulesetError` naming the bad key.
    """
    if isinstance(data, str):
        return preset(data)
    if not isinstance(data, Mapping):
        raise RulesetError(f"{where}: expected a preset name or a table, got {type(data).__name__}")
    known = {"name", "base", "description", "options", "deck", "game"}
    for key in data:
        if key not in known:
            raise RulesetError(f"{where}.{key}: unknown key; keys are {', '.join(sorted(known))}")
    base_name = data.get("base", "flip7")
    if not isinstance(base_name, str):
        raise RulesetError(f"{where}.base: expected a preset name")
    ruleset = preset(base_name)
    game = data.get("game", ruleset.game)
    if game != ruleset.game:
        raise RulesetError(f"{where}.game: {game!r} does not match base {base_name!r} ({ruleset.game})")
    name = data.get("name", base_name)
    description = data.get("description", ruleset.description)
    if not isinstance(name, str) or not name:
        raise RulesetError(f"{where}.name: expected a non-empty string")
    if not isinstance(description, str):
        raise RulesetError(f"{where}.description: expected a string")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RulesetError(f"{where}.options: expected a table of option = value")
    ruleset = _apply_options(ruleset, options, f"{where}.options")
    deck = _parse_deck(data["deck"], f"{where}.deck", ruleset.game) if "deck" in data else ruleset.deck
    return check_ruleset(replace(ruleset, name=name, description=description, deck=deck, base=base_name), where)


def load_ruleset(spec: str) -> Ruleset:
    """A preset name, or the path of a ``.toml`` or ``.json`` ruleset file.

    Raises :class:`RulesetError` with the file name and the problem for a bad file.
    """
    if not isinstance(spec, str):
        raise ArgumentError(f"a ruleset is named by a preset name or a file path (str), not {type(spec).__name__}")
    if spec in _PRESETS:
        return preset(spec)
    path = Path(spec)
    if path.suffix.lower() not in (".toml", ".json"):
        raise RulesetError(f"unknown ruleset {spec!r}; give a preset ({', '.join(preset_names())}) "
                           "or a .toml or .json file")
    try:
        data = read_ruleset_document(path)  # a regular file, within the limits, strict JSON or TOML
    except InputError as error:
        raise RulesetError(f"ruleset file {error}") from None
    return ruleset_from_json(data, where=path.name)


import flip7_spec.vengeance.presets  # noqa: E402,F401  (registers the Vengeance presets)
