"""Aimed games: generated games steered at the clauses the corpus has not exercised often enough yet.

After the ordinary generated games, the generator plays candidate games on the reference and keeps those
that exercise a clause still short of ``least`` generated cases. Each candidate aims at one short clause (the
scarcer, the likelier; a clause that candidates have missed less likely) and is steered by:

- the declared option values of that clause, and often of a few other short clauses at once;
- a low target score when the engine takes any (a round limit being aimed at is played out);
- one hunt, the likelier the more often it (or a sibling clause's hunt) exercised that clause before:
  a Flip 7 hunt (one player hits while the others stay, and the pile, steered with
  :class:`flip7_spec.steering.PileSteering` as the rare-state scripts do, brings them new Numbers, special
  cards among them, or a drawing Action followed by the Numbers that complete seven); an Action hunt
  (Actions and special cards put on top of the pile before random Hits, so that each Action meets players in
  every state); a tangle hunt (a drawing Action followed by the cards it draws: Actions set aside, a bust);
  a tie, an everyone-busts and a bottom-of-the-pile hunt; and, when the engine takes custom decks, deck
  hunts: a small deck, a tiny deck (about a Number a player and an Action: the piles run out in the first
  round) and a still deck (Numbers worth 0 under a round limit: rounds without a point, endless play);
- more players than one deck serves, or fewer players per deck, for the two-deck clauses.

Candidates are cheap (the reference plays them in a few milliseconds); a kept game costs the engine a case.
They come in batches, and after each batch the one worth most is kept (the short clauses it exercises, the
scarcer the more, per decision). A clause that :data:`MISSES` candidates aimed at it did not exercise is set
aside, so that it does not starve the others; the clauses left short are reported with the reason.

Everything is drawn from :class:`random.Random` instances seeded by the run's seed: the same ``--seed`` gives
the same games. The candidate budget is ``cap`` per ruleset (by default :data:`RUN_BUDGET` split among the
run's rulesets), shared: what a ruleset does not use goes to the rulesets still short.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from flip7_spec.cards import Card, Kind, card
from flip7_spec.clauses import CLAUSES, clause
from flip7_spec.conformance.cases import Case, GameJob, game_jobs, generated_play, job_cases
from flip7_spec.conformance.coverage import (
    Coverage,
    clauses_of_evidence,
    expected_clauses,
    watch_round_ends,
)
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision, DecisionKind
from flip7_spec.evidence import Evidence, RoundEnd
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.policies import random_policy
from flip7_spec.rulesets import Ruleset, ruleset_from_json
from flip7_spec.steering import PileSteering, Wanted, new_number_for, rig
from flip7_spec.steering import card_text as card_is
from flip7_spec.trace.record import GameRecord

DEFAULT_CAP = 400
"""Candidate games per ruleset when a number of cases per clause is asked for (``--min-coverage K``)."""

RUN_BUDGET = 300
"""Candidate games of a default run, split among its rulesets (100 each for three, 60 for five): the
engine's time on the aimed games stays about the same whichever number of rulesets it declares."""

