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

Each game brings its own :class:`Ruleset` subclass, whose :attr:`Ruleset.OPTIONS` lists every option with
its allowed values and the clause it governs, and registers its presets here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from flip7_spec.cards import Card, Kind, card
from flip7_spec.errors import ArgumentError, CardError, InputError, RulesetError
from flip7_spec.inputs import read_ruleset_document
from flip7_spec.limits import DECK_CARDS, check_ruleset
from flip7_spec.misreadings import Deviation, misreading, misreading_names, option_deviations


@dataclass(frozen=True, slots=True)
class Option:
    """A ruleset option: its allowed values (``None`` means any value of ``kind``) and its clause."""

    name: str
    kind: type
    choices: tuple[Any, ...] | None
    clause: str
    help: str
    value_clauses: Mapping[Any, str] = field(default_factory=dict)
    """The clause of each value, when each value is a reading of its own (the default's is ``clause``)."""

    def clause_of(self, value: Any) -> str:
        """The clause that states the rule under ``value``."""
        return self.value_clauses.get(value, self.clause)

    def values(self) -> list[Any] | None:
        """Every allowed value, or None when any value of ``kind`` is allowed (whole numbers)."""
        if self.choices is not None:
            return list(self.choices)
        if self.kind is bool:
            return [True, False]
        return None


