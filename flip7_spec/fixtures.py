"""Golden fixtures: small hand-written TOML sources, compiled on the reference into trace files.

The fixtures directory holds::

    src/<game>/<name>.toml     the sources (hand-written; any subdirectory of ``src`` works)
    <game>/<name>.json         the compiled traces (written by ``flip7-spec fixtures regenerate``)
    rulesets/<name>.toml       ruleset files that sources may name

A source names the rule clauses it exercises and forces its edge case with a hand-built deck order::

    description = "one line: what this fixture shows"
    clauses = ["F7-BUST", "F7-SCORE-BUST"]
    ruleset = "flip7"          # a preset, a path relative to the fixtures directory, or an inline table
                               # such as {base = "flip7", options = {second_chance_ends_turn = false}}
    players = 3
    dealer = 2
    top = ["5", "9", "12", "5"]  # the top of the deck, top card first; the rest of the deck follows in the
                                 # ruleset's composition order minus the cards used here
    decisions = ["hit"]          # the choices in order: "hit", "stay", seat numbers
    reshuffles = []              # optional explicit reshuffle orders (top first), used in order
    finish = "threshold"         # optional: play on to the end of the game with threshold_policy(20)

    expect_round_scores = [[5, 9, 12]]   # optional checks, derived by hand from the rules
    expect_totals = [...]
    expect_winners = [...]

    [[expect]]                   # optional: the observation after decision number `after`
    after = 1                    # (0: after the start; default: after the last decision)
    status = ["busted", "active", "active"]
    events = [{event = "bust", player = 0, card = "5"}]

When a reshuffle is needed and no explicit order is left, the new deck is the discard pile sorted in the
ruleset's composition order (a stable sort, so equal cards keep their order). Compiling plays the source
on the reference engine and writes the whole trace (header, chance steps, every decision with its events
and the observation after it, the start, and the footer when the game is over). A hand-derived
expectation that the reference contradicts fails the compilation: that is how fixtures check the engine
instead of merely recording it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final

from flip7_spec.cards import Card, card
from flip7_spec.clauses import CLAUSES
from flip7_spec.errors import ChanceError, Flip7Error, IllegalDecision, InputError, OutputError
from flip7_spec.events import Choice
from flip7_spec.inputs import read_document
from flip7_spec.limits import SOURCE_FILE
from flip7_spec.machine import Game
from flip7_spec.outputs import write_file
from flip7_spec.play import new_game
from flip7_spec.rulesets import Ruleset, load_ruleset, ruleset_from_json
from flip7_spec.simulation.policies import threshold_policy
from flip7_spec.trace.canonical import dumps_document
from flip7_spec.trace.record import GameRecord

GENERATOR: Final = "flip7-spec fixtures regenerate"
FINISH_POLICIES: Final = {"threshold": 20}
"""The ``finish`` values: play the rest of the game with ``threshold_policy(N)``."""
MAX_FINISH_DECISIONS: Final = 100_000

_KNOWN_KEYS: Final = frozenset({
    "description", "clauses", "ruleset", "players", "dealer", "top", "decisions", "reshuffles", "finish",
    "expect_round_scores", "expect_totals", "expect_winners", "expect",
})
_CHECKPOINT_PLAYER_FIELDS: Final = ("cards", "status", "round_score", "total")
_CHECKPOINT_FIELDS: Final = ("round", "dealer", "draw_pile", "discard_pile", "in_play", "pending", "over",
                             "winners")


class FixtureError(Flip7Error):
    """A fixture source that cannot be compiled: bad TOML, an unknown key or clause, an illegal decision."""


class ExpectationFailed(Flip7Error):
    """A hand-derived expectation of a fixture that the reference contradicts."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Hand-derived facts about the observation (and the events) right after decision number ``after``."""

    after: int
    fields: dict[str, Any]
    events: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class FixtureSource:
    """A parsed fixture source."""

    path: Path
    name: str
    description: str
    clauses: tuple[str, ...]
    ruleset: Ruleset
    players: int
    dealer: int
    top: tuple[str, ...]
    decisions: tuple[Choice, ...]
    reshuffles: tuple[tuple[str, ...], ...]
    finish: str | None
    expect_round_scores: tuple[list[int], ...] | None
    expect_totals: list[int] | None
    expect_winners: list[int] | None
    checkpoints: tuple[Checkpoint, ...]