LOW_TARGETS = (1, 1, 15, 30, 60, 100)
"""Target scores of aimed games (when the engine declares other target scores), drawn uniformly: most games
end with their first round, the others in a few rounds."""

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
    ``V-BRUTAL-FLIP7``); three times in five, values for up to five other short clauses too (a kept game
    then often exercises several). A low target score when the engine takes any, unless the clause aimed at
    plays a whole-number option (a round limit: the game is played out)."""
    others = sorted(short - {aimed_at})
    targets = [aimed_at] + (rng.sample(others, min(5, len(others))) if rng.random() < 0.6 else [])
    changes: dict[str, Any] = {}
    for name in ruleset.OPTIONS:  # an option whose own value the engine does not declare plays a declared one
        declared = _declared(variants, name)
        own = getattr(ruleset, name)
        if isinstance(declared, list) and declared and not any(type(v) is type(own) and v == own for v in declared):
            changes[name] = rng.choice(declared)
    counted = False  # the aimed clause plays a whole-number option (a round limit, say): play it out
    allowed = {name: _allowed(ruleset, name, variants) for name in ruleset.OPTIONS}
    for wanted in targets:
        governing = clause(wanted).option if wanted in CLAUSES else None
        before = dict(changes)
        for name, option in ruleset.OPTIONS.items():
            values = allowed[name]
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
        if wanted == aimed_at:
            counted = any(ruleset.OPTIONS[n].values() is None for n in changes if changes[n] != before.get(n))
    if _declared(variants, "target_score") == "any" and not counted and rng.random() < 0.85:
        changes["target_score"] = rng.choice(LOW_TARGETS)
    return changes


HUNTS = ("flip7", "actions", "actions", "tangle", "bottom", "small_deck", "tiny_deck", "still_deck",
         "still_deck", "tie", "all_bust", "free")
"""The ways an aimed game is steered (see the module docstring), a hunt named twice twice as likely (a
still-deck game costs an engine almost nothing); the deck hunts (:data:`DECK_HUNTS`) only when the engine
takes custom decks."""

COSTLY = {"bottom": 0.3}
"""Hunts whose games are long (the whole first pile is played out), and how likely they are against the
others before they have exercised the clause aimed at."""

DECK_HUNTS = ("small_deck", "tiny_deck", "still_deck")
"""Hunts that play a deck of their own, made from the ruleset's cards."""

UNSTEERED = ("bottom", "free", *DECK_HUNTS)
"""Hunts whose players choose at random (or always Hit, on a deck of their own) rather than being steered."""

MISSES = 16
"""Aimed candidates a short clause gets without exercising it before the generator sets it aside for the
rest of the ruleset's candidates (and says so, see :func:`aimed_cases`): the others are not starved by one
the hunts cannot reach."""

BATCH = 4
"""Candidates played for each game kept: the one worth most (:func:`_worth`) is kept. A candidate costs
the reference a few milliseconds, a kept game costs the engine a case."""

RESERVE = 8
"""Candidates worth keeping that lost their batch, kept to compete in the next batches (worth is weighed
again as the counts change)."""

CASE_COST = 120
"""The decisions at which a candidate's worth halves (:func:`_worth`): an engine's time on a case grows with
its decisions, so a long game is kept only when it exercises more short clauses than a short one."""

SCARCE = 3
"""The weight of a short clause already exercised by fewer cases than another: each case fewer multiplies
its chance of being aimed at by this."""


@dataclass
class Hunting:
    """What the aimed candidates of one ruleset have shown so far: per hunt, how many were played and how
    many exercised each clause; per clause, how many candidates aimed at it missed it."""

    played: Counter[str] = field(default_factory=Counter)
    produced: dict[str, Counter[str]] = field(default_factory=dict)
    misses: Counter[str] = field(default_factory=Counter)
    hunts: dict[str, Counter[str]] = field(default_factory=dict)
    """Per clause, the hunts of the candidates aimed at it."""
    producers: dict[str, set[str]] = field(default_factory=dict)
    """Per clause, the hunts that exercised it at least once."""
    missed_by: dict[str, Counter[str]] = field(default_factory=dict)
    """Per clause, the hunts of the candidates aimed at it that missed it."""

    def record(self, aimed_at: str, hunt: str, found: frozenset[str]) -> None:
        """Count one candidate aimed at ``aimed_at`` with ``hunt`` that exercised ``found``."""
        self.played[hunt] += 1
        self.produced.setdefault(hunt, Counter()).update(found)
        for c in found:
            self.producers.setdefault(c, set()).add(hunt)
        self.hunts.setdefault(aimed_at, Counter())[hunt] += 1
        if aimed_at not in found:
            self.misses[aimed_at] += 1
            self.missed_by.setdefault(aimed_at, Counter())[hunt] += 1

    def rate(self, hunt: str, clause: str) -> float:
        """The share of ``hunt``'s candidates that exercised ``clause`` (0 before any was played)."""
        played = self.played[hunt]
        return self.produced.get(hunt, Counter())[clause] / played if played else 0.0

    def affinity(self, hunt: str, clause_id: str) -> float:
        """How likely ``hunt`` seems to exercise ``clause_id``: its share of candidates that did, or half its
        best share for a sibling clause (one that names the same option: another reading of the same rule)
        when that is more."""
        own = self.rate(hunt, clause_id)
        return max([own, *(0.5 * self.rate(hunt, c) for c in _siblings(clause_id))])

    def target(self, short: Sequence[str], counts: Mapping[str, int], rng: random.Random) -> str:
        """The clause the next candidate aims at, among ``short`` (not empty): the fewer cases a clause has,
        the likelier (:data:`SCARCE`), and a clause some hunt has exercised before is likelier than one
        that candidates have missed so far."""
        least = min(counts.get(c, 0) for c in short)
        weights = []
        for c in short:
            known = max((self.rate(h, c) for h in self.producers.get(c, ())), default=0.0)
            weights.append(SCARCE ** (least - counts.get(c, 0)) * (1.0 + 4.0 * known) / (1.0 + self.misses[c]))
        return rng.choices(sorted(short), [w for _, w in sorted(zip(short, weights, strict=True))])[0]

    def reason(self, clause: str) -> str:
        """Why ``clause`` was set aside: the candidates aimed at it and their hunts."""
        tried = self.hunts.get(clause, Counter())
        hunts = ", ".join(f"{h} {n}" for h, n in sorted(tried.items(), key=lambda kv: (-kv[1], kv[0])))
        return f"not exercised by {self.misses[clause]} aimed candidate games ({hunts})"


