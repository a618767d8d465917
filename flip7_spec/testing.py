"""Stateful Hypothesis machines over the reference, and a differential machine for any other engine.

- Invariant checks that hold for every game at every decision: :func:`check_conservation`,
  :func:`check_consistency`, :func:`check_totals`; and :func:`fingerprint`, the whole internal state of a game
  as a JSON value, to show that :meth:`~flip7_spec.engine.Game.after` is pure and
  :meth:`~flip7_spec.engine.Game.copy` independent.
- :class:`ReferenceMachine`: plays the reference with decisions and reshuffle orders chosen by Hypothesis,
  checking the invariants after every step.
- :func:`differential_machine`: a machine that runs the reference and an engine under test (in-process or
  a command speaking docs/protocol.md) in lockstep, decision by decision, and compares their observations,
  legal choices included. An engine's own test suite can hold::

      from flip7_spec.testing import differential_machine

      TestMyEngine = differential_machine("node my_engine.js").TestCase

  A failing run is also written as a trace file (see :func:`differential_machine`), so a failure found once
  stays found without the Hypothesis example database.
- The Hypothesis profiles ``ci`` and ``deep`` (:func:`register_profiles`, :func:`load_profile`).
"""

from __future__ import annotations

import atexit
import enum
import hashlib
import json
import os
import re
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Final, NoReturn

from hypothesis import HealthCheck, Phase, reject, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from flip7_spec.cards import Card, card
from flip7_spec.clauses import CLAUSES
from flip7_spec.conformance.runner import strip_options, totals_only
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.machine import ACTIVE, BUSTED, Game
from flip7_spec.play import make_game
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure, ReferenceAdapter, Skipped
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.registry import Role, definition_of
from flip7_spec.rulesets import Ruleset, default_preset, preset
from flip7_spec.strategies import (
    Draw,
    GameRecord,
    GameSetup,
    game_setups,
    option_values,
    playable_presets,
    player_counts,
    reshuffle_orders,
)
from flip7_spec.trace.canonical import dumps_line
from flip7_spec.trace.compare import blame, step_difference
from flip7_spec.trace.record import record_choices

# ---- Hypothesis profiles ------------------------------------------------------------------------------

PROFILE_ENV: Final = "FLIP7_HYPOTHESIS_PROFILE"
"""The environment variable that selects the Hypothesis profile (default ``ci``)."""
FAILURES_ENV: Final = "FLIP7_FAILURES_DIR"
"""The environment variable naming where the differential machine writes failing runs of an engine."""
DEFAULT_FAILURES_DIR: Final = "flip7-failures"


def register_profiles() -> None:
    """Register the Hypothesis profiles (idempotent).

    - ``ci``: 30 examples per test, derandomized (the same examples every run), no deadline, at most 40
      steps per stateful run, and no ``target`` or ``explain`` phase (rare states come from rigged decks
      there): the property suite runs in well under a minute on two cores.
    - ``deep``: 2 000 examples per test, random, no deadline, up to 100 steps per stateful run: long runs to
      look for new failures (minutes to hours).
    """
    slow = [HealthCheck.too_slow, HealthCheck.data_too_large]
    quick = tuple(p for p in Phase if p not in (Phase.target, Phase.explain))
    settings.register_profile("ci", max_examples=30, derandomize=True, deadline=None, print_blob=True,
                              stateful_step_count=40, suppress_health_check=slow, phases=quick)
    settings.register_profile("deep", max_examples=2_000, derandomize=False, deadline=None, print_blob=True,
                              stateful_step_count=100, suppress_health_check=slow)


def load_profile(name: str | None = None) -> str:
    """Register the profiles and load ``name`` (default: ``$FLIP7_HYPOTHESIS_PROFILE``, else ``ci``).
    Returns the profile loaded."""
    register_profiles()
    chosen = name or os.environ.get(PROFILE_ENV) or "ci"
    settings.load_profile(chosen)
    return chosen


# ---- invariants --------------------------------------------------------------------------------------

SEAT_KINDS: Final = frozenset({"target", "give", "assign"})


@cache
def deck_counts(ruleset: Ruleset, players: int) -> Counter[str]:
    """The deck of ``ruleset`` for ``players`` players as a multiset of card texts."""
    return Counter(c.text for c in ruleset.deck_cards(players))


