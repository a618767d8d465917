"""Aimed games: generated games steered at the clauses the corpus has not exercised often enough yet.

After the ordinary generated games, the generator plays candidate games on the reference and keeps those
that exercise a clause still short of ``least`` cases. Each candidate is short (a low target score when the
engine declares other target scores), and is aimed by what is still short:

- the declared option values whose own clauses are short are played;
- a Flip 7 hunt: one player hits while the others stay, and the pile (steered with
  :class:`flip7_spec.steering.PileSteering`, as the rare-state scripts do) brings them new Numbers, with The
  0, an x2 or a Flip Three among them, or an Action;
- an Action hunt: Action and special cards are put on top of the pile before random Hits, so that each
  Action meets players in every state (active, stayed, busted, alone);
- more players than one deck serves, when the ruleset allows it.

Everything is drawn from a :class:`random.Random` seeded by the run's seed: the same ``--seed`` gives the same
games. At most ``cap`` candidates are tried per ruleset.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flip7_spec.cards import Card, Kind, card
from flip7_spec.clauses import CLAUSES, clause
from flip7_spec.conformance.cases import Case, GameJob, game_jobs, generated_game, job_cases
from flip7_spec.conformance.coverage import (
    Coverage,
    clauses_of_evidence,
    expected_clauses,
    trace_clauses,
    watch_round_ends,
)
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision, DecisionKind
from flip7_spec.evidence import Evidence
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.policies import random_policy
from flip7_spec.rulesets import Ruleset, ruleset_from_json
from flip7_spec.steering import PileSteering, Wanted, new_number_for, rig
from flip7_spec.steering import card_text as card_is
from flip7_spec.trace.record import GameRecord

DEFAULT_CAP = 120
"""Candidate games tried per ruleset by default before the generator gives up on the clauses still short."""

LOW_TARGETS = (1, 15, 30, 60, 100)
"""Target scores of aimed games (when the engine declares other target scores): games end in a few rounds."""

MAX_DECISIONS = 600
MAX_RESHUFFLES = 40
"""An aimed game that needs more reshuffles is dropped: a small deck of Flip Threes under
``stalled_round=reshuffle`` can cycle forever inside one decision."""


class RunawayGame(Flip7Error):
    """An aimed game that would not end (see :data:`MAX_RESHUFFLES`)."""


@dataclass(frozen=True, slots=True)
class Aim:
    """How one candidate game is steered."""

    ruleset: Ruleset
    players: int
    hunt: str  # "flip7", "actions" or "free"
    specials: tuple[str, ...] = ()


def _declared(variants: Mapping[str, Any] | None, name: str) -> list[Any] | str | None:
    if variants is None:
        return "any"
    value = variants.get(name)
    return value if isinstance(value, list | str) else None


SMALL_INTS = (1, 2, 3)
"""Values tried for a whole-number option (other than the target score and the player limits)."""


def _allowed(ruleset: Ruleset, name: str, variants: Mapping[str, Any] | None) -> list[Any]:
    """The values of option ``name`` an aimed game may play: the declared ones (small ones for a whole-number
    option the engine takes any value of)."""
    option = ruleset.OPTIONS[name]
    declared = _declared(variants, name)
    if declared is None or name in ("min_players", "max_players", "target_score"):
        return []
    values = option.values()
    if values is None:
        return list(SMALL_INTS) if declared == "any" else [v for v in declared if isinstance(v, int)]
    if declared == "any":
        return values
    return [v for v in values if any(type(v) is type(d) and v == d for d in declared)]


def _option_changes(ruleset: Ruleset, aimed_at: str, short: set[str], variants: Mapping[str, Any] | None,
                    rng: random.Random) -> dict[str, Any]:
    """Option values to play for the clause ``aimed_at``: the value it belongs to, a value of the option it
    names, and ``true`` for a switch whose clause id is a prefix of its id (``V-BRUTAL`` for
    ``V-BRUTAL-FLIP7``); one time in three, values for other short clauses too. A low target score when the
    engine takes any."""
    targets = [aimed_at] + (sorted(short) if rng.random() < 0.33 else [])
    changes: dict[str, Any] = {}
    for name in ruleset.OPTIONS:  # an option whose own value the engine does not declare plays a declared one
        declared = _declared(variants, name)
        own = getattr(ruleset, name)
        if isinstance(declared, list) and declared and not any(type(v) is type(own) and v == own for v in declared):
            changes[name] = rng.choice(declared)
    for wanted in targets[:4]:
        governing = clause(wanted).option if wanted in CLAUSES else None
        for name, option in ruleset.OPTIONS.items():
            values = _allowed(ruleset, name, variants)
            if not values:
                continue
            chosen = [v for v in values if option.value_clauses.get(v) == wanted]
            if chosen:
                changes[name] = rng.choice(chosen)
            elif option.kind is bool and wanted.startswith(option.clause + "-") and True in values:
                changes[name] = True
            elif name == governing or option.clause == wanted:
                own = [v for v in values if option.clause_of(v) == wanted] or values
                changes[name] = rng.choice(own)
    counted = any(ruleset.OPTIONS[name].values() is None for name in changes)  # a round limit, say: play it out
    if _declared(variants, "target_score") == "any" and not counted and rng.random() < 0.6:
        changes["target_score"] = rng.choice(LOW_TARGETS)
    return changes


HUNTS = ("flip7", "actions", "actions", "actions", "bottom", "small_deck", "tie", "all_bust", "free")
"""The ways an aimed game is steered (see the module docstring); ``small_deck`` only when the engine takes
custom decks."""


def _aim(ruleset: Ruleset, players: Sequence[int], short: set[str], variants: Mapping[str, Any] | None,
         decks: bool, rng: random.Random, produced: Mapping[str, set[str]], fewest: set[str] | None = None) -> Aim:
    """The next candidate: aimed at one of the short clauses with the fewest cases (an unreached one first),
    with a hunt that produced it before more likely."""
    aimed_at = rng.choice(sorted(fewest or short))
    changes = _option_changes(ruleset, aimed_at, short, variants, rng)
    try:
        steered = ruleset.with_options(**changes) if changes else ruleset
    except Flip7Error:
        steered = ruleset
    hunts = [h for h in HUNTS if decks or h != "small_deck"]
    weights = [4.0 if aimed_at in produced.get(h, ()) else 1.0 for h in hunts]
    hunt = rng.choices(hunts, weights)[0]
    if hunt == "tie" and _declared(variants, "target_score") == "any":
        steered = steered.with_options(target_score=rng.randint(1, 8))
    if hunt == "small_deck":
        small = replace(steered, deck=_small_deck(steered, rng))
        try:
            steered = ruleset_from_json(small.to_json())  # a deck an engine is sent must be a valid ruleset
        except Flip7Error:
            hunt = "free"
    if hunt == "bottom" and steered.target_score < ruleset.target_score:
        steered = steered.with_options(target_score=ruleset.target_score)  # the game must last the whole pile
    low = max(steered.min_players, 1)
    high = steered.max_players or max(players)
    counts = [min(max(p, low), high) for p in players]
    count = rng.choice(counts)
    if any("TWO-DECKS" in c for c in short) and rng.random() < 0.3:
        more = steered.players_per_deck + 1
        if low <= more <= 8 or (more > 8 and rng.random() < 0.2):
            count = more if not steered.max_players or steered.max_players >= more else count
    deck = steered.deck_cards(count)
    specials = sorted({c.text for c in deck if not c.is_number or c.special is not None or c.value == 0})
    return Aim(steered, count, hunt, tuple(specials))


def _small_deck(ruleset: Ruleset, rng: random.Random) -> tuple[tuple[str, int], ...]:
    """A few cards of ``ruleset``'s deck, often mostly Actions: the piles run out within a round."""
    pool = [text for text, count in ruleset.deck for _ in range(count)]
    rng.shuffle(pool)
    if rng.random() < 0.5:
        pool.sort(key=lambda text: (card(text).is_number or card(text).is_modifier, rng.random()))
        kept = Counter(pool[:rng.randint(6, 14)])
    else:
        kept = Counter(pool[:rng.randint(8, 24)])
    return tuple(sorted(kept.items()))


