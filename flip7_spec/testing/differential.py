"""The reference and an engine under test (in-process or a command speaking docs/protocol.md) in lockstep,
decision by decision, their observations (legal choices included) compared: :func:`differential_machine`."""

from __future__ import annotations

import atexit
import hashlib
import json
import re
import shlex
import time
import unittest
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, NoReturn, cast

from hypothesis import reject, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule, run_state_machine_as_test

from flip7_spec.cards import Card, card
from flip7_spec.clauses import CLAUSES
from flip7_spec.events import Choice, Event
from flip7_spec.judge import ERRORED, FAIL, same_value, strip_options, totals_only
from flip7_spec.judge.case import trace_file_cases
from flip7_spec.judge.describe import describe
from flip7_spec.judge.runner import run_case
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.protocol import Level
from flip7_spec.protocol.adapter import EngineAdapter, EngineFailure, ReferenceAdapter, Skipped
from flip7_spec.protocol.declared import sent_ruleset, unsupported
from flip7_spec.protocol.process import ProcessEngine
from flip7_spec.registry import Role, definition_of
from flip7_spec.rulesets import Ruleset, default_preset, preset
from flip7_spec.steering import PileSteering
from flip7_spec.strategies import (
    DEFAULT_MAX_DECISIONS,
    SCENARIOS,
    Draw,
    GameSetup,
    Script,
    game_setups,
    option_values,
    playable_presets,
    player_counts,
    reshuffle_orders,
)
from flip7_spec.testing.failures import DEFAULT_FAILURES_DIR, EngineDivergence, failures_dir_for
from flip7_spec.testing.invariants import check_conservation, check_consistency
from flip7_spec.testing.profiles import machine_settings, shrink_budget
from flip7_spec.testing.reference import option_index
from flip7_spec.trace.canonical import dumps_line
from flip7_spec.trace.compare import blame, step_difference
from flip7_spec.trace.record import record_choices

# Typed here: older Hypothesis releases the package supports ship it without annotations.
run_machine = cast(Callable[..., None], run_state_machine_as_test)