def cards_in_game(game: Game) -> Counter[str]:
    """Every card of the game wherever it is: draw pile, discard pile, in front of a player, or in play."""
    found: Counter[str] = Counter(c.text for c in game.pile)
    found.update(c.text for c in game.discard)
    found.update(c.text for c in game.in_play)
    for player in game.players:
        found.update(c.text for c in player.cards)
    return found


def _counter_diff(expected: Counter[str], found: Counter[str]) -> str:
    missing = expected - found
    extra = found - expected
    parts = []
    if missing:
        parts.append("missing " + " ".join(f"{t}x{k}" for t, k in sorted(missing.items())))
    if extra:
        parts.append("extra " + " ".join(f"{t}x{k}" for t, k in sorted(extra.items())))
    return "; ".join(parts)


def check_conservation(game: Game, where: str = "") -> None:
    """Raise AssertionError unless draw pile + discard pile + every player's cards + in-play cards are
    exactly the deck, as a multiset (clauses F7-DECK, F7-TWO-DECKS, F7-DISCARD-PILE, F7-RESHUFFLE-TABLE-STAYS):
    no card is lost or duplicated."""
    expected = deck_counts(game.ruleset, game.n)
    found = cards_in_game(game)
    if found != expected:
        raise AssertionError(f"cards are not conserved{where}: {_counter_diff(expected, found)}")


def _seat_order_ok(options: Sequence[Any], n: int) -> bool:
    return all(isinstance(o, int) and not isinstance(o, bool) and 0 <= o < n for o in options) and \
        list(options) == sorted(options)


def check_consistency(game: Game) -> None:
    """Raise AssertionError unless the decision state agrees with itself: a decision is pending exactly while
    the game is not over, and the legal choices are non-empty exactly then (F7-GAME-END); a pending decision
    offers at least two distinct choices (F7-FORCED-CHOICE), seats in ascending order, asked of a seat that
    exists (of an active player in the base game); statuses are the game's, the active count is right, a
    busted player's round score is 0 (F7-SCORE-BUST); and winners exist exactly when the game is over, hold
    the top total, have reached the target, and are one unless ties are shared (F7-WINNER, F7-TIE)."""
    pending = game.pending
    over = game.over
    assert (pending is None) == over, f"pending={pending!r} but over={over}"
    assert bool(game.legal()) == (not over), f"legal()={game.legal()!r} but over={over}"
    observation = game.observation()
    assert observation["over"] == over and (observation["pending"] is None) == over
    n = game.n
    statuses = [p.status for p in game.players]
    allowed = definition_of(game.ruleset).statuses
    assert set(statuses) <= allowed, f"unknown statuses {sorted(set(statuses) - allowed)}"
    if not over:
        assert game.active == statuses.count(ACTIVE), f"active count {game.active}, statuses {statuses}"
    for seat, player in enumerate(game.players):
        if player.status == BUSTED:
            assert game.round_score(seat) == 0, f"busted seat {seat} has round score {game.round_score(seat)}"
    if pending is not None:
        options = list(pending.options)
        assert len(options) >= 2, f"a {pending.kind} decision with {len(options)} option(s) is asked"
        keys = [json.dumps(o, sort_keys=True) for o in options]
        assert len(set(keys)) == len(keys), f"repeated options {options}"
        assert 0 <= pending.player < n, f"decision of seat {pending.player} with {n} players"
        if pending.kind in SEAT_KINDS:
            assert _seat_order_ok(options, n), f"{pending.kind} options {options} are not ascending seats"
        if pending.kind == "hit_or_stay":
            assert statuses[pending.player] == ACTIVE, f"hit_or_stay asked of a {statuses[pending.player]} player"
            assert set(options) <= {"hit", "stay"}
        definition_of(game.ruleset).check_state(game)
    if over:
        top = max(game.totals)
        winners = game.winners
        target = game.ruleset.target_score
        reached = [s for s in range(n) if game.totals[s] >= target]
        if game.ruleset.round_limit and game.round >= game.ruleset.round_limit and winners == reached:
            pass  # the rounds are up: whoever reached the target has won, nobody perhaps (round_limit)
        else:
            assert winners, "the game is over with no winner"
            assert all(game.totals[w] == top for w in winners), f"winners {winners} do not hold the top total {top}"
            assert top >= target, f"the game ended with the top total {top} below the target"
            assert winners == sorted(s for s in range(n) if game.totals[s] == top), "winners are not every leader"
            if game.ruleset.tie_at_target == "play_another_round":
                assert len(winners) == 1, f"{len(winners)} winners while ties play another round"
    else:
        assert not game.winners, f"winners {game.winners} before the game is over"


