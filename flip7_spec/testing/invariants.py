"""Invariant checks that hold for every game at every decision, and a recorded game replayed step by step.

:func:`check_conservation`, :func:`check_consistency`, :func:`check_totals`, :func:`check_canonical`; and
:func:`fingerprint`, the whole internal state of a game as a JSON value, to show that
:meth:`~flip7_spec.machine.Game.after` is pure and :meth:`~flip7_spec.machine.Game.copy` independent.
"""

from __future__ import annotations

import enum
import json
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from flip7_spec.cards import Card, card
from flip7_spec.events import Choice, Decision, Event
from flip7_spec.machine import ACTIVE, BUSTED, Game
from flip7_spec.play import make_game, round_score
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset
from flip7_spec.trace.record import GameRecord

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
        assert game._active == statuses.count(ACTIVE), f"active count {game._active}, statuses {statuses}"
    for seat, player in enumerate(game.players):
        if player.status == BUSTED:
            # a busted row scores 0, except where its game's rules score it (Vengeance's Brutal Mode applies the
            # row's Modifiers to 0, option brutal_busted_modifier): what the scoring function gives that row
            banked = round_score(game.ruleset, player.cards, busted=True)
            assert game.round_score(seat) == banked, \
                f"busted seat {seat} has round score {game.round_score(seat)}, its busted row scores {banked}"
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
    """Where :func:`walk` stands in a replay: the live game at that point (the same object at every step, so
    read it at once), the decision just made and its choice (None at the start), and the events that
    followed. A cursor over a game being played again, for inspecting its state; what was played is the
    :class:`~flip7_spec.trace.record.GameRecord` being walked."""

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
