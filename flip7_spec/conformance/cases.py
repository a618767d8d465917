"""The conformance corpus: scoring cases, fixture traces and generated games (each a
:class:`~flip7_spec.judge.case.Case`)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flip7_spec.cards import Card, cards
from flip7_spec.conformance.scoring_hands import hands_for
from flip7_spec.errors import Flip7Error
from flip7_spec.judge.case import Case, trace_file_cases
from flip7_spec.machine import Game
from flip7_spec.play import make_game, round_score
from flip7_spec.protocol import Level
from flip7_spec.registry import definition_of
from flip7_spec.rulesets import Ruleset, preset, preset_names
from flip7_spec.simulation.policies import random_policy, threshold_policy
from flip7_spec.simulation.simulate import game_rng, record_game
from flip7_spec.trace.record import GameRecord


def scoring_cases(ruleset: Ruleset, fresh: bool = False) -> list[Case]:
    """The rule book's worked examples of the ruleset's game and the distinguishing hands z3 finds for known
    misreadings (shipped for the presets, cached on disk for other rulesets; ``fresh`` searches them again, see
    :mod:`flip7_spec.conformance.scoring_hands`).

    A worked example's expected score is the printed figure when the ruleset keeps the official scoring
    options, and the reference's score under the ruleset's own options otherwise (a custom bonus, say).
    """
    out: list[Case] = []
    definition = definition_of(ruleset)
    official = preset(definition.presets[0][0])
    for example in definition.worked_examples:
        hand = cards(example.hand)
        same_scoring = all(getattr(ruleset, name) == getattr(official, name) for name in example.options)
        expected = example.printed if same_scoring and not ruleset.deviations else _score(ruleset, hand)
        out.append(Case(f"scoring:{ruleset.name}:{example.id}", Level.SCORING, ruleset, hand=[c.text for c in hand],
                        expected=expected, clause=example.clause, label="official worked example"))
    for found in hands_for(ruleset.for_engine(), fresh=fresh):  # the hands that tell the official scoring
        expected = found.expected if not ruleset.deviations else _score(ruleset, cards(list(found.cards)),
                                                                         found.busted)
        out.append(Case(f"scoring:{ruleset.name}:{found.id}", Level.SCORING, ruleset, hand=list(found.cards),
                        busted=found.busted, expected=expected, clause=found.clause, label=found.misreading))
    return out


def _score(ruleset: Ruleset, hand: list[Card], busted: bool = False) -> int:
    """The reference's score of ``hand`` under ``ruleset``, the deviations of a fingerprint included."""
    if not ruleset.deviations:
        return round_score(ruleset, hand, busted)
    players = max(ruleset.min_players, 1)
    return make_game(ruleset, players, ruleset.deck_cards(players), 0, record=False).score_hand(hand, busted)


def fixture_cases(directory: Path) -> list[Case]:
    """Every trace under ``directory`` (``*.json`` and ``*.jsonl``, recursively, sorted by path; ruleset
    files and fixture sources are not traces)."""
    out: list[Case] = []
    for path in sorted(p for p in directory.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file()):
        relative = path.relative_to(directory)
        if relative.parts[0] in ("src", "rulesets"):
            continue
        out.extend(trace_file_cases(path, str(relative.with_suffix(""))))
    return out


PARTS = ("scoring", "fixture", "trace", "generated")
"""The parts of the corpus, as :func:`part_of` names them."""


def part_of(case_id: str) -> str:
    """The part of the corpus a case (or its result) belongs to, read from its id."""
    head = case_id.partition(":")[0]
    return head if head in ("scoring", "fixture", "trace") else "generated"


def generated_game(ruleset: Ruleset, players: int, seed: str | int, index: int) -> dict[str, Any]:
    """Game ``index`` of the run seeded ``seed``: mixed random and threshold play, recorded with observations."""
    return generated_play(ruleset, players, seed, index).trace()


def generated_play(ruleset: Ruleset, players: int, seed: str | int, index: int,
                   watch: Callable[[Game], None] | None = None) -> GameRecord:
    """The play of :func:`generated_game` (``watch`` is handed the game before it starts)."""
    rng = game_rng(seed, index)
    policy = random_policy if index % 2 else threshold_policy(15 + index % 20)
    return record_game(ruleset, players, policy, rng, observe=True, seed=f"{seed}:{index}",
                       generator="flip7-spec conform", watch=watch)


