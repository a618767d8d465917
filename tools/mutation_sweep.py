"""A mutation sweep of the reference: small, realistic bugs in the rule and comparison code, applied one at a
time to a temporary copy of the repository, each run against a fast subset of the test suite.

A mutant is *killed* when the subset fails (or runs past ``--timeout``), and *survives* when it passes: a
survivor is a place where the tests would not notice that bug. The score is killed / run. Results and
survivors of the last recorded run are in docs/properties.md.

Run it from the repository root, with the project's test dependencies installed::

    python tools/mutation_sweep.py                 # every mutation, the default subset (minutes)
    python tools/mutation_sweep.py --list          # the mutations, by id
    python tools/mutation_sweep.py --only compare-numbers-loose runner-round-one-step-more
    python tools/mutation_sweep.py --tests tests/test_fixtures.py   # another subset
    python tools/mutation_sweep.py --source /tmp/old-checkout --json sweep.json

It is not part of the default test run. ``--source`` sweeps another checkout (an older commit, say); a
mutation whose text is not found there is reported ``n/a`` and left out of the score.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The fast subset: the hand-derived tests of the rules and of the comparison, the differential properties
# (against the JavaScript engine when node is present) and conform against the broken and mutant engines.
# The golden fixtures and generated-game suites are left out on purpose: what only they catch is a gap in
# the direct tests.
DEFAULT_TESTS = (
    "tests/test_official_constants.py",
    "tests/test_flip7_actions.py",
    "tests/test_scoring.py",
    "tests/test_exact_comparison.py",
    "tests/test_protocol.py::test_score_gives_the_printed_totals_of_the_official_examples",
    "properties/test_differential.py",
)


@dataclass(frozen=True)
class Mutation:
    """One bug: in ``path``, the text ``before`` (which must occur exactly once) becomes ``after``."""

    id: str
    path: str
    before: str
    after: str
    note: str


F7_ENGINE = "flip7_spec/games/flip7/engine.py"
F7_SCORING = "flip7_spec/games/flip7/scoring.py"
F7_RULESET = "flip7_spec/games/flip7/ruleset.py"
COMPARE = "flip7_spec/trace/compare.py"
REPLAY = "flip7_spec/trace/replay.py"
RUNNER = "flip7_spec/judge/runner.py"
MACHINE = "flip7_spec/machine.py"

MUTATIONS: tuple[Mutation, ...] = (
    # ---- comparison -------------------------------------------------------------------------------------
    Mutation("compare-numbers-loose", COMPARE, "    if type(expected) is not type(found):\n",
             "    if type(expected) is not type(found) and not (isinstance(expected, int | float) and\n"
             "                                                  isinstance(found, int | float)):\n",
             "numbers compared by value: 1, 1.0 and true are the same"),
    Mutation("compare-extra-keys-ignored", COMPARE, "        for key in _key_order({**expected, **found}):\n"
             "            sub = first_difference(", "        for key in _key_order(expected):\n"
             "            sub = first_difference(", "keys only the found object has are not looked at"),
    Mutation("compare-extra-elements-ignored", COMPARE, "        for index in range(max(len(expected), len(found))):\n"
             "            left = expected[index] if index < len(expected) else _MISSING\n"
             "            right = found[index] if index < len(found) else _MISSING\n            sub = ",
             "        for index in range(min(len(expected), len(found))):\n"
             "            left = expected[index] if index < len(expected) else _MISSING\n"
             "            right = found[index] if index < len(found) else _MISSING\n            sub = ",
             "elements past the shorter array are not looked at"),
    Mutation("compare-step-python-equality", COMPARE, "    if same_json(expected, found):\n"
             "        return None\n    return first_difference(", "    if expected == found:\n        return None\n"
             "    return first_difference(", "a step's fast path by Python equality (1 == 1.0 == True)"),
    Mutation("compare-types-unchecked", COMPARE, "            return bool(orjson.dumps(expected, option=_SORTED) == "
             "orjson.dumps(found, option=_SORTED))", "            return True",
             "values equal in Python are the same JSON (1 == 1.0 == True)"),
    Mutation("compare-no-root-fallback", COMPARE, "return first_difference(expected, found) or Difference((), "
             "expected, found)", "return first_difference(expected, found)",
             "a step whose JSON differs but whose difference is not located passes"),
    Mutation("blame-total-swapped", COMPARE, "Role.SCORE if \"round_end\" in kinds else Role.BANK",
             "Role.BANK if \"round_end\" in kinds else Role.SCORE", "a totals difference blames the wrong clause"),
    Mutation("blame-dealer-as-round-end", COMPARE, "return game.clause_of(Role.DEALER_ROTATION)",
             "return game.clause_of(Role.ROUND_END)", "a Dealer difference blames the round's end"),
    Mutation("replay-observation-python-equality", REPLAY,
             "difference = step_difference(expected, recorded[\"observation\"])",
             "difference = None if expected == recorded[\"observation\"] else step_difference(expected, "
             "recorded[\"observation\"])", "replay passes an observation equal by Python equality"),
    Mutation("replay-events-python-equality", REPLAY, "difference = step_difference(comparable, found_events)",
             "difference = None if comparable == found_events else step_difference(comparable, found_events)",
             "replay passes events equal by Python equality"),
    Mutation("replay-scores-python-equality", REPLAY,
             "difference = step_difference(expected_scores, recorded[\"scores\"])",
             "difference = None if expected_scores == recorded[\"scores\"] else step_difference(expected_scores, "
             "recorded[\"scores\"])", "replay passes scores equal by Python equality (10.0 for 10)"),
    Mutation("runner-step-python-equality", RUNNER,
             "difference = step_difference(strip_options(expected), strip_options(found))",
             "difference = None if strip_options(expected) == strip_options(found) else step_difference("
             "strip_options(expected), strip_options(found))", "conform passes a step equal by Python equality"),
    Mutation("runner-score-python-equality", RUNNER, "if step_difference(case.expected, found) is None:",
             "if found == case.expected:", "a scoring case passes 72.0 for 72"),
    Mutation("runner-round-one-step-more", RUNNER, "return round_end + 1, round_end", "return round_end + 2, round_end",
             "a round case compares the step after its round too"),
    Mutation("runner-round-compares-all", RUNNER, "at_round_end = round_end is not None and step == round_end",
             "at_round_end = False", "a round case compares the next round's deal at its last step"),
    Mutation("differential-python-equality", "flip7_spec/testing/differential.py",
             "difference = step_difference(left, right)",
             "difference = None if left == right else step_difference(left, right)",
             "the differential machine passes values equal by Python equality"),
    # ---- official constants -----------------------------------------------------------------------------
    Mutation("target-150", "flip7_spec/rulesets.py", "    target_score: int = 200\n",
             "    target_score: int = 150\n", "the official target changed"),
    Mutation("bonus-20", "flip7_spec/rulesets.py", "    flip7_bonus: int = 15\n", "    flip7_bonus: int = 20\n",
             "the Flip 7 bonus changed"),
    Mutation("min-players-2", "flip7_spec/rulesets.py", "    min_players: int = 3\n", "    min_players: int = 2\n",
             "two players allowed by default"),
    Mutation("deck-two-zeros", F7_RULESET, "    (\"0\", 1),\n", "    (\"0\", 2),\n", "a second 0 in the deck"),
    Mutation("deck-no-twelves", F7_RULESET, "for v in range(1, 13)", "for v in range(1, 12)", "no 12s"),
    Mutation("deck-two-freezes", F7_RULESET, "(\"FREEZE\", 3)", "(\"FREEZE\", 2)", "one Freeze too few"),
    Mutation("game-end-strictly-above", MACHINE, "        if top >= ruleset.target_score:\n",
             "        if top > ruleset.target_score:\n", "a total of exactly the target does not end the game"),
    Mutation("printed-example-from-reference", "flip7_spec/conformance/cases.py",
             "expected = example.printed if same_scoring and not ruleset.deviations else _score(ruleset, hand)",
             "expected = _score(ruleset, hand) + (example.printed - example.printed)",
             "worked examples take their score from the reference, not the rule book"),
    Mutation("printed-example-wrong", "flip7_spec/games/flip7/play.py", "\"3 11 5 7 10 9 4\", 64,",
             "\"3 11 5 7 10 9 4\", 63,", "the printed figure of the Flip 7 example mistyped"),
    # ---- scoring -----------------------------------------------------------------------------------------
    Mutation("x2-doubles-adds", F7_SCORING, "    multiplied = number_sum * multiplier\n"
             "    with_modifiers = multiplied + adds\n", "    multiplied = number_sum * multiplier\n"
             "    with_modifiers = (number_sum + adds) * multiplier\n", "x2 doubles the + cards too"),
    Mutation("bonus-at-six", F7_SCORING, "bonus = ruleset.flip7_bonus if distinct >= FLIP7_SIZE else 0",
             "bonus = ruleset.flip7_bonus if distinct >= FLIP7_SIZE - 1 else 0", "the bonus for six Numbers"),
    Mutation("check-hand-frozen-seven", F7_SCORING, "    if held[\"FREEZE\"] and len(values) >= FLIP7_SIZE:\n",
             "    if False:\n", "check_hand accepts a frozen player with seven Numbers"),
    # ---- Flip Three ----------------------------------------------------------------------------------------
    Mutation("flip3-two-cards", F7_ENGINE, "        self.remaining = 3\n", "        self.remaining = 2\n",
             "a Flip Three of two cards"),
    Mutation("flip3-no-stop-on-bust", F7_ENGINE, "        if self.remaining and player.status is ACTIVE:\n",
             "        if self.remaining and player.status is not FROZEN:\n", "a bust does not stop the Flip Three"),
    Mutation("flip3-actions-at-once", F7_ENGINE,
             "            if flip3 is not None:\n                # [F7-FLIP3-SETASIDE]",
             "            if False:\n                # [F7-FLIP3-SETASIDE]",
             "a Freeze in a Flip Three takes effect at once"),
    Mutation("setaside-kept-after-bust", F7_ENGINE,
             "        if player.status is ACTIVE:\n            # [F7-FLIP3-SETASIDE]",
             "        if player.status is not FROZEN:\n            # [F7-FLIP3-SETASIDE]",
             "set-aside cards of a busted target are still assigned"),
    Mutation("flip3-discarded-late", F7_ENGINE, "if assigning and ruleset.flip3_card_discard == \"after_set_aside\":",
             "if assigning:", "the Flip Three card stays in play while its set-aside cards are resolved"),
    Mutation("assign-inactive-kept", F7_ENGINE, "        if game.players[seat].status is not ACTIVE:\n"
             "            # [F7-FLIP3-ASSIGN-INACTIVE]", "        if False:\n            # [F7-FLIP3-ASSIGN-INACTIVE]",
             "an assigned Freeze reaches a player already out"),
    # ---- Freeze ----------------------------------------------------------------------------------------------
    Mutation("freeze-as-stay", F7_ENGINE, "            self._set_status(seat, FROZEN)\n",
             "            self._set_status(seat, STAYED)\n", "a Freeze makes the player stayed, not frozen"),
    Mutation("freeze-card-discarded", F7_ENGINE, "            self.players[seat].cards.append(action)\n",
             "            self.discard.append(action)\n", "the Freeze card goes to the discard pile at once"),
    Mutation("freeze-not-alone-forced", F7_ENGINE, "        if len(options) == 1:\n            game._forced(decision, "
             "\"F7-ACTION-ALONE\")\n        else:\n            game._ask(decision)\n\n    def decide(self, game: "
             "Flip7Game, choice: Choice) -> None:\n        game._stack.pop()\n        game._emit(\"target\"",
             "        game._ask(decision)\n\n    def decide(self, game: Flip7Game, choice: Choice) -> None:\n"
             "        game._stack.pop()\n        game._emit(\"target\"", "a lone player is asked for a target"),
    Mutation("stalled-ignores-freeze", F7_ENGINE, " or c.kind is FREEZE for c in self.discard",
             " for c in self.discard", "the stalled-round check ignores a Freeze"),
    # ---- Second Chance -----------------------------------------------------------------------------------
    Mutation("chance-kept-after-use", F7_ENGINE, "                    player.has_chance = False\n"
             "                    self.discard.append(drawn)\n", "                    self.discard.append(drawn)\n",
             "a used Second Chance still counts as held"),
    Mutation("chance-replacement-anywhere", F7_ENGINE,
             "if via == \"hit\" and not self.ruleset.second_chance_ends_turn:",
             "if via != \"flip3\" and not self.ruleset.second_chance_ends_turn:",
             "a replacement card after a Second Chance on a deal card too"),
    Mutation("chance-replacement-always", F7_ENGINE,
             "if via == \"hit\" and not self.ruleset.second_chance_ends_turn:", "if via == \"hit\":",
             "a replacement card whatever the option"),
    Mutation("chance-give-to-holder", F7_ENGINE, "if s != self.giver and not game.players[s].has_chance)",
             "if s != self.giver)", "a spare Second Chance may go to a player holding one"),
    # ---- deal, turns, Flip 7 -------------------------------------------------------------------------------
    Mutation("deal-turn-always-dealt", F7_ENGINE,
             "if player.cards and game.ruleset.deal_after_flip3_cards == \"hit_or_stay\":",
             "if False:", "a player holding cards at their deal turn is dealt anyway"),
    Mutation("deal-turn-hit-is-a-hit", F7_ENGINE, "game._deal_to(seat, \"deal\" if self.dealing else \"hit\"",
             "game._deal_to(seat, \"hit\"", "a Hit chosen at the deal turn counts as a Hit, not the deal card"),
    Mutation("stay-without-cards", F7_ENGINE, "        if players[seat].cards:\n            game._ask",
             "        if True:\n            game._ask", "Stay offered with nothing in front of you"),
    Mutation("flip7-at-eight", F7_ENGINE,
             "            if len(player.values) >= FLIP7_SIZE:\n                # [F7-FLIP7]",
             "            if len(player.values) > FLIP7_SIZE:\n                # [F7-FLIP7]",
             "seven Numbers do not end the round"),
    Mutation("dealer-stays", MACHINE, "        self.dealer = (self.dealer + 1) % self.n\n", "",
             "the Dealer never changes"),
    Mutation("turns-start-at-dealer", MACHINE,
             "first = self.dealer if self.ruleset.deal_start == \"dealer\" else self.dealer + 1",
             "first = self.dealer", "turns start with the Dealer"),
)


@dataclass
class Outcome:
    mutation: Mutation
    verdict: str  # killed, survived, timeout, n/a
    seconds: float
    detail: str = ""


def copy_tree(source: Path, target: Path) -> None:
    """The files a checkout tracks (or, outside git, everything but caches and virtual environments)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=source, capture_output=True)
    if listed.returncode == 0 and listed.stdout:
        names = [n for n in listed.stdout.decode().split("\0") if n]
        for name in names:
            if (source / name).is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source / name, target / name)
        return
    shutil.copytree(source, target, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".git", "__pycache__", ".venv", "*.egg-info", ".hypothesis"))