@functools.cache
def _siblings(clause_id: str) -> tuple[str, ...]:
    """The other clauses that name the same option as ``clause_id`` (none when it names none)."""
    option = clause(clause_id).option if clause_id in CLAUSES else None
    return () if option is None else tuple(c.id for c in CLAUSES.values() if c.option == option and c.id != clause_id)


def _aim(ruleset: Ruleset, players: Sequence[int], aimed_at: str, short: set[str],
         variants: Mapping[str, Any] | None, decks: bool, rng: random.Random, hunting: Hunting) -> Aim:
    """The next candidate, aimed at ``aimed_at``: its option values, player count and hunt (a hunt that
    exercised that clause or a sibling before is likelier, the likelier the more often it did
    (:meth:`Hunting.affinity`); one that missed it when aimed at it less likely, so that a clause no hunt
    has exercised yet meets each in turn)."""
    changes = _option_changes(ruleset, aimed_at, short, variants, rng)
    try:
        steered = ruleset.with_options(**changes) if changes else ruleset
    except Flip7Error:
        steered = ruleset
    hunts = [h for h in HUNTS if decks or h not in DECK_HUNTS]
    missed = hunting.missed_by.get(aimed_at, Counter())
    weights = [(COSTLY.get(h, 1.0) + 8.0 * hunting.affinity(h, aimed_at)) / (1.0 + missed[h]) ** 2 for h in hunts]
    hunt = rng.choices(hunts, weights)[0]
    if hunt == "tie" and _declared(variants, "target_score") == "any":
        steered = _with(steered, target_score=rng.randint(1, 8))
    if hunt in ("tangle", "all_bust") and _declared(variants, "target_score") == "any" and not steered.round_limit:
        steered = _with(steered, target_score=rng.choice((1, 15)))  # what they steer happens in round 1
    low = max(steered.min_players, 1)
    high = steered.max_players or max(players)
    counts = [min(max(p, low), high) for p in players]
    count = rng.choice(counts)
    if hunt in DECK_HUNTS:
        made = _deck_hunt(steered, hunt, count, variants, rng)
        if made is None:
            hunt = "free"
        else:
            steered = made
    if hunt == "bottom" and steered.target_score < ruleset.target_score:
        steered = _with(steered, target_score=ruleset.target_score)  # the game must last the whole pile
    if "TWO-DECKS" in aimed_at or (any("TWO-DECKS" in c for c in short) and rng.random() < 0.3):
        count, steered = _more_than_a_deck(steered, count, variants, rng)
    deck = steered.deck_cards(count)
    specials = sorted({c.text for c in deck if not c.is_number or c.special is not None or c.value == 0})
    return Aim(steered, count, hunt, tuple(specials))


def _with(ruleset: Ruleset, **options: Any) -> Ruleset:
    """``ruleset`` with ``options``, or ``ruleset`` itself when the reference refuses that combination."""
    try:
        return ruleset.with_options(**options)
    except Flip7Error:
        return ruleset