@dataclass(frozen=True, slots=True)
class Compiled:
    """A compiled fixture: where it goes and its canonical text."""

    source: FixtureSource
    out: Path
    trace: dict[str, Any]
    text: str


@dataclass(slots=True)
class Report:
    """What :func:`regenerate` did or found: compiled files (shown as ``fixtures/GAME/NAME.json``), and the
    messages of the sources that failed."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    outdated: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def shipped_fixtures_dir() -> Path:
    """The golden fixtures that ship with flip7-spec (the package ``flip7_spec.golden``): the checkout's
    ``fixtures/`` folder in an editable install, ``site-packages/flip7_spec/golden`` in a wheel install."""
    return Path(str(resources.files("flip7_spec.golden")))


def default_fixtures_dir() -> Path:
    """``./fixtures`` when the current directory has one with sources, else the shipped fixtures."""
    here = Path.cwd() / "fixtures"
    if (here / "src").is_dir():
        return here
    return shipped_fixtures_dir()


def source_paths(root: Path) -> list[Path]:
    """Every fixture source under ``root/src``, in path order."""
    return sorted((root / "src").rglob("*.toml"))


def compiled_paths(root: Path) -> list[Path]:
    """Every compiled trace under ``root`` (``src`` and ``rulesets`` excluded), in path order."""
    out = []
    for path in sorted(root.rglob("*.json")):
        top = path.relative_to(root).parts[0]
        if top not in ("src", "rulesets"):
            out.append(path)
    return out


def compiled_path(root: Path, source: Path) -> Path:
    """Where the trace compiled from ``source`` goes: ``src/a/b.toml`` gives ``a/b.json``."""
    return (root / source.relative_to(root / "src")).with_suffix(".json")


def _where(root: Path, path: Path) -> str:
    """``path`` as shown in messages: relative to the fixtures directory, prefixed with its name."""
    try:
        return f"{root.name}/{path.relative_to(root).as_posix()}"
    except ValueError:
        return str(path)


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise FixtureError(f"{where}: missing key {key!r}")
    value = data[key]
    if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
        raise FixtureError(f"{where}: {key} has the wrong type ({type(value).__name__})")
    return value


def _int_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise FixtureError(f"{where}: expected a list of whole numbers")
    return list(value)


def _ruleset(root: Path, value: Any, where: str) -> Ruleset:
    try:
        if isinstance(value, str) and Path(value).suffix.lower() in (".toml", ".json"):
            return load_ruleset(str(root / value))
        return ruleset_from_json(value, where="ruleset")
    except Flip7Error as error:
        raise FixtureError(f"{where}: ruleset: {error}") from None


def _checkpoint(value: Any, index: int, decisions: int, where: str) -> Checkpoint:
    here = f"{where}: expect[{index}]"
    if not isinstance(value, dict):
        raise FixtureError(f"{here}: expected a table")
    after = value.get("after", decisions)
    if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after <= decisions:
        raise FixtureError(f"{here}.after: expected a decision count from 0 to {decisions}, got {after!r}")
    fields_: dict[str, Any] = {}
    events: tuple[dict[str, Any], ...] = ()
    for key, item in value.items():
        if key == "after":
            continue
        if key == "events":
            if not isinstance(item, list) or not all(isinstance(e, dict) and "event" in e for e in item):
                raise FixtureError(f"{here}.events: expected a list of tables, each with an 'event' key")
            events = tuple(item)
        elif key in _CHECKPOINT_FIELDS or key in _CHECKPOINT_PLAYER_FIELDS:
            fields_[key] = item
        else:
            known = ", ".join(["after", "events", *_CHECKPOINT_FIELDS, *_CHECKPOINT_PLAYER_FIELDS])
            raise FixtureError(f"{here}.{key}: unknown key; keys are {known}")
    return Checkpoint(after, fields_, events)


def load_source(root: Path, path: Path) -> FixtureSource:
    """Parse and check the fixture source at ``path`` (relative paths in it are relative to ``root``).

    Raises :class:`FixtureError` naming the file and the key for anything malformed: bad TOML, an unknown
    key, an unknown clause id, a bad ruleset, cards that are not in the deck.
    """
    where = _where(root, path)
    try:
        data = read_document(path, SOURCE_FILE)  # a regular file within the limits, strict TOML
    except InputError as error:
        raise FixtureError(f"{where}: {str(error).removeprefix(f'{path}: ')}") from None
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise FixtureError(f"{where}: unknown key {unknown[0]!r}; keys are {', '.join(sorted(_KNOWN_KEYS))}")
    description = _need(data, "description", str, where)
    if not description.strip() or "\n" in description:
        raise FixtureError(f"{where}: description must be one non-empty line")
    clauses = _need(data, "clauses", list, where)
    for clause_id in clauses:
        if not isinstance(clause_id, str) or clause_id not in CLAUSES:
            raise FixtureError(f"{where}: clauses: unknown clause id {clause_id!r}")
    if not clauses:
        raise FixtureError(f"{where}: clauses: name at least one clause")
    ruleset = _ruleset(root, _need(data, "ruleset", (str, dict), where), where)
    players = _need(data, "players", int, where)
    dealer = _need(data, "dealer", int, where)
    top = _need(data, "top", list, where)
    decisions = _need(data, "decisions", list, where)
    reshuffles = data.get("reshuffles", [])
    if not isinstance(reshuffles, list) or not all(isinstance(r, list) for r in reshuffles):
        raise FixtureError(f"{where}: reshuffles: expected a list of card lists")
    for key, texts in (("top", top), *((f"reshuffles[{i}]", r) for i, r in enumerate(reshuffles))):
        if not all(isinstance(t, str) for t in texts):
            raise FixtureError(f"{where}: {key}: write every card as a string, such as \"5\" or \"FREEZE\"")
    try:
        top_texts = tuple(card(t).text for t in top)
        reshuffle_texts = tuple(tuple(card(t).text for t in order) for order in reshuffles)
    except Flip7Error as error:
        raise FixtureError(f"{where}: {error}") from None
    finish = data.get("finish")
    if finish is not None and finish not in FINISH_POLICIES:
        raise FixtureError(f"{where}: finish: expected one of {', '.join(FINISH_POLICIES)}, got {finish!r}")
    round_scores = data.get("expect_round_scores")
    if round_scores is not None:
        if not isinstance(round_scores, list):
            raise FixtureError(f"{where}: expect_round_scores: expected a list of lists")
        round_scores = tuple(_int_list(r, f"{where}: expect_round_scores") for r in round_scores)
    totals = data.get("expect_totals")
    winners = data.get("expect_winners")
    checkpoints = data.get("expect", [])
    if not isinstance(checkpoints, list):
        raise FixtureError(f"{where}: expect: write it as [[expect]] tables")
    return FixtureSource(
        path=path,
        name=path.relative_to(root / "src").with_suffix("").as_posix(),
        description=description.strip(),
        clauses=tuple(clauses),
        ruleset=ruleset,
        players=players,
        dealer=dealer,
        top=top_texts,
        decisions=tuple(decisions),
        reshuffles=reshuffle_texts,
        finish=finish,
        expect_round_scores=round_scores,
        expect_totals=None if totals is None else _int_list(totals, f"{where}: expect_totals"),
        expect_winners=None if winners is None else _int_list(winners, f"{where}: expect_winners"),
        checkpoints=tuple(_checkpoint(c, i, len(decisions), where) for i, c in enumerate(checkpoints)),
    )


def full_deck(ruleset: Ruleset, players: int, top: Sequence[str], where: str = "top") -> list[Card]:
    """The whole draw pile, top first: ``top``, then the rest of the ruleset's deck in composition order.

    Raises :class:`FixtureError` when ``top`` uses a card more often than the deck holds it.
    """
    rest = [c.text for c in ruleset.deck_cards(players)]
    for text in top:
        try:
            rest.remove(text)
        except ValueError:
            held = sum(1 for c in ruleset.deck_cards(players) if c.text == text)
            raise FixtureError(f"{where}: card {text} is used more often than the "
                               f"{ruleset.name} deck for {players} players holds it ({held})") from None
    return [card(t) for t in (*top, *rest)]


def composition_order(ruleset: Ruleset) -> dict[str, int]:
    """The position of each card text in the ruleset's composition (the default reshuffle order)."""
    return {text: index for index, (text, _) in enumerate(ruleset.deck)}