@dataclass(frozen=True, slots=True)
class GameJob:
    """Game ``index`` of a run seeded ``seed``: its ruleset and player count."""

    ruleset: Ruleset
    players: int
    seed: str | int
    index: int


Variants = Mapping[str, Any]
"""Option values an engine declares (its handshake's ``options``): generated games play a mix of them."""


def game_jobs(rulesets: Sequence[Ruleset], players: Sequence[int], games: int, seed: str | int,
              variants: Variants | None = None) -> list[GameJob]:
    """The ``games`` generated games of a run, cycling through ``rulesets`` and then ``players`` (each count
    brought within the ruleset's limits). With ``variants`` (the option values an engine declares), games also
    play the declared readings: see :func:`_varied`."""
    jobs = []
    for index in range(games):
        ruleset = rulesets[index % len(rulesets)]
        count = players[(index // len(rulesets)) % len(players)]
        count = max(count, max(ruleset.min_players, 1))
        if ruleset.max_players:
            count = min(count, ruleset.max_players)
        if variants:
            ruleset = _varied(ruleset, variants, random.Random(f"{seed}:{index}:options"))
        jobs.append(GameJob(ruleset, count, seed, index))
    return jobs


def _varied(ruleset: Ruleset, variants: Variants, rng: random.Random) -> Ruleset:
    """``ruleset`` as a game of a corpus declared ``variants`` plays it: an option whose own value is not declared
    takes a declared value (or every game would be skipped); then, in one game in two, one other declared value
    of one option, as the seed picks it (so the official rules still make up half the games)."""
    changes: dict[str, Any] = {}
    alternatives: list[tuple[str, Any]] = []
    for name in sorted(ruleset.OPTIONS):
        declared = variants.get(name)
        if not isinstance(declared, list) or not declared:
            continue
        own = getattr(ruleset, name)
        if not any(type(v) is type(own) and v == own for v in declared):
            changes[name] = rng.choice(declared)
            continue
        alternatives.extend((name, v) for v in declared if not (type(v) is type(own) and v == own))
    if alternatives and rng.random() < 0.5:
        name, value = rng.choice(alternatives)
        changes[name] = value
    try:
        return ruleset.with_options(**changes) if changes else ruleset
    except Flip7Error:
        return ruleset  # a declared combination the ruleset refuses: play it as it is


def job_cases(job: GameJob, trace: dict[str, Any]) -> list[Case]:
    """The two cases of a recorded game: its first round and the whole game (named with the options it
    changes from its preset, if any)."""
    base = _preset_of(job.ruleset)
    changed = [f"{k}={json.dumps(v)}" for k, v in job.ruleset.options().items()
               if base is not None and getattr(base, k) != v]
    label = f"+{','.join(changed)}" if changed else ""
    name = f"{job.ruleset.name}{label}/seed={job.seed}/game={job.index}/players={job.players}"
    return [Case(f"round:{name}", Level.ROUND, job.ruleset, trace=trace, generated=True),
            Case(f"game:{name}", Level.GAME, job.ruleset, trace=trace, generated=True)]


def _preset_of(ruleset: Ruleset) -> Ruleset | None:
    try:
        return preset(ruleset.name)
    except Flip7Error:
        return None


def generated_cases(rulesets: Sequence[Ruleset], players: Sequence[int], games: int, seed: str | int,
                    variants: Variants | None = None) -> Iterator[Case]:
    """``games`` generated games, cycling through ``rulesets`` and ``players``: each gives a round case
    (its first round) and a game case (the whole game). Generated lazily, one game at a time."""
    for job in game_jobs(rulesets, players, games, seed, variants):
        yield from job_cases(job, generated_game(job.ruleset, job.players, job.seed, job.index))


def default_rulesets(declared: Sequence[str] | None = None) -> list[Ruleset]:
    """The presets generated games cycle through by default: those among ``declared`` (the ``rulesets`` of
    an engine's handshake) that flip7-spec knows, in registration order; every preset when ``declared`` is
    None."""
    names = preset_names(registered_order=True)
    if declared is not None:
        names = [name for name in names if name in declared]
    return [preset(name) for name in names]