def _more_than_a_deck(ruleset: Ruleset, count: int, variants: Mapping[str, Any] | None,
                      rng: random.Random) -> tuple[int, Ruleset]:
    """A player count (and ruleset) for which one deck is not enough: one more player than a deck serves
    when the player limits allow it, else fewer players per deck when the engine takes another value."""
    more = ruleset.players_per_deck + 1
    if (not ruleset.max_players or ruleset.max_players >= more) and (more <= 8 or rng.random() < 0.2):
        return more, ruleset
    if _declared(variants, "players_per_deck") == "any" and count >= 2:
        try:
            return count, ruleset.with_options(players_per_deck=rng.randint(1, count - 1))
        except Flip7Error:
            pass
    return count, ruleset


def _deck_hunt(ruleset: Ruleset, hunt: str, players: int, variants: Mapping[str, Any] | None,
               rng: random.Random) -> Ruleset | None:
    """``ruleset`` with the deck of a deck hunt (None when the reference refuses it):

    - ``small_deck``: a few of its cards, often mostly Actions: the piles run out within a round;
    - ``tiny_deck``: about one Number a player, with different values, an Action and now and then another
      card: the deck runs out within the first round, the discard pile holding that Action or nothing
      (players always Hit);
    - ``still_deck``: a few cards that score nothing (Numbers worth 0, now and then an Action or Second
      Chance), under a round limit when the engine takes one (a long one for the bare 0s, which then deal
      out round after round with no decision): rounds pass, or cycle, without a point.
    """
    if hunt == "small_deck":
        deck = _small_deck(ruleset, rng)
    elif hunt == "tiny_deck":
        deck = _tiny_deck(ruleset, players, rng)
        if _declared(variants, "target_score") == "any" and not ruleset.round_limit:
            ruleset = _with(ruleset, target_score=rng.choice((1, 15)))  # each round reshuffles the deck
    else:
        if _declared(variants, "round_limit") != "any":
            return None
        bare = rng.random() < 0.5
        deck = _still_deck(ruleset, bare, rng)
        ruleset = _with(ruleset, round_limit=30 if bare else rng.choice((2, 30)))
    try:
        return ruleset_from_json(replace(ruleset, deck=deck).to_json())  # a deck an engine is sent must be valid
    except Flip7Error:
        return None


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


def _tiny_deck(ruleset: Ruleset, players: int, rng: random.Random) -> tuple[tuple[str, int], ...]:
    """Numbers of ``ruleset``'s deck with different values, about one a player (from one fewer to two more),
    with one of its Actions (the discard pile then holds a card while the deck runs out) and one time in two
    one of its other cards."""
    numbers = sorted({text for text, n in ruleset.deck if n > 0 and card(text).is_number})
    actions = sorted({text for text, n in ruleset.deck if n > 0 and not card(text).is_number
                      and not card(text).is_modifier})
    others = sorted({text for text, n in ruleset.deck if n > 0 and not card(text).is_number})
    rng.shuffle(numbers)
    kept = Counter(numbers[:max(1, players + rng.randint(-1, 2))])
    if actions:
        kept[rng.choice(actions)] += 1
    if others and rng.random() < 0.5:
        kept[rng.choice(others)] += 1
    return tuple(sorted(kept.items()))


def _still_deck(ruleset: Ruleset, bare: bool, rng: random.Random) -> tuple[tuple[str, int], ...]:
    """One or two Numbers worth 0 (the game's plain 0), unless ``bare`` with an Action of ``ruleset``'s deck
    or two: a deck no round scores a point from."""
    kept = Counter({"0": rng.randint(1, 2)})
    actions = sorted({text for text, n in ruleset.deck if n > 0 and not card(text).is_number
                      and not card(text).is_modifier})
    if actions and not bare:
        for _ in range(rng.randint(1, 2)):
            kept[rng.choice(actions)] += 1
    return tuple(sorted(kept.items()))