def totals_may_fall(ruleset: Ruleset) -> bool:
    """Whether a player's total may go down under ``ruleset``: only with negative round scores (Brutal
    Mode, or the option negative_scores of ``vengeance-basic``)."""
    return definition_of(ruleset).scores_below_zero(ruleset)


def check_totals(ruleset: Ruleset, before: Sequence[int], after: Sequence[int]) -> None:
    """Raise AssertionError if a total fell from ``before`` to ``after`` where the ruleset forbids it
    (F7-BANK: round scores are never negative; V-SCORE-FLOOR)."""
    if totals_may_fall(ruleset):
        return
    fallen = [seat for seat, (a, b) in enumerate(zip(before, after, strict=True)) if b < a]
    assert not fallen, f"totals fell for seats {fallen}: {list(before)} -> {list(after)}"


def _describe(value: Any, depth: int = 0) -> Any:
    """A JSON-able description of ``value`` that reaches into objects (slots and attributes)."""
    if depth > 12:
        return "..."
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Card):
        return value.text
    if isinstance(value, Ruleset):
        return json.dumps(value.to_json(), sort_keys=True)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return [[_describe(k, depth + 1), _describe(v, depth + 1)] for k, v in value.items()]
    if isinstance(value, list | tuple) or type(value).__name__ == "deque":
        return [_describe(v, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_describe(v, depth + 1) for v in value), key=repr)
    if callable(value) and not hasattr(value, "__slots__"):
        return "<callable>"
    fields: dict[str, Any] = {}
    for klass in type(value).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if hasattr(value, name):
                fields[name] = _describe(getattr(value, name), depth + 1)
    for name, item in getattr(value, "__dict__", {}).items():
        if name != "_events":
            fields[name] = _describe(item, depth + 1)
    return {"type": type(value).__name__, **fields}


def fingerprint(game: Game) -> str:
    """The whole internal state of ``game`` (piles in order, rows, frames, queues, flags) as a JSON text: two
    games with the same fingerprint play on identically."""
    return json.dumps(_describe(game), sort_keys=True)


def sorted_reshuffle(discard: list[Card]) -> list[Card]:
    """A reshuffle that needs no chance: the discard pile sorted by card text (for throw-away copies)."""
    return sorted(discard, key=lambda c: c.text)


@dataclass(slots=True)
class Step:
    """One point of a replayed game: the game as it stands (the same object at every step, so read it at
    once), the decision just made and its choice (None at the start), and the events that followed."""

    game: Game
    decision: Decision | None
    choice: Choice | None
    events: list[Event]


def walk(record: GameRecord, at_reshuffle: Callable[[Game, list[Card]], None] | None = None) -> Iterator[Step]:
    """Replay ``record`` on a fresh reference game, yielding the state after the start and after every
    decision. ``at_reshuffle`` is called with the game and the discard pile at each reshuffle, before the
    recorded order replaces the pile."""
    orders = deque(record.orders)
    s = record.setup
    holder: list[Game] = []

    def reshuffler(discard: list[Card]) -> list[Card]:
        if at_reshuffle is not None:
            at_reshuffle(holder[0], discard)
        return [card(t) for t in orders.popleft()]

    game = make_game(s.ruleset, s.players, s.cards(), s.dealer, reshuffler)
    holder.append(game)
    yield Step(game, None, None, game.start())
    for choice in record.choices:
        decision = game.pending
        yield Step(game, decision, choice, game.apply(choice))


# ---- the reference machine -----------------------------------------------------------------------------


def _option_index(draw: Draw, options: Sequence[Choice]) -> int:
    return int(draw(st.integers(0, len(options) - 1)))


