"""``conform --smoke``: the handshake and one whole short game, to tell a broken adapter from a wrong engine.

A whole game (to a low target when the engine takes one) goes through every convention an adapter has to get
right: the observation at the start, between rounds, and at the end of the game. When the game differs,
the report names the observation field and what the protocol says of it, since a first run's difference is
more often the adapter's reading of its engine than the engine itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flip7_spec.conformance import FAIL, PASS, SKIPPED
from flip7_spec.conformance.cases import default_rulesets, generated_game, scoring_cases
from flip7_spec.judge.case import Case
from flip7_spec.judge.runner import run_case
from flip7_spec.protocol import Level
from flip7_spec.results import CaseResult
from flip7_spec.rulesets import Ruleset

SMOKE_TARGET = 60
"""The target score of the smoke game, when the engine accepts that value: a few rounds, so the dealer
rotates and the game ends."""
SMOKE_PLAYERS = 3

FIELD_NOTES: dict[str, str] = {
    "round": "1 in the first round, +1 each round; in the final observation, the number of the last round played",
    "dealer": "the Dealer's seat, passing left (+1) each round; in the final observation, the Dealer of the last "
              "round played (not rotated once more)",
    "draw_pile": "how many cards the draw pile holds (a count, not the cards)",
    "discard_pile": "how many cards the discard pile holds; at the end of a round every card on the table goes "
                    "there, the final round's too",
    "in_play": "cards neither in a pile nor in front of a player (an Action waiting for its target, cards set "
               "aside in a Flip Three), in the order revealed",
    "cards": "the cards in front of the player in the order received; empty in the final observation (they "
             "are on the discard pile)",
    "status": "active, stayed, frozen or busted; in the final observation, each player's status at the end "
              "of the last round",
    "round_score": "what the player would bank if the round ended now; 0 in the final observation",
    "total": "the sum of the player's finished rounds, the last round included once the game is over",
    "pending": "the decision the game waits for: player, kind, card (the card it is about, or null) and "
               "options; null once the game is over",
    "card": "pending.card: the card the decision is about (the Freeze or Flip Three to target, the Second "
            "Chance to give), null for hit_or_stay",
    "options": "pending.options: the legal choices, in ascending seat order; a decision with one choice is "
               "never asked",
    "over": "whether the game is over",
    "winners": "the winning seats once the game is over, else []",
}


def smoke_ruleset(hello: dict[str, Any]) -> tuple[Ruleset | None, str]:
    """The ruleset of the smoke game (the first preset the engine declares, to a low target when it accepts
    one) and a note on the target; None when the engine declares no preset."""
    declared = hello.get("rulesets", [])
    rulesets = default_rulesets([str(n) for n in declared] if isinstance(declared, list) else [])
    if not rulesets:
        return None, ""
    ruleset = rulesets[0]
    allowed = hello.get("options", {}).get("target_score") if isinstance(hello.get("options"), dict) else None
    target: int | None = None
    if allowed == "any":
        target = SMOKE_TARGET
    elif isinstance(allowed, list):
        values = [v for v in allowed if isinstance(v, int) and not isinstance(v, bool) and v > 0]
        target = min(values) if values else None
    if target is None or target >= ruleset.target_score:
        return ruleset, f"to {ruleset.target_score} (the engine takes no lower target_score)"
    return ruleset.with_options(target_score=target), f"to {target}"


def field_of(where: str | None) -> str | None:
    """The observation field a JSON path such as ``$.steps[40].observation.players[1].status`` ends in."""
    if not where or ".observation" not in where:
        return None
    inside = where.split(".observation", 1)[1]
    names = re.findall(r"\.([A-Za-z_]+)", inside)
    return names[-1] if names else None


def _observation_at(case: Case, step: int | None) -> dict[str, Any]:
    """The observation the case's trace holds after the start (``step`` None) or after its step ``step``."""
    document = case.document
    observation = document.start_observation if step is None else \
        next((d.observation for d in document.decisions if d.index == step), None)
    return observation if isinstance(observation, dict) else {}


def adapter_hint(case: Case, result: CaseResult) -> list[str]:
    """Lines that name the differing field, say what the protocol means by it and where the difference
    sits (the final observation, a round's first one), pointing at the adapter as the likely cause."""
    name = field_of(result.where)
    if name is None:
        return []
    expected = _observation_at(case, result.step)
    where = "in the final observation (over is true)" if expected.get("over") is True else \
        f"in round {expected.get('round')}"
    lines = [f"smoke: this may be the adapter, not the engine: field `{name}` differs {where}"]
    note = FIELD_NOTES.get(name)
    if note is not None:
        lines.append(f"smoke: the protocol's `{name}`: {note} (docs/protocol.md)")
    return lines


def smoke(open_engine: Callable[[], tuple[Any, dict[str, Any]]], echo: Callable[[str], None],
          describe: Callable[[CaseResult], list[str]]) -> bool | None:
    """Play the smoke game on the engine ``open_engine`` gives (with its handshake). Returns True when it
    conforms, False when it differs or fails, None when nothing was checked (the engine skipped the game, or
    declares no level the smoke check can play): a smoke check that checked nothing is not a pass.

    The game is a whole game when the engine declares the ``game`` level, else its first round when it
    declares ``round``, else one scoring case when it declares only ``scoring``."""
    engine, hello = open_engine()
    try:
        ruleset, target_note = smoke_ruleset(hello)
        if ruleset is None:
            echo("smoke: the engine declares none of the presets; nothing to play")
            return False
        levels = hello.get("levels", [])
        if Level.GAME not in levels and Level.ROUND not in levels:
            if Level.SCORING not in levels:
                echo("smoke: the engine declares none of the levels scoring, round, game: nothing was checked")
                return None
            hands = scoring_cases(ruleset)
            if not hands:
                echo(f"smoke: no scoring case for {ruleset.name}: nothing was checked")
                return None
            case = hands[0]
            what = f"one {ruleset.name} hand ({' '.join(case.hand)})"
        else:
            level = Level.GAME if Level.GAME in levels else Level.ROUND
            trace = generated_game(ruleset, max(SMOKE_PLAYERS, ruleset.min_players), "smoke", 0)
            case = Case(f"smoke:{ruleset.name}", level, ruleset, trace=trace, generated=True)
            rounds = (case.document.footer or {}).get("rounds", "?")
            what = f"one whole {ruleset.name} game {target_note}" if level is Level.GAME else \
                f"the first round of a {ruleset.name} game {target_note}"
        result = run_case(engine, case, hello)[0]
    finally:
        engine.close()
    if result.outcome == PASS:
        played = f" ({rounds} rounds, {result.decisions} decisions)" if case.level is Level.GAME else ""
        echo(f"smoke: {what} played{played}: ok")
        return True
    if result.outcome == SKIPPED:
        echo(f"smoke: the engine skipped {what}: {result.message}; nothing was checked")
        return None
    echo(f"smoke: the adapter works, but {what} differs:" if result.outcome == FAIL
         else f"smoke: {what} did not run:")
    for line in describe(result):
        echo(line)
    if case.trace is not None:
        for line in adapter_hint(case, result):
            echo(line)
    return False
