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
    pile, or a reshuffle needed when none was supplied."""


class IllegalDecision(Flip7Error, ValueError):
    """A decision that is not among the legal choices of the pending decision (or none is pending)."""

    def __init__(self, message: str, legal: list[Any] | None = None) -> None:
        super().__init__(message)
        self.legal = legal if legal is not None else []
