"""The ``legal`` level's judge: each game's legal choices read from an observation alone, and the runner holding
every decision an engine offers to them, after a divergence too.

The hand-built tables check the judges against the rules (RULES.md, each clause cited); the two engines at the
end are the reference with an unexplained deviation at every Action card (the card goes to the discard pile
before it resolves, so the pile counts differ while it waits), one of them also offering the resolver's own
cards to a Steal: the comparison alone stops at the first Action, the judge still finds the Steal.
"""

from __future__ import annotations

from typing import Any

import pytest

from flip7_spec.cards import Card
from flip7_spec.conformance import FAIL, PASS
from flip7_spec.conformance.cases import generated_game
from flip7_spec.events import Decision, DecisionKind
from flip7_spec.games.vengeance.cards import STEAL
from flip7_spec.games.vengeance.engine import Steal, VengeanceGame
from flip7_spec.judge import diagnosis as diagnosis_module
from flip7_spec.judge.case import Case
from flip7_spec.judge.legality import first_illegal_offer, judge
from flip7_spec.judge.runner import CaseResult, run_case
from flip7_spec.protocol import Level
from flip7_spec.registry import definition_of, game_definition
from flip7_spec.rulesets import Ruleset, preset, ruleset_from_json
from tests.mutants._support import VengeanceMutantAdapter


def table(pending: dict[str, Any] | None, *rows: tuple[str, str]) -> dict[str, Any]:
    """A canonical observation: ``rows`` are (cards separated by spaces, status); the piles do not matter here."""
    return {"round": 1, "dealer": 0, "draw_pile": 50, "discard_pile": 0, "in_play": [],
            "players": [{"cards": cards.split(), "status": status, "round_score": 0, "total": 0}
                        for cards, status in rows],
            "pending": pending, "over": pending is None, "winners": []}


def asked(player: int, kind: str, card: str | None = None, options: list[Any] | None = None) -> dict[str, Any]:
    return {"player": player, "kind": kind, "card": card, "options": options or []}


def allowed(ruleset: Ruleset, observation: dict[str, Any]) -> Any:
    return definition_of(ruleset).legal_options(ruleset, observation)


def ref(player: int, index: int) -> dict[str, int]:
    return {"player": player, "index": index}


# ---- Flip 7 -------------------------------------------------------------------------------------------------


@pytest.mark.clause("F7-HIT-STAY", "F7-STAY-NEEDS-CARD", "F7-STAY-CHANCE-ONLY", "F7-STAY-MODIFIERS-ONLY")
def test_flip7_a_stay_needs_a_card_of_any_kind() -> None:
    flip7 = preset("flip7")
    rows = [("", "active"), ("CHANCE", "active"), ("+4", "active"), ("5", "active")]
    assert allowed(flip7, table(asked(0, "hit_or_stay"), *rows)) == ["hit"]
    for seat in (1, 2, 3):
        assert allowed(flip7, table(asked(seat, "hit_or_stay"), *rows)) == ["hit", "stay"]


@pytest.mark.clause("F7-ACTION-TARGET", "F7-FREEZE-SELF", "F7-DEAL-TARGET-UNDEALT", "F7-ACTIVE")
def test_flip7_an_action_goes_to_any_active_player_the_revealer_and_the_undealt_included() -> None:
    rows = [("4", "stayed"), ("3 FREEZE", "frozen"), ("9 9", "busted"), ("", "active"), ("6", "active")]
    for action in ("FREEZE", "FLIP3"):
        assert allowed(preset("flip7"), table(asked(4, "target", action), *rows)) == [3, 4]


@pytest.mark.clause("F7-CHANCE-GIVE")
def test_flip7_a_spare_second_chance_goes_to_another_active_player_who_holds_none() -> None:
    rows = [("2 CHANCE", "active"), ("7 CHANCE", "active"), ("5", "stayed"), ("", "active"), ("x2", "active"),
            ("8", "busted")]
    assert allowed(preset("flip7"), table(asked(0, "give", "CHANCE"), *rows)) == [3, 4]


@pytest.mark.clause("F7-FLIP3-ASSIGN", "F7-SETASIDE-PASS-VARIANT")
def test_flip7_set_aside_cards_go_to_active_players() -> None:
    rows = [("1 2 3", "active"), ("4", "frozen"), ("5", "active")]
    assert allowed(preset("flip7"), table(asked(0, "assign", "FREEZE"), *rows)) == [0, 2]
    # seed 003's variant: the Flip Three's target busted, and passes them to the players still in
    passing = preset("flip7").with_options(set_aside_on_bust="pass_to_other_active")
    rows = [("1 2 2", "busted"), ("4", "active"), ("5", "active")]
    assert allowed(passing, table(asked(0, "assign", "FLIP3"), *rows)) == [1, 2]


