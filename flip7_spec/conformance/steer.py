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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flip7_spec.cards import Card, card
from flip7_spec.conformance.cases import Case, GameJob, job_cases
from flip7_spec.conformance.coverage import Coverage, clauses_of_evidence, evidence_of, expected_clauses
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision, DecisionKind
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.policies import random_policy
from flip7_spec.rulesets import Ruleset
from flip7_spec.steering import PileSteering, new_number_for
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


def _option_changes(ruleset: Ruleset, short: set[str], variants: Mapping[str, Any] | None,
                    rng: random.Random) -> dict[str, Any]:
    """Option values to play: those whose own clause is short first, else one declared value at random."""
    changes: dict[str, Any] = {}
    candidates: list[tuple[str, Any]] = []
    for name, option in ruleset.OPTIONS.items():
        declared = _declared(variants, name)
        values = option.values()
        if values is None or declared is None:
            continue
        allowed = values if declared == "any" else [v for v in values if any(
            type(v) is type(d) and v == d for d in declared)]
        for value in allowed:
            if option.clause_of(value) in short or option.clause in short:
                candidates.append((name, value))
    rng.shuffle(candidates)
    for name, value in candidates[:2]:
        changes[name] = value
    if _declared(variants, "target_score") == "any":
        changes["target_score"] = rng.choice(LOW_TARGETS)
    return changes


def _aim(ruleset: Ruleset, players: Sequence[int], short: set[str], variants: Mapping[str, Any] | None,
         rng: random.Random) -> Aim:
    changes = _option_changes(ruleset, short, variants, rng)
    try:
        steered = ruleset.with_options(**changes) if changes else ruleset
    except Flip7Error:
        steered = ruleset
    low = max(steered.min_players, 1)
    high = steered.max_players or max(players)
    counts = [min(max(p, low), high) for p in players]
    two_decks = steered.players_per_deck + 1
    if any("TWO-DECKS" in c for c in short) and (not steered.max_players or steered.max_players >= two_decks):
        count = two_decks
    else:
        count = rng.choice(counts)
    hunt = rng.choice(("flip7", "actions", "actions", "free"))
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
        if decision.kind != DecisionKind.HIT_OR_STAY or self.reshuffled:
            return random_policy(game, decision, self.rng)
        if hunt == "flip7":
            return self._flip7(game, decision)
        if hunt == "actions" and "hit" in decision.options and self.rng.random() < 0.7:
            if self.rng.random() < 0.5 and self.aim.specials:
                wanted = self.rng.choice(self.aim.specials)
                self.steering.put_on_top([lambda c, chosen: c.text == wanted])
            return "hit"
        return random_policy(game, decision, self.rng)

    def _flip7(self, game: Game, decision: Decision) -> Choice:
        if self.hero is None:
            self.hero = decision.player
        if decision.player != self.hero:
            return "stay" if "stay" in decision.options else "hit"
        held = set(game.players[self.hero].values)
        roll = self.rng.random()
        extras = [t for t in self.aim.specials if t in ("0", "ZERO", "x2", "FLIP3", "FLIP4", "CHANCE", "/2")]
        if extras and roll < 0.35:
            wanted = self.rng.choice(extras)
            if not (card(wanted).is_number and card(wanted).value in held):
                self.steering.put_on_top([lambda c, chosen: c.text == wanted])
                return "hit"
        self.steering.put_on_top([new_number_for(held)])
        return "hit"


def aimed_trace(aim: Aim, seed: str, index: int) -> dict[str, Any]:
    """Play one aimed game on the reference and record it as a trace (observations included)."""
    rng = random.Random(f"{seed}:aimed:{aim.ruleset.name}:{index}")
    deck = aim.ruleset.deck_cards(aim.players)
    rng.shuffle(deck)
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
                least: int, variants: Mapping[str, Any] | None = None, cap: int = DEFAULT_CAP
                 ) -> Iterator[tuple[Case, frozenset[str]]]:
    """Aimed games for each ruleset until every expected clause is exercised by ``least`` cases of
    ``coverage`` (which is updated with the cases kept), or ``cap`` candidates were tried. Each kept game
    gives a round case and a game case (seed ``SEED:aimed``), each with the clauses it exercises."""
    for ruleset in rulesets:
        expected, _ = expected_clauses(ruleset, variants)
        rng = random.Random(f"{seed}:aimed:{ruleset.name}")
        for index in range(cap):
            short = set(coverage.short(ruleset.name, expected, least))
            if not short:
                break
            aim = _aim(ruleset, players, short, variants, rng)
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
