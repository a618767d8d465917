"""The documented limits on what flip7-spec accepts, and the checks that refuse a value over one of them.

Every limit bounds the time or memory one input can cost, so that a hostile or mistaken input is refused
at once with one line naming the limit, before any work, instead of running for hours or exhausting
memory. The limits are far above anything a real game, trace or run needs (README "Limits" lists them
for users; a test keeps that table and :data:`LIMITS` the same).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from flip7_spec.errors import LimitError

KIB: Final = 1024
MIB: Final = 1024 * KIB


@dataclass(frozen=True, slots=True)
class Limit:
    """One limit: the largest allowed ``value``, in ``unit``, and what it bounds (for the docs)."""

    name: str
    value: int
    unit: str
    bounds: str

    def check(self, amount: int, where: str) -> None:
        """Raise :class:`LimitError` ("WHERE: AMOUNT is over the limit of VALUE UNIT") if ``amount`` exceeds it."""
        if amount > self.value:
            raise LimitError(f"{where}: {show_number(amount)} is over the limit of {show_number(self.value)} "
                             f"{self.unit}")

    @property
    def text(self) -> str:
        """The limit as the docs write it: ``1 MiB``, ``100 players``."""
        return show_bytes(self.value) if self.unit == "bytes" else f"{self.value:,} {self.unit}"


def show_bytes(size: int) -> str:
    """A size as people read it: ``64 MiB``, ``16 KiB``, ``1,000 bytes``."""
    if size % MIB == 0:
        return f"{size // MIB} MiB"
    if size % KIB == 0:
        return f"{size // KIB} KiB"
    return f"{size:,} bytes"


PLAYERS: Final = Limit("players", 100, "players", "players in one game (`--players`, a trace's header)")
COPIES_PER_CARD: Final = Limit("copies per card", 1_000, "copies of one card",
                               "copies of one card in a ruleset's deck composition")
DECK_CARDS: Final = Limit("deck size", 10_000, "cards",
                          "cards in one game's whole deck (the composition times the decks its players need)")
OPTION_NUMBER: Final = Limit("option value", 1_000_000, "for a whole-number option",
                             "a ruleset's whole-number options (`target_score`, `flip7_bonus`, ...)")
TARGET_SCORE: Final = Limit("target score", 10_000, "points",
                            "a ruleset's `target_score` (a game to it lasts hundreds of rounds)")
GAME_LENGTH: Final = Limit("game length", 3_000_000, "points × players²",
                           "a game's target score times the square of its player count: its trace grows with "
                           "both, and stays within the trace size limits below")
GAMES: Final = Limit("games", 100_000_000, "games", "games of one `simulate` or `conform` run")
SWEEP_VALUES: Final = Limit("sweep values", 200, "values", "the parameter values of one `simulate --sweep`")
COVERAGE_AIM: Final = Limit("coverage aim", 100, "cases per clause", "`conform --min-coverage K`")
WORKERS: Final = Limit("workers", 64, "workers", "worker processes (`--workers`); never more than the work")
SOURCE_FILE: Final = Limit("ruleset or source file size", 1 * MIB, "bytes",
                          "a ruleset file or a fixture source (TOML or JSON)")
CACHE_ENTRY: Final = Limit("cache entry size", 256 * KIB, "bytes",
                          "one entry of the scoring-hands cache (a larger one is set aside and searched again)")
TRACE_FILE: Final = Limit("trace file size", 64 * MIB, "bytes", "a `.json` trace document")
CORPUS_LINE: Final = Limit("corpus line length", 64 * MIB, "bytes", "one line of a `.jsonl` corpus")
REPLY_LINE: Final = Limit("reply line length", 1 * MIB, "bytes", "one reply line of an engine under test")
REQUEST_LINE: Final = Limit("request line length", 16 * MIB, "bytes", "one request line to `flip7-spec serve`")
NESTING: Final = Limit("nesting depth", 64, "levels", "arrays and objects inside each other in JSON or TOML")
NUMBER_DIGITS: Final = Limit("number length", 20, "digits", "a whole number in JSON or TOML input")
NAME_LENGTH: Final = Limit("name length", 100, "characters", "a ruleset's name, a player's name in a trace")
SEED_LENGTH: Final = Limit("seed length", 1_000, "characters", "`--seed` of `simulate` and `conform`")
TIMEOUT: Final = Limit("timeout", 3_600, "seconds", "`conform --timeout`, the wait for one reply")
POLICY_DECISION: Final = Limit("policy decision time", 5, "seconds",
                               "one decision of a user's `--policy` (a policy that takes longer is stopped)")
ANALYSIS_STEPS: Final = Limit("analysis steps", 3_000_000, "steps",
                              "draws the exact program of `flip7_spec.analysis` follows for one result (a hand "
                              "and a card drawn to it; about ten seconds)")
DECISIONS: Final = Limit("decisions per game", 1_000_000, "decisions",
                         "decisions in one simulated or generated game (a game that never ends is stopped here)")

LIMITS: Final[tuple[Limit, ...]] = (PLAYERS, COPIES_PER_CARD, DECK_CARDS, OPTION_NUMBER, TARGET_SCORE, GAME_LENGTH,
                                    GAMES, SWEEP_VALUES, COVERAGE_AIM, WORKERS, SOURCE_FILE, CACHE_ENTRY,
                                    TRACE_FILE, CORPUS_LINE, REPLY_LINE, REQUEST_LINE, NESTING,
                                    NUMBER_DIGITS, NAME_LENGTH, SEED_LENGTH, TIMEOUT, POLICY_DECISION,
                                    ANALYSIS_STEPS, DECISIONS)
"""Every limit, in the order the docs list them."""


def show_number(amount: int) -> str:
    """``amount`` written for a message: ``100,000,000``, or ``a 5,000-digit number`` when it is huge (Python
    refuses to write whole numbers of more than 4,300 digits as text)."""
    if amount.bit_length() <= 200:
        return f"{amount:,}"
    digits = int(amount.bit_length() * 0.30103) + 1  # log10(2): the digit count, give or take one
    return f"a number of about {digits:,} digits"


def check_name(name: Any, where: str) -> None:
    """Refuse a name (ruleset or player) longer than :data:`NAME_LENGTH`."""
    if isinstance(name, str):
        NAME_LENGTH.check(len(name), where + " length")


def check_composition(deck: Iterable[tuple[str, int]], where: str) -> None:
    """Refuse a deck composition with too many copies of one card or too many cards in all."""
    total = 0
    for text, count in deck:
        COPIES_PER_CARD.check(count, f"{where}.{text}")
        total += count
    DECK_CARDS.check(total, where + " (cards in all)")


class SizedRuleset(Protocol):
    """What the limits read of a ruleset (:class:`flip7_spec.rulesets.Ruleset` has it): its name, its deck
    composition, its options and how many decks a player count needs."""

    @property
    def name(self) -> str: ...

    @property
    def deck(self) -> tuple[tuple[str, int], ...]: ...

    def options(self) -> dict[str, Any]: ...

    def decks_for(self, players: int) -> int: ...


R = TypeVar("R", bound=SizedRuleset)


def check_ruleset(ruleset: R, where: str = "ruleset") -> R:
    """Refuse a ruleset over a limit (its name, its deck, a whole-number option, its target score); returns
    it unchanged."""
    check_name(ruleset.name, f"{where}.name")
    check_composition(ruleset.deck, f"{where}.deck")
    for key, value in ruleset.options().items():
        if isinstance(value, int) and not isinstance(value, bool):
            OPTION_NUMBER.check(value, f"{where}.options.{key}")
    target = _target(ruleset)
    if target is not None:
        TARGET_SCORE.check(target, f"{where}.options.target_score")
    return ruleset


def _target(ruleset: SizedRuleset) -> int | None:
    value = ruleset.options().get("target_score")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_game_size(ruleset: SizedRuleset, players: int, where: str = "players") -> None:
    """Refuse a game of more than :data:`PLAYERS` players, whose whole deck would exceed :data:`DECK_CARDS`,
    or whose target score and player count together exceed :data:`GAME_LENGTH`."""
    PLAYERS.check(players, where)
    if players >= 1:
        cards = sum(count for _, count in ruleset.deck) * ruleset.decks_for(players)
        DECK_CARDS.check(cards, f"the deck of {ruleset.name} for {players} players")
        target = _target(ruleset)
        if target is not None:
            GAME_LENGTH.check(target * players * players,
                              f"a game of {ruleset.name} to {target:,} points for {players} players")