def machine_options(deal: str, deal_order: str, tie: str, game_end: str, bonus: str, players: str,
                    decks: str, reshuffle: str, reshuffle_emptied: str, round_limit: str,
                    no_deal: str | None = None) -> dict[str, Option]:
    """The options of the rules every game runs on the shared machine, under the clause ids of one game."""
    return {o.name: o for o in [
        Option("reshuffle_moment", str, ("when_needed", "when_emptied"), reshuffle,
               "when the discard pile becomes the new deck: when a card is needed and none is left, or as soon "
               "as the last card is drawn", {"when_emptied": reshuffle_emptied}),
        Option("round_limit", int, None, round_limit,
               "end the game after this many rounds, won by whoever reached the target (0: no limit)"),
        Option("initial_deal", bool, None, deal,
               "deal one face-up card to every player at the start of a round (false: seed 000's reading)",
               {False: no_deal} if no_deal else {}),
        Option("deal_start", str, ("left_of_dealer", "dealer"), deal_order,
               "where the deal and the Hit/Stay offers start"),
        Option("tie_at_target", str, ("play_another_round", "shared_win"), tie,
               "a tie for the highest total at the end of the game"),
        Option("target_score", int, None, game_end, "the total that ends the game"),
        Option("flip7_bonus", int, None, bonus, "the bonus for seven different Numbers"),
        Option("min_players", int, None, players, "the fewest players allowed"),
        Option("max_players", int, None, players, "the most players allowed (0: no limit)"),
        Option("players_per_deck", int, None, decks,
               "players one deck serves; above it another whole deck is added"),
    ]}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A complete, immutable description of the rules of one game variant.

    This class holds what every game shares (the deck, the deal, the end of the game); each game subclasses
    it with its own options as fields and lists every option that applies to it in :attr:`OPTIONS`.
    """

    OPTIONS: ClassVar[Mapping[str, Option]] = {}
    """Every option of this ruleset's game, by name, with its allowed values and clause."""
    CARD_KINDS: ClassVar[frozenset[Kind]] = frozenset()
    """The kinds of card that have an effect in this ruleset's game."""

    name: str = ""
    game: str = ""
    description: str = ""
    deck: tuple[tuple[str, int], ...] = ()
    initial_deal: bool = True
    deal_start: str = "left_of_dealer"
    tie_at_target: str = "play_another_round"
    target_score: int = 200
    flip7_bonus: int = 15
    min_players: int = 3
    max_players: int = 0
    players_per_deck: int = 18
    reshuffle_moment: str = "when_needed"
    round_limit: int = 0
    deviations: tuple[str, ...] = ()
    """Readings the reference plays beyond the options, to follow a known engine (a fingerprint): catalogue
    misreadings by name (:mod:`flip7_spec.misreadings`) and option readings as ``option=value``. An engine
    is sent the ruleset without them (:meth:`for_engine`)."""
    base: str = field(default="", compare=False)

    def decks_for(self, players: int) -> int:
        """How many whole decks a game of ``players`` uses (one more for each ``players_per_deck`` players)."""
        return max(1, math.ceil(players / self.players_per_deck))

    def deck_cards(self, players: int = 3) -> list[Card]:
        """The cards of the full deck for ``players`` players, in composition order (not shuffled). Raises
        :class:`ArgumentError` for a player count that is not a whole number, :class:`LimitError` for a deck
        over the deck size limit."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise ArgumentError(f"players must be a whole number, not {type(players).__name__}")
        DECK_CARDS.check(sum(count for _, count in self.deck) * self.decks_for(players),
                         f"the deck of {self.name} for {players:,} players")
        return list(_deck_of(self.deck, self.decks_for(players)))

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesetError` unless ``players`` is allowed by this ruleset."""
        if players < self.min_players:
            raise RulesetError(f"ruleset {self.name} needs at least {self.min_players} players, got {players}")
        if self.max_players and players > self.max_players:
            raise RulesetError(f"ruleset {self.name} allows at most {self.max_players} players, got {players}")

    def options(self) -> dict[str, Any]:
        """The values of the options that apply to this ruleset's game, by name."""
        return {name: getattr(self, name) for name in self.OPTIONS}

    def to_json(self) -> dict[str, Any]:
        """A JSON value that :func:`ruleset_from_json` reads back into an equal ruleset."""
        out: dict[str, Any] = {
            "name": self.name,
            "base": self.base,
            "description": self.description,
            "options": self.options(),
            "deck": {text: count for text, count in self.deck},
        }
        if self.deviations:
            out["deviations"] = list(self.deviations)
        return out

    def for_engine(self) -> Ruleset:
        """This ruleset as an engine is asked to play it: without the deviations (the engine plays its own)."""
        return replace(self, deviations=()) if self.deviations else self

    def readings(self) -> tuple[Deviation, ...]:
        """The deviations, each read as the reading it names."""
        return tuple(Deviation.parse(text) for text in self.deviations)

    def played(self) -> Ruleset:
        """The ruleset the reference plays: the option readings among the deviations applied (the
        misreadings stay listed; :func:`flip7_spec.play.make_game` plays them)."""
        readings = option_deviations(self.readings())
        if not readings:
            return self
        return _apply_options(self, readings, where="deviations")

    def misreadings(self) -> tuple[str, ...]:
        """The catalogue misreadings among the deviations, in order."""
        return misreading_names(self.readings())

    def with_options(self, **options: Any) -> Ruleset:
        """A copy with some options changed; each value is checked."""
        return _apply_options(self, options, where="options")

    def has_effect(self, c: Card) -> bool:
        """Whether ``c`` does something in this ruleset's game (a deck may hold only such cards)."""
        return c.kind in self.CARD_KINDS


@cache
def _deck_of(composition: tuple[tuple[str, int], ...], decks: int) -> tuple[Card, ...]:
    """The cards of ``decks`` copies of ``composition`` (built once: simulators start many games)."""
    one = [card(text) for text, count in composition for _ in range(count)]
    return tuple(one * decks)


_PRESETS: dict[str, Callable[[], Ruleset]] = {}
_RULESET_CLASSES: dict[str, type[Ruleset]] = {}
_DEFAULT: list[str] = []


def register_preset(name: str, build: Callable[[], Ruleset], default: bool = False) -> None:
    """Add a named preset (each game registers its own); its ruleset class is registered for its game.

    ``default`` makes it the preset that ruleset files start from when they name no ``base`` (and that
    commands use when given no ruleset).
    """
    if name in _PRESETS:
        raise RulesetError(f"preset {name!r} is registered twice")
    _PRESETS[name] = build
    ruleset = build()
    _RULESET_CLASSES.setdefault(ruleset.game, type(ruleset))
    if default:
        _DEFAULT[:] = [name]


def unregister_presets(names: Iterable[str]) -> None:
    """Remove presets (a game being unregistered), and the ruleset class of a game left with none."""
    for name in names:
        build = _PRESETS.pop(name, None)
        if build is None:
            continue
        game = build().game
        if not any(other().game == game for other in _PRESETS.values()):
            _RULESET_CLASSES.pop(game, None)
        if [name] == _DEFAULT:
            _DEFAULT.clear()


