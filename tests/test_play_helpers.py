"""How each game reads to the core (its ``play`` module): the clause behind a scored row and behind a decision,
the simple policy simulated players use, and Flip 7's own invariants of a state. Written from the promises of
the functions' docstrings and from the clauses they name (RULES.md A.1, B.1)."""

from __future__ import annotations

import pytest

from flip7_spec.events import Decision, DecisionKind, Status
from flip7_spec.fixtures import full_deck
from flip7_spec.games.flip7 import play as flip7_play
from flip7_spec.games.vengeance import play as vengeance_play
from flip7_spec.machine import Game
from flip7_spec.play import new_game
from flip7_spec.rulesets import Ruleset, preset

# ---- Flip 7: the clause of a scored row -------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "status", "clause"), [
    # a busted row scores 0 whatever it holds (F7-SCORE-BUST), a frozen one banks (F7-FREEZE)
    (["12", "12", "x2", "+4"], "busted", "F7-SCORE-BUST"),
    (["5", "x2", "FREEZE"], "frozen", "F7-FREEZE"),
    # otherwise the most specific modifier rule: x2 (F7-MOD-X2) over +N (F7-MOD-ADD) over the plain sum
    (["5", "+4", "x2"], "stayed", "F7-MOD-X2"),
    (["x2"], "stayed", "F7-MOD-X2"),
    (["5", "+4"], "stayed", "F7-MOD-ADD"),
    (["+10"], "active", "F7-MOD-ADD"),
    (["5", "9", "CHANCE"], "stayed", "F7-SCORE"),
    ([], "active", "F7-SCORE"),
])
def test_flip7_a_scored_row_is_read_by_its_most_specific_clause(cards: list[str], status: str, clause: str) -> None:
    assert flip7_play.scoring_clause({"cards": cards, "status": status}) == clause


def test_flip7_a_row_shown_without_its_cards_is_a_plain_sum() -> None:
    # what an engine sends is read as it comes: a row with no cards list, or a card that is not a string, is no
    # modifier and no error
    assert flip7_play.scoring_clause({"status": "stayed"}) == "F7-SCORE"
    assert flip7_play.scoring_clause({"cards": [5, None], "status": "stayed"}) == "F7-SCORE"


# ---- Flip 7: the clause of a decision ----------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "card", "clause"), [
    (DecisionKind.TARGET, "FREEZE", "F7-ACTION-TARGET"),
    (DecisionKind.TARGET, "FLIP3", "F7-ACTION-TARGET"),
    (DecisionKind.GIVE, "CHANCE", "F7-CHANCE-GIVE"),
    (DecisionKind.ASSIGN, "FREEZE", "F7-FLIP3-ASSIGN"),
    (DecisionKind.HIT_OR_STAY, "", None),  # the Hit/Stay turn: the game's Hit/Stay clause is used instead
])
def test_flip7_a_decision_is_set_by_its_clause(kind: str, card: str, clause: str | None) -> None:
    assert flip7_play.decision_clause(kind, card) == clause


# ---- Flip 7: the simple policy and the invariants of a state -----------------------------------------------


def flip7_game(ruleset: Ruleset | None = None) -> Game:
    """Three players dealt 5, 6 and 7 (seats 0, 1, 2: round scores 5, 6, 7), seat 0 to Hit or Stay."""
    ruleset = ruleset or preset("flip7")
    game, _ = new_game(ruleset, 3, full_deck(ruleset, 3, ["5", "6", "7"]), dealer=2)
    assert [game.round_score(s) for s in range(3)] == [5, 6, 7]
    return game


@pytest.mark.parametrize("kind", [DecisionKind.TARGET, DecisionKind.ASSIGN])
def test_flip7_policy_aims_an_action_at_the_leading_opponent(kind: str) -> None:
    # seat 2 leads the round (7): its Freeze goes to seat 1, the leading opponent (6), not to itself
    game = flip7_game()
    assert flip7_play.policy_choice(game, Decision(2, kind, (0, 1, 2), "FREEZE")) == 1
    # seat 1's Freeze goes to seat 2, the leader (7)
    assert flip7_play.policy_choice(game, Decision(1, kind, (0, 1, 2), "FREEZE")) == 2


def test_flip7_policy_gives_a_spare_second_chance_to_the_trailing_player() -> None:
    game = flip7_game()
    game.totals[:] = [0, 50, 20]
    assert flip7_play.policy_choice(game, Decision(0, DecisionKind.GIVE, (1, 2), "CHANCE")) == 2
    game.totals[:] = [0, 10, 20]
    assert flip7_play.policy_choice(game, Decision(0, DecisionKind.GIVE, (1, 2), "CHANCE")) == 1