class ShrinkBudgetSpent(KeyboardInterrupt):
    """Stops Hypothesis's search once a differential machine's shrink budget is spent. It is a
    ``KeyboardInterrupt`` because that is the one way to stop Hypothesis that it lets through at once, without
    taking it for a failure of the run or replaying it: the user stopping the search. Only the machine's
    ``TestCase`` raises it, and turns it at once into the last failure seen
    (:meth:`DifferentialMachine.report_last_failure`); so does :meth:`DifferentialMachine.run_as_test`."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"shrinking stopped after its budget of {seconds:g} s")


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
            usable = [v for v in tried[1:] if listed == "any" or any(same_value(v, w) for w in listed)]
            if usable:
                values[option] = st.sampled_from([tried[0], *usable])
        return st.fixed_dictionaries(values).map(lambda options: base.with_options(**options))

    return st.sampled_from(names).flatmap(with_options)


class DifferentialMachine(RuleBasedStateMachine):
    """The reference and an engine under test in lockstep (build it with :func:`differential_machine`).

    The start rule draws a setup, plays up to 100 decisions on the reference (decisions and reshuffle orders
    from Hypothesis), starts the engine with the same ruleset, players, Dealer, deck (in the order the cards
    were really drawn) and reshuffle orders, feeds it the same decisions and compares every observation.
    Hypothesis also draws whether a run is steered into a rare state: a script of
    :data:`~flip7_spec.strategies.SCENARIOS` for the setup's game then rigs the setup and, through the whole
    first round (played at once), forces choices and moves cards of the pile to its top. The decide rule
    then goes on one decision at a time. When the reference needs a new reshuffle, the engine is started
    again with the longer list of orders and every decision is fed again (the protocol gives reshuffle
    orders up front). Observations are compared whole, ``pending.options`` included when the engine declares
    the ``legal`` level; an engine without the ``game`` level is compared on its first round only.

    Shrinking is bounded by time. Each run against an engine replays a whole game through it, so shrinking a
    long game can take minutes, until Hypothesis gives up on its own after five and asks for a bug report.
    Here, ``shrink_seconds`` after the first failure, the next run Hypothesis starts stops the search
    (:class:`ShrinkBudgetSpent`), and the machine's ``TestCase`` reports the last failing run seen, which is
    the smallest Hypothesis had found (it only moves to smaller ones), as a trace file like any other failure.
    """

    engine_spec: ClassVar[str | EngineAdapter | None] = None
    failures: ClassVar[Path] = Path(DEFAULT_FAILURES_DIR)
    shrink_seconds: ClassVar[float] = 30.0
    _settings: ClassVar[settings | None] = None
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
        self.compare_options = Level.LEGAL in hello.get("levels", [])
        self.whole_games = Level.GAME in hello.get("levels", [])

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
            found = engine.start(sent_ruleset(s.ruleset, self.hello()), s.players, s.dealer, list(s.deck), self.orders)
        except Skipped:
            reject()
        except Exception as error:
            self._fail(f"{self.label()} failed to start: {_error_text(error)}", step=None)
        self._compare(None, found)
        decisions = []
        for index, choice in enumerate(self.choices):
            decision = self._decision_at(index)
            decisions.append({"choice": choice, "player": decision["player"], "kind": decision["kind"]})
        observations, stopped = engine.decide_many(decisions)
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
              expected: Any = None, found: Any = None, clause: str | None = None, note: str | None = None) -> NoReturn:
        """Write the failing run as a trace (in Hypothesis's final replay, or outside Hypothesis) and raise
        :class:`EngineDivergence` naming the file. The final message leads with the command that runs the
        saved trace again and what conform's diagnosis says of it, then the divergence itself."""
        path = None
        final = _in_final_run()
        if final:
            self.new_test_run()  # the test run ends with this replay: the next one shrinks afresh
        else:
            self._shared.setdefault("first_failure", time.monotonic())
            choices = self.choices[:recorded] if recorded is not None else self.choices
            self._shared["last_failure"] = {
                "setup": self.setup, "choices": list(choices), "orders": [list(o) for o in self.orders],
                "message": message, "where": {"step": step, "where": where, "expected": expected, "found": found,
                                              "clause": clause}}
        if final and self.setup is not None:
            path = self._write_trace(message, self.choices[:recorded] if recorded is not None else self.choices,
                                     clause)
        if path is not None:
            lead = []
            if self.engine_spec is None:
                lead.append(f"Replay it with: flip7-spec replay {path}")
            elif isinstance(self.engine_spec, str):
                lead.append(f"Run it again with: flip7-spec conform --engine {shlex.quote(self.engine_spec)} "
                            f"--trace {shlex.quote(str(path))}")
            lead.extend(self._diagnosis(path))
            tail = [note] if note else []
            message = "\n".join([*lead, message, f"The failing run is saved as a trace: {path}", *tail])
        raise EngineDivergence(message, trace_path=path, step=step, where=where, expected=expected, found=found,
                               clause=clause)

    def _diagnosis(self, path: Path) -> list[str]:
        """What ``flip7-spec conform --trace PATH`` says of the saved run: the engine runs it as conform runs
        it, and the failure comes with its diagnosis (the reading the engine plays, when a known one
        reproduces it). Nothing for the reference itself, or when the run cannot be made."""
        if self.engine_spec is None:
            return []
        try:
            cases = trace_file_cases(path, str(path), prefix="trace")
            results = run_case(self.engine(), cases[0], self.hello()) if cases else []
        except Exception as error:  # the message must still be raised: say why there is no diagnosis
            return [f"(conform could not run the saved trace: {type(error).__name__}: {error})"]
        shown = [line for r in results if r.outcome in (FAIL, ERRORED) for line in describe(r)]
        if not shown:
            return ["conform finds no failure in the saved run (does the engine play the same game twice?)"]
        return ["conform's diagnosis of the saved run:", *(f"  {line}" for line in shown)]

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

    def _steering(self, data: st.DataObject, setup: GameSetup) -> tuple[Script | None, GameSetup]:
        """When Hypothesis draws a steered run: a rare-state script for the setup's game and the setup it
        prepares, if the engine declares the options that setup uses; otherwise no script and the setup
        unchanged (a steered run shrinks towards an unsteered one)."""
        if not data.draw(st.booleans(), label="steered"):
            return None, setup
        definition = definition_of(setup.ruleset)
        names = [n for n, make in SCENARIOS.items() if make().fits(definition)]
        script = SCENARIOS[data.draw(st.sampled_from(names), label="scenario")]()
        prepared = script.prepare(data.draw, setup)
        if not self._declares(prepared.ruleset):
            return None, setup
        return script, prepared

    def _declares(self, ruleset: Ruleset) -> bool:
        """Whether the engine's handshake declares ``ruleset`` (as conform judges it:
        :func:`~flip7_spec.protocol.declared.unsupported`)."""
        if self.engine_spec is None:
            return True
        return unsupported(self.hello(), Level.ROUND, ruleset) is None

    @classmethod
    def new_test_run(cls) -> None:
        """Forget the failures of a previous test run (and so start its shrink budget afresh)."""
        cls._shared.pop("first_failure", None)
        cls._shared.pop("last_failure", None)

    @classmethod
    def run_as_test(cls, chosen: settings | None = None) -> None:
        """Run the machine as a Hypothesis test, as its ``TestCase`` does: under ``chosen`` settings (default:
        the machine's profile, :func:`~flip7_spec.testing.profiles.machine_settings`), its shrinking bounded
        by ``shrink_seconds``. Raises :class:`EngineDivergence` for a failing run."""
        cls.new_test_run()
        cls._shared["bounded"] = True
        try:
            run_machine(cls, settings=chosen if chosen is not None else cls._settings)
        except ShrinkBudgetSpent as spent:
            cls.report_last_failure(spent)
        finally:
            cls._shared["bounded"] = False

    @classmethod
    def report_last_failure(cls, spent: ShrinkBudgetSpent) -> NoReturn:
        """Raise the :class:`EngineDivergence` of the last failing run seen before ``spent`` stopped the
        search, its trace written and its message led by the command that runs it again, as at the end of
        a shrink that finished."""
        last: dict[str, Any] | None = cls._shared.get("last_failure")
        if last is None:
            raise RuntimeError("the shrink budget was spent before any run failed") from spent
        run = cls()
        run.setup, run.choices, run.orders = last["setup"], last["choices"], last["orders"]
        run._fail(last["message"], note=f"Shrinking stopped after {cls.shrink_seconds:g} s (its budget: "
                  "$FLIP7_SHRINK_SECONDS, or shrink_seconds= of differential_machine); this is the smallest "
                  "failing run found by then.", **last["where"])

    def _shrinking_is_over(self) -> bool:
        """Whether the shrink budget is spent (never in the final replay), in a run of the machine's ``TestCase``
        or :meth:`run_as_test` (which catch :class:`ShrinkBudgetSpent`; a machine run otherwise shrinks as long
        as Hypothesis does)."""
        first = self._shared.get("first_failure")
        return (first is not None and self._shared.get("bounded", False) and not _in_final_run()
                and time.monotonic() - first > self.shrink_seconds)

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        if self._shrinking_is_over():
            raise ShrinkBudgetSpent(self.shrink_seconds)
        self.draw = data.draw
        script, setup = self._steering(data, data.draw(self.setups(), label="setup"))
        self.setup = setup

        def reshuffler(discard: list[Card]) -> list[Card]:
            return self._reshuffle(discard)

        self.game = make_game(setup.ruleset, setup.players, setup.cards(), setup.dealer, reshuffler)
        steering = PileSteering(self.game)
        events: list[Event] = self.game.start()
        self.start_observation = self.game.observation()
        self.start_events = [e.to_json() for e in events]
        at_once = data.draw(st.integers(0, 100), label="decisions played at once")
        while not self.finished() and (len(self.choices) < at_once or (
                script is not None and self.game.round == 1 and len(self.choices) < DEFAULT_MAX_DECISIONS)):
            options = self.game.legal()
            forced = None
            if script is not None and not self.orders and self.game.pending is not None:
                forced = script.choose(self.game, self.game.pending, steering)
            if forced is None or forced not in options:
                forced = options[option_index(data.draw, options)]
            self._reference_step(forced)
        if script is not None:  # the deck as the cards were really drawn, the steering included
            self.setup = GameSetup(setup.ruleset, setup.players, setup.dealer,
                                   tuple(c.text for c in self.game.initial_deck))
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
        choice = options[option_index(data.draw, options)]
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
                         name: str | None = None, *, profile: str | None = None,
                         shrink_seconds: float | None = None) -> type[DifferentialMachine]:
    """A :class:`DifferentialMachine` class for ``engine``: a command speaking docs/protocol.md (run as one
    child process for all the machine's runs), an in-process :class:`EngineAdapter`, or None for the
    reference itself (in-process). Use its ``TestCase`` in a unittest or pytest suite, or pass the class to
    :func:`hypothesis.stateful.run_state_machine_as_test`.

    A failing run raises :class:`EngineDivergence` and is written as a trace file (the reference's trace of
    the run, with observations, recorded by :func:`~flip7_spec.trace.record.record_choices`) into
    :func:`failures_dir_for` (``failures_dir``, ``$FLIP7_FAILURES_DIR``, ``fixtures/regressions`` for the
    reference, ``flip7-failures/`` otherwise); the message leads with the command that runs that file again
    and conform's diagnosis of it.

    Its ``TestCase`` runs the Hypothesis profile :func:`~flip7_spec.testing.profiles.machine_profile` names
    (``profile``, else ``$FLIP7_HYPOTHESIS_PROFILE``, else a profile the project loaded, else ``ci``: 30
    examples, derandomized), whatever profile Hypothesis would use by default, and shrinks a failure for at
    most ``shrink_seconds`` (else ``$FLIP7_SHRINK_SECONDS``, else 30 s).
    """
    label = name or ("Reference" if engine is None else _slug(engine if isinstance(engine, str)
                                                               else type(engine).__name__).title().replace("-", ""))
    attributes: dict[str, Any] = {
        "engine_spec": engine,
        "failures": failures_dir_for(engine, failures_dir),
        "shrink_seconds": shrink_budget(shrink_seconds),
        "_shared": {},
        "__module__": __name__,
    }
    machine: type[DifferentialMachine] = type(f"Differential{label}", (DifferentialMachine,), attributes)
    machine._settings = machine_settings(profile)
    # Set on the class itself, it replaces Hypothesis's TestCase, whose settings are the default profile's.
    type.__setattr__(machine, "TestCase", _test_case(machine, machine._settings))
    return machine


def _test_case(machine: type[DifferentialMachine], chosen: settings) -> type[unittest.TestCase]:
    """A unittest case that runs ``machine`` under ``chosen`` settings, each run with a fresh shrink budget."""

    class MachineTestCase(unittest.TestCase):
        settings = chosen

        def runTest(self) -> None:
            machine.run_as_test(self.settings)

        runTest.is_hypothesis_test = True  # type: ignore[attr-defined]
        runTest._hypothesis_state_machine_class = machine  # type: ignore[attr-defined]

    MachineTestCase.__name__ = f"{machine.__name__}.TestCase"
    MachineTestCase.__qualname__ = f"{machine.__qualname__}.TestCase"
    return MachineTestCase
