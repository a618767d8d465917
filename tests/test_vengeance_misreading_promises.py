"""Vengeance's known misreadings keep the promises of the game they misread.

A misreading (flip7_spec/games/vengeance/misreadings.py) is the reference with one rule read another way. The
diagnosis plays it beside an engine and compares events and observations, so a game under a misreading must
still speak the game's language: the events, fields and clause ids docs/vengeance.md lists, each event naming a
Vengeance clause (the one it plays, or the one it misreads), each decision naming the card it is about. And
it must play its reading and nothing else: the rules wherever its reading does not apply.

Two kinds of check: generated games (random decks, random legal choices) under every misreading, over rulesets
that reach the options' other branches; and rigged decks where a misreading's reading shows, asserting what its
description implies beside what the rules give.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from flip7_spec.cards import Card, card, cards
from flip7_spec.clauses import clauses_for
from flip7_spec.events import DecisionKind, Event
from flip7_spec.games.vengeance.engine import BrutalFlip7
from flip7_spec.machine import Game
from flip7_spec.misreadings import catalogue
from flip7_spec.play import make_game, new_game
from flip7_spec.rulesets import Ruleset, preset

V = preset("vengeance")
DOC = Path(__file__).resolve().parents[1] / "docs" / "vengeance.md"
V_CLAUSES = frozenset(c.id for c in clauses_for("vengeance"))
NAMES = list(catalogue("vengeance"))

RULESETS: dict[str, Ruleset] = {
    "official": V,
    # the other branch of every option a misreading reads: the victim picks the Discarded card, a Stay needs
    # two Numbers, Steal and Discard take Numbers only, a Flip Four goes to an opponent, /2 halves the total
    "options": dataclasses.replace(V, discard_chooser="victim", stay_minimum="two_numbers",
                                   steal_discard_cards="numbers", flip4_self=False, halve_order="whole_total"),
    "brutal": dataclasses.replace(V, brutal_mode=True, discard_self=False),
}

GAMES = 12
"""Generated games per misreading and ruleset: enough for each event kind the misreading changes to come up."""


# ---- what docs/vengeance.md promises of events ----------------------------------------------------------------


@cache
def documented_events() -> dict[str, frozenset[str]]:
    """The event kinds of docs/vengeance.md's events table, each with the fields it lists (without the
    ``event`` and ``clause`` every event has)."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Events", 1)[1].split("\n## ", 1)[0]
    found: dict[str, frozenset[str]] = {}
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        kinds, _, fields = cells
        # a field's values or comment are in parentheses, and a description may follow a colon
        named = re.sub(r"\([^)]*\)", "", fields.split(":", 1)[0])
        for kind in re.findall(r"`([a-z0-9_]+)`", kinds):
            found[kind] = frozenset(re.findall(r"`([a-z_]+)`", named))
    return found


@cache
def documented_vias() -> frozenset[str]:
    """The values docs/vengeance.md gives for a ``draw`` event's ``via``."""
    text = DOC.read_text(encoding="utf-8")
    listed = re.search(r"`via` \(([^)]*)\)", text)
    assert listed is not None, "docs/vengeance.md lists the values of a draw's via"
    return frozenset(re.findall(r"`([a-z0-9_]+)`", listed.group(1)))


def test_the_documented_events_are_read_from_the_table() -> None:
    # the parse above, checked against a few rows read by eye, so that the checks below are not vacuous
    events = documented_events()
    assert events["draw"] == {"player", "card", "via"}
    assert events["target"] == {"player", "card", "target"}
    assert events["flip4_start"] == {"player", "card"} and events["flip4_end"] == {"player"}
    assert events["discard"] == {"card", "reason"}
    assert events["forced"] == {"player", "card", "kind", "choice", "because"}
    assert events["empty_deck"] == frozenset()
    assert documented_vias() == {"deal", "hit", "one_more", "flip4"}