def test_flip7_judges_nothing_it_cannot_read() -> None:
    flip7 = preset("flip7")
    rows = [("4", "active"), ("5", "active")]
    assert allowed(flip7, table(None, *rows)) is None  # the game is over
    assert allowed(flip7, table(asked(0, "swap", "SWAP"), *rows)) is None  # not a decision of Flip 7
    assert allowed(flip7, table(asked(0, "target", "CHANCE"), *rows)) is None  # no such decision about it
    assert allowed(flip7, table(asked(0, "target", "BANANA"), *rows)) is None  # not a card
    assert allowed(flip7, table(asked(5, "target", "FREEZE"), *rows)) is None  # no such seat
    assert allowed(flip7, table(asked(0, "hit_or_stay"), ("4", "sleeping"), ("5", "active"))) is None
    assert allowed(flip7, {"pending": asked(0, "hit_or_stay"), "players": "all"}) is None


# ---- Vengeance ----------------------------------------------------------------------------------------------


@pytest.mark.clause("V-HIT-STAY", "V-ZERO-MUST-HIT", "V-SPECIAL-NUMBERS", "V-STAY-MINIMUM")
def test_vengeance_who_may_stay() -> None:
    official = preset("vengeance")
    rows = [("", "active"), ("4 ZERO", "active"), ("-4", "active"), ("4 9", "active")]
    assert [allowed(official, table(asked(s, "hit_or_stay"), *rows)) for s in range(4)] == [
        ["hit", "stay"], ["hit"], ["hit", "stay"], ["hit", "stay"]]
    plain_zero = official.with_options(special_numbers=False)
    assert allowed(plain_zero, table(asked(1, "hit_or_stay"), *rows)) == ["hit", "stay"]
    one_card = official.with_options(stay_minimum="one_card")
    assert [allowed(one_card, table(asked(s, "hit_or_stay"), *rows)) for s in (0, 2)] == [["hit"], ["hit", "stay"]]
    two_numbers = official.with_options(stay_minimum="two_numbers")
    assert [allowed(two_numbers, table(asked(s, "hit_or_stay"), *rows)) for s in (2, 3)] == [
        ["hit"], ["hit", "stay"]]


@pytest.mark.clause("V-MOD-TARGET", "V-BRUTAL-MOD-BUSTED", "V-ACTION-TARGET", "V-STAYED-TARGET", "V-FLIP4-SELF")
def test_vengeance_targets() -> None:
    official = preset("vengeance")
    rows = [("4", "stayed"), ("6 6", "busted"), ("", "active"), ("9", "active")]
    assert allowed(official, table(asked(3, "target", "-4"), *rows)) == [0, 2, 3]
    assert allowed(official.with_options(brutal_mode=True), table(asked(3, "target", "/2"), *rows)) == [0, 1, 2, 3]
    assert allowed(official, table(asked(3, "target", "ONEMORE"), *rows)) == [0, 2, 3]
    assert allowed(official, table(asked(3, "target", "FLIP4"), *rows)) == [0, 2, 3]
    assert allowed(official.with_options(flip4_self=False), table(asked(3, "target", "FLIP4"), *rows)) == [0, 2]


@pytest.mark.clause("V-STEAL", "V-BUST-OUT-OF-PLAY", "V-STEAL-DISCARD-CARDS", "V-MOD-NO-BUST")
def test_vengeance_a_steal_takes_another_players_face_up_card() -> None:
    rows = [("3 -2", "active"), ("5 5", "busted"), ("8 /2 11", "stayed"), ("12", "active")]
    steal = table(asked(0, "card", "STEAL"), *rows)
    assert allowed(preset("vengeance"), steal) == [ref(2, 0), ref(2, 1), ref(2, 2), ref(3, 0)]
    numbers = preset("vengeance").with_options(steal_discard_cards="numbers")
    assert allowed(numbers, steal) == [ref(2, 0), ref(2, 2), ref(3, 0)]


@pytest.mark.clause("V-DISCARD", "V-DISCARD-SELF", "V-DISCARD-CHOOSER")
def test_vengeance_a_discard_by_its_resolver_or_its_victim() -> None:
    official = preset("vengeance")
    rows = [("3", "active"), ("5 5", "busted"), ("", "stayed"), ("12 -6", "active")]
    assert allowed(official, table(asked(0, "card", "DISCARD"), *rows)) == [ref(0, 0), ref(3, 0), ref(3, 1)]
    no_self = official.with_options(discard_self=False)
    assert allowed(no_self, table(asked(0, "card", "DISCARD"), *rows)) == [ref(3, 0), ref(3, 1)]
    victim = official.with_options(discard_chooser="victim")
    assert allowed(victim, table(asked(0, "target", "DISCARD"), *rows)) == [0, 3]  # players with a card
    assert allowed(victim, table(asked(3, "card", "DISCARD"), *rows)) == [ref(3, 0), ref(3, 1)]
    # with the resolver picking the card, no victim is ever named apart
    assert allowed(official, table(asked(0, "target", "DISCARD"), *rows)) is None