class _Hunter:
    """Chooses for an aimed game and steers its pile before the first reshuffle."""

    def __init__(self, aim: Aim, rng: random.Random, game: Game, deck: list[Card]) -> None:
        self.aim = aim
        self.rng = rng
        self.steering = PileSteering(game, deck)
        self.hero: int | None = None
        self.reshuffled = False
        self.drawing = False  # a drawing Action's tangle is on top of the pile

    def choose(self, game: Game, decision: Decision) -> Choice:
        hunt = self.aim.hunt
        if decision.kind == DecisionKind.TARGET and hunt in ("flip7", "actions", "tangle") and \
                decision.player in decision.options and \
                self.rng.random() < (0.9 if hunt == "flip7" or self.drawing else 0.5):
            self.drawing = False
            return decision.player  # the revealer takes it: the cards steered for them arrive
        if decision.kind == DecisionKind.TARGET and hunt == "all_bust" and self.rng.random() < 0.7:
            busted = [o for o in decision.options if isinstance(o, int) and not isinstance(o, bool)
                      and 0 <= o < game.n and str(game.players[o].status) == "busted"]
            if busted:
                return self.rng.choice(busted)  # a card given to a busted player: does it count?
        if decision.kind == DecisionKind.HIT_OR_STAY and hunt in ("tiny_deck", "still_deck") and \
                "hit" in decision.options:
            return "hit"  # the piles run out, or the cards come round again
        if decision.kind != DecisionKind.HIT_OR_STAY or self.reshuffled or hunt in UNSTEERED:
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
                elif self.aim.specials and any(str(p.status) == "busted" for p in others) and \
                        self.rng.random() < 0.4:
                    # a special card while someone has busted: one that may be given to them
                    self.steering.put_on_top([card_is(self.rng.choice(self.aim.specials))])
                else:
                    self.steering.put_on_top([lambda c, chosen: c.is_number and c.value in held])
                return "hit"
            return random_policy(game, decision, self.rng)
        if hunt == "tangle" and "hit" in decision.options:
            if self.aim.specials:
                self.steering.put_on_top(self._tangle(held, drawing_only=True))
            return "hit"
        if "hit" in decision.options and self.rng.random() < 0.7:
            if self.rng.random() < 0.5 and self.aim.specials:
                self.steering.put_on_top(self._tangle(held))
            return "hit"
        return random_policy(game, decision, self.rng)

    def _tangle(self, held: set[int], drawing_only: bool = False) -> list[Wanted]:
        """An Action followed by up to two more specials or a duplicate Number (a bust); with
        ``drawing_only`` (when the deck has one) always a drawing Action followed by two cards it draws."""
        actions = [t for t in self.aim.specials if not card(t).is_number and not card(t).is_modifier]
        drawing = [t for t in actions if t in ("FLIP3", "FLIP4")]
        if drawing and (drawing_only or (held and self.rng.random() < 0.3)):
            # a drawing Action, another Action held back or set aside, then a bust or a third Action: what
            # happens to the set-aside cards? (its revealer takes it, see choose)
            first, second, third = self.rng.choice(drawing), self.rng.choice(actions), self.rng.choice(actions)
            self.drawing = True
            last: Wanted = (lambda c, chosen: c.is_number and c.value in held) if held and self.rng.random() < 0.6 \
                else (lambda c, chosen: c.text == third)
            return [lambda c, chosen: c.text == first, lambda c, chosen: c.text == second, last]
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
        if len(held) >= 3 and drawing and self.rng.random() < 0.6:
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
    drawing = [t for t in aim.specials if t in ("FLIP3", "FLIP4")]
    if aim.hunt == "tangle" and drawing and rng.random() < 0.5:
        # a drawing Action within the deal: its target draws before everyone is dealt
        first = rng.choice(drawing)
        rigged = rig(deck, [lambda c, chosen: c.text == first])
        if rigged is not None:
            deck = rigged[1:]
            deck.insert(rng.randrange(aim.players), rigged[0])
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


def _worth(gained: set[str] | frozenset[str], counts: Mapping[str, int], least: int, decisions: int) -> float:
    """What keeping a candidate is worth: for each short clause it exercises (``gained``), :data:`SCARCE`
    times more for each case fewer that clause has, divided by ``1 + decisions / CASE_COST``."""
    return sum(float(SCARCE) ** (least - 1 - counts.get(c, 0)) for c in gained) / (1.0 + decisions / CASE_COST)