def test_flip7_policy_makes_a_forced_hit() -> None:
    game = flip7_game()
    assert flip7_play.policy_choice(game, Decision(0, DecisionKind.HIT_OR_STAY, ("hit",))) == "hit"


def with_state(game: Game, pending: Decision, statuses: dict[int, Status] | None = None,
               chances: tuple[int, ...] = ()) -> Game:
    """``game`` standing at ``pending``, with the seats' statuses and Second Chances set as given."""
    game.pending = pending
    for seat, status in (statuses or {}).items():
        game.players[seat].status = status
    for seat in chances:
        game.players[seat].has_chance = True  # type: ignore[attr-defined]
    return game


HIT_STAY = ("hit", "stay")


@pytest.mark.parametrize(("pending", "statuses", "chances", "ruleset"), [
    (Decision(0, DecisionKind.HIT_OR_STAY, HIT_STAY), {}, (), "flip7"),
    (Decision(0, DecisionKind.TARGET, (0, 1), "FREEZE"), {2: Status.STAYED}, (), "flip7"),
    (Decision(1, DecisionKind.ASSIGN, (1, 2), "FLIP3"), {0: Status.FROZEN}, (), "flip7"),
    (Decision(0, DecisionKind.GIVE, (2,), "CHANCE"), {}, (0, 1), "flip7"),
    # F7-SETASIDE-PASS-VARIANT: the busted target of a Flip Three passes its set-aside cards on
    (Decision(0, DecisionKind.ASSIGN, (1, 2), "FREEZE"), {0: Status.BUSTED}, (), "pass"),
])
def test_flip7_a_state_the_rules_allow_passes_the_check(pending: Decision, statuses: dict[int, Status],
                                                        chances: tuple[int, ...], ruleset: str) -> None:
    rules = preset("flip7").with_options(set_aside_on_bust="pass_to_other_active") if ruleset == "pass" else None
    flip7_play.check_state(with_state(flip7_game(rules), pending, statuses, chances))


def test_flip7_a_game_over_passes_the_check() -> None:
    game = flip7_game()
    game.pending = None
    flip7_play.check_state(game)


@pytest.mark.parametrize(("pending", "statuses", "chances", "ruleset"), [
    # [F7-ACTIVE] only active players decide
    (Decision(0, DecisionKind.HIT_OR_STAY, HIT_STAY), {0: Status.STAYED}, (), "flip7"),
    (Decision(0, DecisionKind.TARGET, (1, 2), "FREEZE"), {0: Status.FROZEN}, (), "flip7"),
    (Decision(0, DecisionKind.ASSIGN, (1, 2), "FREEZE"), {0: Status.BUSTED}, (), "flip7"),  # not the variant
    (Decision(0, DecisionKind.HIT_OR_STAY, HIT_STAY), {0: Status.BUSTED}, (), "pass"),  # the variant: assign only
    # [F7-ACTION-TARGET] [F7-FLIP3-ASSIGN] about active players only
    (Decision(0, DecisionKind.TARGET, (0, 1), "FREEZE"), {1: Status.FROZEN}, (), "flip7"),
    (Decision(0, DecisionKind.ASSIGN, (0, 2), "FLIP3"), {2: Status.STAYED}, (), "flip7"),
    # [F7-CHANCE-GIVE] to another active player who holds no Second Chance
    (Decision(0, DecisionKind.GIVE, (0, 2), "CHANCE"), {}, (0,), "flip7"),
    (Decision(0, DecisionKind.GIVE, (1, 2), "CHANCE"), {}, (0, 1), "flip7"),
    (Decision(0, DecisionKind.GIVE, (1, 2), "CHANCE"), {2: Status.STAYED}, (0,), "flip7"),
])
def test_flip7_a_state_the_rules_forbid_fails_the_check(pending: Decision, statuses: dict[int, Status],
                                                        chances: tuple[int, ...], ruleset: str) -> None:
    rules = preset("flip7").with_options(set_aside_on_bust="pass_to_other_active") if ruleset == "pass" else None
    with pytest.raises(AssertionError):
        flip7_play.check_state(with_state(flip7_game(rules), pending, statuses, chances))


# ---- Vengeance ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("status", "clause"), [("busted", "V-SCORE-BUST"), ("stayed", "V-SCORE"),
                                                ("active", "V-SCORE")])
