"""``flip7-spec simulate``: play whole games or one-round experiments with built-in or user policies;
summarise with 95% intervals (text, JSON or CSV), plot, and record traces."""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from flip7_spec.cli.campaigns import cluster_address
from flip7_spec.cli.common import (
    fail,
    input_files,
    note_inputs,
    ruleset_option,
    say,
    say_json,
    seed_text,
    within,
)
from flip7_spec.cli.simulate_output import csv_rows, round_lines, to_csv
from flip7_spec.limits import (
    GAMES,
    NUMBER_DIGITS,
    OPTION_NUMBER,
    PLAYERS,
    SWEEP_VALUES,
    WORKERS,
    check_ruleset,
    show_number,
)
from flip7_spec.outputs import Output, check_distinct
from flip7_spec.rulesets import Ruleset, preset, preset_names
from flip7_spec.simulation.policies import POLICIES
from flip7_spec.simulation.policy_specs import policy_specs_help, sweep_family, user_policies
from flip7_spec.simulation.round_stats import RoundStats
from flip7_spec.simulation.simulate import Stats
from flip7_spec.simulation.simulate_run import SimulationRun, run_experiment
from flip7_spec.user_modules import module_file


@click.command("simulate")
@ruleset_option()
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="change a ruleset option for this run, e.g. min_players=1 for one- or two-player "
                   "experiments (repeatable; `flip7-spec rules --options` lists them)")
@click.option("--solitaire", is_flag=True,
              help="one player, every Action card and the x2 as blanks (drawn and counted, no effect), as the "
                   "published solitaire tables play: the ruleset's deck with those cards made x1, and one "
                   "player allowed (docs/simulation.md)")
@click.option("--players", "-p", type=click.IntRange(1), default=None, callback=within(PLAYERS),
              help="players per game  [default: 3, or 1 with --solitaire]")
@click.option("--games", "-g", type=click.IntRange(1), default=None, callback=within(GAMES),
              help="whole games to play  [default: 1000]")
@click.option("--rounds", type=click.IntRange(1), default=None, callback=within(GAMES),
              help="play this many one-round experiments instead of games, each on its own freshly shuffled deck")
# Every one-round experiment has always had a fresh deck: the flag says nothing more, and is kept (hidden) only
# so that the commands written with it keep working.
@click.option("--fresh-deck", is_flag=True, hidden=True)
@click.option("--policy", "policies", multiple=True, metavar="SPEC",
              help=f"how players decide: {policy_specs_help()}; MODULE:CALLABLE or FILE.py:CALLABLE: your "
                   "function of the game view (docs/simulation.md). Once for every seat, or once per seat")
@click.option("--sweep", metavar="FROM:TO[:STEP]",
              help="run the one --policy that takes a parameter for each N in the range, on the same decks, and "
                   "compare: threshold, threshold-numbers or cards (with or without a value: the sweep sets it), "
                   "or your MODULE:CALLABLE whose callable takes the parameter as a second argument")
@click.option("--seed", "-s", default="0", show_default=True, callback=seed_text,
              help="seed of the run (provenance only: traces record the deck and reshuffle orders)")
@click.option("--strategy", type=click.Choice(sorted(POLICIES)), default=None,
              help="the older form of --policy: random, or threshold (with --threshold)")
@click.option("--threshold", type=click.IntRange(0), default=None, callback=within(OPTION_NUMBER),
              help="with --strategy threshold: the round score at which players stay  [default: 20]")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path),
              help="write the traces: FILE.json for one game, FILE.jsonl for many (one per line)")
@click.option("--observations/--no-observations", default=True, show_default=True,
              help="with --out, record the canonical observation after every step")
@click.option("--workers", "-j", type=click.IntRange(1), default=1, show_default=True, callback=within(WORKERS),
              help="processes to play in parallel (results are the same for any count; never more than the "
                   "units of 200 games)")
@click.option("--cluster", metavar="ADDRESS|local:N", callback=cluster_address,
              help="play on a Dask cluster: a scheduler's address (tcp://HOST:PORT) or local:N for N worker "
                   "processes here; the statistics are those of a local run (needs the cluster extra; "
                   "docs/campaigns.md)")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@click.option("--csv", "as_csv", is_flag=True, help="print the per-round figures as CSV (overall and by seat)")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path),
              help="draw the distribution of points and cards per round (or, with --sweep, the points "
                   "against the parameter) to this PNG/SVG/PDF file; needs the `plot` extra (matplotlib)")