class _RulesetAim:
    """The aimed candidates of one ruleset: what they have learned, and the clauses set aside."""

    def __init__(self, ruleset: Ruleset, players: Sequence[int], seed: str, coverage: Coverage, least: int,
                 variants: Mapping[str, Any] | None, decks: bool, misses: int = MISSES) -> None:
        self.ruleset, self.players, self.seed, self.coverage, self.least = ruleset, players, seed, coverage, least
        self.variants, self.decks, self.misses = variants, decks, misses
        self.expected, _ = expected_clauses(ruleset, variants)
        self.rng = random.Random(f"{seed}:aimed:{ruleset.name}")
        self.hunting = Hunting()
        self.set_aside: dict[str, str] = {}
        self.index = 0  # candidates played so far
        self.reserve: list[tuple[int, AimedGame, frozenset[str]]] = []  # worth keeping, not kept yet

    def wanting(self) -> set[str]:
        """The expected clauses still short of ``least`` cases."""
        return set(self.coverage.short(self.ruleset.name, self.expected, self.least))

    def done(self) -> bool:
        """Whether no clause is left to aim at (every one has its cases, or is set aside)."""
        return not self.wanting() - set(self.set_aside)

    def batch(self, allowance: int) -> Iterator[tuple[Case, frozenset[str]]]:
        """Play up to :data:`BATCH` candidates (at most ``allowance``), then keep the one worth most among
        them and the reserve, if any is worth something."""
        wanting = self.wanting()
        counts = self.coverage.counts.get(self.ruleset.name, Counter())
        hunting = self.hunting
        for _ in range(min(BATCH, allowance)):
            aims = sorted(wanting - set(self.set_aside))
            if not aims:
                break
            aimed_at = hunting.target(aims, counts, self.rng)
            aim = _aim(self.ruleset, self.players, aimed_at, wanting, self.variants, self.decks, self.rng, hunting)
            found: frozenset[str] = frozenset()
            try:
                aim.ruleset.check_players(aim.players)
                played = aimed_game(aim, self.seed, self.index)
                found = clauses_of_evidence(played.evidence)
                self.reserve.append((self.index, played, found))
            except Flip7Error:
                pass  # a combination of options the reference refuses, or a game that would not end
            hunting.record(aimed_at, aim.hunt, found)
            if hunting.misses[aimed_at] >= self.misses and aimed_at not in found:
                self.set_aside[aimed_at] = hunting.reason(aimed_at)
            self.index += 1
        ranked = sorted(((_worth(wanting & f, counts, self.least, len(g.record.plies)), i, g, f)
                         for i, g, f in self.reserve), key=lambda entry: (-entry[0], entry[1]))
        ranked = [entry for entry in ranked if entry[0] > 0]
        self.reserve = [(i, g, f) for _, i, g, f in ranked[1:RESERVE + 1]]
        if not ranked:
            return
        _, kept, played, found = ranked[0]
        try:
            trace = played.trace()
        except Flip7Error:
            return
        # The game case only: it holds the first round too, and the engine replays each aimed game once.
        job = GameJob(played.aim.ruleset, played.aim.players, f"{self.seed}:aimed", kept)
        case = next(c for c in job_cases(job, trace) if c.level == "game")
        self.coverage.add(self.ruleset, "generated", found)
        yield case, found

    def notes(self, spent: bool) -> dict[str, str]:
        """Each expected clause still short, with the reason (``spent``: the candidate budget ran out)."""
        left = {}
        for clause_id in sorted(self.wanting()):
            aimed = self.hunting.hunts.get(clause_id, Counter()).total()
            left[clause_id] = self.set_aside.get(clause_id) or (
                f"the budget of aimed candidate games was spent ({self.index} for {self.ruleset.name}, {aimed} "
                f"aimed at it)" if spent else "no aimed candidate game could be played")
        return left