class _Hunter:
    """Chooses for an aimed game and steers its pile before the first reshuffle."""

    def __init__(self, aim: Aim, rng: random.Random, game: Game, deck: list[Card]) -> None:
        self.aim = aim
        self.rng = rng
        self.steering = PileSteering(game, deck)
        self.hero: int | None = None
        self.reshuffled = False

    def choose(self, game: Game, decision: Decision) -> Choice:
        hunt = self.aim.hunt
        if decision.kind == DecisionKind.TARGET and hunt in ("flip7", "actions") and \
                decision.player in decision.options and self.rng.random() < (0.9 if hunt == "flip7" else 0.5):
            return decision.player  # the revealer takes it: the cards steered for them arrive
        if decision.kind != DecisionKind.HIT_OR_STAY or self.reshuffled or hunt in ("bottom", "small_deck", "free"):
            return random_policy(game, decision, self.rng)
        if hunt == "flip7":
            return self._flip7(game, decision)
        if hunt == "tie":
            return "stay" if game.round == 1 and "stay" in decision.options else random_policy(game, decision, self.rng)
        held = set(game.players[decision.player].values)
        if hunt == "all_bust":
            if game.round == 1 and "hit" in decision.options:
                others = [p for seat, p in enumerate(game.players) if seat != decision.player]
                if self.aim.specials and all(str(p.status) == "busted" for p in others):
                    # the only player left: an Action or a Modifier they must play on themselves
                    self.steering.put_on_top([card_is(self.rng.choice(self.aim.specials))])
                else:
                    self.steering.put_on_top([lambda c, chosen: c.is_number and c.value in held])
                return "hit"
            return random_policy(game, decision, self.rng)
        if "hit" in decision.options and self.rng.random() < 0.7:
            if self.rng.random() < 0.5 and self.aim.specials:
                self.steering.put_on_top(self._tangle(held))
            return "hit"
        return random_policy(game, decision, self.rng)

    def _tangle(self, held: set[int]) -> list[Wanted]:
        """An Action followed by up to two more specials or a duplicate Number (a bust)."""
        actions = [t for t in self.aim.specials if not card(t).is_number and not card(t).is_modifier]
        drawing = [t for t in actions if t in ("FLIP3", "FLIP4")]
        if drawing and held and self.rng.random() < 0.3:
            # a drawing Action, another Action held back or set aside, then a bust: what happens to it?
            first, second = self.rng.choice(drawing), self.rng.choice(actions)
            return [lambda c, chosen: c.text == first, lambda c, chosen: c.text == second,
                    lambda c, chosen: c.is_number and c.value in held]
        first = self.rng.choice(actions or list(self.aim.specials))
        wanted: list[Wanted] = [lambda c, chosen: c.text == first]
        for _ in range(self.rng.randint(0, 3)):
            if held and self.rng.random() < 0.25:
                wanted.append(lambda c, chosen: c.is_number and c.value in held)
            else:
                wanted.append(card_is(self.rng.choice(self.aim.specials)))
        return wanted

    def _flip7(self, game: Game, decision: Decision) -> Choice:
        if self.hero is None:
            self.hero = decision.player
        if decision.player != self.hero:
            return "stay" if "stay" in decision.options else "hit"
        held = set(game.players[self.hero].values)
        drawing = [t for t in self.aim.specials if t in ("FLIP3", "FLIP4", "ONEMORE")]
        if len(held) >= 4 and drawing and self.rng.random() < 0.4:
            action = self.rng.choice(drawing)
            wanted: list[Wanted] = [lambda c, chosen: c.text == action]
            if self.steering.put_on_top(wanted + [new_number_for(held)] * (7 - len(held))):
                return "hit"
        scaling = [t for t in self.aim.specials if card(t).kind in (Kind.MULTIPLY, Kind.HALVE)]
        if len(held) >= 5 and scaling and self.rng.random() < 0.5 and \
                self.steering.put_on_top([card_is(self.rng.choice(scaling))]):
            return "hit"  # a Flip 7 with a card that scales the score: what does it scale?
        if self.aim.specials and self.rng.random() < 0.35 and \
                self.steering.put_on_top([card_is(self.rng.choice(self.aim.specials))]):
            return "hit"
        self.steering.put_on_top([new_number_for(held)])
        return "hit"