def default_preset() -> str:
    """The name of the default preset (the official rules of the first game)."""
    if not _DEFAULT:
        raise RulesetError("no default preset is registered")
    return _DEFAULT[0]


def all_options() -> dict[str, Option]:
    """Every option of every registered game, by name (an option shared by games appears once)."""
    found: dict[str, Option] = {}
    for cls in _RULESET_CLASSES.values():
        for name, option in cls.OPTIONS.items():
            found.setdefault(name, option)
    return found


def preset_names(registered_order: bool = False) -> list[str]:
    """The names of every preset, sorted (or in the order the games registered them)."""
    return list(_PRESETS) if registered_order else sorted(_PRESETS)


def preset(name: str) -> Ruleset:
    """The preset called ``name``. Raises :class:`RulesetError` listing the presets if unknown."""
    try:
        return _PRESETS[name]()
    except (KeyError, TypeError):  # TypeError: an unhashable name
        raise RulesetError(f"unknown ruleset {name!r:.60}; presets are {', '.join(preset_names())}") from None


def _apply_options(base: Ruleset, options: Mapping[str, Any], where: str) -> Ruleset:
    allowed = base.OPTIONS
    changes: dict[str, Any] = {}
    for key, value in options.items():
        spec = allowed.get(key)
        if spec is None:
            other = [game for game, cls in _RULESET_CLASSES.items() if key in cls.OPTIONS]
            if other:
                raise RulesetError(f"{where}.{key}: applies to {', '.join(other)} rulesets only, not {base.game}")
            raise RulesetError(f"{where}.{key}: unknown option; options are {', '.join(sorted(allowed))}")
        kind = spec.kind
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesetError(f"{where}.{key}: expected a whole number, got {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise RulesetError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
        if spec.choices is not None and value not in spec.choices:
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


def _parse_deck(deck: Any, where: str, ruleset: Ruleset) -> tuple[tuple[str, int], ...]:
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
        if not ruleset.has_effect(card(canonical)):
            raise RulesetError(f"{where}.{text}: card {canonical} has no effect in a {ruleset.game} game")
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
    known = {"name", "base", "description", "options", "deck", "game", "deviations", "evidence"}
    for key in data:
        if key not in known:
            raise RulesetError(f"{where}.{key}: unknown key; keys are {', '.join(sorted(known))}")
    base_name = data.get("base", default_preset())
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
    deck = _parse_deck(data["deck"], f"{where}.deck", ruleset) if "deck" in data else ruleset.deck
    deviations = _parse_deviations(data.get("deviations", []), f"{where}.deviations", ruleset)
    if not isinstance(data.get("evidence", {}), Mapping):  # a fingerprint's evidence: read by people, not played
        raise RulesetError(f"{where}.evidence: expected a table of reading = its evidence")
    return check_ruleset(replace(ruleset, name=name, description=description, deck=deck, base=base_name,
                                 deviations=deviations), where)


def _parse_deviations(data: Any, where: str, ruleset: Ruleset) -> tuple[str, ...]:
    """Checked deviations: each a known misreading of the ruleset's game or a valid ``option=value``."""
    if not isinstance(data, list) or not all(isinstance(text, str) for text in data):
        raise RulesetError(f"{where}: expected a list of misreading names and option=value readings")
    seen: set[str] = set()
    for index, text in enumerate(data):
        key = text.partition("=")[0]
        if key in seen:  # a misreading applied twice is no reading at all; an option read twice, a contradiction
            shown = key if len(key) <= 60 else key[:60] + "..."
            raise RulesetError(f"{where}[{index}]: {shown!r} is listed twice")
        seen.add(key)
        try:
            reading = Deviation.parse(text)
            if reading.is_option:
                _apply_options(ruleset, {reading.name: reading.value}, f"{where}[{index}]")
            else:
                misreading(ruleset.game, text)
        except RulesetError as error:
            raise RulesetError(f"{where}[{index}]: {error}") from None
    return tuple(data)


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

