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

from flip7_spec.cards import Card
from flip7_spec.clauses import CLAUSES, clause
from flip7_spec.conformance.cases import Case, GameJob, job_cases
from flip7_spec.conformance.coverage import Coverage, clauses_of_evidence, evidence_of, expected_clauses
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision, DecisionKind
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.policies import random_policy
from flip7_spec.rulesets import Ruleset
from flip7_spec.steering import PileSteering, Wanted, new_number_for, rig
from flip7_spec.trace.record import record_choices

DEFAULT_CAP = 120
"""Candidate games tried per ruleset by default before the generator gives up on the clauses still short."""

LOW_TARGETS = (1, 15, 30, 60, 100)
"""Target scores of aimed games (when the engine declares other target scores): games end in a few rounds."""

MAX_DECISIONS = 600


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


def _option_changes(ruleset: Ruleset, short: set[str], variants: Mapping[str, Any] | None,
                    rng: random.Random) -> dict[str, Any]:
    """Up to three option values to play, among the options whose clauses (or whose values' clauses) are short,
    and a low target score when the engine takes any."""
    related = {clause(c).option for c in short if c in CLAUSES} - {None}
    names = [name for name, option in ruleset.OPTIONS.items()
             if name in related or option.clause in short or any(v in short for v in option.value_clauses.values())]
    rng.shuffle(names)
    changes: dict[str, Any] = {}
    for name in names[:3]:
        values = _allowed(ruleset, name, variants)
        if values:
            changes[name] = rng.choice(values)
    if _declared(variants, "target_score") == "any" and rng.random() < 0.8:
        changes["target_score"] = rng.choice(LOW_TARGETS)
    return changes


HUNTS = ("flip7", "actions", "actions", "bottom", "small_deck", "free")
"""The ways an aimed game is steered (see the module docstring); ``small_deck`` only when the engine takes
custom decks."""


def _aim(ruleset: Ruleset, players: Sequence[int], short: set[str], variants: Mapping[str, Any] | None,
         decks: bool, rng: random.Random) -> Aim:
    changes = _option_changes(ruleset, short, variants, rng)
    try:
        steered = ruleset.with_options(**changes) if changes else ruleset
    except Flip7Error:
        steered = ruleset
    hunt = rng.choice([h for h in HUNTS if decks or h != "small_deck"])
    if hunt == "small_deck":
        pool = [text for text, count in steered.deck for _ in range(count)]
        rng.shuffle(pool)
        kept = Counter(pool[:rng.randint(8, 24)])
        steered = replace(steered, deck=tuple(sorted(kept.items())))
    low = max(steered.min_players, 1)
    high = steered.max_players or max(players)
    counts = [min(max(p, low), high) for p in players]
    count = rng.choice(counts)
    if any("TWO-DECKS" in c for c in short) and rng.random() < 0.3:
        more = steered.players_per_deck + 1
        if more <= 8 or rng.random() < 0.2:
            count = more if not steered.max_players or steered.max_players >= more else count
    deck = steered.deck_cards(count)
    specials = sorted({c.text for c in deck if not c.is_number or c.special is not None or c.value == 0})
    return Aim(steered, count, hunt, tuple(specials))


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
        if decision.kind != DecisionKind.HIT_OR_STAY or self.reshuffled or hunt in ("bottom", "small_deck", "free"):
            return random_policy(game, decision, self.rng)
        if hunt == "flip7":
            return self._flip7(game, decision)
        if "hit" in decision.options and self.rng.random() < 0.7:
            if self.rng.random() < 0.5 and self.aim.specials:
                held = set(game.players[decision.player].values)
                wanted: list[Wanted] = []
                for _ in range(self.rng.randint(1, 3)):
                    if held and self.rng.random() < 0.2:
                        wanted.append(lambda c, chosen: c.is_number and c.value in held)  # a bust
                    else:
                        text = self.rng.choice(self.aim.specials)
                        wanted.append(lambda c, chosen, text=text: c.text == text)
                self.steering.put_on_top(wanted)
            return "hit"
        return random_policy(game, decision, self.rng)

    def _flip7(self, game: Game, decision: Decision) -> Choice:
        if self.hero is None:
            self.hero = decision.player
        if decision.player != self.hero:
            return "stay" if "stay" in decision.options else "hit"
        held = set(game.players[self.hero].values)
        if self.aim.specials and self.rng.random() < 0.35:
            wanted = self.rng.choice(self.aim.specials)
            if self.steering.put_on_top([lambda c, chosen: c.text == wanted]):
                return "hit"
        self.steering.put_on_top([new_number_for(held)])
        return "hit"