class ReferenceMachine(RuleBasedStateMachine):
    """The reference under Hypothesis-chosen decisions and reshuffle orders.

    Rules: make a legal decision (on a copy, which becomes the game); check that :meth:`Game.after` leaves
    its game unchanged and equals copy-then-apply; copy the game and check the copy is equal and
    independent. Invariants after every step: card conservation (also checked at every reshuffle, when the
    pile is empty), decision/over consistency and statuses (:func:`check_consistency`), totals that never
    fall where the ruleset forbids it, and a canonical observation. The start rule plays up to 120 decisions
    at once (checking the invariants after each), so that short runs reach late rounds, reshuffles and the
    end of the game.
    """

    setups: ClassVar[st.SearchStrategy[GameSetup] | None] = None
    """The setups games start from (None: :func:`~flip7_spec.strategies.game_setups`)."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.draw: Draw | None = None
        self.totals: list[int] = []

    def _reshuffle(self, discard: list[Card]) -> list[Card]:
        game = self.game
        assert game is not None and self.draw is not None
        assert not game.pile, "a reshuffle while the draw pile still holds cards"
        check_conservation(game, " at a reshuffle")
        texts = [c.text for c in discard]
        return [card(t) for t in self.draw(reshuffle_orders(texts))]

    def _play(self, choice: Choice) -> None:
        game = self.game
        assert game is not None
        self.game = game.copy()  # the reshuffler checks the game being played: the copy
        self.game.apply(choice)

    def _check_all(self) -> None:
        self.cards_are_conserved()
        self.decision_state_is_consistent()
        self.totals_never_fall()
        self.observation_is_canonical()

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self.draw = data.draw
        setup = data.draw(self.setups if self.setups is not None else game_setups(), label="setup")

        def reshuffler(discard: list[Card]) -> list[Card]:
            return self._reshuffle(discard)

        self.game = make_game(setup.ruleset, setup.players, setup.cards(), setup.dealer, reshuffler)
        self.game.start()
        self.totals = list(self.game.totals)
        for _ in range(data.draw(st.integers(0, 120), label="decisions played at once")):
            if self.game.pending is None:
                break
            self._check_all()
            options = self.game.legal()
            self._play(options[_option_index(data.draw, options)])

    @precondition(lambda self: self.game is not None and self.game.pending is not None)
    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """Make one legal decision chosen by Hypothesis."""
        assert self.game is not None
        self.draw = data.draw
        options = self.game.legal()
        self._play(options[_option_index(data.draw, options)])

    @precondition(lambda self: self.game is not None and self.game.pending is not None)
    @rule(data=st.data())
    def after_is_pure(self, data: st.DataObject) -> None:
        """``Game.after`` returns the successor and leaves the game it was called on unchanged."""
        game = self.game
        assert game is not None
        options = game.legal()
        choice = options[_option_index(data.draw, options)]
        reshuffler = game.reshuffler
        game.reshuffler = sorted_reshuffle  # a reshuffle in the successor needs no draw from Hypothesis
        try:
            before = fingerprint(game)
            successor, _ = game.after(choice)
            assert fingerprint(game) == before, "Game.after changed the game it was called on"
            twin = game.copy()
            twin.apply(choice)
            assert fingerprint(twin) == fingerprint(successor), "Game.after differs from copy-then-apply"
        finally:
            game.reshuffler = reshuffler

    @precondition(lambda self: self.game is not None)
    @rule()
    def copy_is_independent(self) -> None:
        """A copy is equal to the game, and playing or changing it leaves the game as it was."""
        game = self.game
        assert game is not None
        before = fingerprint(game)
        twin = game.copy()
        assert fingerprint(twin) == before, "a copy differs from the original"
        twin.reshuffler = sorted_reshuffle
        if twin.pending is not None:
            twin.apply(twin.legal()[-1])
        twin.players[0].cards.append(card(game.ruleset.deck[0][0]))
        twin.totals[0] += 1
        twin.pile.clear()
        twin.discard.append(card(game.ruleset.deck[0][0]))
        assert fingerprint(game) == before, "changing a copy changed the original"

    @invariant()
    def cards_are_conserved(self) -> None:
        """Draw pile + discard pile + rows + cards in play are the deck (:func:`check_conservation`)."""
        if self.game is not None:
            check_conservation(self.game)

    @invariant()
    def decision_state_is_consistent(self) -> None:
        """Pending decision, legal choices, over, statuses and winners agree (:func:`check_consistency`)."""
        if self.game is not None:
            check_consistency(self.game)

    @invariant()
    def totals_never_fall(self) -> None:
        """No total is lower than at the previous step, unless the ruleset allows negative round scores."""
        if self.game is not None:
            check_totals(self.game.ruleset, self.totals, self.game.totals)
            self.totals = list(self.game.totals)

    @invariant()
    def observation_is_canonical(self) -> None:
        """The observation survives a canonical JSON round trip unchanged (only JSON types, string keys)."""
        if self.game is not None:
            check_canonical(self.game.observation())


def check_canonical(value: Any) -> None:
    """Raise AssertionError unless ``value`` holds only JSON types (dicts with string keys, lists, strings,
    whole numbers, booleans, None) and survives ``json.dumps(sort_keys=True)``/``json.loads`` unchanged."""
    _only_json(value, "$")
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    back = json.loads(text)
    assert back == value, "the value changes in a JSON round trip"
    assert json.dumps(back, sort_keys=True, separators=(",", ":"), ensure_ascii=False) == text


def _only_json(value: Any, path: str) -> None:
    if value is None or isinstance(value, bool | str):
        return
    if isinstance(value, int):
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            _only_json(item, f"{path}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{path}: key {key!r} is not a string"
            _only_json(item, f"{path}.{key}")
        return
    raise AssertionError(f"{path}: {type(value).__name__} {value!r} is not a canonical JSON value")


# ---- the differential machine ------------------------------------------------------------------------


class EngineDivergence(AssertionError):
    """The engine under test disagreed with the reference (or failed). ``trace_path`` is the trace file of
    the failing run (None until Hypothesis replays its minimal example); ``step`` the decision after which
    it happened (None: at the start); ``where`` the JSON path in the observation; ``expected`` and
    ``found`` the values there; ``clause`` the rule clause behind it."""

    def __init__(self, message: str, *, trace_path: Path | None = None, step: int | None = None,
                 where: str | None = None, expected: Any = None, found: Any = None,
                 clause: str | None = None) -> None:
        super().__init__(message)
        self.trace_path = trace_path
        self.step = step
        self.where = where
        self.expected = expected
        self.found = found
        self.clause = clause


def regressions_dir() -> Path:
    """``fixtures/regressions`` of the source checkout this package lives in (else under the current
    directory): where failing runs of the reference itself are kept."""
    checkout = Path(__file__).resolve().parent.parent / "fixtures"
    base = checkout if checkout.is_dir() else Path.cwd() / "fixtures"
    return base / "regressions"


def failures_dir_for(engine: str | EngineAdapter | None, given: str | Path | None = None) -> Path:
    """Where failing runs of ``engine`` are written: ``given``, else ``$FLIP7_FAILURES_DIR``, else
    ``fixtures/regressions`` for the reference (``engine`` None) and ``flip7-failures/`` under the current
    directory for any other engine."""
    if given is not None:
        return Path(given)
    if os.environ.get(FAILURES_ENV):
        return Path(os.environ[FAILURES_ENV])
    return regressions_dir() if engine is None else Path.cwd() / DEFAULT_FAILURES_DIR


def _in_final_run() -> bool:
    """Whether Hypothesis is replaying the minimal failing example (True outside a Hypothesis test)."""
    from hypothesis.control import current_build_context

    try:
        return bool(current_build_context().is_final)
    except Exception:
        return True


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:40] or "engine"


def _error_text(error: BaseException) -> str:
    """An engine's error for a failure message: its type and text, the raw reply and the tail of its stderr."""
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, EngineFailure):
        if error.raw:
            text += f"; raw reply: {error.raw[:300]}"
        if error.stderr:
            text += "; its stderr ends with:\n" + error.stderr
    return text