def event_problems(event: Event, deck_texts: frozenset[str]) -> list[str]:
    """What in ``event`` breaks docs/vengeance.md: an undocumented kind, a field its row does not list, a
    documented data field missing, a clause (or a forced choice's ``because``) that is no Vengeance clause, a
    player that is no seat number, a card that is no card of the deck, a draw by an undocumented way."""
    shown = event.to_json()
    fields = documented_events().get(event.kind)
    if fields is None:
        return [f"undocumented event kind {event.kind!r}"]
    problems = []
    if event.clause not in V_CLAUSES:
        problems.append(f"clause {event.clause!r} is no Vengeance clause")
    extra = set(shown) - {"event", "clause"} - fields
    if extra:
        problems.append(f"fields {sorted(extra)} not documented")
    missing = fields - {"player", "card"} - set(shown)
    if missing:
        problems.append(f"documented fields {sorted(missing)} missing")
    if event.player is not None and type(event.player) is not int:
        problems.append(f"player {event.player!r}")
    if event.card is not None and event.card not in deck_texts:
        problems.append(f"card {event.card!r} is no card of the deck")
    if event.kind == "forced":
        if event.get("because") not in V_CLAUSES:
            problems.append(f"because {event.get('because')!r} is no Vengeance clause")
        if event.get("kind") not in {str(k) for k in DecisionKind}:
            problems.append(f"decision kind {event.get('kind')!r}")
    if event.kind == "draw" and event.get("via") not in documented_vias():
        problems.append(f"via {event.get('via')!r}")
    return problems


def decision_problems(game: Game) -> list[str]:
    """What in ``game``'s pending decision breaks docs/vengeance.md's decisions table: a kind it does not list,
    or a decision about a revealed card (every kind but ``hit_or_stay`` and Brutal Mode's Flip 7 choice) that
    does not name it."""
    pending = game.pending
    assert pending is not None
    kind = str(pending.kind)
    if kind not in {"hit_or_stay", "target", "card", "swap"}:
        return [f"decision kind {kind!r}"]
    about_a_card = kind != "hit_or_stay" and not isinstance(game._stack[-1], BrutalFlip7)
    if about_a_card and pending.card is None:
        return [f"a {kind} decision about no card"]
    if not about_a_card and pending.card is not None:
        return [f"a {kind} decision about {pending.card}"]
    return []


def reshuffler(rng: random.Random) -> Callable[[list[Card]], list[Card]]:
    """Reshuffle orders drawn from ``rng``."""
    return lambda pile: rng.sample(pile, len(pile))


def generated_game(ruleset: Ruleset, seed: str) -> tuple[Game, list[Event], random.Random]:
    """A started game of ``ruleset`` on a deck shuffled by ``seed``, 3 to 6 players, and the generator that
    chooses its decisions."""
    rng = random.Random(seed)
    players = rng.randint(3, 6)
    deck = [c.text for c in ruleset.deck_cards(players)]
    rng.shuffle(deck)
    game, started = new_game(ruleset, players, deck, dealer=rng.randrange(players), reshuffler=reshuffler(rng))
    return game, started, rng


def choose(rng: random.Random, legal: list[Any]) -> Any:
    """A random legal choice; at a Hit/Stay, Hit four times in five (a game of even odds seldom gets far into
    a round)."""
    if legal == ["hit", "stay"]:
        return "hit" if rng.random() < 0.8 else "stay"
    return rng.choice(legal)


def play_checked(ruleset: Ruleset, seed: str) -> list[str]:
    """Play one generated game to its end with random legal choices; the problems of its events and decisions,
    each with the step it came at."""
    game, events, rng = generated_game(ruleset, seed)
    deck_texts = frozenset(c.text for c in ruleset.deck_cards(game.n))
    problems: list[str] = []
    step = 0
    while True:
        problems += [f"step {step}: {e.kind}: {p}" for e in events for p in event_problems(e, deck_texts)]
        if game.pending is None:
            return problems
        problems += [f"step {step}: {p}" for p in decision_problems(game)]
        events = game.apply(choose(rng, game.legal()))
        step += 1