def aimed_cases(rulesets: Sequence[Ruleset], players: Sequence[int], seed: str, coverage: Coverage,
                least: int, variants: Mapping[str, Any] | None = None, cap: int = DEFAULT_CAP,
                decks: bool = True, notes: dict[str, dict[str, str]] | None = None,
                ) -> Iterator[tuple[Case, frozenset[str]]]:
    """Aimed games for each ruleset until every expected clause is exercised by ``least`` cases of
    ``coverage`` (which is updated with the cases kept), within a budget of ``cap`` candidates per ruleset:
    each ruleset plays up to ``cap``, then the candidates the others left unplayed go, a batch at a time, to
    the rulesets still short. Each kept game gives a game case (seed ``SEED:aimed``), with the clauses it
    exercises. ``decks`` says whether the engine takes custom decks (the deck hunts need them).

    Candidates come in batches of :data:`BATCH`; after each batch the candidate worth most is kept, among
    the batch and the best :data:`RESERVE` earlier ones not kept yet (:func:`_worth`: the short clauses it
    exercises, the scarcer the more, per engine cost). A clause that :data:`MISSES` candidates aimed at it
    (or a tenth of ``cap``, when more) did not exercise is set aside for the rest of the ruleset's
    candidates. ``notes`` (when given) receives, per ruleset name, each expected clause still short of
    ``least`` cases at the end, with the reason: set aside after so many candidates, or the budget spent."""
    misses = max(MISSES, cap // 10)
    aims = [_RulesetAim(r, players, seed, coverage, least, variants, decks, misses) for r in rulesets]
    for aim in aims:
        while aim.index < cap and not aim.done():
            yield from aim.batch(cap - aim.index)
    spare = sum(max(0, cap - aim.index) for aim in aims)
    while spare > 0:
        short = [aim for aim in aims if not aim.done()]
        if not short:
            break
        for aim in short:
            before = aim.index
            yield from aim.batch(min(BATCH, spare))
            spare -= aim.index - before
            if spare <= 0:
                break
    if notes is not None:
        for aim in aims:
            notes[aim.ruleset.name] = aim.notes(spent=spare <= 0 or aim.index >= cap)


def played_clauses(job: GameJob) -> tuple[dict[str, Any], tuple[frozenset[str], frozenset[str]]]:
    """A generated game's trace, and the clauses its round case and its game case exercise, read from the
    play itself (the same as :func:`~flip7_spec.conformance.coverage.trace_clauses` of the trace, without
    playing it again)."""
    ends: list[list[RoundEnd]] = []
    played = generated_play(job.ruleset, job.players, job.seed, job.index,
                            watch=lambda game: ends.append(watch_round_ends(game)))
    events = [e.to_json() for e in played.all_events()]
    evidence = Evidence(job.ruleset, job.players, events, tuple(ends[0]), played.over)
    trace = played.trace()
    return trace, (clauses_of_evidence(evidence.first_round()), clauses_of_evidence(evidence))


def generated_and_aimed(rulesets: Sequence[Ruleset], players: Sequence[int], games: int, seed: str,
                        variants: Mapping[str, Any] | None, least: int, cap: int, decks: bool,
                        levels: frozenset[str]) -> Iterator[Case]:
    """The corpus's generated part: ``games`` generated games (their cases at ``levels``, each with the clauses
    it exercises), then aimed games until each expected clause has ``least`` generated cases (at most ``cap``
    candidates per ruleset; none when ``least`` is 0 or the game level is not run). The last case carries
    the aim's notes (:attr:`Case.shortfalls`): per ruleset, the clauses still short of ``least`` generated
    cases and why."""
    aiming = Coverage()
    held: Case | None = None  # the latest case, yielded once the next one comes (the last carries the notes)
    for job in game_jobs(rulesets, players, games, seed, variants):
        trace, clauses = played_clauses(job)
        for case in job_cases(job, trace):
            case.clauses = clauses[0] if case.level == "round" else clauses[1]
            if case.level in levels:
                aiming.add(case.ruleset, "generated", case.clauses)
                if held is not None:
                    yield held
                held = case
    if games and least > 0 and "game" in levels:
        notes: dict[str, dict[str, str]] = {}
        for case, found in aimed_cases(rulesets, players, seed, aiming, least, variants, cap, decks, notes):
            case.clauses = found
            if held is not None:
                yield held
            held = case
        if held is not None:
            held.shortfalls = notes
    if held is not None:
        yield held