def run_tests(tree: Path, tests: list[str], timeout: float) -> tuple[str, str]:
    """``killed`` / ``survived`` / ``timeout`` for the subset run in ``tree``, and the last lines of its output."""
    env = {**os.environ, "PYTHONPATH": str(tree), "FLIP7_SPEC_CACHE_DIR": str(tree / ".sweep-cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-m", "not slow", *tests]
    try:
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"no result within {timeout:g} s"
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-3:])
    if done.returncode == 0:
        return "survived", tail
    if done.returncode in (1, 3):  # tests failed, or an internal error a mutant caused (an import, say)
        return "killed", tail
    raise SystemExit(f"pytest could not run the subset (exit {done.returncode}):\n{tail}")


def sweep(source: Path, mutations: list[Mutation], tests: list[str], timeout: float) -> list[Outcome]:
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="flip7-mutation-sweep-") as folder:
        tree = Path(folder)
        copy_tree(source, tree)
        present = [t for t in tests if (tree / t.split("::")[0]).exists()]
        started = time.monotonic()
        verdict, tail = run_tests(tree, present, timeout)
        if verdict != "survived":
            raise SystemExit(f"the subset fails without any mutation; fix that first:\n{tail}")
        print(f"unmutated subset passes ({time.monotonic() - started:.0f} s): {' '.join(present)}", flush=True)
        for mutation in mutations:
            path = tree / mutation.path
            original = path.read_text(encoding="utf-8") if path.is_file() else ""
            if original.count(mutation.before) != 1:
                outcomes.append(Outcome(mutation, "n/a", 0.0, "the text to mutate is not found exactly once"))
                print(f"  n/a       {mutation.id}", flush=True)
                continue
            path.write_text(original.replace(mutation.before, mutation.after), encoding="utf-8")
            started = time.monotonic()
            try:
                verdict, tail = run_tests(tree, present, timeout)
            finally:
                path.write_text(original, encoding="utf-8")
            outcome = Outcome(mutation, verdict, time.monotonic() - started, tail)
            outcomes.append(outcome)
            print(f"  {verdict:9} {mutation.id} ({outcome.seconds:.0f} s)", flush=True)
    return outcomes


