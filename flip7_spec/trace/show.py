"""A trace rendered for people: the header, then round by round each step (numbered as replay numbers them),
what happened, each player's row after the step, round scores and totals, and the winner.

Step numbers are indices into the trace's ``steps`` array, chance steps (reshuffles) included, exactly as
:mod:`flip7_spec.trace.replay` reports a divergence (``at step 12``). What happened comes from the events
the trace records; a trace recorded without events is played on the reference to recover them (and its
rows, when it has no observations either).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from flip7_spec.cards import card_type, cards
from flip7_spec.errors import Flip7Error, LimitError
from flip7_spec.rulesets import ruleset_from_json
from flip7_spec.trace import FORMAT_NAME, FORMAT_VERSION
from flip7_spec.trace.quickcheck import plausible_step, valid_outcome
from flip7_spec.trace.replay import check_header_limits, game_from_header
from flip7_spec.trace.schema import schema_errors, step_errors

DECK_PREVIEW = 24
"""How many deck cards the header shows."""


class ShowError(Flip7Error):
    """A trace that cannot be rendered: not a trace object, another format or version, a schema violation."""


@dataclass(slots=True)
class StepOutcome:
    """What one step (or the start) caused, as the renderer uses it."""

    events: list[dict[str, Any]] | None
    observation: dict[str, Any] | None


@dataclass(slots=True)
class DerivedOutcomes:
    """Events and observations recovered from the reference for a trace that does not record them."""

    start: StepOutcome
    steps: dict[int, StepOutcome] = field(default_factory=dict)
    stopped: str | None = None


def check_trace(trace: Any) -> None:
    """Raise :class:`ShowError` (one line) unless ``trace`` is a schema-valid trace of this format version."""
    if not isinstance(trace, dict):
        raise ShowError(f"$: expected a trace object, got {type(trace).__name__}")
    if trace.get("format") != FORMAT_NAME:
        raise ShowError(f"$.format: expected {FORMAT_NAME!r}, got {trace.get('format')!r}")
    if trace.get("version") != FORMAT_VERSION or isinstance(trace.get("version"), bool):
        raise ShowError(f"$.version: unsupported format version {trace.get('version')!r}; "
                        f"this flip7-spec reads version {FORMAT_VERSION}")
    problems = schema_errors(trace, envelope_only=True) or _step_problems(trace)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ShowError(problems[0] + more)
    try:
        check_header_limits(trace["header"])
    except LimitError as error:
        raise ShowError(str(error)) from None


def _step_problems(trace: dict[str, Any]) -> list[str]:
    """The schema violations of the start and the steps, found fast (see :mod:`.quickcheck`): the schema
    validator runs only where the quick check is not sure, so checking is linear with a small constant."""
    if not valid_outcome(trace.get("start", {})):
        problems = schema_errors(trace)
        if problems:
            return problems
    for index, step in enumerate(trace["steps"]):
        if not (plausible_step(step) and ("reshuffle" in step or valid_outcome(step))):
            problems = step_errors(step, index)
            if problems:
                return problems
    return []


def _has_events(trace: dict[str, Any]) -> bool:
    entries = [s for s in trace["steps"] if "decision" in s] + [trace.get("start", {})]
    return any("events" in entry for entry in entries)


def derive_outcomes(trace: dict[str, Any]) -> DerivedOutcomes:
    """Play the trace's decisions on the reference and keep each step's events and observation."""
    steps = trace["steps"]
    leading = 0
    while leading < len(steps) and "reshuffle" in steps[leading]:
        leading += 1
    try:
        _, game, _ = game_from_header(trace["header"], [cards(s["reshuffle"]) for s in steps[:leading]])
        start_events = game.start()
    except Exception as error:  # the reference refuses the header: show what the trace itself says
        message = str(error) if isinstance(error, Flip7Error) else f"{type(error).__name__}: {error}"
        return DerivedOutcomes(StepOutcome([], None), stopped=f"the reference cannot start this game: {message}")
    derived = DerivedOutcomes(StepOutcome([e.to_json() for e in start_events], game.observation()))
    for index in range(leading, len(steps)):
        step = steps[index]
        if "reshuffle" in step:
            game.supply_reshuffle(cards(step["reshuffle"]))
            continue
        try:
            events = game.apply(step["decision"]["choice"])
        except Flip7Error as error:
            derived.stopped = f"the reference cannot play step {index}: {error}"
            return derived
        derived.steps[index] = StepOutcome([e.to_json() for e in events], game.observation())
    return derived


class _Names:
    def __init__(self, header: dict[str, Any]) -> None:
        names = header.get("names") or []
        self.names = [str(n) for n in names]

    def __call__(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.names):
            return f"seat {seat} ({self.names[seat]})"
        return f"seat {seat}"


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def _per_seat(values: Sequence[Any], seat: Callable[[Any], str]) -> str:
    return ", ".join(f"{seat(i)}: {v}" for i, v in enumerate(values))


_VIA = {"deal": "is dealt", "hit": "hits and gets", "flip3": "flips (Flip Three)",
        "replacement": "gets a replacement card"}


def _named(text: Any) -> str:
    """A card's text followed by its name, as its game lists it (``CHANCE (Second Chance)``); a card of the
    shared notation, or anything else, as it is."""
    listed = card_type(text) if isinstance(text, str) else None
    return f"{text} ({listed.name})" if listed is not None and listed.name else str(text)


def describe_event(event: dict[str, Any], seat: Callable[[Any], str]) -> str:
    """One line for one event (any event name: unknown ones are listed with their fields)."""
    kind = event.get("event")
    who = seat(event.get("player"))
    card = event.get("card")
    target = seat(event.get("target"))
    if kind == "draw":
        return f"{who} {_VIA.get(str(event.get('via')), 'gets')} {card}"
    if kind == "bust":
        return f"{who} BUSTS on a second {card}"
    if kind == "stay":
        return f"{who} stays"
    if kind == "flip7":
        return f"{who} FLIPS 7: the round ends"
    if kind == "target":
        return f"{who} plays {card} on {target}"
    if kind == "freeze":
        return f"{who} is frozen (banks the cards in front of them)"
    if kind == "flip3_start":
        return f"{who} must flip three cards"
    if kind == "flip3_end":
        return f"{who}'s Flip Three is over"
    if kind == "set_aside":
        return f"{who} sets {card} aside until the Flip Three is over"
    if kind == "assign":
        return f"{who} assigns the set-aside {card} to {target}"
    if kind == "give":
        return f"{who} gives {_named(card)} to {target}"
    if kind == "chance_used":
        return f"{who} uses a Second Chance against a second {card}: both are discarded"
    if kind == "discard":
        return f"{card} is discarded ({event.get('reason', 'no reason given')})"
    if kind == "forced":
        about = f" about {card}" if card else ""
        return (f"forced: {who} {event.get('kind')}{about} -> {_value(event.get('choice'))} "
                f"(the only legal choice, {event.get('because')})")
    if kind == "reshuffle":
        order = event.get("order") or []
        return f"the deck is empty: the discard pile is reshuffled into a new deck of {_cards(len(order))}"
    if kind == "empty_deck":
        clause = str(event.get("clause", ""))
        if clause.endswith("-ENDLESS"):
            return f"play only cycles (the deck drawn ten times over, no decision, no point): the game ends [{clause}]"
        if clause.endswith("-STALLED-ROUND"):
            return f"nothing left to draw could change the round: the round ends [{clause}]"
        return "the deck and the discard pile are both empty: the round ends"
    if kind == "round_start":
        return f"round {event.get('round')} starts, dealer {seat(event.get('dealer'))}"
    if kind == "round_end":
        return (f"round ends: scores {_per_seat(event.get('scores') or [], seat)}; "
                f"totals {_per_seat(event.get('totals') or [], seat)}")
    if kind == "tie":
        return f"tie for the highest total between {', '.join(seat(s) for s in event.get('leaders') or [])}: " \
               "another round"
    if kind == "game_end":
        winners = event.get("winners") or []
        return f"GAME OVER: {'winner' if len(winners) == 1 else 'winners'} {', '.join(seat(s) for s in winners)}"
    vengeance = _describe_vengeance(kind, event, who, card, target, seat)
    if vengeance is not None:
        return vengeance
    extras = " ".join(f"{k}={_value(v)}" for k, v in sorted(event.items()) if k not in ("event", "clause"))
    return f"{kind}: {extras}".rstrip(": ")


def _describe_vengeance(kind: Any, event: dict[str, Any], who: str, card: Any, target: str,
                        seat: Callable[[Any], str]) -> str | None:
    """The line of a Vengeance event (None for another event)."""
    if kind == "modifier":
        return f"{who} puts {card} on {target}"
    if kind == "flip4_start":
        return f"{who} must flip four cards"
    if kind == "flip4_end":
        return f"{who}'s Flip Four is over"
    if kind == "hold":
        return f"{who} holds {card} until the Flip Four is over"
    if kind == "wipe":
        return f"{who}'s Unlucky 7 discards {' '.join(event.get('discarded') or []) or 'nothing'}"
    if kind == "lucky13":
        return f"{who} pairs a Lucky 13 with {card}: no bust"
    if kind == "steal":
        return f"{who} steals {card} from {seat(event.get('from'))}"
    if kind == "swap":
        one, other = [*(event.get("players") or []), None, None][:2]
        given = [*(event.get("cards") or []), "?", "?"]
        return f"{seat(one)} gives {given[0]} to {seat(other)} and gets {given[1]} back (Swap)"
    if kind == "discard_card":
        return f"{who}'s {card} is discarded by {seat(event.get('by'))}"
    if kind == "brutal_flip7":
        return f"{who} gives the Flip 7 bonus to {target}"
    return None


def describe_decision(decision: dict[str, Any], seat: Callable[[Any], str]) -> str:
    who = seat(decision["player"]) if "player" in decision else "the player to decide"
    kind = decision.get("kind")
    choice = decision["choice"]
    if kind == "target":
        return f"{who} chooses the target: {seat(choice)}"
    if kind == "give":
        return f"{who} gives the Second Chance to {seat(choice)}"
    if kind == "assign":
        return f"{who} assigns the set-aside card to {seat(choice)}"
    if kind == "hit_or_stay" or choice in ("hit", "stay"):
        return f"{who}: {choice}"
    return f"{who} ({kind}): {_value(choice)}"


def _rows(observation: dict[str, Any], seat: Callable[[Any], str]) -> list[str]:
    players = observation.get("players") or []
    width = max((len(seat(i)) for i in range(len(players))), default=6)
    lines = []
    for i, player in enumerate(players):
        row = " ".join(player.get("cards") or []) or "-"
        lines.append(f"    {seat(i):<{width}}  {player.get('status', ''):<7} {row:<28} "
                     f"round {player.get('round_score')}  total {player.get('total')}")
    pending = observation.get("pending")
    if pending:
        about = f" about {pending.get('card')}" if pending.get("card") else ""
        options = ", ".join(_value(o) for o in pending.get("options") or [])
        lines.append(f"    next: {seat(pending.get('player'))} decides {pending.get('kind')}{about} [{options}]")
    return lines


def _ruleset_line(value: Any) -> list[str]:
    if isinstance(value, str):
        return [f"ruleset: {value}"]
    try:
        ruleset = ruleset_from_json(value)
        base = ruleset_from_json(ruleset.base)
    except Flip7Error as error:
        return [f"ruleset: {_value(value)} (cannot be read: {error})"]
    lines = [f"ruleset: {ruleset.name} (base {ruleset.base}): {ruleset.description}"]
    changed = [f"{k} = {_value(v)}" for k, v in ruleset.options().items() if base.options()[k] != v]
    if changed:
        lines.append(f"options changed: {', '.join(changed)}")
    if dict(ruleset.deck) != dict(base.deck):
        size = sum(count for _, count in ruleset.deck)
        lines.append(f"deck composition ({size} cards): "
                     + " ".join(f"{t}x{c}" if c > 1 else t for t, c in ruleset.deck))
    return lines


def render(trace: Any, step_numbers: bool = False) -> list[str]:
    """The lines that show ``trace`` to a person (all of :func:`lines_of`)."""
    return list(lines_of(trace, step_numbers))


def lines_of(trace: Any, step_numbers: bool = False) -> Iterator[str]:
    """The lines that show ``trace`` to a person, one at a time (so a long trace is shown as it is read).

    Raises :class:`ShowError`, before the first line, for a trace that is not a schema-valid trace of this
    format version or is over a limit. With ``step_numbers`` every further line of a step starts with
    ``step N |`` (the step's own line starts with ``step N:``), so that a search for a step number finds
    all of it. Time and memory are linear in the trace's length.
    """
    check_trace(trace)
    return _lines(trace, step_numbers)


def _lines(trace: dict[str, Any], step_numbers: bool) -> Iterator[str]:
    header = trace["header"]
    seat = _Names(header)
    yield (f"{trace['format']} version {trace['version']}"
           + (f", rules {trace['rules_version']}" if "rules_version" in trace else ""))
    if "description" in header:
        yield f"description: {header['description']}"
    yield from _ruleset_line(header["ruleset"])
    players = header["players"]
    yield f"players: {players} ({', '.join(seat(i) for i in range(players))}); dealer: {seat(header['dealer'])}"
    deck = header["deck"]
    more = f" ... ({len(deck) - DECK_PREVIEW} more)" if len(deck) > DECK_PREVIEW else ""
    yield f"deck: {len(deck)} cards, top first: {' '.join(deck[:DECK_PREVIEW])}{more}"
    if header.get("clauses"):
        yield f"clauses: {' '.join(header['clauses'])}"
    provenance = {k: v for k, v in (header.get("provenance") or {}).items() if k != "failure"}
    if provenance:
        yield f"provenance: {_value(provenance)}"
    failure = (header.get("provenance") or {}).get("failure")
    if isinstance(failure, dict) and failure.get("outcome") == "errored":  # an error saved by --save-failures
        at = "the start" if failure.get("step") is None else f"step {failure.get('step')}"
        decision = f" after {_value(failure['decision'])}" if failure.get("decision") else ""
        yield (f"saved error of {failure.get('case_id')} [{failure.get('level')}] at {at}{decision}: "
               f"{failure.get('message')}")
        for line in str(failure.get("stderr") or "").strip().splitlines()[-5:]:
            yield f"  stderr: {line}"
    elif isinstance(failure, dict):  # a trace saved by `conform --save-failures`: the engine's side, in one line
        at = "the start" if failure.get("step") is None else f"step {failure.get('step')}"
        yield (f"saved failure of {failure.get('case_id')} [{failure.get('level')}] at {at}: "
               f"{failure.get('where')}: expected {_value(failure.get('expected'))}, found "
               f"{_value(failure.get('found'))} [clause {failure.get('clause')}] "
               "(show --html puts both tables side by side)")

    derived = None if _has_events(trace) else derive_outcomes(trace)
    if derived is not None:
        yield "(this trace records no events: what happened is computed by the reference)"

    def block(prefix: str, outcome: StepOutcome) -> Iterator[str]:
        lead = prefix if step_numbers else ""
        for event in outcome.events or []:
            if event.get("event") == "round_start":
                yield f"{lead}== round {event.get('round')}, dealer {seat(event.get('dealer'))} =="
                continue
            yield f"{lead}  {describe_event(event, seat)}"
        if outcome.observation is not None:
            yield from (f"{lead}{line}" for line in _rows(outcome.observation, seat))

    start = trace.get("start", {})
    start_outcome = StepOutcome(start.get("events"), start.get("observation"))
    if derived is not None:
        start_outcome = StepOutcome(derived.start.events, start_outcome.observation or derived.start.observation)
    yield ("start (before the first decision)")
    yield from block("start | ", start_outcome)
    for index, step in enumerate(trace["steps"]):
        prefix = f"step {index} | "
        lead = prefix if step_numbers else ""
        if "reshuffle" in step:
            order = step["reshuffle"]
            yield (f"step {index}: reshuffle order for the next decision ({_cards(len(order))}, top first): "
                   f"{' '.join(order)}")
            continue
        yield (f"step {index}: {describe_decision(step['decision'], seat)}")
        outcome = StepOutcome(step.get("events"), step.get("observation"))
        if derived is not None:
            found = derived.steps.get(index)
            if found is None:
                if derived.stopped:
                    yield f"{lead}  {derived.stopped}"
                    derived.stopped = None
                outcome = StepOutcome(None, outcome.observation)
            else:
                outcome = StepOutcome(found.events, outcome.observation or found.observation)
        if outcome.events is None and "scores" in step:
            yield from (f"{lead}  round ends: scores {_per_seat(s, seat)}" for s in step["scores"])
        yield from block(prefix, outcome)
    footer = trace.get("footer")
    if footer is not None:
        winners = footer.get("winners", [])
        rounds = f" after {footer['rounds']} rounds" if "rounds" in footer else ""
        yield (f"game over{rounds}: {'winner' if len(winners) == 1 else 'winners'} "
               f"{', '.join(seat(s) for s in winners)}; totals {_per_seat(footer.get('totals', []), seat)}")
    else:
        yield "the trace ends here: a partial game (no footer)"