def sorted_reshuffler(ruleset: Ruleset) -> Any:
    """The documented default reshuffle: the discard pile sorted in composition order (stable)."""
    order = composition_order(ruleset)

    def reshuffle(discard: list[Card]) -> list[Card]:
        return sorted(discard, key=lambda c: order.get(c.text, len(order)))

    return reshuffle


def play_source(source: FixtureSource, where: str) -> GameRecord:
    """Play ``source`` on the reference: its decisions, then (with ``finish``) the rest of the game; returns
    its record, with the observation after every step.

    Raises :class:`FixtureError` naming the file and the decision index for an illegal decision, a
    decision after the end of the game, a reshuffle order that does not fit, or an unused reshuffle.
    """
    ruleset = source.ruleset
    deck = full_deck(ruleset, source.players, source.top, f"{where}: top")
    try:
        game, start_events = new_game(ruleset, source.players, deck, source.dealer,
                                      reshuffles=[[card(t) for t in order] for order in source.reshuffles],
                                      reshuffler=sorted_reshuffler(ruleset))
    except Flip7Error as error:
        raise FixtureError(f"{where}: {error}") from None
    observations = [game.observation()]
    chance_steps = sum(e.kind == "reshuffle" for e in start_events)
    for index, choice in enumerate(source.decisions):
        step = index + chance_steps
        pending = game.pending
        if pending is None:
            raise FixtureError(f"{where}: decisions[{index}] = {choice!r}: the game is already over")
        try:
            events = game.apply(choice)
        except IllegalDecision as error:
            legal = ", ".join(repr(o) for o in error.legal)
            raise FixtureError(f"{where}: decisions[{index}] = {choice!r} (trace step {step}) is illegal: the "
                               f"pending decision is "
                               f"{pending.kind} of player {pending.player}"
                               f"{' about ' + pending.card if pending.card else ''}; legal choices: {legal}"
                               ) from None
        except ChanceError as error:
            raise FixtureError(f"{where}: decisions[{index}] = {choice!r} (trace step {step}): {error}") from None
        chance_steps += sum(e.kind == "reshuffle" for e in events)
        observations.append(game.observation())
    if source.finish is not None:
        _finish(game, observations, FINISH_POLICIES[source.finish], where)
    if game.orders_waiting:
        raise FixtureError(f"{where}: reshuffles: {game.orders_waiting} explicit order(s) were never needed")
    return GameRecord.of(game, observations=observations, generator=GENERATOR)


