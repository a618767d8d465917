"""One aimed game: how a candidate is set up (the option values it plays, its hunt, the deck of a deck
hunt) and how the reference plays it, steered by its hunt.

Which clause a candidate aims at, which hunt it takes and which candidates are kept is
:mod:`flip7_spec.conformance.aimed`'s business; this module only builds and plays one
(:func:`aimed_game`), deterministically from the run's seed and the candidate's index.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flip7_spec.cards import Card, Kind, card
from flip7_spec.clauses import CLAUSES, clause
from flip7_spec.conformance.coverage import watch_round_ends
from flip7_spec.errors import Flip7Error
from flip7_spec.events import Choice, Decision, DecisionKind
from flip7_spec.evidence import Evidence
from flip7_spec.machine import Game
from flip7_spec.play import make_game
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset, ruleset_from_json
from flip7_spec.simulation.policies import random_policy
from flip7_spec.steering import PileSteering, Wanted, new_number_for, rig
from flip7_spec.steering import card_text as card_is
from flip7_spec.trace.record import GameRecord

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


def declared_values(variants: Mapping[str, Any] | None, name: str) -> list[Any] | str | None:
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
    declared = declared_values(variants, name)
    if declared is None or name in ("min_players", "max_players", "target_score"):
        return []
    values = option.values()
    if values is None:
        return list(SMALL_INTS) if declared == "any" else [v for v in declared if isinstance(v, int)]
    if declared == "any":
        return values
    return [v for v in values if any(type(v) is type(d) and v == d for d in declared)]


def option_changes(ruleset: Ruleset, aimed_at: str, short: set[str], variants: Mapping[str, Any] | None,
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
        declared = declared_values(variants, name)
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
    if declared_values(variants, "target_score") == "any" and not counted and rng.random() < 0.85:
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

def with_options_or_same(ruleset: Ruleset, **options: Any) -> Ruleset:
    """``ruleset`` with ``options``, or ``ruleset`` itself when the reference refuses that combination."""
    try:
        return ruleset.with_options(**options)
    except Flip7Error:
        return ruleset


def more_than_a_deck(ruleset: Ruleset, count: int, variants: Mapping[str, Any] | None,
                      rng: random.Random) -> tuple[int, Ruleset]:
    """A player count (and ruleset) for which one deck is not enough: one more player than a deck serves
    when the player limits allow it, else fewer players per deck when the engine takes another value."""
    more = ruleset.players_per_deck + 1
    if (not ruleset.max_players or ruleset.max_players >= more) and (more <= 8 or rng.random() < 0.2):
        return more, ruleset
    if declared_values(variants, "players_per_deck") == "any" and count >= 2:
        try:
            return count, ruleset.with_options(players_per_deck=rng.randint(1, count - 1))
        except Flip7Error:
            pass
    return count, ruleset


def deck_hunt(ruleset: Ruleset, hunt: str, players: int, variants: Mapping[str, Any] | None,
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
        if declared_values(variants, "target_score") == "any" and not ruleset.round_limit:
            ruleset = with_options_or_same(ruleset, target_score=rng.choice((1, 15)))  # each round reshuffles the deck
    else:
        if declared_values(variants, "round_limit") != "any":
            return None
        bare = rng.random() < 0.5
        deck = _still_deck(ruleset, bare, rng)
        ruleset = with_options_or_same(ruleset, round_limit=30 if bare else rng.choice((2, 30)))
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


def _action_texts(ruleset: Ruleset) -> list[str]:
    """The texts of the Action cards of ``ruleset``'s deck (neither Numbers nor Modifiers), sorted."""
    return sorted({text for text, n in ruleset.deck if n > 0 and not card(text).is_number
                   and not card(text).is_modifier})


def _tiny_deck(ruleset: Ruleset, players: int, rng: random.Random) -> tuple[tuple[str, int], ...]:
    """Numbers of ``ruleset``'s deck with different values, about one a player (from one fewer to two more),
    with one of its Actions (the discard pile then holds a card while the deck runs out) and one time in two
    one of its other cards."""
    numbers = sorted({text for text, n in ruleset.deck if n > 0 and card(text).is_number})
    actions = _action_texts(ruleset)
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
    actions = _action_texts(ruleset)
    if actions and not bare:
        for _ in range(rng.randint(1, 2)):
            kept[rng.choice(actions)] += 1
    return tuple(sorted(kept.items()))


def _draws(ruleset: Ruleset, text: str) -> int:
    """How many cards the card written ``text`` makes a player draw in ``ruleset``'s game (its card list)."""
    listed = definition_of(ruleset).card_type(text)
    return 0 if listed is None else listed.draws


class _Hunter:
    """Chooses for an aimed game and steers its pile before the first reshuffle."""

    def __init__(self, aim: Aim, rng: random.Random, game: Game) -> None:
        self.aim = aim
        self.rng = rng
        self.steering = PileSteering(game)
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
        drawing = [t for t in actions if _draws(self.aim.ruleset, t) > 1]
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
        drawing = [t for t in self.aim.specials if _draws(self.aim.ruleset, t) > 0]
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
    drawing = [t for t in aim.specials if _draws(aim.ruleset, t) > 1]
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
    hunter = _Hunter(aim, rng, game)
    holder.append(hunter)
    ends = watch_round_ends(game)
    game.start()
    while game.pending is not None and len(game.history) < MAX_DECISIONS:
        game.apply(hunter.choose(game, game.pending))
    record = GameRecord.of(game, seed=f"{seed}:aimed:{index}", generator="flip7-spec conform (aimed)")
    evidence = Evidence(aim.ruleset, aim.players, [e.to_json() for e in record.all_events()], tuple(ends), game.over)
    return AimedGame(aim, record, evidence)
