"""docs/readings.md: every reading of every game's official preset, with the smallest game that tells it
apart from the preset, as ``flip7-spec diff --readings-doc`` writes it (the same settings give the same file:
the searches count games, not seconds, and draw from fixed seeds)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

from flip7_spec.registry import game_definition, game_names
from flip7_spec.rulesdiff.every import ReadingDiff, every_reading, outcome
from flip7_spec.rulesdiff.exhaustive import Found
from flip7_spec.rulesdiff.run import DiffResult, Settings
from flip7_spec.rulesdiff.sides import clause_text
from flip7_spec.rulesets import Ruleset, preset

DOC_BUDGET = 40_000
"""The budget of each reading's diff in docs/readings.md (``--readings-doc`` without ``--budget``)."""


def doc_settings(budget: int | None = None, seed: str = "diff") -> Settings:
    """The settings docs/readings.md is written with."""
    return Settings(budget=DOC_BUDGET if budget is None else budget, seed=seed)


def _code(text: str) -> str:
    return f"`{text}`"


def _cards(cards: tuple[str, ...] | list[str]) -> str:
    return " ".join(cards) or "(none)"


def game_lines(found: Found, own_target: int) -> Iterator[str]:
    """A game in a few lines of Markdown: the setup, the decisions, the reshuffles, the first difference."""
    game, split = found.game, found.split
    target = own_target if game.target is None else game.target
    deck = "a custom deck" if game.composition is not None else "the preset's deck"
    yield (f"{game.players} players, Dealer seat {game.dealer}, target score {target}, {deck} of "
           f"{len(game.deck)} cards, top first: {_code(_cards(game.deck))}")
    choices = ", ".join(json.dumps(c) for c in game.choices) or "none"
    yield f"decisions: {choices}"
    if game.orders:
        yield "reshuffles: " + "; ".join(_code(_cards(o)) for o in game.orders)
    at = "at the start" if split.decisions == 0 else f"after decision {split.decisions}"
    if split.fields:
        shown = [f"{_code(d.where())}: {json.dumps(d.expected)} / {json.dumps(d.found)}" for d in split.fields[:4]]
        more = f" (and {len(split.fields) - 4} more)" if len(split.fields) > 4 else ""
        yield f"first difference {at} (the preset / the reading): {'; '.join(shown)}{more}"
    else:
        yield f"first difference {at}: {split.message}"


def _how(result: DiffResult) -> str:
    by = {"exhaustive": "the exhaustive search", "aimed": "an aimed game", "hypothesis": "a game drawn by Hypothesis"}
    shrunk = ", shrunk" if result.shrunk is not None else ""
    return f"found by {by.get(result.found_by, result.found_by)}{shrunk}: {result.minimal_within()}"


def reading_lines(base: Ruleset, row: ReadingDiff) -> Iterator[str]:
    """The entry of ``row`` in docs/readings.md: its heading, clause, smallest game (or what was searched,
    and when it matters), and the command that shows it."""
    reading = row.reading
    kind = f"option {reading.option}" if reading.option else "misreading"
    yield f"### {reading.text}"
    yield ""
    yield f"{kind}, [{clause_text(reading.clause)}]: {reading.description}."
    yield ""
    result = row.result
    found = result.game
    command = f"flip7-spec diff {base.name} -R {reading.text}"
    if found is not None:
        yield f"Smallest game: **{found.game.size()}** ({_how(result)})."
        yield ""
        yield from (f"- {line}" for line in game_lines(found, result.sides.own_target))
    else:
        yield f"**No observable difference** {outcome(row)[len('no difference '):]}."
        if result.covered is not None and result.bound is not None:
            yield ""
            yield (f"Searched: {result.bound.describe(result.sides.own_target, max(result.covered.levels, 0))}, "
                   f"{result.covered.games:,} games; then {result.tried.aimed:,} aimed games and "
                   f"{result.tried.drawn:,} games drawn by Hypothesis. A bound, not a proof.")
        if result.events_only is not None:
            yield ""
            yield (f"The difference lives in the events only: they differ on a game of "
                   f"{result.events_only.game.size()} (`{command} --level events` shows it).")
        if row.matters is not None:
            setting, other = row.matters
            assert other.game is not None
            yield ""
            yield (f"It matters once {_code(setting)} is set on both sides: then the smallest game is "
                   f"**{other.game.game.size()}**:")
            yield ""
            yield from (f"- {line}" for line in game_lines(other.game, other.sides.own_target))
        elif reading.option is not None:
            yield ""
            yield "No other option value set on both sides made a difference show within the same bound."
    yield ""
    yield f"`{command}` shows it."
    yield ""


def write_readings_doc(settings: Settings, workers: int = 1, done: Callable[[str], None] | None = None) -> str:
    """The text of docs/readings.md (see the module's description); ``done`` hears of each reading diffed."""
    lines = [
        "# The readings and why each one matters",
        "",
        "Every reading of each game's official preset (each other value of each option with a list of values,",
        "and each misreading of the game's catalogue: what `conform` diagnoses), with the smallest game found",
        "that tells it apart from the preset: a setup (players, Dealer, target score, a deck top first), the",
        "decisions, the reshuffle orders, and the first field that differs (the preset's value / the",
        "reading's). Smallest means fewest decisions, then fewest players, then the smallest deck; each entry",
        "says against which games it is smallest. A reading with no difference found says what was searched:",
        "a bound, not a proof for all games.",
        "",
        f"Generated by `flip7-spec diff --readings-doc docs/readings.md` (a budget of {settings.budget:,} games",
        f"per reading, seed `{settings.seed}`); `tests/test_rulesdiff.py` checks that regenerating it gives",
        "the same file. Regenerate it when a reading is added.",
        "",
    ]
    for name in game_names():
        definition = game_definition(name)
        base = preset(definition.presets[0][0])
        rows = every_reading(base, settings, workers,
                             done=(lambda row: done(f"{row.reading.text}")) if done is not None else None)
        lines.append(f"## {definition.title}: against `{base.name}`")
        lines.append("")
        lines.append("| reading | clause | smallest game that tells it apart |")
        lines.append("|---|---|---|")
        lines.extend(table_row(row) for row in rows)
        lines.append("")
        for row in rows:
            lines.extend(reading_lines(base, row))
    return "\n".join(lines).rstrip() + "\n"


def table_row(row: ReadingDiff) -> str:
    """The line of ``row`` in a game's table: the reading (a link to its entry), its clause, the outcome."""
    return f"| [{row.reading.text}](#{_anchor(row.reading.text)}) | {row.reading.clause} | {outcome(row)} |"


def _anchor(text: str) -> str:
    """The anchor GitHub gives a heading."""
    return "".join(ch for ch in text.lower().replace(" ", "-") if ch.isalnum() or ch in "-_")
