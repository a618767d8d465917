"""Each game's judge of legal choices (``GameDefinition.legal_options``) against the reference.

The judge reads the choices the rules allow from an observation alone; the reference computes them from its
whole state. At every decision of games the reference plays, under a spread of option values, the judge says
nothing (None) or exactly the reference's ``pending.options``, in the same order: so the ``legal`` level never
fails a correct engine, nor one that plays an option value it declares. And it does judge: for every kind of
decision it decides (almost) every position, so it cannot give up silently.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flip7_spec.conformance.cases import generated_play
from flip7_spec.events import DecisionKind
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset, preset
from flip7_spec.strategies import GameRecord, option_values, played_games, rare_games, rulesets
from flip7_spec.testing import walk
from flip7_spec.trace.compare import canonical

GAMES = st.one_of(
    played_games(),
    rare_games("chance_passed"),  # a spare Second Chance given away: the give decision
    rare_games("reshuffle_in_flip3"),  # Flip Threes in a row: set-aside cards to assign
    rare_games("flip7_scaled", rulesets=rulesets(games=("vengeance",))),  # Brutal Mode's Flip 7 choice
)

FLOOR = 0.9
"""The least share of the positions of each kind of decision the judge must decide (say not None for)."""

LEAST = 10
"""The least number of positions of each kind of decision the sample must hold, for the share to mean something."""

SAMPLE_PRESETS = ("flip7", "flip7-no-deal", "vengeance", "vengeance-basic")
SAMPLE_GAMES = 4
"""Games per ruleset of the sample (conform's generated games of seed 0, 3 to 6 players): each preset as it is,
and with each option set to each other value. A spare Second Chance with two players to give it to is the
rarest decision: these hold 26 (LEAST guards the sample, should the generator change)."""

UNVARIED = frozenset({"target_score", "min_players", "max_players", "players_per_deck", "round_limit"})
"""Options the sample leaves at the preset's value: they change how long a game is, not what a decision allows."""


def judged_positions(record: GameRecord) -> list[tuple[str, Any, Any]]:
    """For every decision of ``record`` replayed on the reference: its kind, the reference's options and the
    judge's answer for the observation."""
    ruleset = record.setup.ruleset
    judge = definition_of(ruleset).legal_options
    out = []
    for step in walk(record):
        observation = step.game.observation()
        pending = observation["pending"]
        if pending is not None:
            out.append((pending["kind"], pending["options"], judge(ruleset, observation)))
    return out


@pytest.mark.clause("F7-HIT-STAY", "F7-STAY-NEEDS-CARD", "F7-ACTION-TARGET", "F7-FREEZE-SELF", "F7-CHANCE-GIVE",
                    "F7-FLIP3-ASSIGN", "F7-SETASIDE-PASS-VARIANT", "V-HIT-STAY", "V-ZERO-MUST-HIT",
                    "V-STAY-MINIMUM", "V-MOD-TARGET", "V-ACTION-TARGET", "V-FLIP4-SELF", "V-STEAL",
                    "V-DISCARD", "V-DISCARD-CHOOSER", "V-DISCARD-SELF", "V-STEAL-DISCARD-CARDS", "V-SWAP",
                    "V-SWAP-LIMITS", "V-BUST-OUT-OF-PLAY", "V-BRUTAL-FLIP7", "V-BRUTAL-MOD-BUSTED")
@given(GAMES)
def test_the_judge_gives_the_reference_options_or_nothing(record: GameRecord) -> None:
    for kind, options, judged in judged_positions(record):
        assert judged is None or canonical(judged) == canonical(options), \
            f"{record.setup.ruleset.name} {kind}: the judge allows {judged}, the reference offers {options}"


def sample_rulesets() -> list[Ruleset]:
    """Each preset of :data:`SAMPLE_PRESETS` as it is, and once with each other value of each of its options."""
    out: list[Ruleset] = []
    for name in SAMPLE_PRESETS:
        base = preset(name)
        out.append(base)
        out.extend(base.with_options(**{option: value}) for option, values in option_values(base).items()
                   if option not in UNVARIED for value in values[1:])
    return out


@pytest.mark.clause("F7-CHANCE-GIVE", "F7-FLIP3-ASSIGN", "V-STEAL", "V-SWAP", "V-BRUTAL-FLIP7")
def test_the_judge_decides_most_positions_of_every_kind() -> None:
    seen: Counter[str] = Counter()
    decided: Counter[str] = Counter()
    for ruleset in sample_rulesets():
        for index in range(SAMPLE_GAMES):
            record = generated_play(ruleset, 3 + index % 4, "0", index)
            for kind, options, judged in judged_positions(record):
                seen[kind] += 1
                if judged is not None:
                    decided[kind] += 1
                    assert canonical(judged) == canonical(options), (ruleset.options(), kind, judged, options)
    for kind in DecisionKind:
        assert seen[kind] >= LEAST, f"the sample holds only {seen[kind]} {kind} decisions"
        assert decided[kind] >= FLOOR * seen[kind], f"the judge decided {decided[kind]} of {seen[kind]} {kind}"