def _finish(game: Game, observations: list[dict[str, Any]], threshold: int, where: str) -> None:
    policy = threshold_policy(threshold)
    rng = random.Random(0)
    count = 0
    while not game.over:
        pending = game.pending
        if pending is None or count >= MAX_FINISH_DECISIONS:
            raise FixtureError(f"{where}: finish: the game did not end within {MAX_FINISH_DECISIONS} decisions")
        choice = policy(game, pending, rng)
        try:
            game.apply(choice)
        except Flip7Error as error:
            raise FixtureError(f"{where}: finish: {error}") from None
        observations.append(game.observation())
        count += 1


def _matches(expected: Mapping[str, Any], event: Mapping[str, Any]) -> bool:
    return all(key in event and event[key] == value for key, value in expected.items())


def _subsequence(expected: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]]) -> int | None:
    """The index of the first expected event that is not found in order, or None when all are found."""
    position = 0
    for index, wanted in enumerate(expected):
        while position < len(events) and not _matches(wanted, events[position]):
            position += 1
        if position == len(events):
            return index
        position += 1
    return None


def check_expectations(source: FixtureSource, played: GameRecord, where: str) -> None:
    """Compare every hand-derived expectation of ``source`` with what the reference did.

    Raises :class:`ExpectationFailed` at the first disagreement, naming the key, the hand-derived value
    and the reference's value.
    """
    if source.expect_round_scores is not None:
        found = [list(e.get("scores")) for e in played.all_events() if e.kind == "round_end"]
        for index, wanted in enumerate(source.expect_round_scores):
            scores: list[int] | str = found[index] if index < len(found) else "no such round"
            if scores != wanted:
                raise ExpectationFailed(f"{where}: expect_round_scores[{index}]: derived by hand {wanted}, "
                                        f"the reference gives {scores}")
    for key, wanted_list in (("expect_totals", source.expect_totals), ("expect_winners", source.expect_winners)):
        if wanted_list is None:
            continue
        if not played.over:
            raise ExpectationFailed(f"{where}: {key}: the game is not over at the end of the fixture")
        got_list: list[int] = list(played.totals) if key == "expect_totals" else list(played.winners)
        if got_list != wanted_list:
            raise ExpectationFailed(f"{where}: {key}: derived by hand {wanted_list}, the reference gives {got_list}")
    for index, point in enumerate(source.checkpoints):
        here = f"{where}: expect[{index}] (after {point.after} decision{'s' if point.after != 1 else ''})"
        observation, events = played.observations[point.after], played.events_after(point.after)
        for key, wanted in point.fields.items():
            if key in _CHECKPOINT_PLAYER_FIELDS:
                got: Any = [p[key] for p in observation["players"]]
            elif key == "pending" and isinstance(wanted, dict) and observation["pending"] is not None:
                got = {k: observation["pending"].get(k) for k in wanted}
            else:
                got = observation[key]
            if got != wanted:
                raise ExpectationFailed(f"{here}: {key}: derived by hand {wanted!r}, the reference gives {got!r}")
        events_json = [e.to_json() for e in events]
        missing = _subsequence(point.events, events_json)
        if missing is not None:
            raise ExpectationFailed(f"{here}: events[{missing}] = {point.events[missing]!r} does not occur (in "
                                    f"order) among the reference's events: {events_json!r}")


