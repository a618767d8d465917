"""The conformance corpus: scoring cases, fixture traces and generated games."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from flip7_spec.cards import cards
from flip7_spec.play import round_score
from flip7_spec.policies import random_policy, threshold_policy
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset, preset, preset_names, ruleset_from_json
from flip7_spec.simulate import game_rng, play_game
from flip7_spec.trace.reader import read_traces
from flip7_spec.trace.record import played_to_trace


@dataclass(slots=True)
class Case:
    """One conformance case. ``trace`` for round and game cases; ``hand``/``expected`` for scoring cases."""

    id: str
    level: str
    ruleset: Ruleset
    trace: dict[str, Any] | None = None
    hand: list[str] = field(default_factory=list)
    busted: bool = False
    expected: int | None = None
    clause: str | None = None
    label: str = ""
    generated: bool = False


def scoring_cases(ruleset: Ruleset) -> list[Case]:
    """The rule book's worked examples of the ruleset's game and the distinguishing hands z3 finds for known
    misreadings.

    A worked example's expected score is the printed figure when the ruleset keeps the official scoring
    options, and the reference's score under the ruleset's own options otherwise (a custom bonus, say).
    """
    out: list[Case] = []
    definition = definition_of(ruleset)
    official = preset(definition.presets[0][0])
    for example in definition.worked_examples:
        hand = cards(example.hand)
        same_scoring = all(getattr(ruleset, name) == getattr(official, name) for name in example.options)
        expected = example.printed if same_scoring else round_score(ruleset, hand)
        out.append(Case(f"scoring:{ruleset.name}:{example.id}", "scoring", ruleset, hand=[c.text for c in hand],
                        expected=expected, clause=example.clause, label="official worked example"))
    try:
        from flip7_spec.symbolic.misreadings import distinguishing_cases
    except ImportError:  # pragma: no cover - the symbolic package ships with flip7-spec
        return out
    found = _distinguishing(ruleset, distinguishing_cases)
    for case in found:
        out.append(Case(f"scoring:{ruleset.name}:{case.id}", "scoring", ruleset, hand=list(case.cards),
                        busted=case.busted, expected=case.expected, clause=case.clause, label=case.misreading))
    return out


@cache
def _distinguishing(ruleset: Ruleset, find: Any) -> tuple[Any, ...]:
    """The z3 search is deterministic and takes a second or two: do it once per ruleset and process."""
    try:
        return tuple(find(ruleset))
    except Exception:  # a game without a symbolic model yet contributes no distinguishing hands
        return ()


def _round_count(trace: dict[str, Any]) -> int:
    rounds = {step.get("observation", {}).get("round", 1) for step in trace["steps"] if "decision" in step}
    return max(rounds | {1})


def fixture_cases(directory: Path) -> list[Case]:
    """Every trace under ``directory`` (``*.json`` and ``*.jsonl``, recursively, sorted by path)."""
    out: list[Case] = []
    for path in sorted(p for p in directory.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file()):
        for source in read_traces(path):
            if source.error is not None or not isinstance(source.trace, dict):
                continue
            trace = source.trace
            try:
                ruleset = ruleset_from_json(trace["header"]["ruleset"])
            except Exception:
                continue
            level = "game" if "footer" in trace or _round_count(trace) > 1 else "round"
            name = str(path.relative_to(directory).with_suffix(""))
            if source.line is not None:
                name += f":{source.line}"
            out.append(Case(f"fixture:{name}", level, ruleset, trace=trace,
                            label=str(trace["header"].get("description", ""))))
    return out


def generated_game(ruleset: Ruleset, players: int, seed: str | int, index: int) -> dict[str, Any]:
    """Game ``index`` of the run seeded ``seed``: mixed random and threshold play, recorded with observations."""
    rng = game_rng(seed, index)
    policy = random_policy if index % 2 else threshold_policy(15 + index % 20)
    played = play_game(ruleset, players, policy, rng, record=True, observe=True, seed=f"{seed}:{index}")
    return played_to_trace(played, generator="flip7-spec conform")


def generated_cases(rulesets: Sequence[Ruleset], players: Sequence[int], games: int, seed: str | int
                    ) -> Iterator[Case]:
    """``games`` generated games, cycling through ``rulesets`` and ``players``: each gives a round case
    (its first round) and a game case (the whole game). Generated lazily, one game at a time."""
    for index in range(games):
        ruleset = rulesets[index % len(rulesets)]
        count = players[(index // len(rulesets)) % len(players)]
        low = max(ruleset.min_players, 1)
        count = max(count, low)
        if ruleset.max_players:
            count = min(count, ruleset.max_players)
        trace = generated_game(ruleset, count, seed, index)
        name = f"{ruleset.name}/seed={seed}/game={index}/players={count}"
        yield Case(f"round:{name}", "round", ruleset, trace=trace, generated=True)
        yield Case(f"game:{name}", "game", ruleset, trace=trace, generated=True)


def default_rulesets() -> list[Ruleset]:
    """The presets generated games cycle through by default: every preset of every registered game."""
    return [preset(name) for name in preset_names()]