@pytest.mark.clause("V-SWAP", "V-SWAP-LIMITS")
def test_vengeance_a_swap_pairs_two_cards_of_two_rows_in_order() -> None:
    rows = [("3 4", "active"), ("6 6", "busted"), ("9", "stayed"), ("", "active")]
    pairs = allowed(preset("vengeance"), table(asked(3, "swap", "SWAP"), *rows))
    assert pairs == [[ref(0, 0), ref(2, 0)], [ref(0, 1), ref(2, 0)]]


@pytest.mark.clause("V-BRUTAL-FLIP7", "V-BRUTAL-FLIP7-IN-ROUND")
def test_vengeance_brutal_flip7_choice() -> None:
    rows = [("1 2 3 4 5 6 8", "active"), ("6 6", "busted"), ("9", "stayed")]
    brutal = preset("vengeance").with_options(brutal_mode=True)
    assert allowed(brutal, table(asked(0, "target"), *rows)) == [0, 1, 2]
    assert allowed(brutal.with_options(brutal_flip7_target="in_round"), table(asked(0, "target"), *rows)) == [0, 2]
    assert allowed(preset("vengeance"), table(asked(0, "target"), *rows)) is None  # no Brutal Mode, no choice
    # An engine that leaves the busted player out without the in_round reading breaks the Brutal Mode Flip 7 rule
    illegal = first_illegal_offer(brutal, [table(asked(0, "target", None, [0, 2]), *rows)])
    assert illegal is not None and illegal.clause == "V-BRUTAL-FLIP7"


def test_a_game_without_a_judge_judges_nothing() -> None:
    from tests.toy_game import TOY_GAME, register, unregister

    register()
    try:
        toy = game_definition(TOY_GAME)
        observation = table(asked(0, "hit_or_stay", None, ["hit", "stay"]), ("1", "active"), ("2", "active"))
        assert toy.legal_options(toy.presets[0][1](), observation) is None
    finally:
        unregister()


def test_the_judge_plays_the_rulesets_option_deviations_and_not_its_misreadings() -> None:
    rows = [("3", "active"), ("12 -6", "active")]
    discard = table(asked(0, "card", "DISCARD", [ref(1, 0), ref(1, 1)]), *rows)
    assert first_illegal_offer(preset("vengeance"), [discard]) is not None  # the rules allow its own card too
    deviating = ruleset_from_json({**preset("vengeance").to_json(), "deviations": ["discard_self=false"]})
    assert first_illegal_offer(deviating, [discard]) is None
    misread = ruleset_from_json({**preset("flip7").to_json(), "deviations": ["freeze_not_self"]})
    assert judge(misread) is None


# ---- the runner ---------------------------------------------------------------------------------------------


class EarlyDiscardGame(VengeanceGame):
    """The reference but for one deviation no known reading explains: a revealed Action card goes to the
    discard pile at once, before it resolves (so while it waits, the discard pile has one card more than the
    reference's and ``in_play`` one less)."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.is_action:
            self._take_from_play(revealed)
            self.discard.append(revealed)
        super()._resolve_revealed(seat, revealed)

    def _finish_action(self, action: Card) -> None:
        pass  # in the discard pile already

    def _no_target(self, action: Card) -> None:
        self._stack.pop()


class OwnCardSteal(Steal):
    """A Steal that offers the resolver's own cards too (V-STEAL: another player's card only)."""

    __slots__ = ()

    def step(self, game: VengeanceGame) -> None:
        refs = game._takeable_refs(game._not_busted())
        if not refs:
            game._no_target(self.action)
            return
        game._offer(Decision(self.resolver, DecisionKind.CARD, tuple(refs), self.action.text), "V-STEAL")


class EarlyDiscardOwnStealGame(EarlyDiscardGame):
    """:class:`EarlyDiscardGame`, whose Steals also offer the resolver's own cards."""

    def _resolve_revealed(self, seat: int, revealed: Card) -> None:
        if revealed.kind is STEAL:
            self._take_from_play(revealed)
            self.discard.append(revealed)
            self._stack.append(OwnCardSteal(revealed, seat))
            return
        super()._resolve_revealed(seat, revealed)


class EarlyDiscardEngine(VengeanceMutantAdapter):
    game_class = EarlyDiscardGame


class EarlyDiscardOwnStealEngine(VengeanceMutantAdapter):
    game_class = EarlyDiscardOwnStealGame


GAMES = 8
"""Generated Vengeance games (seed 0) each engine plays."""


def vengeance_cases() -> list[Case]:
    ruleset = preset("vengeance")
    return [Case(f"game:vengeance/seed=0/game={index}", Level.GAME, ruleset,
                 trace=generated_game(ruleset, 3 + index % 4, "0", index)) for index in range(GAMES)]