def compile_source(root: Path, path: Path) -> Compiled:
    """Compile the source at ``path``: play it, check its expectations, and build its canonical trace.

    Raises :class:`FixtureError` for an unusable source and :class:`ExpectationFailed` when a hand-derived
    expectation disagrees with the reference. Writes nothing.
    """
    source = load_source(root, path)
    where = _where(root, path)
    played = play_source(source, where)
    check_expectations(source, played, where)
    provenance: dict[str, Any] = {"generator": GENERATOR, "source": path.relative_to(root).as_posix()}
    if source.finish is not None:
        provenance["finish"] = f"{source.finish} {FINISH_POLICIES[source.finish]}"
    trace = played.trace(description=source.description, clauses=source.clauses, provenance=provenance)
    return Compiled(source, compiled_path(root, path), trace, dumps_document(trace))


def regenerate(root: Path, check: bool = False, only: Iterable[str] = ()) -> Report:
    """Compile every source under ``root/src`` (or only those named in ``only``) and write the traces.

    With ``check`` nothing is written: sources whose compiled file is missing or differs are listed in
    ``outdated``, compiled files with no source in ``orphans``. Errors and failed expectations are
    collected per fixture; the others are still processed.
    """
    report = Report()
    wanted = set(only)
    paths = source_paths(root)
    for path in paths:
        name = path.relative_to(root / "src").with_suffix("").as_posix()
        if wanted and name not in wanted and path.stem not in wanted:
            continue
        try:
            compiled = compile_source(root, path)
        except ExpectationFailed as failure:
            report.failures.append(str(failure))
            continue
        except FixtureError as error:
            report.errors.append(str(error))
            continue
        out = compiled.out
        current = out.read_text(encoding="utf-8", errors="replace") if out.is_file() else None
        if current == compiled.text:
            report.unchanged.append(_where(root, out))
        elif check:
            report.outdated.append(_where(root, out))
        else:
            try:
                out.parent.mkdir(parents=True, exist_ok=True)
                write_file(out, compiled.text, "fixture")  # whole or not at all
            except (OSError, OutputError) as error:
                report.errors.append(f"{_where(root, out)}: {error}")
                continue
            report.written.append(_where(root, out))
    if not wanted:
        expected = {compiled_path(root, p) for p in paths}
        report.orphans = [_where(root, p) for p in compiled_paths(root) if p not in expected]
    return report