def summary(outcomes: list[Outcome]) -> str:
    ran = [o for o in outcomes if o.verdict != "n/a"]
    killed = [o for o in ran if o.verdict in ("killed", "timeout")]
    survivors = [o for o in ran if o.verdict == "survived"]
    lines = [f"{len(killed)}/{len(ran)} mutants killed ({100 * len(killed) / max(len(ran), 1):.1f}%)"
             + (f", {len(outcomes) - len(ran)} not applicable" if len(ran) < len(outcomes) else "")]
    lines += [f"survived: {o.mutation.id} ({o.mutation.path}): {o.mutation.note}" for o in survivors]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--only", nargs="+", metavar="ID", help="run only these mutations")
    parser.add_argument("--tests", nargs="+", metavar="TEST", help="the test subset (default: %(default)s)",
                        default=list(DEFAULT_TESTS))
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to mutate (default: this one)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant before it counts as "
                        "killed by a timeout (default: %(default)s)")
    parser.add_argument("--json", type=Path, help="write every outcome to this file")
    args = parser.parse_args(argv)
    if args.list:
        for m in MUTATIONS:
            print(f"{m.id:36} {m.path}: {m.note}")
        return 0
    chosen = list(MUTATIONS)
    if args.only:
        unknown = set(args.only) - {m.id for m in MUTATIONS}
        if unknown:
            parser.error(f"unknown mutation ids: {' '.join(sorted(unknown))}")
        chosen = [m for m in MUTATIONS if m.id in args.only]
    outcomes = sweep(args.source.resolve(), chosen, args.tests, args.timeout)
    print(summary(outcomes))
    if args.json is not None:
        args.json.write_text(json.dumps([{"id": o.mutation.id, "path": o.mutation.path, "note": o.mutation.note,
                                          "verdict": o.verdict, "seconds": round(o.seconds, 1), "detail": o.detail}
                                         for o in outcomes], indent=1) + "\n", encoding="utf-8")
    return 0 if all(o.verdict != "survived" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