def _rigged_deck(aim: Aim, rng: random.Random) -> list[Card]:
    deck = aim.ruleset.deck_cards(aim.players)
    rng.shuffle(deck)
    if aim.hunt == "bottom" and aim.specials:
        # an Action second from the bottom: the pile runs out while it is being resolved
        action = rng.choice(aim.specials)
        rigged = rig(deck, [lambda c, chosen: c.text == action, lambda c, chosen: True], bottom=True)
        deck = rigged if rigged is not None else deck
    return deck


def aimed_trace(aim: Aim, seed: str, index: int) -> dict[str, Any]:
    """Play one aimed game on the reference and record it as a trace (observations included)."""
    rng = random.Random(f"{seed}:aimed:{aim.ruleset.name}:{index}")
    deck = _rigged_deck(aim, rng)
    dealer = rng.randrange(aim.players)
    orders: list[list[str]] = []
    holder: list[_Hunter] = []

    def reshuffle(discard: list[Card]) -> list[Card]:
        order = list(discard)
        rng.shuffle(order)
        orders.append([c.text for c in order])
        if holder:
            holder[0].reshuffled = True
        return order

    recorded = list(deck)
    game = make_game(aim.ruleset, aim.players, list(deck), dealer, reshuffle, record=False)
    hunter = _Hunter(aim, rng, game, recorded)
    holder.append(hunter)
    game.start()
    choices: list[Choice] = []
    while game.pending is not None and len(choices) < MAX_DECISIONS:
        choice = hunter.choose(game, game.pending)
        game.apply(choice)
        choices.append(choice)
    return record_choices(aim.ruleset, aim.players, dealer, [c.text for c in recorded], choices, orders,
                          seed=f"{seed}:aimed:{index}", generator="flip7-spec conform (aimed)")


def aimed_cases(rulesets: Sequence[Ruleset], players: Sequence[int], seed: str, coverage: Coverage,
                least: int, variants: Mapping[str, Any] | None = None, cap: int = DEFAULT_CAP,
                 decks: bool = True) -> Iterator[tuple[Case, frozenset[str]]]:
    """Aimed games for each ruleset until every expected clause is exercised by ``least`` cases of
    ``coverage`` (which is updated with the cases kept), or ``cap`` candidates were tried. Each kept game
    gives a round case and a game case (seed ``SEED:aimed``), each with the clauses it exercises. ``decks``
    says whether the engine takes custom decks (small-deck games need them)."""
    for ruleset in rulesets:
        expected, _ = expected_clauses(ruleset, variants)
        rng = random.Random(f"{seed}:aimed:{ruleset.name}")
        for index in range(cap):
            short = set(coverage.short(ruleset.name, expected, least))
            if not short:
                break
            aim = _aim(ruleset, players, short, variants, decks, rng)
            try:
                trace = aimed_trace(aim, seed, index)
            except Flip7Error:
                continue
            job = GameJob(aim.ruleset, aim.players, f"{seed}:aimed", index)
            cases = job_cases(job, trace)
            found = [clauses_of_evidence(evidence_of(c.ruleset, trace, first_round_only=c.level == "round"))
                     for c in cases]
            if not any(short & f for f in found):
                continue
            for case, clauses in zip(cases, found, strict=True):
                coverage.add(ruleset, "generated", clauses)
                yield case, clauses