@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("name", NAMES)
def test_a_misread_game_tells_documented_events_that_name_vengeance_clauses(name: str, rules: str) -> None:
    ruleset = dataclasses.replace(RULESETS[rules], deviations=(name,))
    for number in range(GAMES):
        problems = play_checked(ruleset, f"{name}:{rules}:{number}")
        assert not problems, f"{name} under {rules}, game {number}: {problems[:5]}"


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_the_reference_tells_documented_events_that_name_vengeance_clauses(rules: str) -> None:
    # the same check on the reference itself: the promises the misreadings are held to are the game's own
    for number in range(GAMES):
        problems = play_checked(RULESETS[rules], f"reference:{rules}:{number}")
        assert not problems, f"{rules}, game {number}: {problems[:5]}"


# ---- rigged decks: what a misreading's description says, beside the rules ------------------------------------


def rigged(top: str, ruleset: Ruleset, players: int = 3) -> tuple[Game, list[Event]]:
    """A game of ``players`` with the last seat dealing (seat 0 dealt first), ``top`` the first cards of the
    deck (top first), the regular Numbers next."""
    rest = [c.text for c in ruleset.deck_cards(players)]
    tops = top.split()
    for text in tops:
        rest.remove(text)
    rest.sort(key=lambda t: not card(t).is_number or card(t).special is not None)
    return new_game(ruleset, players, tops + rest, dealer=players - 1)


def under(*names: str, ruleset: Ruleset = V) -> Ruleset:
    return dataclasses.replace(ruleset, deviations=names)


def played(top: str, ruleset: Ruleset, *choices: Any) -> tuple[Game, list[Event]]:
    """The rigged game of ``top`` after ``choices``, with every event since the start."""
    game, events = rigged(top, ruleset)
    for choice in choices:
        events += game.apply(choice)
    return game, events


def rows(game: Game) -> list[list[str]]:
    return [[c.text for c in p.cards] for p in game.players]


def kinds(events: list[Event]) -> list[tuple[str, str | None]]:
    return [(e.kind, e.card) for e in events]


@pytest.mark.clause("V-ACTION-MANDATORY", "V-DEAL-PAUSE")
def test_deal_table_actions_discarded_discards_a_dealt_steal_but_not_one_drawn_by_a_hit() -> None:
    # Seat 0 is dealt a 5, seat 1 a Steal, seat 2 a 6. The rules resolve the Steal at once (V-DEAL-PAUSE), and
    # the 5 is the only card it can take (V-ACTION-MANDATORY): seat 1 holds the 5. Under the misreading the
    # dealt Steal is discarded with no effect. A Steal seat 0 then draws by a hit is no part of the deal: both
    # play it, and it takes the only card another row holds (seat 2's 6; seat 1's row is empty).
    top = "5 STEAL 6 STEAL"
    official, _ = played(top, V, "hit")
    misread, events = played(top, under("deal_table_actions_discarded"), "hit")
    assert rows(official) == [[], ["5"], ["6"]]
    assert official.pending is not None and official.pending.card == "STEAL"  # the 5 or the 6: a choice
    assert rows(misread) == [["5", "6"], [], []]
    assert [(e.kind, e.card) for e in events if e.kind in ("discard", "steal")] == \
        [("discard", "STEAL"), ("steal", "6"), ("discard", "STEAL")]
    # Nor is a Steal held back in a Flip Four (V-FLIP4-HOLD) dealt: seat 0 plays a Flip Four on seat 1, whose
    # first card is a Steal; once the four cards are drawn seat 1 resolves it, under the misreading too, and
    # chooses what to take (seat 0's 5 or seat 2's 8).
    for ruleset in (V, under("deal_table_actions_discarded")):
        game, events = played("5 6 8 FLIP4 STEAL 1 2 3", ruleset, "hit", 1)
        assert ("hold", "STEAL") in kinds(events) and ("discard", "STEAL") not in kinds(events)
        assert game.pending is not None and (game.pending.player, game.pending.card) == (1, "STEAL")
        assert game.pending.options == ({"player": 0, "index": 0}, {"player": 2, "index": 0})


