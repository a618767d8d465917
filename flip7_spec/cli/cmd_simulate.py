"""``flip7-spec simulate``: play whole games with built-in strategies; summarise, and record traces."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from flip7_spec.cli.common import input_files, ruleset_option, say, say_json, seed_text, within
from flip7_spec.limits import GAMES, PLAYERS, WORKERS
from flip7_spec.policies import POLICIES
from flip7_spec.rulesets import Ruleset
from flip7_spec.simulate_run import SimulationRun, run_simulation


@click.command("simulate")
@ruleset_option()
@click.option("--players", "-p", type=click.IntRange(1), default=3, show_default=True, callback=within(PLAYERS),
              help="players per game")
@click.option("--games", "-g", type=click.IntRange(1), default=1000, show_default=True, callback=within(GAMES),
              help="games to play")
@click.option("--seed", "-s", default="0", show_default=True, callback=seed_text,
              help="seed of the run (provenance only: traces record the deck and reshuffle orders)")
@click.option("--strategy", type=click.Choice(sorted(POLICIES)), default="threshold", show_default=True,
              help="; ".join(f"{k}: {v}" for k, v in sorted(POLICIES.items())))
@click.option("--threshold", type=click.IntRange(0), default=20, show_default=True,
              help="round score at which the threshold strategy stays")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="write the traces: FILE.json for one game, FILE.jsonl for many (one per line)")
@click.option("--observations/--no-observations", default=True, show_default=True,
              help="with --out, record the canonical observation after every step")
@click.option("--workers", "-j", type=click.IntRange(1), default=1, show_default=True, callback=within(WORKERS),
              help="processes to play in parallel (results are the same for any count; never more than the "
                   "units of 200 games)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@click.option("--progress/--no-progress", default=None, help="show a progress bar (default: on a terminal)")
def command(ruleset: Ruleset, players: int, games: int, seed: str, strategy: str, threshold: int,
            out: Path | None, observations: bool, workers: int, as_json: bool, progress: bool | None) -> None:
    """Play GAMES whole games and print a summary: rounds, mean round score, bust rate, Flip 7 rate,
    win rate by seat, and the throughput.

    Game i of a run draws its deck, Dealer, reshuffles and random choices from the seed "SEED:i", so the
    same command gives the same games for any --workers.
    """
    run = SimulationRun(ruleset=ruleset, players=players, games=games, seed=seed, strategy=strategy,
                        threshold=threshold, out=out, observations=observations, workers=workers)
    started = time.perf_counter()
    stats = run_simulation(run, progress, inputs=input_files())
    elapsed = max(time.perf_counter() - started, 1e-9)
    summary = stats.summary()
    summary.update({
        "ruleset": ruleset.name, "players": players, "strategy": strategy, "seed": seed, "workers": workers,
        "seconds": round(elapsed, 3), "games_per_second": round(stats.games / elapsed, 1),
        "rounds_per_second": round(stats.rounds / elapsed, 1),
    })
    if out is not None:
        summary["out"] = str(out)
    if as_json:
        say_json(json.dumps(summary, sort_keys=True))
        return
    say(f"ruleset {ruleset.name}, {players} players, strategy {strategy}, seed {seed}")
    say(f"games                {summary['games']}")
    say(f"rounds               {summary['rounds']} ({summary['mean_rounds_per_game']} per game)")
    say(f"decisions            {summary['decisions']}")
    say(f"mean round score     {summary['mean_round_score']}")
    say(f"bust rate            {summary['bust_rate']:.2%} of player-rounds")
    say(f"Flip 7 rate          {summary['flip7_rate']:.2%} of rounds")
    rates = "  ".join(f"{seat}:{rate:.1%}" for seat, rate in enumerate(summary["win_rate_by_seat"]))
    say(f"win rate by seat     {rates}")
    if out is not None:
        say(f"traces written to    {out}")
    say(f"throughput           {summary['games_per_second']} games/s, "
               f"{summary['rounds_per_second']} rounds/s ({workers} worker{'s' if workers > 1 else ''}, "
               f"{summary['seconds']} s)")