def supported_rulesets(hello: dict[str, Any]) -> st.SearchStrategy[Ruleset]:
    """Rulesets an engine's handshake declares: its presets (among the playable ones) with every
    combination of the option values :func:`~flip7_spec.strategies.option_values` tries that the engine
    also lists (all of them for an option it declares as ``"any"``); options it does not list stay at the
    preset's value."""
    names = [n for n in playable_presets() if n in hello.get("rulesets", [])]
    if not names:
        raise Skipped(f"the engine implements none of the presets {', '.join(playable_presets())}")
    declared = hello.get("options", {})

    def with_options(name: str) -> st.SearchStrategy[Ruleset]:
        base = preset(name)
        values: dict[str, st.SearchStrategy[Any]] = {}
        for option, tried in option_values(base).items():
            listed = declared.get(option, [])
            usable = [v for v in tried[1:] if listed == "any" or any(_same_value(v, w) for w in listed)]
            if usable:
                values[option] = st.sampled_from([tried[0], *usable])
        return st.fixed_dictionaries(values).map(lambda options: base.with_options(**options))

    return st.sampled_from(names).flatmap(with_options)


def _same_value(a: Any, b: Any) -> bool:
    return type(a) is type(b) and bool(a == b)


class DifferentialMachine(RuleBasedStateMachine):
    """The reference and an engine under test in lockstep (build it with :func:`differential_machine`).

    The start rule draws a setup, plays up to 100 decisions on the reference (decisions and reshuffle orders
    from Hypothesis), starts the engine with the same ruleset, players, Dealer, deck and reshuffle orders,
    feeds it the same decisions and compares every observation. The decide rule then goes on one decision
    at a time. When the reference needs a new reshuffle, the engine is started again with the longer list
    of orders and every decision is fed again (the protocol gives reshuffle orders up front). Observations
    are compared whole, ``pending.options`` included when the engine declares the ``legal`` level; an engine
    without the ``game`` level is compared on its first round only.
    """

    engine_spec: ClassVar[str | EngineAdapter | None] = None
    failures: ClassVar[Path] = Path(DEFAULT_FAILURES_DIR)
    _shared: ClassVar[dict[str, Any]] = {}

    # ---- the engine, shared by every run of this machine class ----

    @classmethod
    def engine(cls) -> EngineAdapter:
        """The engine under test (started on first use, closed when the interpreter exits)."""
        if "engine" not in cls._shared:
            spec = cls.engine_spec
            if spec is None:
                engine: EngineAdapter = ReferenceAdapter()
            elif isinstance(spec, str):
                engine = ProcessEngine(spec)
                atexit.register(engine.close)
            else:
                engine = spec
            cls._shared["engine"] = engine
        result: EngineAdapter = cls._shared["engine"]
        return result

    @classmethod
    def close(cls) -> None:
        """Close the engine if this machine class started it (a process engine also closes at exit)."""
        engine = cls._shared.pop("engine", None)
        if engine is not None and not isinstance(cls.engine_spec, EngineAdapter):
            engine.close()

    @classmethod
    def hello(cls) -> dict[str, Any]:
        """The engine's handshake (asked once)."""
        if "hello" not in cls._shared:
            try:
                cls._shared["hello"] = cls.engine().hello()
            except EngineFailure as error:
                raise EngineFailure(f"{cls.label()} failed the handshake: {_error_text(error)}", raw=error.raw,
                                    stderr=error.stderr) from None
        result: dict[str, Any] = cls._shared["hello"]
        return result

    @classmethod
    def setups(cls) -> st.SearchStrategy[GameSetup]:
        """The setups runs start from: every ruleset and option for the in-process reference; what the
        handshake declares for any other engine."""
        if "setups" not in cls._shared:
            if cls.engine_spec is None:
                strategy = game_setups()
            else:
                strategy = game_setups(rulesets=supported_rulesets(cls.hello()),
                                       players=lambda r: player_counts(r, two_decks=True))
            cls._shared["setups"] = strategy
        result: st.SearchStrategy[GameSetup] = cls._shared["setups"]
        return result

    @classmethod
    def label(cls) -> str:
        """How failure messages name the engine."""
        spec = cls.engine_spec
        if spec is None:
            return "the in-process reference"
        return repr(spec) if isinstance(spec, str) else type(spec).__name__

    # ---- one run ----

    def __init__(self) -> None:
        super().__init__()
        self.setup: GameSetup | None = None
        self.game: Game | None = None
        self.draw: Draw | None = None
        self.choices: list[Choice] = []
        self.orders: list[list[str]] = []
        self.expected: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self.start_observation: dict[str, Any] = {}
        self.start_events: list[dict[str, Any]] = []
        hello = self.hello()
        self.compare_options = "legal" in hello.get("levels", [])
        self.whole_games = "game" in hello.get("levels", [])

    def _reshuffle(self, discard: list[Card]) -> list[Card]:
        assert self.draw is not None
        order = self.draw(reshuffle_orders([c.text for c in discard]))
        self.orders.append(list(order))
        return [card(t) for t in order]

    def finished(self) -> bool:
        """Whether the run has nothing left to compare: the game is over, or (an engine without the game
        level) the first round has ended."""
        game = self.game
        return game is None or game.over or (not self.whole_games and game.round > 1)

    def _reference_step(self, choice: Choice) -> None:
        game = self.game
        assert game is not None
        try:
            events = game.apply(choice)
        except Exception as error:
            self._fail(f"the reference failed on decision {len(self.choices)} ({choice!r}): "
                       f"{type(error).__name__}: {error}", recorded=len(self.choices))
        self.choices.append(choice)
        self.expected.append((game.observation(), [e.to_json() for e in events]))

    def _engine_replay(self) -> None:
        """Start the engine and feed it every decision so far, comparing each observation."""
        assert self.setup is not None
        s = self.setup
        engine = self.engine()
        try:
            found = engine.start(s.ruleset.to_json(), s.players, s.dealer, list(s.deck), self.orders)
        except Skipped:
            reject()
        except Exception as error:
            self._fail(f"{self.label()} failed to start: {_error_text(error)}", step=None)
        self._compare(None, found)
        decisions = []
        for index, choice in enumerate(self.choices):
            decision = self._decision_at(index)
            decisions.append({"choice": choice, "player": decision["player"], "kind": decision["kind"]})
        observations: list[dict[str, Any]] = []
        stopped: Exception | None = None
        if isinstance(engine, ProcessEngine):
            observations, stopped = engine.decide_many(decisions)
        else:
            try:
                for d in decisions:
                    observations.append(engine.decide(d["choice"], d["player"], d["kind"]))
            except Exception as error:
                stopped = error
        for index, observation in enumerate(observations):
            self._compare(index, observation)
        if stopped is not None:
            self._fail(f"{self.label()} failed on decision {len(observations)}: {_error_text(stopped)}",
                       step=len(observations))

    def _decision_at(self, index: int) -> dict[str, Any]:
        previous = self.start_observation if index == 0 else self.expected[index - 1][0]
        pending = previous["pending"]
        return {"player": pending["player"], "kind": pending["kind"]}

    def _compare(self, step: int | None, found: Any) -> None:
        if step is None:
            expected, events = self.start_observation, self.start_events
        else:
            expected, events = self.expected[step]
        left, right = expected, found
        if not self.compare_options:
            left, right = strip_options(left), strip_options(right)
        if not self.whole_games and isinstance(found, dict) and expected.get("round", 1) > 1:
            left, right = totals_only(left), totals_only(right)
        difference = step_difference(left, right)
        if difference is None:
            return
        ruleset = self.setup.ruleset if self.setup is not None else preset(default_preset())
        clause = blame(difference.path, events, Role.HIT_STAY, definition_of(ruleset), expected)
        where = difference.where(["observation"])
        after = "the start" if step is None else f"decision {step} ({self.choices[step]!r})"
        statement = CLAUSES[clause].statement if clause in CLAUSES else ""
        self._fail(f"{self.label()} diverges from the reference after {after}: at {where} expected "
                   f"{json.dumps(difference.expected)}, found {json.dumps(difference.found)}; clause {clause}"
                   f"{': ' + statement if statement else ''}",
                   step=step, where=where, expected=difference.expected, found=difference.found, clause=clause)

    def _fail(self, message: str, *, step: int | None = None, recorded: int | None = None, where: str | None = None,
              expected: Any = None, found: Any = None, clause: str | None = None) -> NoReturn:
        """Write the failing run as a trace (in Hypothesis's final replay, or outside Hypothesis) and raise
        :class:`EngineDivergence` naming the file."""
        path = None
        if _in_final_run() and self.setup is not None:
            path = self._write_trace(message, self.choices[:recorded] if recorded is not None else self.choices,
                                     clause)
        if path is not None:
            message += f"\nThe failing run is saved as a trace: {path}"
            if self.engine_spec is None:
                message += f"\nReplay it with: flip7-spec replay {path}"
            elif isinstance(self.engine_spec, str):
                message += (f"\nRun it again with: flip7-spec conform --engine {json.dumps(self.engine_spec)} "
                            f"--fixtures {path.parent} --games 0 --no-scoring")
        raise EngineDivergence(message, trace_path=path, step=step, where=where, expected=expected, found=found,
                               clause=clause)

    def _write_trace(self, message: str, choices: Sequence[Choice], clause: str | None) -> Path:
        assert self.setup is not None
        s = self.setup
        clauses = [clause] if clause in CLAUSES else None
        trace = record_choices(s.ruleset, s.players, s.dealer, list(s.deck), list(choices), self.orders,
                               generator="flip7_spec.testing differential machine",
                               description=message.splitlines()[0][:500], clauses=clauses)
        text = dumps_line(trace)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
        name = "reference" if self.engine_spec is None else _slug(
            self.engine_spec if isinstance(self.engine_spec, str) else type(self.engine_spec).__name__)
        directory = self.failures
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{name}-{digest}.jsonl"
        path.write_text(text, encoding="utf-8")
        return path

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self.draw = data.draw
        setup = data.draw(self.setups(), label="setup")
        self.setup = setup

        def reshuffler(discard: list[Card]) -> list[Card]:
            return self._reshuffle(discard)

        self.game = make_game(setup.ruleset, setup.players, setup.cards(), setup.dealer, reshuffler)
        events: list[Event] = self.game.start()
        self.start_observation = self.game.observation()
        self.start_events = [e.to_json() for e in events]
        for _ in range(data.draw(st.integers(0, 100), label="decisions played at once")):
            if self.finished():
                break
            options = self.game.legal()
            self._reference_step(options[_option_index(data.draw, options)])
        self._engine_replay()

    @precondition(lambda self: not self.finished())
    @rule(data=st.data())
    def decide(self, data: st.DataObject) -> None:
        """One legal decision chosen by Hypothesis, on both engines."""
        game = self.game
        assert game is not None and game.pending is not None
        self.draw = data.draw
        decision = game.pending
        options = game.legal()
        choice = options[_option_index(data.draw, options)]
        reshuffles = len(self.orders)
        self._reference_step(choice)
        if len(self.orders) > reshuffles:
            self._engine_replay()
            return
        try:
            found = self.engine().decide(choice, decision.player, decision.kind)
        except Exception as error:
            self._fail(f"{self.label()} failed on decision {len(self.choices) - 1} ({choice!r}): "
                       f"{_error_text(error)}", step=len(self.choices) - 1)
        self._compare(len(self.choices) - 1, found)

    @rule()
    def reference_holds_together(self) -> None:
        """The reference's own invariants at this step (cards conserved, decisions consistent); always
        available, so that a run whose game is over can still take steps."""
        if self.game is not None:
            check_conservation(self.game)
            check_consistency(self.game)