@pytest.mark.clause("V-LUCKY13-PAIR")
def test_lucky13_must_come_first_busts_a_lucky_13_received_on_a_regular_13_only() -> None:
    # Seat 0 holds a regular 13 and draws the Lucky 13. The rules allow the pair whichever came first
    # (V-LUCKY13-PAIR); the misreading allows it only when the Lucky 13 was held first, so seat 0 busts. With
    # the Lucky 13 held first and a regular 13 drawn, both keep the pair.
    for top, busts in (("13 1 2 L13", True), ("L13 1 2 13", False)):
        official, _ = played(top, V, "hit")
        misread, events = played(top, under("lucky13_must_come_first"), "hit")
        assert official.status(0) == "active" and sorted(rows(official)[0]) == ["13", "L13"]
        assert misread.status(0) == ("busted" if busts else "active"), top
        assert [e.kind for e in events if e.kind in ("bust", "lucky13")] == ["bust" if busts else "lucky13"]


@pytest.mark.clause("V-SWAP")
def test_swap_needs_own_card_offers_only_the_swaps_that_give_one_of_the_resolvers_cards() -> None:
    # Seats 0, 1, 2 hold a 5, a 6 and an 8; seat 0 draws a Swap. The rules offer any two cards of two rows,
    # two other players' included (V-SWAP): 0-1, 0-2 and 1-2. The misreading drops 1-2.
    def pairs(ruleset: Ruleset) -> set[tuple[int, int]]:
        game, _ = played("5 6 8 SWAP", ruleset, "hit")
        assert game.pending is not None and game.pending.kind == "swap"
        return {(first["player"], second["player"]) for first, second in game.pending.options}

    assert pairs(V) == {(0, 1), (0, 2), (1, 2)}
    assert pairs(under("swap_needs_own_card")) == {(0, 1), (0, 2)}


@pytest.mark.clause("V-BUST-BY-ACTION")
def test_taken_card_never_busts_keeps_a_stolen_duplicate_in_the_row() -> None:
    # Seat 0 holds a 5 and steals seat 2's 5. The rules bust seat 0 (V-BUST-BY-ACTION); under the misreading
    # the duplicate joins the row and seat 0 plays on.
    choices = ("hit", {"player": 2, "index": 0})
    official, _ = played("5 6 5 STEAL", V, *choices)
    misread, events = played("5 6 5 STEAL", under("taken_card_never_busts"), *choices)
    assert official.status(0) == "busted"
    assert misread.status(0) == "active" and rows(misread)[0] == ["5", "5"]
    assert not [e for e in events if e.kind == "bust"]


@pytest.mark.clause("V-ONEMORE-STAY", "V-ONEMORE")
def test_onemore_no_stay_gives_the_card_and_leaves_the_target_in_the_rotation() -> None:
    # Seat 0 draws Just One More and plays it on seat 1, who takes the next card, a 9 (V-ONEMORE). The rules
    # then make seat 1 Stay (V-ONEMORE-STAY); under the misreading seat 1 keeps playing. Either way the card is
    # taken, and Just One More is discarded once used.
    for name, status in ((None, "stayed"), ("onemore_no_stay", "active"), ("onemore_zero_keeps_hitting", "stayed")):
        ruleset = V if name is None else under(name)
        game, events = played("5 6 8 ONEMORE 9", ruleset, "hit", 1)
        assert rows(game)[1] == ["6", "9"], name
        assert game.status(1) == status, name
        assert ("discard", "ONEMORE") in kinds(events), name


@pytest.mark.clause("V-DEAL-PAUSE")
def test_deal_actions_after_deal_discards_the_dealt_card_of_a_player_busted_before_it_resolves() -> None:
    # Seat 0 is dealt a Flip Four, seat 1 a Swap, seat 2 a 5. Under the misreading both wait for the deal to
    # end, then resolve in deal order: seat 0 plays the Flip Four on seat 1, who busts on the second 3, so
    # seat 1's Swap is discarded unresolved. Its events are the game's (docs/vengeance.md).
    game, events = played("FLIP4 SWAP 5 3 3", under("deal_actions_after_deal"), 1)
    assert game.status(1) == "busted" and rows(game)[1] == ["3", "3"]
    assert [e.kind for e in events].count("swap") == 0
    discarded = [e.card for e in events if e.kind == "discard"]
    assert discarded == ["FLIP4", "SWAP"]
    deck_texts = frozenset(c.text for c in V.deck_cards(3))
    assert [p for e in events for p in event_problems(e, deck_texts)] == []


