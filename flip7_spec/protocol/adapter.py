"""The engine interface of the conformance runner, and the reference engine behind it.

A Python engine can be checked in-process by implementing :class:`EngineAdapter` (four methods: set up a
game, apply a decision, score a hand, say hello); an engine in any language is reached through
:class:`flip7_spec.protocol.process.ProcessEngine`, which implements the same interface over the protocol.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from flip7_spec.cards import cards
from flip7_spec.errors import Flip7Error
from flip7_spec.machine import Game
from flip7_spec.play import new_game, round_score
from flip7_spec.protocol import LEVELS, PROTOCOL_VERSION
from flip7_spec.protocol.schema import ReshuffleProblem
from flip7_spec.rulesets import all_options, preset_names, ruleset_from_json

Observation = dict[str, Any]


class Skipped(Flip7Error):
    """The engine does not support what was asked (reported as *skipped*). ``stderr`` is what a process
    engine wrote to stderr up to that reply (a ``skipped`` reply in the middle of a game ends it as errored)."""

    def __init__(self, reason: str, stderr: str = "") -> None:
        super().__init__(reason)
        self.stderr = stderr


class EngineFailure(Flip7Error):
    """The engine failed: an error reply, a crash, a timeout, a reply that breaks the protocol.

    ``raw`` is the offending line when there is one, ``stderr`` the tail of what the engine wrote to stderr
    up to the failing reply. ``at`` says which request of a game failed, when the runner knows it: 0 the
    ``start``, k the k-th decision. ``reshuffle`` is the reshuffle problem of an ``errored`` reply
    (docs/protocol.md: ``errored.reshuffle``), when the engine sent one. ``in_sync`` says that the engine is
    still in a known state after the failure (it answered the failing request with a well-formed reply, and
    every request sent after it has been answered too): its next ``start`` begins a new game, so it need not
    be restarted. ``agreed`` is the last observation of the game at which the engine and the reference agreed
    before the failure, with its place (0 the ``start``'s, k the k-th decision's), when the runner compared
    any.
    """

    def __init__(self, message: str, raw: str | None = None, stderr: str = "", at: int | None = None,
                 reshuffle: ReshuffleProblem | None = None, in_sync: bool = False) -> None:
        super().__init__(message)
        self.raw = raw
        self.stderr = stderr
        self.at = at
        self.reshuffle = reshuffle
        self.in_sync = in_sync
        self.agreed: tuple[int, Observation] | None = None


class EngineAdapter(ABC):
    """What the conformance runner needs from an engine. Errors: raise :class:`Skipped` or
    :class:`EngineFailure` (any other exception is treated as an engine failure too)."""

    case: str | None = None
    """The id of the case the engine is running (set by the runner; a process engine records it with each
    line of its traffic)."""

    @abstractmethod
    def hello(self) -> dict[str, Any]:
        """The handshake result: ``protocol``, ``name``, ``version``, ``rulesets``, ``levels``, ``options``."""

    @abstractmethod
    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
              reshuffles: Sequence[Sequence[str]]) -> Observation:
        """Start a game (deck top first) and return the observation at its first decision."""

    @abstractmethod
    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> Observation:
        """Apply one decision and return the observation at the next one."""

    @abstractmethod
    def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
        """The round score of a player holding ``hand`` at the end of a round."""

    def play_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]], decisions: Sequence[dict[str, Any]]
                  ) -> tuple[list[Observation], Exception | None]:
        """Start a game and apply ``decisions`` (each a ``decide`` request's ``choice``, with its ``player``
        and ``kind`` when known) in order. Returns the observations received (the start's first) and the
        error that stopped them early (None when all came), so that what came before a failure can still be
        compared. This loop asks :meth:`start` and :meth:`decide` one at a time; a process engine sends the
        whole game at once."""
        try:
            first = self.start(ruleset, players, dealer, deck, reshuffles)
        except Exception as error:
            return [], error
        found, stopped = self.decide_many(decisions)
        return [first, *found], stopped

    def decide_many(self, decisions: Sequence[dict[str, Any]]) -> tuple[list[Observation], Exception | None]:
        """Apply ``decisions`` in order (as :meth:`play_game` does after its start). Returns the observations
        received and the error that stopped them early (None when all came)."""
        found: list[Observation] = []
        try:
            for decision in decisions:
                found.append(self.decide(decision["choice"], decision.get("player"), decision.get("kind")))
        except Exception as error:
            return found, error
        return found, None

    def stderr_through(self, at: int) -> str | None:
        """What the engine wrote to stderr up to its reply to request ``at`` of the last game :meth:`play_game`
        sent (0 its start, k its k-th decision); None for an engine without a stderr of its own."""
        return None

    def close(self) -> None:  # noqa: B027 - optional hook: in-process engines hold nothing to release
        """Release the engine (stop its process). Called once, even after a failure."""

    def restart(self) -> None:  # noqa: B027 - optional hook: in-process engines need no restart
        """Bring the engine back after a failure (a process engine starts a new process)."""

    def abort(self) -> None:
        """End the engine at once, in the middle of a game (a run that is stopped): a process engine's
        process group is ended without the courtesy of a ``quit``; an in-process engine is closed."""
        self.close()


def reference_hello() -> dict[str, Any]:
    """The reference's handshake: every preset, level and option value."""
    from flip7_spec import __version__

    options: dict[str, list[Any] | str] = {}
    for name, option in all_options().items():
        values = option.values()
        options[name] = values if values is not None else "any"
    return {"protocol": PROTOCOL_VERSION, "name": "flip7-spec reference", "version": __version__,
            "rulesets": preset_names(), "levels": list(LEVELS), "options": options, "decks": True}


class ReferenceAdapter(EngineAdapter):
    """The reference engine, in-process. Subclass and override to build a deliberately wrong engine."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def hello(self) -> dict[str, Any]:
        return reference_hello()

    def make_game(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
                  reshuffles: Sequence[Sequence[str]]) -> Game:
        """Build and start the game (the hook a variant engine overrides to use another Game class)."""
        game, _ = new_game(ruleset_from_json(ruleset), players, list(deck), dealer=dealer,
                           reshuffles=[cards(list(order)) for order in reshuffles], record=False)
        return game

    def start(self, ruleset: dict[str, Any], players: int, dealer: int, deck: Sequence[str],
              reshuffles: Sequence[Sequence[str]]) -> Observation:
        self.game = self.make_game(ruleset, players, dealer, deck, reshuffles)
        return self.game.observation()

    def decide(self, choice: Any, player: int | None = None, kind: str | None = None) -> Observation:
        if self.game is None:
            raise EngineFailure("decide before start")
        self.game.apply(choice)
        return self.game.observation()

    def score(self, ruleset: dict[str, Any], hand: Sequence[str], busted: bool) -> int:
        return round_score(ruleset_from_json(ruleset), cards(list(hand)), busted)
