"""The rules diff: the smallest game on which the reference under two rulesets first differs, or a bounded
search that found none (``flip7-spec diff``).

Two rulesets of one game are the *sides* (:mod:`.sides`: presets, ruleset files or fingerprints, with
readings added on either side). A *game* is a setup (players, Dealer, a deck top first, a custom deck and a
target score both sides take) with its decisions and reshuffle orders; :mod:`.lockstep` plays it under both
sides at once and finds where their observations (or events) first differ. The search, in
:func:`.run.diff`:

1. every game within a bound, smallest first (:mod:`.exhaustive`): fewest decisions, then fewest players,
   then the smallest deck, the deck and the reshuffle orders chosen only as far as the game draws them;
2. aimed games and games drawn by Hypothesis (:mod:`.hunt`), on whole and small decks;
3. shrinking what they found (:mod:`.minimise`): step by step, then every smaller game of its card types.

:mod:`.report` shows the result as ``show`` shows a trace; :mod:`.every` diffs every reading of a ruleset's
game against it (``diff --all``), and :mod:`.readings_doc` writes docs/readings.md from that. Every search
counts games, not seconds, and draws from fixed seeds: the same budget gives the same answer anywhere.
"""

from flip7_spec.rulesdiff.run import DiffResult, Settings, default_bound, diff
from flip7_spec.rulesdiff.sides import Sides, with_readings

__all__ = ["DiffResult", "Settings", "Sides", "default_bound", "diff", "with_readings"]