# ---- scoring: a misreading scores as the rules every hand its reading does not concern -----------------------

SCORING = ("halve_rounds_up", "malus_before_halve", "halve_bonus", "floor_after_bonus", "no_flip7_bonus",
           "zero_scores_its_value", "zero_cancels_flip7")
WHOLE_TOTAL = dataclasses.replace(V, halve_order="whole_total")
OFFICIAL_EXAMPLE = "3 11 5 7 10 8 4 /2 -4"

HANDS = [
    # (ruleset, hand, its score by the rules, the scoring misreadings whose reading changes it)
    # V-SCORE: 7 halved, rounded down
    pytest.param(V, "3 4 /2", 3, {"halve_rounds_up"}, id="odd-sum-halved"),
    # V-SCORE, the official example: 48 halved 24, -4 gives 20, +15 for the Flip 7 (docs/vengeance.md)
    pytest.param(V, OFFICIAL_EXAMPLE, 35, {"malus_before_halve", "halve_bonus", "no_flip7_bonus"},
                 id="official-example"),
    # V-HALVE-WHOLE-TOTAL: (48 - 4 + 15) / 2 = 29.5, rounded down; the misreadings that move the /2 among the
    # Numbers, the -N cards and the bonus have nothing to move when the /2 halves the whole total
    pytest.param(WHOLE_TOTAL, OFFICIAL_EXAMPLE, 29, {"halve_rounds_up", "no_flip7_bonus"},
                 id="official-example-whole-total"),
]


@pytest.mark.clause("V-SCORE", "V-HALVE-WHOLE-TOTAL")
@pytest.mark.parametrize(("ruleset", "hand", "score", "concerned"), HANDS)
def test_a_scoring_misreading_scores_a_hand_its_reading_does_not_concern_as_the_rules(
        ruleset: Ruleset, hand: str, score: int, concerned: set[str]) -> None:
    held = cards(hand.split())
    assert make_game(ruleset, 3, ruleset.deck_cards(3), 0).score_hand(held) == score
    for name in SCORING:
        scored = make_game(under(name, ruleset=ruleset), 3, ruleset.deck_cards(3), 0).score_hand(held)
        assert type(scored) is int, name
        assert (scored != score) == (name in concerned), f"{name} scores {scored}"


@pytest.mark.clause("V-BRUTAL-FLIP7")
@pytest.mark.parametrize("name", [name for name in SCORING if name != "no_flip7_bonus"])
def test_brutal_modes_flip7_choice_is_scored_as_the_rules_under_a_scoring_misreading(name: str) -> None:
    # Brutal Mode. Seat 0 holds 1 and draws 2, 3, 4, 5, 6, 8 while seats 1 (a 9) and 2 (a 10) stay: a Flip 7
    # of 29 with no Modifier and no Zero, which no scoring misreading reads differently. Taking the bonus scores
    # 29 + 15; choosing seat 1 scores 29 and takes 15 off seat 1's 9 (V-BRUTAL-FLIP7, negative in Brutal Mode).
    brutal = dataclasses.replace(V, brutal_mode=True)
    choices = ("hit", "stay", "stay", "hit", "hit", "hit", "hit", "hit")
    for target, scores in ((0, [44, 9, 10]), (1, [29, -6, 10])):
        for ruleset in (brutal, under(name, ruleset=brutal)):
            _, events = played("1 9 10 2 3 4 5 6 8", ruleset, *choices, target)
            [end] = [e for e in events if e.kind == "round_end"]
            assert end.get("scores") == scores, (ruleset.deviations, target)