def observations(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """The reference's observations of a trace (the start, then after each decision) up to the first reshuffle:
    past it the engines cannot follow the trace (their discard pile holds the waiting Action, which the
    reshuffle order does not)."""
    out = [trace["start"]["observation"]]
    for step in trace["steps"]:
        if "decision" not in step:
            break
        out.append(step["observation"])
    return out


def first(observations: list[dict[str, Any]], test: Any) -> int | None:
    """The position (0 the start, k after decision k) of the first observation that passes ``test``."""
    return next((position for position, observation in enumerate(observations) if test(observation)), None)


def waiting_action(observation: dict[str, Any]) -> bool:
    return any(text in ("ONEMORE", "FLIP4", "SWAP", "STEAL", "DISCARD") for text in observation["in_play"])


def steal_with_own_cards(observation: dict[str, Any]) -> bool:
    """A Steal asked of a resolver who has cards on the table: the rules offer none of them."""
    pending = observation["pending"]
    return bool(pending) and pending["kind"] == "card" and pending["card"] == "STEAL" \
        and bool(observation["players"][pending["player"]]["cards"])


def results_of(engine: VengeanceMutantAdapter, case: Case) -> dict[str, CaseResult]:
    return {r.level: r for r in run_case(engine, case, engine.hello())}


@pytest.mark.clause("V-ACTION-AT-ONCE")
def test_a_deviation_that_changes_no_choice_fails_no_case_at_the_legal_level() -> None:
    engine = EarlyDiscardEngine()
    diverged = 0
    for case in vengeance_cases():
        results = results_of(engine, case)
        assert results.get("legal") is None or results["legal"].outcome == PASS, results["legal"].to_json()
        assert case.trace is not None
        action = first(observations(case.trace), waiting_action)
        if action is not None:  # an Action waits in play before any reshuffle: the game level fails right there
            diverged += 1
            assert results["game"].outcome == FAIL and results["game"].decisions == action, results["game"]
    assert diverged >= 3


NEW_READINGS = ("actions_discarded_when_revealed", "steal_from_own_row")
"""The catalogue's readings of the two deviations of :class:`EarlyDiscardOwnStealGame`."""


@pytest.fixture(params=["catalogue without them", "whole catalogue"])
def known(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether the catalogue knows the engine's two deviations: without them, the first divergence is one no
    known reading explains (the case this test is about); with them, both are named."""
    if request.param == "whole catalogue":
        return True
    whole = diagnosis_module.catalogue

    def without(game: str) -> Any:
        return {name: entry for name, entry in whole(game).items() if name not in NEW_READINGS}

    monkeypatch.setattr(diagnosis_module, "catalogue", without)
    return False


@pytest.mark.clause("V-STEAL")
def test_an_illegal_steal_is_found_past_an_earlier_divergence(known: bool) -> None:
    engine = EarlyDiscardOwnStealEngine()
    steals = beyond = 0
    for case in vengeance_cases():
        results = results_of(engine, case)
        assert case.trace is not None
        seen = observations(case.trace)
        action, steal = first(seen, waiting_action), first(seen, steal_with_own_cards)
        legal = results.get("legal")
        if steal is None:
            assert legal is None or legal.outcome == PASS or legal.clause == "V-STEAL" or known, legal.to_json()
            continue
        steals += 1
        # the first Action waiting in play is the first divergence: the game level stops there ...
        game = results["game"]
        assert action is not None and game.outcome == FAIL and game.decisions == action, game.to_json()
        assert str(game.where).endswith(("discard_pile", "in_play", "in_play[0]")), game.where
        # ... and the Steal's offer, at that Steal or at an earlier one the rules settle with fewer choices, is a
        # legal failure naming the Steal's clause: the resolver's own cards are offered, the rules allow none
        assert legal is not None and legal.outcome == FAIL, legal
        if known:  # the diagnosis names the Steal's reading (with the early discard it plays beside it)
            assert legal.diagnosis is not None
            named = {legal.diagnosis.reading, *legal.diagnosis.together}
            assert "steal_from_own_row" in named, legal.diagnosis
        else:  # no known reading explains the engine, yet the clause is sure
            assert legal.clause == "V-STEAL" and legal.blame == "rules", legal.to_json()
        assert legal.decisions <= steal and legal.where is not None
        assert legal.where.endswith(".observation.pending.options")
        resolver = legal.found_observation["pending"]["player"]
        assert all(r["player"] != resolver for r in legal.expected)
        assert any(r["player"] == resolver for r in legal.found)
        beyond += action < legal.decisions
    assert steals >= 2, "the sample must hold Steals that the resolver's own cards could answer"
    assert beyond >= 1, "a Steal after the first divergence, which the comparison alone never judged"