def differential_machine(engine: str | EngineAdapter | None = None, failures_dir: str | Path | None = None,
                         name: str | None = None) -> type[DifferentialMachine]:
    """A :class:`DifferentialMachine` class for ``engine``: a command speaking docs/protocol.md (run as one
    child process for all the machine's runs), an in-process :class:`EngineAdapter`, or None for the
    reference itself (in-process). Use its ``TestCase`` in a unittest or pytest suite, or pass the class to
    :func:`hypothesis.stateful.run_state_machine_as_test`.

    A failing run raises :class:`EngineDivergence` and is written as a trace file (the reference's trace of
    the run, with observations, recorded by :func:`~flip7_spec.trace.record.record_choices`) into
    :func:`failures_dir_for` (``failures_dir``, ``$FLIP7_FAILURES_DIR``, ``fixtures/regressions`` for the
    reference, ``flip7-failures/`` otherwise); the message names the file.
    """
    label = name or ("Reference" if engine is None else _slug(engine if isinstance(engine, str)
                                                               else type(engine).__name__).title().replace("-", ""))
    attributes: dict[str, Any] = {
        "engine_spec": engine,
        "failures": failures_dir_for(engine, failures_dir),
        "_shared": {},
        "__module__": __name__,
    }
    return type(f"Differential{label}", (DifferentialMachine,), attributes)

