"""Typed exceptions. Every error a user can cause is one of these, so the CLI can print one line for it."""

from __future__ import annotations

from typing import Any


class Flip7Error(Exception):
    """Base of every error raised on purpose by flip7_spec."""


class CardError(Flip7Error, ValueError):
    """A card text that names no card, or a hand that cannot exist."""


class RulesetError(Flip7Error, ValueError):
    """An unknown preset, a bad option value or a malformed ruleset file."""


class SetupError(Flip7Error, ValueError):
    """A game that cannot start: wrong player count, a deck that is not the ruleset's deck, a bad dealer."""


class ChanceError(Flip7Error, ValueError):
    """A chance outcome that cannot be used: a reshuffle order that is not a permutation of the discard
    pile, or a reshuffle needed when none was supplied.

    ``reshuffle``, when the game knows it, is the problem as the protocol's ``errored.reshuffle`` field
    carries it (docs/protocol.md): ``problem`` (``"no_order"`` or ``"not_a_permutation"``), ``discard_pile``
    (its cards) and ``index`` (which order).
    """

    def __init__(self, message: str, reshuffle: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.reshuffle = reshuffle


class IllegalDecision(Flip7Error, ValueError):
    """A decision that is not among the legal choices of the pending decision (or none is pending)."""

    def __init__(self, message: str, legal: list[Any] | None = None) -> None:
        super().__init__(message)
        self.legal = legal if legal is not None else []


class ArgumentError(Flip7Error, TypeError):
    """A library call with an argument of the wrong type (a player count that is not a whole number, a
    deck that is not a sequence of cards, a ruleset that is not a :class:`~flip7_spec.rulesets.Ruleset`)."""


class LimitError(Flip7Error, ValueError):
    """A value over one of the documented limits of :mod:`flip7_spec.limits` (players, copies of a card,
    deck size, games, workers, file size, nesting depth, line length, name length)."""


class InputError(Flip7Error, ValueError):
    """An input file that cannot be read as text of its kind: not a regular file, too large, not UTF-8,
    malformed, nested too deeply, or holding a number JSON cannot carry (``NaN``, ``Infinity``, a huge one)."""


class OutputError(Flip7Error, OSError):
    """An output that cannot be written: a missing or unwritable folder, a full disk, a file that is an
    input of the same run, or one another run is writing."""


class ModuleClash(Flip7Error, ImportError):
    """A user's module (``--python``, ``--policy``) in the current folder with the name of an installed
    module: loading it would shadow the installed one, or be shadowed by it."""


class SimulationError(Flip7Error, RuntimeError):
    """A simulated game that could not be played: a user's policy failed, tried to end its process or took
    too long, or the worker process playing the game died. The message names the game."""