@click.option("--progress/--no-progress", default=None, help="show a progress bar (default: on a terminal)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
def command(ruleset: Ruleset, options: tuple[str, ...], solitaire: bool, players: int | None, games: int | None,
            rounds: int | None,
            fresh_deck: bool, policies: tuple[str, ...], sweep: str | None, seed: str, strategy: str | None,
            threshold: int | None, out: Path | None, observations: bool, workers: int, as_json: bool,
            as_csv: bool, plot: Path | None, progress: bool | None, quiet: bool, cluster: str | None = None) -> None:
    """Play whole games (--games) or one-round experiments (--rounds N) and print a summary:
    points per round, bust rate, Flip 7 rate and cards per round, each with its 95% interval, their
    distributions, the win rate by seat, and the throughput.

    Game or round i of a run draws its deck, Dealer, reshuffles and random choices from the seed "SEED:i",
    so the same command gives the same results for any --workers.

    \b
    Examples:
      flip7-spec simulate --games 2000 --policy threshold:25
      flip7-spec simulate -p 1 --option min_players=1 --rounds 100000 --policy threshold-numbers:20
      flip7-spec simulate --solitaire --rounds 20000 --policy threshold-numbers --sweep 10:35 --plot points.png
      flip7-spec simulate -p 3 --policy my_bot.py:decide --policy threshold:20 --policy threshold:25
    """
    if as_json and as_csv:
        fail("--json and --csv print the summary in different forms: choose one")
    if cluster is not None and workers > 1:
        fail("--workers plays on this machine and --cluster on the cluster's workers: choose one")
    one_round = _check_mode(games, rounds, fresh_deck)
    if solitaire:
        if players not in (None, 1):
            fail(f"--solitaire plays one player: drop -p {players} or give -p 1")
        ruleset = _solitaire(ruleset)
    players = players if players is not None else 1 if solitaire else 3
    ruleset = _with_options(ruleset, options)
    specs = _policy_specs(policies, strategy, threshold)
    note_inputs(click.get_current_context(), _policy_files(specs))  # --out and --plot must not overwrite one
    if plot is not None:
        from flip7_spec.simulation.plot import require_matplotlib

        require_matplotlib(plot)
    if players < ruleset.min_players:
        fail(f"ruleset {ruleset.name} needs at least {ruleset.min_players} players, got {players}; "
             + _fewer_players_hint(ruleset, players))
    run = SimulationRun(ruleset=ruleset, players=players, games=rounds if one_round and rounds else games or 1000,
                        seed=seed, threshold=threshold if threshold is not None else 20, out=out,
                        observations=observations, workers=workers, policies=specs, one_round=one_round,
                        cluster=cluster)
    show = False if quiet else progress
    picture = _reserve_plot(plot, out)  # checked and reserved before the first game
    connected: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    if cluster is not None:
        from flip7_spec.cluster import session

        connected = session(cluster)
    try:
        with connected:
            if sweep is not None:
                _sweep(run, sweep, show, as_json, as_csv, picture)
                return
            started = time.perf_counter()
            game_stats, round_stats = run_experiment(run, show, inputs=input_files())
            elapsed = max(time.perf_counter() - started, 1e-9)
            summary = _summary(run, game_stats, round_stats, elapsed)
            if picture is not None:
                from flip7_spec.simulation.plot import plot_distribution

                plot_distribution(summary if one_round else summary["per_round"], picture, _title(run))
    finally:
        if picture is not None:
            picture.discard()  # committed already unless the run stopped early
    if as_json:
        say_json(json.dumps(summary, sort_keys=True))
    elif as_csv:
        _print_csv(csv_rows(round_stats.summary(), specs))
    else:
        _print_text(run, summary, round_stats)
    if plot is not None and not (as_json or as_csv):
        say(f"plot written to      {plot}")


def _policy_files(specs: tuple[str, ...]) -> list[Path]:
    """The source files of the user policies among ``specs`` (``file.py:f``, or the module ``MODULE:f`` names)."""
    files = []
    for spec in user_policies(specs):
        target = spec.rpartition(":")[0]
        found = Path(target) if target.endswith(".py") else module_file(target)
        if found is not None:
            files.append(found)
    return files


def _reserve_plot(plot: Path | None, out: Path | None) -> Output | None:
    """The ``--plot`` file, checked and reserved (see :mod:`flip7_spec.outputs`); None without ``--plot``."""
    if plot is None:
        return None
    outputs = [("--plot", plot)] + ([("--out", out)] if out is not None else [])
    check_distinct(outputs, input_files())
    return Output.reserve(plot, "--plot")


def _print_csv(rows: list[dict[str, Any]]) -> None:
    for line in to_csv(rows).splitlines():
        say(line)


def _fewer_players_hint(ruleset: Ruleset, players: int) -> str:
    """How to play ``players`` anyway: the presets of the same game made for that many, if any, and the
    option that lowers the minimum."""
    fits = [name for name in preset_names() if (other := preset(name)).game == ruleset.game
            and other.min_players <= players <= (other.max_players or players)]
    seats = f"{players} player{'s' if players != 1 else ''}"
    allowed = f"--ruleset {' or --ruleset '.join(fits)}, which allow{'s' if len(fits) == 1 else ''} {seats}"
    return (f"use {allowed}, or " if fits else "") + f"add --option min_players={players} for an experiment with fewer"


def _solitaire(ruleset: Ruleset) -> Ruleset:
    from flip7_spec.analysis import solitaire_ruleset

    return solitaire_ruleset(ruleset)


def _check_mode(games: int | None, rounds: int | None, fresh_deck: bool) -> bool:
    """Whether the run plays one-round experiments; a usage error for contradictory options."""
    if rounds is not None and games is not None:
        fail("--games plays whole games and --rounds one-round experiments: choose one")
    if fresh_deck and rounds is None:
        fail("--fresh-deck applies to one-round experiments (each has its own fresh deck): give --rounds N")
    return rounds is not None


def _with_options(ruleset: Ruleset, options: tuple[str, ...]) -> Ruleset:
    changes: dict[str, Any] = {}
    for option in options:
        key, equals, text = option.partition("=")
        if not equals or not key.strip():
            fail(f"--option {option!r}: expected KEY=VALUE, for example min_players=1")
        changes[key.strip()] = _option_value(text.strip())
    return check_ruleset(ruleset.with_options(**changes)) if changes else ruleset


def _option_value(text: str) -> Any:
    """``true``/``false`` as booleans, whole numbers (ASCII digits) as integers, anything else as the text
    itself; a whole number longer than the number limit is refused."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    digits = text.removeprefix("-")
    if digits.isascii() and digits.isdigit():
        if len(digits) > NUMBER_DIGITS.value:
            fail(f"--option {text[:40]}...: a whole number of {len(digits):,} digits is over the limit of "
                 f"{NUMBER_DIGITS.value} digits ({NUMBER_DIGITS.name})")
        return int(text)
    return text


def _policy_specs(policies: tuple[str, ...], strategy: str | None, threshold: int | None) -> tuple[str, ...]:
    if policies and (strategy is not None or threshold is not None):
        fail("--policy replaces --strategy and --threshold: give the threshold in the spec (threshold:25)")
    if policies:
        return policies
    if strategy == "random":
        if threshold is not None:
            fail("--threshold applies to --strategy threshold, not random")
        return ("random",)
    return (f"threshold:{threshold if threshold is not None else 20}",)


def _summary(run: SimulationRun, game_stats: Stats, round_stats: RoundStats, elapsed: float) -> dict[str, Any]:
    head: dict[str, Any] = {
        "ruleset": run.ruleset.name, "players": run.players, "policies": list(run.policy_specs),
        "strategy": run.policy_specs[0] if len(run.policy_specs) == 1 else "per seat",
        "seed": run.seed, "workers": run.workers, "seconds": round(elapsed, 3),
        "options": _changed_options(run.ruleset),
    }
    if run.out is not None:
        head["out"] = str(run.out)
    if run.cluster is not None:
        head["cluster"] = run.cluster
    win_rates = game_stats.summary()["win_rate_by_seat"]
    if run.one_round:
        return {**head, "mode": "rounds", "fresh_deck": True, **round_stats.summary(),
                "win_rate_by_seat": win_rates, "rounds_per_second": round(round_stats.rounds / elapsed, 1)}
    return {**head, "mode": "games", **game_stats.summary(), "per_round": round_stats.summary(),
            "games_per_second": round(game_stats.games / elapsed, 1),
            "rounds_per_second": round(game_stats.rounds / elapsed, 1)}


def _changed_options(ruleset: Ruleset) -> dict[str, Any]:
    from flip7_spec.rulesets import preset

    try:
        base = preset(ruleset.base).options()
    except Exception:  # a base that is no preset: report nothing rather than guess
        return {}
    return {k: v for k, v in ruleset.options().items() if base.get(k) != v}


def _title(run: SimulationRun) -> str:
    policies = ", ".join(run.policy_specs)
    unit = f"{run.games} one-round experiments" if run.one_round else f"{run.games} games"
    return f"{run.ruleset.name}, {run.players} player{'s' if run.players > 1 else ''}, {policies}: {unit}"


def _print_text(run: SimulationRun, summary: dict[str, Any], round_stats: RoundStats) -> None:
    changed = summary["options"]
    options = f" ({', '.join(f'{k}={v}' for k, v in changed.items())})" if changed else ""
    policies = ", ".join(run.policy_specs)
    say(f"ruleset {run.ruleset.name}{options}, {run.players} player{'s' if run.players > 1 else ''}, "
        f"policy {policies}, seed {run.seed}")
    if run.one_round:
        say(f"rounds               {summary['rounds']} one-round experiments, each on a fresh deck")
        for line in round_lines(summary, run.policy_specs):
            say(line)
        say(f"throughput           {summary['rounds_per_second']} rounds/s ({_workers(run)}, "
            f"{summary['seconds']} s)")
        return
    say(f"games                {summary['games']}")
    say(f"rounds               {summary['rounds']} ({summary['mean_rounds_per_game']} per game)")
    say(f"decisions            {summary['decisions']}")
    for line in round_lines(summary["per_round"], run.policy_specs):
        say(line)
    say(f"rounds ending on a Flip 7  {summary['flip7_rate']:.2%}")
    rates = "  ".join(f"{seat}:{rate:.1%}" for seat, rate in enumerate(summary["win_rate_by_seat"]))
    say(f"win rate by seat     {rates}")
    if run.out is not None:
        say(f"traces written to    {run.out}")
    say(f"throughput           {summary['games_per_second']} games/s, "
        f"{summary['rounds_per_second']} rounds/s ({_workers(run)}, {summary['seconds']} s)")


def _workers(run: SimulationRun) -> str:
    if run.cluster is not None:
        return f"cluster {run.cluster}"
    return f"{run.workers} worker{'s' if run.workers > 1 else ''}"


def _sweep(run: SimulationRun, sweep: str, show: bool | None, as_json: bool, as_csv: bool,
           plot: Output | None) -> None:
    """The run once per parameter value of its one parameterised policy, on the same decks (same seed)."""
    if len(run.policy_specs) != 1 or (family := sweep_family(run.policy_specs[0])) is None:
        fail("--sweep needs exactly one --policy that takes a parameter: threshold, threshold-numbers or cards "
             "(the sweep sets N), or MODULE:CALLABLE whose callable takes it as a second argument")
    if run.out is not None:
        fail("--sweep plays many runs: it writes no traces (drop --out)")
    values = _sweep_values(sweep)
    GAMES.check(run.games * len(values), f"--sweep {sweep}: {len(values)} values of {run.games:,} "
                + ("rounds" if run.one_round else "games"))
    rows: list[dict[str, Any]] = []
    csv_lines: list[dict[str, Any]] = []
    for value in values:
        spec = f"{family}:{value}"
        _, round_stats = run_experiment(replace(run, policies=(spec,)), show, inputs=input_files())
        summary = round_stats.summary()
        rows.append({"value": value, "policy": spec, **summary})
        csv_lines.extend(csv_rows(summary, (spec,), value))
    if plot is not None:
        from flip7_spec.simulation.plot import plot_sweep

        plot_sweep(rows, family, plot, _title(replace(run, policies=(f"{family}:{values[0]}..{values[-1]}",))))
    if as_json:
        say_json(json.dumps({"ruleset": run.ruleset.name, "players": run.players, "seed": run.seed,
                             "mode": "rounds" if run.one_round else "games", "sweep": rows}, sort_keys=True))
        return
    if as_csv:
        _print_csv(csv_lines)
        return
    unit = "one-round experiments" if run.one_round else "games"
    say(f"ruleset {run.ruleset.name}, {run.players} player{'s' if run.players > 1 else ''}, "
        f"{run.games} {unit} per value, seed {run.seed} (the same decks for every value)")
    width = max(18, len(family))
    say(f"{family:>{width}}  points per round [95%]     bust rate   Flip 7   cards")
    best = max(rows, key=lambda row: row["points_per_round"]["mean"])
    for row in rows:
        points = row["points_per_round"]
        low, high = points["ci95"]
        mark = "  <- best mean" if row is best else ""
        say(f"{row['value']:>{width}}  {points['mean']:6.2f} [{low:6.2f}, {high:6.2f}]   "
            f"{row['bust_rate']['rate']:>8.1%}  {row['flip7_rate']['rate']:>6.1%}  "
            f"{row['cards_per_round']['mean']:5.2f}{mark}")
    if plot is not None:
        say(f"plot written to {plot.path}")


def _sweep_values(sweep: str) -> list[int]:
    parts = sweep.split(":")
    if len(parts) not in (2, 3) or not all(p.isascii() and p.isdigit() and len(p) <= NUMBER_DIGITS.value
                                           for p in parts):
        fail(f"--sweep {sweep!r}: expected FROM:TO or FROM:TO:STEP with whole numbers, for example 10:35")
    start, stop = int(parts[0]), int(parts[1])
    step = int(parts[2]) if len(parts) == 3 else 1
    if step < 1 or stop < start:
        fail(f"--sweep {sweep!r}: expected FROM <= TO and a STEP of at least 1")
    count = (stop - start) // step + 1  # counted before any list is made: 0:100000000 costs nothing
    if count > SWEEP_VALUES.value:
        fail(f"--sweep {sweep!r}: {show_number(count)} values is over the limit of {SWEEP_VALUES.text} "
             f"({SWEEP_VALUES.name})")
    return list(range(start, stop + 1, step))