def test_vengeance_a_scored_row_is_a_bust_or_the_scoring_rule(status: str, clause: str) -> None:
    assert vengeance_play.scoring_clause({"cards": ["5", "-2", "/2"], "status": status}) == clause


@pytest.mark.parametrize(("kind", "card", "clause"), [
    (DecisionKind.TARGET, "-4", "V-MOD-TARGET"),  # a Modifier's receiver
    (DecisionKind.TARGET, "/2", "V-MOD-TARGET"),
    (DecisionKind.TARGET, "ONEMORE", "V-ACTION-TARGET"),
    (DecisionKind.TARGET, "FLIP4", "V-ACTION-TARGET"),
    (DecisionKind.TARGET, "", "V-BRUTAL-FLIP7"),  # whom a Brutal Mode Flip 7's 15 points go to: about no card
    (DecisionKind.CARD, "STEAL", "V-STEAL"),  # the card a Steal takes
    (DecisionKind.CARD, "DISCARD", "V-DISCARD"),  # the card a Discard removes
    (DecisionKind.SWAP, "SWAP", "V-SWAP"),  # the two cards a Swap exchanges
    (DecisionKind.HIT_OR_STAY, "", None),
])
def test_vengeance_a_decision_is_set_by_its_clause(kind: str, card: str, clause: str | None) -> None:
    assert vengeance_play.decision_clause(kind, card) == clause


def vengeance_game() -> Game:
    """Three players dealt 5, 6 and 8 (round scores 5, 6, 8), seat 0 to Hit or Stay."""
    ruleset = preset("vengeance")
    game, _ = new_game(ruleset, 3, full_deck(ruleset, 3, ["5", "6", "8"]), dealer=2)
    assert [game.round_score(s) for s in range(3)] == [5, 6, 8]
    return game


def test_vengeance_policy_aims_a_target_at_the_leading_opponent() -> None:
    game = vengeance_game()
    assert vengeance_play.policy_choice(game, Decision(2, DecisionKind.TARGET, (0, 1, 2), "FLIP4")) == 1
    assert vengeance_play.policy_choice(game, Decision(0, DecisionKind.TARGET, (0, 1, 2), "-4")) == 2


def ref(player: int, index: int) -> dict[str, int]:
    return {"player": player, "index": index}


def test_vengeance_policy_takes_a_card_of_an_opponent_and_swaps_between_opponents() -> None:
    game = vengeance_game()
    # a Discard of seat 0 may hit its own 5 (listed first) or seat 1's 6: the opponent's card
    discard = Decision(0, DecisionKind.CARD, (ref(0, 0), ref(1, 0), ref(2, 0)), "DISCARD")
    assert vengeance_play.policy_choice(game, discard) == ref(1, 0)
    # a Swap of seat 1: the first pair that leaves its own row alone
    pairs = ([ref(0, 0), ref(1, 0)], [ref(0, 0), ref(2, 0)], [ref(1, 0), ref(2, 0)])
    assert vengeance_play.policy_choice(game, Decision(1, DecisionKind.SWAP, pairs, "SWAP")) == [ref(0, 0), ref(2, 0)]


def test_vengeance_policy_takes_the_first_option_when_none_spares_its_own_row() -> None:
    game = vengeance_game()
    # the Discard's victim picks one of their own cards (discard_chooser = "victim")
    own = Decision(1, DecisionKind.CARD, (ref(1, 0), ref(1, 1)), "DISCARD")
    assert vengeance_play.policy_choice(game, own) == ref(1, 0)
    assert vengeance_play.policy_choice(game, Decision(0, DecisionKind.HIT_OR_STAY, ("hit",))) == "hit"


def test_vengeance_rows_list_the_face_up_cards_of_players_not_busted_in_seat_order() -> None:
    from flip7_spec.games.vengeance.rows import face_up_on_table, row_refs

    game = vengeance_game()  # seats 0, 1, 2 hold 5, 6, 8
    game.players[0].status = Status.BUSTED  # a busted row is face down: none of its cards can be taken
    assert row_refs(game.players, [2, 0, 1]) == [ref(1, 0), ref(2, 0)]
    assert face_up_on_table(game.players)
    for seat in (1, 2):
        game.players[seat].status = Status.BUSTED
    assert row_refs(game.players, [0, 1, 2]) == []
    assert not face_up_on_table(game.players)  # cards on the table, all face down
    game.players[2].status = Status.STAYED  # a stayed row stays face up [V-STAYED-TARGET]
    assert face_up_on_table(game.players)
