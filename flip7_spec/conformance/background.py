"""Generating the corpus's games in a second process while the engine plays.

Recording a game on the reference takes about as long as an engine replaying it. The runner spends that
time waiting for the engine's replies, so one helper process records the next games meanwhile (on another
core; a thread would only contend for the GIL), and generation and replay overlap instead of adding up.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator, Sequence
from typing import Any

from flip7_spec.conformance.cases import Case, GameJob, Variants, game_jobs, generated_game, job_cases
from flip7_spec.rulesets import Ruleset

AHEAD = 4
"""How many games the helper may record ahead of the runner (bounds the memory they hold)."""


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the runner reports it, the helper just stops when told to
    # (SIGTERM, from the pool: the default action, not the runner's handler it was forked with).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _record(job: GameJob) -> dict[str, Any]:
    return generated_game(job.ruleset, job.players, job.seed, job.index)


def generated_in_background(rulesets: Sequence[Ruleset], players: Sequence[int], games: int,
                            seed: str | int, variants: Variants | None = None) -> Iterator[Case]:
    """The cases :func:`~flip7_spec.conformance.cases.generated_cases` gives, in the same order, recorded by
    a helper process. The helper is stopped when the iterator finishes, is closed, or fails."""
    jobs = game_jobs(rulesets, players, games, seed, variants)
    if len(jobs) < 2:  # not worth a process
        for job in jobs:
            yield from job_cases(job, _record(job))
        return
    context = multiprocessing.get_context("fork")
    with context.Pool(1, initializer=_ignore_interrupts) as pool:
        pending: list[Any] = []
        upcoming = iter(jobs)
        for job in upcoming:
            pending.append((job, pool.apply_async(_record, (job,))))
            if len(pending) >= AHEAD:
                break
        while pending:
            job, result = pending.pop(0)
            trace = result.get()
            following = next(upcoming, None)
            if following is not None:
                pending.append((following, pool.apply_async(_record, (following,))))
            yield from job_cases(job, trace)