def _rigged_deck(aim: Aim, rng: random.Random) -> list[Card]:
    deck = aim.ruleset.deck_cards(aim.players)
    rng.shuffle(deck)
    if aim.hunt == "tie":
        deck = _tie_deck(deck, aim.players, rng)
    if aim.hunt == "bottom" and aim.specials:
        # an Action second from the bottom: the pile runs out while it is being resolved
        action = rng.choice(aim.specials)
        rigged = rig(deck, [lambda c, chosen: c.text == action, lambda c, chosen: True], bottom=True)
        deck = rigged if rigged is not None else deck
    return deck


def _tie_deck(deck: list[Card], players: int, rng: random.Random) -> list[Card]:
    """``deck`` with a deal of Numbers on top in which two players get the same highest value."""
    counts = Counter(c.value for c in deck if c.is_number and c.special is None)
    values = [v for v, n in counts.items()
              if n >= 2 and v >= 8 and sum(k for u, k in counts.items() if u < v) >= players]
    if not values:
        return deck
    top = rng.choice(values)
    wanted: list[Wanted] = [lambda c, chosen: c.is_number and c.special is None and c.value == top] * 2
    wanted += [lambda c, chosen: c.is_number and c.special is None and c.value < top] * (players - 2)
    rigged = rig(deck, wanted)
    if rigged is None:
        return deck
    order = rigged[:players]
    rng.shuffle(order)
    return order + rigged[players:]


@dataclass(frozen=True, slots=True)
class AimedGame:
    """An aimed game as played on the reference: its aim, its record, and the evidence of what it showed."""

    aim: Aim
    record: GameRecord
    evidence: Evidence

    def trace(self) -> dict[str, Any]:
        """The game as a trace, with observations (taken by playing it again on the reference)."""
        return self.record.observed().trace()


def aimed_game(aim: Aim, seed: str, index: int) -> AimedGame:
    """Play one aimed game on the reference (deterministic from ``seed`` and ``index``)."""
    rng = random.Random(f"{seed}:aimed:{aim.ruleset.name}:{index}")
    deck = _rigged_deck(aim, rng)
    dealer = rng.randrange(aim.players)
    reshuffles = 0
    holder: list[_Hunter] = []

    def reshuffle(discard: list[Card]) -> list[Card]:
        nonlocal reshuffles
        if reshuffles >= MAX_RESHUFFLES:
            raise RunawayGame(f"more than {MAX_RESHUFFLES} reshuffles")
        reshuffles += 1
        order = list(discard)
        rng.shuffle(order)
        if holder:
            holder[0].reshuffled = True
        return order

    game = make_game(aim.ruleset, aim.players, list(deck), dealer, reshuffle, record=True)
    hunter = _Hunter(aim, rng, game, list(deck))
    holder.append(hunter)
    ends = watch_round_ends(game)
    game.start()
    while game.pending is not None and len(game.history) < MAX_DECISIONS:
        game.apply(hunter.choose(game, game.pending))
    record = GameRecord.of(game, seed=f"{seed}:aimed:{index}", generator="flip7-spec conform (aimed)")
    evidence = Evidence(aim.ruleset, aim.players, [e.to_json() for e in record.all_events()], tuple(ends), game.over)
    return AimedGame(aim, record, evidence)


def aimed_cases(rulesets: Sequence[Ruleset], players: Sequence[int], seed: str, coverage: Coverage,
                least: int, variants: Mapping[str, Any] | None = None, cap: int = DEFAULT_CAP,
                decks: bool = True) -> Iterator[tuple[Case, frozenset[str]]]:
    """Aimed games for each ruleset until every expected clause is exercised by ``least`` cases of
    ``coverage`` (which is updated with the cases kept), or ``cap`` candidates were tried. Each kept game
    gives a game case (seed ``SEED:aimed``), with the clauses it exercises. ``decks``
    says whether the engine takes custom decks (small-deck games need them)."""
    for ruleset in rulesets:
        expected, _ = expected_clauses(ruleset, variants)
        rng = random.Random(f"{seed}:aimed:{ruleset.name}")
        produced: dict[str, set[str]] = {}
        for index in range(cap):
            short = set(coverage.short(ruleset.name, expected, least))
            if not short:
                break
            counts = coverage.counts.get(ruleset.name, Counter())
            least_count = min(counts[c] for c in short)
            fewest = {c for c in short if counts[c] == least_count}
            aim = _aim(ruleset, players, short, variants, decks, rng, produced, fewest)
            try:
                aim.ruleset.check_players(aim.players)
                played = aimed_game(aim, seed, index)
                found = clauses_of_evidence(played.evidence)
                produced.setdefault(aim.hunt, set()).update(found)
                if not short & found:
                    continue
                trace = played.trace()
            except Flip7Error:
                continue  # a combination of options the reference refuses, or a game that would not end
            # The game case only: it holds the first round too, and the engine replays each aimed game once.
            job = GameJob(aim.ruleset, aim.players, f"{seed}:aimed", index)
            case = next(c for c in job_cases(job, trace) if c.level == "game")
            coverage.add(ruleset, "generated", found)
            yield case, found


def generated_and_aimed(rulesets: Sequence[Ruleset], players: Sequence[int], games: int, seed: str,
                        variants: Mapping[str, Any] | None, least: int, cap: int, decks: bool,
                        levels: frozenset[str]) -> Iterator[Case]:
    """The corpus's generated part: ``games`` generated games (their cases at ``levels``, each with the clauses
    it exercises), then aimed games until each expected clause has ``least`` generated cases (at most ``cap``
    candidates per ruleset; none when ``least`` is 0 or the game level is not run)."""
    aiming = Coverage()
    for job in game_jobs(rulesets, players, games, seed, variants):
        trace = generated_game(job.ruleset, job.players, job.seed, job.index)
        clauses = trace_clauses(job.ruleset, trace)
        for case in job_cases(job, trace):
            case.clauses = clauses[0] if case.level == "round" else clauses[1]
            if case.level in levels:
                aiming.add(case.ruleset, "generated", case.clauses)
                yield case
    if games and least > 0 and "game" in levels:
        for case, found in aimed_cases(rulesets, players, seed, aiming, least, variants, cap, decks):
            case.clauses = found
            yield case
