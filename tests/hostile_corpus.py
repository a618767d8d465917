"""The hostile-input corpus: every kind of input that once hung flip7-spec, ran it out of memory, crashed it
with a traceback, lost or corrupted a file or gave a wrong verdict, written into a folder by
:func:`build` (nothing of it is checked in), each with the exit code it must end with.

Run ``python -m tests.hostile_corpus FOLDER`` to write the inputs and print each item's command, to try
them by hand. ``tests/test_hostile.py`` runs every item with a 10 s limit and measures its memory.

Every item names the problem it stands for (``covers``). The game engine's items (endless rulesets and
play, checked reshuffle orders, rejected calls) are made with :func:`engine_item`.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ENGINES = REPO / "tests" / "broken_engines"
MIB = 1024 * 1024


@dataclass(frozen=True)
class Ran:
    """What an item did: exit code, output, wall-clock seconds and peak memory (resident set, bytes)."""

    code: int | None
    stdout: bytes
    stderr: bytes
    seconds: float
    peak_bytes: int
    folder: Path

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", "replace")

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "replace")


Check = Callable[[Ran], None]


@dataclass(frozen=True)
class Item:
    """One hostile input: the command that feeds it to flip7-spec, and what must come of it."""

    id: str
    covers: str
    command: tuple[str | bytes, ...]
    expect: tuple[int, ...] = (2,)
    stdin: bytes = b""
    check: Check | None = None
    one_line: bool = True
    """Exit 2 must come with exactly one line on stderr (False where the command reports per trace on
    stdout, as ``replay`` does)."""
    slow: bool = False
    seconds: float = 10.0
    """The time the item has to end in (every item: 10 s; the game engine's items less, see ``engine_item``)."""
    after: Callable[[Path], None] | None = field(default=None, compare=False)
    """Cleanup once the item ran (ends a helper process an engine left on purpose)."""


ENGINE_ITEM_SECONDS = 6.0
"""The game engine's items refuse the ruleset or end the game at once; each ends in about a second."""


def engine_item(id: str, covers: str, command: tuple[str | bytes, ...], expect: tuple[int, ...],
                slow: bool = False) -> Item:
    """An item whose fix belongs to the game engine (see :data:`ENGINE_ITEM_SECONDS`)."""
    return Item(id, covers, command, expect=expect, slow=slow, seconds=ENGINE_ITEM_SECONDS)


def cli(*args: str | bytes) -> tuple[str | bytes, ...]:
    """The command ``flip7-spec ARGS`` (this checkout's, through the running interpreter)."""
    return (sys.executable, "-m", "flip7_spec", *args)


def library(code: str) -> tuple[str, ...]:
    """A Python snippet run against the library: it exits 0 when the library behaves."""
    return (sys.executable, "-c", code)


def engine(name: str, *args: str) -> str:
    """The ``--engine`` command of ``tests/broken_engines/NAME.py``."""
    return shlex.join([sys.executable, str(ENGINES / f"{name}.py"), *args])


QUICK = ("--no-fixtures", "--no-scoring", "-r", "flip7", "--games", "2", "--min-coverage", "0", "--no-progress")
ONE_GAME = ("--no-fixtures", "--no-scoring", "-r", "flip7", "--games", "1", "--min-coverage", "0", "--no-progress")
"""For engines that error every case: each error restarts the engine, so one game (two cases) is enough."""


# ---- the inputs ---------------------------------------------------------------------------------------


def _trace(players: int = 3, seed: int = 1, target: int | None = None) -> dict[str, Any]:
    """A whole recorded game (events and observations), from the reference."""
    from flip7_spec.rulesets import preset, ruleset_from_json
    from flip7_spec.simulation.policies import threshold_policy
    from flip7_spec.simulation.simulate import game_rng, record_game

    ruleset = preset("flip7") if target is None else ruleset_from_json(
        {"base": "flip7", "name": f"to-{target}", "options": {"target_score": target}})
    record = record_game(ruleset, players, threshold_policy(20), game_rng("hostile", seed), observe=True,
                         seed=f"hostile:{seed}", generator="tests.hostile_corpus")
    return record.trace()


def _with_unused_reshuffle(trace: dict[str, Any]) -> dict[str, Any]:
    """The trace with an impossible reshuffle step (cards no pile holds) after its last decision: no decision
    uses it, so it must be reported as a divergence (docs/trace-format.md)."""
    out = json.loads(json.dumps(trace))
    out.pop("footer", None)
    out["steps"].append({"reshuffle": ["12", "12", "12", "12", "12", "12", "12", "12", "12", "12", "12", "12", "12"]})
    return out


def _write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _sparse(path: Path, size: int) -> Path:
    """A file of ``size`` zero bytes that takes no room on disk."""
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def _files(folder: Path) -> None:
    """Write every input file of the corpus into ``folder``."""
    from flip7_spec.trace.canonical import dumps_document, dumps_line

    deep = "[" * 100_000
    shallow_but_deep = '{"base": "flip7", "description": ' + "[" * 100 + "]" * 100 + "}"
    _write(folder, "ruleset-deep.json", deep)
    _write(folder, "ruleset-deep100.json", shallow_but_deep)
    _write(folder, "ruleset-deep.toml", "a = " + "[" * 5_000 + "]" * 5_000 + "\n")
    _write(folder, "ruleset-huge-int.json", '{"base": "flip7", "options": {"target_score": ' + "9" * 5_000 + "}}")
    _write(folder, "ruleset-huge-int.toml", 'base = "flip7"\n[options]\ntarget_score = ' + "9" * 5_000 + "\n")
    _write(folder, "ruleset-long-int.json", '{"base": "flip7", "options": {"target_score": ' + "9" * 25 + "}}")
    _write(folder, "ruleset-nan.json", '{"base": "flip7", "options": {"target_score": NaN}}')
    _write(folder, "ruleset-inf.toml", 'base = "flip7"\ndescription = "x"\n[options]\nflip7_bonus = inf\n')
    _write(folder, "ruleset-latin1.toml", b'base = "flip7"\nname = "caf\xe9"\n')
    _write(folder, "ruleset-latin1.json", b'{"base": "flip7", "name": "caf\xe9"}')
    _write(folder, "ruleset-oversized.json", '{"base": "flip7"}' + " " * MIB)
    _write(folder, "ruleset-copies.toml", 'base = "flip7"\nname = "many"\n[deck]\n"5" = 1000000000\n')
    _write(folder, "ruleset-deck-size.toml", 'base = "flip7"\nname = "big"\n[deck]\n'
           + "".join(f'"{v}" = 1000\n' for v in range(13)))
    _write(folder, "ruleset-long-name.json", json.dumps({"base": "flip7", "name": "n" * MIB}))
    _write(folder, "ruleset-target.toml", 'base = "flip7"\nname = "far"\n[options]\ntarget_score = 1000000000000\n')
    _write(folder, "ruleset-zero-deck.toml", 'base = "flip7"\nname = "zeros"\n[deck]\n"0" = 1\n')
    _write(folder, "ruleset-no-score.toml", 'base = "flip7"\nname = "nothing-scores"\n[deck]\n"0" = 10\n"FREEZE" = 3\n')
    _write(folder, "ruleset-plain.json", '{"base": "flip7", "name": "plain"}')
    for name in ("ruleset-fifo.json", "trace-fifo.json", "trace-fifo.jsonl"):
        os.mkfifo(folder / name)
    for name in ("ruleset-zero.json", "trace-zero.json", "trace-zero.jsonl"):
        (folder / name).symlink_to("/dev/zero")

    good = _trace()
    _write(folder, "trace-good.json", dumps_document(good))
    _write(folder, "trace-deep.json", '{"format": "flip7-trace", "version": 1, "header": ' + deep + "}")
    _write(folder, "trace-deep100.json", '{"format": "flip7-trace", "version": 1, "header": {"provenance": '
           + "[" * 100 + "]" * 100 + "}}")
    huge = '"dealer":' + "1" * 5_000 + ',"x":'
    _write(folder, "trace-huge-int.json", dumps_document(good).replace('"dealer":', huge, 1))
    _write(folder, "trace-latin1.json", dumps_document(good).encode("utf-8").replace(b'"header"', b'"h\xe9ader"', 1))
    _write(folder, "trace-nan.json", dumps_document(good).replace('"choice":"hit"', '"choice":NaN', 1))
    _write(folder, "trace-players.json", json.dumps({"format": "flip7-trace", "version": 1, "header": {
        "ruleset": "flip7", "players": 10_000, "dealer": 0, "deck": ["0"]}, "steps": []}))
    _write(folder, "trace-copies.json", json.dumps({"format": "flip7-trace", "version": 1, "header": {
        "ruleset": {"base": "flip7", "deck": {"5": 999_999_999}}, "players": 3, "dealer": 0, "deck": ["5"]},
        "steps": []}))
    named = json.loads(json.dumps(good))
    named["header"]["names"] = ["x" * MIB, "b", "c"]
    _write(folder, "trace-long-name.json", dumps_document(named))
    escaping = json.loads(json.dumps(good))
    escaping["header"]["names"] = ["\x1b[2J\x1b]0;owned\x07", "\rfake", "\u202eright"]
    escaping["header"]["description"] = "look \x1b[31mred\x1b[0m \x9b2J"
    _write(folder, "trace-escapes.json", dumps_document(escaping))
    _write(folder, "trace-unused-reshuffle.json", dumps_document(_with_unused_reshuffle(good)))
    _write(folder, "corpus-one-bad-line.jsonl", dumps_line(good) + "[" * 100_000 + "\n" + dumps_line(_trace(seed=2)))
    _sparse(folder / "trace-oversized.json", 64 * MIB + 1)
    _sparse(folder / "trace-oversized.jsonl", 64 * MIB + 1)
    _write(folder, "trace-long.json", dumps_document(_trace(target=1_600)))
    _write(folder, "input.json", dumps_document(good))
    _write(folder, "a-file", "not a folder\n")
    (folder / "a-folder").mkdir()

    _write(folder, "engines/nan_reply.py", (
        "import sys\nsys.path.insert(0, " + repr(str(ENGINES)) + ")\n"
        "from _loop import dumps, serve_with\n"
        "def rewrite(request, reply):\n"
        "    if request.get('cmd') == 'decide':\n"
        "        return dumps(reply).replace('\"round\":', '\"round\":NaN,\"x\":', 1)\n"
        "    return dumps(reply)\n"
        "serve_with(rewrite)\n"))
    _write(folder, "engines/marker.py", (
        "import pathlib, sys\npathlib.Path(sys.argv[1]).write_text('started')\n"
        "sys.path.insert(0, " + repr(str(ENGINES)) + ")\n"
        "from _loop import dumps, serve_with\nserve_with(lambda request, reply: dumps(reply))\n"))

    for name, text in (("deep", "description = " + "[" * 5_000 + "]" * 5_000 + "\n"),
                       ("latin1", None)):
        root = folder / f"fixtures-{name}"
        (root / "src" / "flip7").mkdir(parents=True)
        source = root / "src" / "flip7" / "bad.toml"
        if text is None:
            source.write_bytes(b'description = "caf\xe9"\n')
        else:
            source.write_text(text, encoding="utf-8")
    _files_round_two(folder, good)
    stall = folder / "fixtures-stall"
    (stall / "src" / "flip7").mkdir(parents=True)
    (stall / "rulesets").mkdir()
    (stall / "rulesets" / "zeros.toml").write_text('base = "flip7"\nname = "zeros"\n[deck]\n"0" = 1\n',
                                                   encoding="utf-8")
    (stall / "src" / "flip7" / "stall.toml").write_text(
        'description = "a deck of one 0"\nclauses = ["F7-EMPTY-DECK"]\nruleset = "rulesets/zeros.toml"\n'
        'players = 3\ndealer = 0\ntop = ["0"]\ndecisions = []\n', encoding="utf-8")
    listed = folder / "fixtures-list"
    (listed / "src" / "flip7").mkdir(parents=True)
    (listed / "flip7").mkdir()
    (listed / "flip7" / "deep.json").write_text(deep, encoding="utf-8")


CUSTOM = 'base = "flip7"\nname = "custom-bonus"\n[options]\nflip7_bonus = 21\n'
"""A ruleset whose scoring hands are not shipped: conform searches them with z3 and caches them."""
VICTIM = "a file that is not the run's to touch\n"
ENG_PY = ("import sys\nsys.path.insert(0, " + repr(str(ENGINES)) + ")\n"
          "from _loop import dumps, serve_with\nserve_with(lambda request, reply: dumps(reply))\n")
INPROC_PY = "from flip7_spec.protocol.adapter import ReferenceAdapter as Engine\n"


def _cache_entry(folder: Path, name: str) -> Path:
    """Where the cache folder ``FOLDER/NAME`` keeps the hands of :data:`CUSTOM`."""
    from flip7_spec import __version__
    from flip7_spec.conformance.scoring_hands import ruleset_hash
    from flip7_spec.rulesets import load_ruleset

    digest = ruleset_hash(load_ruleset(str(folder / "custom.toml")))
    return folder / name / __version__ / "scoring-hands" / f"{digest}.json"


def _files_round_two(folder: Path, good: dict[str, Any]) -> None:
    """The inputs of the second audit (issue 30)."""
    from flip7_spec.trace.canonical import dumps_document

    # Outputs: a link and a user's file planted at the names an output used to write through.
    _write(folder, "victim.txt", VICTIM)
    (folder / "planted").mkdir()
    (folder / "planted" / "games.jsonl.partial").symlink_to(folder / "victim.txt")
    (folder / "planted" / "report.json.partial").symlink_to(folder / "victim.txt")
    _write(folder, "planted/page.html.partial", "the user's own file\n")
    _write(folder, "eng.py", ENG_PY)
    _write(folder, "inproc.py", INPROC_PY)
    _write(folder, "inproc_bad.py", (
        "import os, sys, time\nfrom flip7_spec.protocol.adapter import ReferenceAdapter\n"
        "class Exits(ReferenceAdapter):\n"
        "    def decide(self, *args, **kwargs):\n        sys.exit(0)\n"
        "class HardExit(ReferenceAdapter):\n"
        "    def decide(self, *args, **kwargs):\n        os._exit(0)\n"
        "class Hangs(ReferenceAdapter):\n"
        "    def decide(self, *args, **kwargs):\n        while True:\n            time.sleep(0.1)\n"))
    many = folder / "fixtures-many-players" / "src" / "flip7"
    many.mkdir(parents=True)
    (many / "many.toml").write_text('description = "too many players"\nclauses = ["F7-DEAL"]\nruleset = "flip7"\n'
                                    'players = 100000\ndealer = 0\ntop = []\ndecisions = []\n', encoding="utf-8")
    # The scoring-hands cache: a FIFO, deep nesting, an empty hands list, a big file at a custom ruleset's entry.
    _write(folder, "custom.toml", CUSTOM)
    for name in ("cache-fifo", "cache-deep", "cache-empty", "cache-big", "cache-old"):
        _cache_entry(folder, name).parent.mkdir(parents=True)
    os.mkfifo(_cache_entry(folder, "cache-fifo"))
    _write(folder, str(_cache_entry(folder, "cache-deep").relative_to(folder)), "[" * 100_000 + "]" * 100_000)
    from flip7_spec import __version__
    from flip7_spec.conformance.scoring_hands import ruleset_hash
    from flip7_spec.rulesets import load_ruleset

    digest = ruleset_hash(load_ruleset(str(folder / "custom.toml")))
    _write(folder, str(_cache_entry(folder, "cache-empty").relative_to(folder)), json.dumps(
        {"format": 2, "version": __version__, "hash": digest, "complete": True, "checksum": "0" * 64,
         "hands": []}))
    _write(folder, str(_cache_entry(folder, "cache-old").relative_to(folder)), json.dumps(
        {"format": 1, "hash": digest, "hands": []}))
    _sparse(_cache_entry(folder, "cache-big"), 2 * 1024 * MIB)
    # Policies that end, hang or crash their process, or raise an error whose message fails.
    _write(folder, "policies/bots.py", (
        "import os, sys, time\n"
        "def exits(view):\n    sys.exit(0)\n"
        "def hard_exit(view):\n    os._exit(0)\n"
        "def hangs(view):\n    while True:\n        time.sleep(0.1)\n"
        "def crashes(view):\n    import ctypes\n    ctypes.string_at(0)\n"
        "class Opaque(Exception):\n"
        "    def __str__(self):\n        raise RuntimeError('no message')\n"
        "    __repr__ = __str__\n"
        "def opaque(view):\n    raise Opaque()\n"))
    # A folder whose own modules would shadow installed ones, with a user policy beside them.
    _write(folder, "shadow/z3.py", "import pathlib\npathlib.Path('shadowed').write_text('z3')\n"
                                   "raise ImportError('a user module named z3 was loaded')\n")
    _write(folder, "shadow/mybot.py", "def decide(view):\n    return None\n")
    _write(folder, "shadow/custom.toml", CUSTOM)
    _write(folder, "shadow/inproc.py", INPROC_PY)
    # Traces conform --trace and show cannot use.
    text = dumps_document(good)
    _write(folder, "trace-truncated.json", text[: len(text) // 2])
    _write(folder, "trace-empty.jsonl", "")
    _write(folder, "trace-no-game.json", '{"format": "flip7-trace", "version": 1, "steps": []}')
    floated = json.loads(text)
    floated["header"]["dealer"] = 0.0
    _write(folder, "trace-float.json", json.dumps(floated))
    # Rulesets the limits now bound, and deviations that crashed.
    _write(folder, "ruleset-million.toml", 'base = "flip7"\nname = "far"\n[options]\ntarget_score = 1000000\n')
    _write(folder, "ruleset-dev-huge.json", json.dumps({"base": "flip7", "name": "d",
                                                        "deviations": ["flip7_bonus=" + "9" * 5_000]}))
    _write(folder, "ruleset-dev-twice.toml", 'base = "flip7"\nname = "d"\n'
                                             'deviations = ["dealer_fixed", "dealer_fixed"]\n')
    twice = json.loads(text)
    twice["header"]["ruleset"] = {"base": "flip7", "name": "d", "deviations": ["dealer_fixed", "dealer_fixed"]}
    _write(folder, "trace-dev-twice.json", json.dumps(twice))
    huge = json.loads(text)
    huge["header"]["ruleset"] = {"base": "flip7", "name": "d", "deviations": ["flip7_bonus=" + "9" * 5_000]}
    _write(folder, "trace-dev-huge.json", json.dumps(huge))
    # Engines that declare no level, or skip everything after the handshake.
    _write(folder, "engines/no_levels.py", (
        "import sys\nsys.path.insert(0, " + repr(str(ENGINES)) + ")\n"
        "from _loop import dumps, serve_with\n"
        "def rewrite(request, reply):\n"
        "    if request.get('cmd') == 'hello' and 'result' in reply:\n"
        "        reply['result']['levels'] = []\n"
        "    return dumps(reply)\nserve_with(rewrite)\n"))
    _write(folder, "engines/skips_after_hello.py", (
        "import sys\nsys.path.insert(0, " + repr(str(ENGINES)) + ")\n"
        "from _loop import dumps, serve_with\n"
        "def rewrite(request, reply):\n"
        "    if request.get('cmd') in ('hello', 'quit'):\n"
        "        return dumps(reply)\n"
        "    return dumps({'seq': request.get('seq'), 'skipped': {'reason': 'nothing'}})\nserve_with(rewrite)\n"))


# ---- the checks after an item ---------------------------------------------------------------------------


def _no_escape_in_output(ran: Ran) -> None:
    assert b"\x1b" not in ran.stdout and b"\x1b" not in ran.stderr, "an escape sequence reached the terminal"
    assert b"\x9b" not in ran.stdout and "\u202e" not in ran.out


def _strict_json(path: Path) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{path}: bare {name} is not JSON")
    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


def _replay_json_is_strict(ran: Ran) -> None:
    report = _strict_json(ran.folder / "nan-report.json")
    assert report["counts"] == {"conform": 0, "diverge": 0, "invalid": 1}, report["counts"]
    assert "NaN is not JSON" in report["traces"][0]["error"]


def _input_unchanged(ran: Ran) -> None:
    from flip7_spec.trace.canonical import dumps_document

    text = (ran.folder / "input.json").read_text(encoding="utf-8")
    assert text.startswith("{") and json.loads(text)["format"] == "flip7-trace", "the input trace was overwritten"
    assert text == dumps_document(json.loads(text))


def _engine_never_started(ran: Ran) -> None:
    assert not (ran.folder / "engine-started").exists(), "the engine was started before the output was checked"


def _others_replayed(ran: Ran) -> None:
    assert "corpus-one-bad-line.jsonl:2: INVALID" in ran.out, ran.out
    assert "replayed 3 traces: 2 conform, 0 diverge, 1 invalid" in ran.out, ran.out


def _diverges_at_the_reshuffle(ran: Ran) -> None:
    assert "DIVERGES at step" in ran.out and ".reshuffle" in ran.out and "F7-RESHUFFLE" in ran.out, ran.out


def _errored_mid_game(ran: Ran) -> None:
    assert "skipped in the middle of a game" in ran.out, ran.out[-2000:]


def _hostile_text_reports(ran: Ran) -> None:
    import xml.etree.ElementTree as ET

    _no_escape_in_output(ran)
    report = _strict_json(ran.folder / "hostile.json")
    assert any(r["outcome"] == "errored" and "boom" in r["message"] for r in report["results"])
    root = ET.parse(ran.folder / "hostile.xml").getroot()
    assert any("boom" in (e.get("message") or "") for e in root.iter("error"))


def _nan_reply_errored(ran: Ran) -> None:
    assert "reply is not JSON (NaN is not a JSON number)" in ran.out, ran.out[-2000:]
    _strict_json(ran.folder / "nan-engine.json")


def _serve_answered_every_line(ran: Ran) -> None:
    replies = [json.loads(line) for line in ran.out.splitlines()]
    assert len(replies) == 7, replies
    assert all("errored" in r for r in replies[:5]), replies
    assert replies[5]["seq"] == 9 and replies[5]["result"]["protocol"] == 1
    assert replies[6] == {"seq": 10, "result": {}}


def _long_trace_shown(ran: Ran) -> None:
    assert ran.out.rstrip().splitlines()[-1].startswith("game over after"), ran.out[-500:]


def _helper_run_reported(ran: Ran) -> None:
    report = _strict_json(ran.folder / "helper.json")
    outcomes = {r["outcome"] for r in report["results"]}
    assert outcomes == {"pass"} and len(report["results"]) == 8, report["counts"]  # 2 games: round, game, legal


def _victim_kept(ran: Ran) -> None:
    assert (ran.folder / "victim.txt").read_text(encoding="utf-8") == VICTIM, "a planted link was written through"
    planted = ran.folder / "planted"
    assert os.readlink(planted / "games.jsonl.partial") == str(ran.folder / "victim.txt")
    assert os.readlink(planted / "report.json.partial") == str(ran.folder / "victim.txt")
    assert (planted / "page.html.partial").read_text(encoding="utf-8") == "the user's own file\n"


def _simulated_through_planted(ran: Ran) -> None:
    _victim_kept(ran)
    lines = (ran.folder / "planted" / "games.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and all(json.loads(line)["format"] == "flip7-trace" for line in lines)


def _reported_through_planted(ran: Ran) -> None:
    _victim_kept(ran)
    assert json.loads((ran.folder / "planted" / "report.json").read_text(encoding="utf-8"))["counts"]
    assert (ran.folder / "planted" / "page.html").read_text(encoding="utf-8").startswith("<!")


def _unchanged(name: str, text: str) -> Check:
    def check(ran: Ran) -> None:
        assert (ran.folder / name).read_text(encoding="utf-8") == text, f"{name} was overwritten"

    return check


def _cache_rebuilt(name: str) -> Check:
    def check(ran: Ran) -> None:
        warnings = [line for line in ran.err.splitlines() if "scoring-hands cache" in line]
        assert len(warnings) == 1 and "searching again" in warnings[0], ran.err
        entry = json.loads(_cache_entry(ran.folder, name).read_text(encoding="utf-8"))
        assert entry["complete"] is True and len(entry["hands"]) >= 5, entry
        scoring = next(line for line in ran.out.splitlines() if line.startswith("corpus:"))
        ran_count = int(scoring.split(" scoring (")[1].split(" ran")[0])
        assert ran_count == 4 + len(entry["hands"]), scoring  # the 4 official examples and every hand

    return check


def _errored(words: str) -> Check:
    def check(ran: Ran) -> None:
        assert words in ran.out and "ERROR" in ran.out, ran.out[-2000:]

    return check


def _nothing_shadowed(ran: Ran) -> None:
    assert not (ran.folder / "shadow" / "shadowed").exists(), "a module of the current folder shadowed z3"


def _saved_with_a_long_seed(ran: Ran) -> None:
    saved = list((ran.folder / "long-seed-failures").iterdir())
    assert len(saved) == 1 and len(saved[0].name) <= 200, saved
    assert json.loads(saved[0].read_text(encoding="utf-8"))["format"] == "flip7-trace"


def _end_helper(name: str) -> Callable[[Path], None]:
    """A cleanup that kills the helper whose pid the detached-helper engine wrote to ``FOLDER/NAME``."""
    import signal

    def end(folder: Path) -> None:
        pid_file = folder / name
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)

    return end


# ---- the corpus -----------------------------------------------------------------------------------------


def items(folder: Path) -> list[Item]:
    """Every item of the corpus whose inputs :func:`build` wrote to ``folder``."""
    f = folder
    serve_input = b"\n".join([b'{"seq": 1, \xff}', b"[" * 100_000, b'{"seq": 2, "n": ' + b"9" * 5_000 + b"}",
                              b'{"seq": NaN}', b'{"seq": 3, "cmd": "hello", "padding": "' + b"x" * (16 * MIB) + b'"}',
                              b'{"seq": 9, "cmd": "hello", "protocol": 1}', b'{"seq": 10, "cmd": "quit"}']) + b"\n"
    marker = shlex.join([sys.executable, str(f / "engines" / "marker.py"), str(f / "engine-started")])
    listed: list[Item] = [
        # A FIFO or a device as an input would wait forever or never end.
        Item("ruleset-fifo", "FIFO ruleset waits forever", cli("rules", "-r", "ruleset-fifo.json")),
        Item("ruleset-dev-zero", "/dev/zero ruleset read without bound", cli("simulate", "-r", "ruleset-zero.json")),
        Item("trace-fifo", "FIFO trace waits forever", cli("show", "trace-fifo.json")),
        Item("corpus-fifo", "FIFO trace waits forever", cli("replay", "trace-fifo.jsonl")),
        Item("trace-dev-zero", "/dev/zero trace read without bound", cli("show", "trace-zero.json")),
        Item("corpus-dev-zero", "/dev/zero corpus read without bound", cli("replay", "trace-zero.jsonl")),
        # Oversized, deeply nested, huge-integer, non-UTF-8 rulesets: one line and exit 2 in every command.
        Item("ruleset-oversized", "oversized ruleset file", cli("rules", "-r", "ruleset-oversized.json")),
        Item("ruleset-deep-json-rules", "deeply nested JSON ruleset", cli("rules", "-r", "ruleset-deep.json")),
        Item("ruleset-deep-json-conform", "deeply nested JSON ruleset",
             cli("conform", "--engine", engine("slow"), "-r", "ruleset-deep.json")),
        Item("ruleset-deep-json-prove", "deeply nested JSON ruleset", cli("prove", "-r", "ruleset-deep.json")),
        Item("ruleset-deep100-json", "deeply nested JSON ruleset (within the parser's reach)",
             cli("simulate", "-r", "ruleset-deep100.json")),
        Item("ruleset-deep-toml", "deeply nested TOML ruleset", cli("simulate", "-r", "ruleset-deep.toml")),
        Item("ruleset-huge-int-json", "integer over 4,300 digits", cli("rules", "-r", "ruleset-huge-int.json")),
        Item("ruleset-huge-int-toml", "integer over 4,300 digits", cli("score", "-r", "ruleset-huge-int.toml", "3")),
        Item("ruleset-long-int", "absurd number", cli("simulate", "-r", "ruleset-long-int.json")),
        Item("ruleset-nan", "NaN in JSON", cli("rules", "-r", "ruleset-nan.json")),
        Item("ruleset-inf-toml", "infinity in TOML", cli("rules", "-r", "ruleset-inf.toml")),
        Item("ruleset-latin1-toml", "non-UTF-8 ruleset", cli("rules", "-r", "ruleset-latin1.toml")),
        Item("ruleset-latin1-json", "non-UTF-8 ruleset",
             cli("conform", "--engine", engine("slow"), "-r", "ruleset-latin1.json")),
        Item("ruleset-copies", "10^9 copies of a card", cli("simulate", "-r", "ruleset-copies.toml")),
        Item("ruleset-deck-size", "deck size limit",
             cli("conform", "--engine", engine("slow"), "-r", "ruleset-deck-size.toml")),
        Item("ruleset-long-name", "name length limit", cli("rules", "-r", "ruleset-long-name.json")),
        Item("ruleset-far-target", "absurd target score", cli("simulate", "-r", "ruleset-target.toml")),
        # Traces.
        Item("trace-oversized", "oversized trace", cli("replay", "trace-oversized.json"), one_line=False),
        Item("corpus-long-line", "line length limit", cli("replay", "trace-oversized.jsonl"), one_line=False),
        Item("trace-deep-show", "deeply nested trace", cli("show", "trace-deep.json")),
        Item("trace-deep-replay", "deeply nested trace", cli("replay", "trace-deep100.json"), one_line=False),
        Item("trace-huge-int", "integer over 4,300 digits in a trace", cli("replay", "trace-huge-int.json"),
             one_line=False),
        Item("trace-latin1", "non-UTF-8 trace", cli("show", "trace-latin1.json")),
        Item("trace-nan-json-report", "replay --json writes bare NaN",
             cli("replay", "trace-nan.json", "--json", "nan-report.json"), one_line=False,
             check=_replay_json_is_strict),
        Item("trace-players", "194-byte trace costs 14.8 s and 1.6 GB", cli("replay", "trace-players.json"),
             one_line=False),
        Item("trace-players-show", "194-byte trace costs 14.8 s and 1.6 GB", cli("show", "trace-players.json")),
        Item("trace-copies", "10^9 copies of a card in a trace's ruleset", cli("replay", "trace-copies.json"),
             one_line=False),
        Item("trace-long-name", "a 1 MB player name makes show print 388 MB", cli("show", "trace-long-name.json")),
        Item("trace-escapes", "terminal escape sequences from traces", cli("show", "trace-escapes.json"),
             expect=(0,), check=_no_escape_in_output),
        Item("corpus-one-bad-line", "one bad line aborts a whole .jsonl replay",
             cli("replay", "corpus-one-bad-line.jsonl"), one_line=False, check=_others_replayed),
        Item("trace-unused-reshuffle", "impossible unused reshuffle steps conform",
             cli("replay", "trace-unused-reshuffle.json"), expect=(1,), check=_diverges_at_the_reshuffle),
        Item("trace-long-replay", "replay linear in the trace length", cli("replay", "trace-long.json"), expect=(0,)),
        Item("trace-long-show", "show linear in the trace length", cli("show", "trace-long.json"), expect=(0,),
             check=_long_trace_shown),
        # Absurd numbers on the command line.
        Item("score-players", "score --players 100000000", cli("score", "--players", "100000000", "3")),
        Item("simulate-games", "simulate -g 10**12", cli("simulate", "-g", str(10**12))),
        Item("simulate-workers", "-j 300", cli("simulate", "-j", "300")),
        Item("simulate-workers-bounded", "-j 64 forks 64 processes for 1 chunk of work",
             cli("simulate", "-g", "20", "-j", "64"), expect=(0,)),
        Item("simulate-seed-bytes", "a seed that is not UTF-8", cli("simulate", "-g", "1", "-s", b"caf\xe9")),
        Item("conform-games", "absurd games", cli("conform", "--engine", engine("slow"), "-g", str(10**12))),
        Item("conform-workers", "-j 300", cli("conform", "--engine", engine("slow"), "-j", "300")),
        Item("conform-players", "players limit", cli("conform", "--engine", engine("slow"), "-p", "100000000")),
        Item("engine-unbalanced-quote", "--engine with unbalanced quotes",
             cli("conform", "--engine", 'python "unterminated')),
        Item("timeout-nan", "--timeout nan blamed on the engine",
             cli("conform", "--engine", engine("slow"), "--timeout", "nan")),
        Item("timeout-inf", "--timeout inf", cli("conform", "--engine", engine("slow"), "--timeout", "inf")),
        # Outputs checked before any work, never over an input.
        Item("simulate-out-missing-folder", "a missing folder loses the output after the run",
             cli("simulate", "-g", "5", "--out", "no/such/folder/games.jsonl")),
        Item("simulate-out-is-ruleset", "refuse to write over an input",
             cli("simulate", "-r", "ruleset-plain.json", "-g", "1", "--out", "ruleset-plain.json")),
        Item("simulate-out-device", "an output that is a device",
             cli("simulate", "-g", "5", "--out", "trace-zero.jsonl")),
        Item("replay-json-over-input", "replay X --json X overwrites the input",
             cli("replay", "input.json", "--json", "input.json"), check=_input_unchanged),
        Item("conform-json-missing-folder", "a missing folder loses the report after the run",
             cli("conform", "--engine", marker, "--json", "no/such/folder/report.json", *QUICK),
             check=_engine_never_started),
        Item("conform-junit-is-folder", "an unwritable report",
             cli("conform", "--engine", marker, "--junit-xml", "a-folder", *QUICK), check=_engine_never_started),
        Item("conform-save-failures-under-file", "--save-failures in an unwritable place",
             cli("conform", "--engine", marker, "--save-failures", "a-file/failures", *QUICK),
             check=_engine_never_started),
        Item("conform-json-is-fixture", "refuse to write over an input",
             cli("conform", "--engine", marker, "--fixtures", "fixtures-list", "--json",
                 "fixtures-list/flip7/deep.json", "--no-scoring", "-r", "flip7", "-g", "1"),
             check=_engine_never_started),
        # Engines.
        Item("engine-detached-helper", "a detached helper keeping stderr open hangs conform",
             cli("conform", "--engine", engine("detached_helper", str(f / "helper.pid")), "--json", "helper.json",
                 *QUICK), expect=(0,), check=_helper_run_reported, after=_end_helper("helper.pid")),
        Item("engine-detached-helper-smoke", "--smoke hangs the same way",
             cli("conform", "--smoke", "--engine", engine("detached_helper", str(f / "smoke-helper.pid"))),
             expect=(0,), after=_end_helper("smoke-helper.pid")),
        Item("engine-skips-mid-game", "skipped in the middle of a game gets exit 0",
             cli("conform", "--engine", engine("skip_midgame"), *ONE_GAME), expect=(1,), check=_errored_mid_game),
        Item("engine-hostile-text", "escape sequences from engines; JUnit with control characters",
             cli("conform", "--engine", engine("hostile_text"), "--json", "hostile.json", "--junit-xml", "hostile.xml",
                 *ONE_GAME), expect=(1,), check=_hostile_text_reports),
        Item("engine-nan-reply", "NaN from an engine", cli("conform", "--engine", shlex.join(
            [sys.executable, str(f / "engines" / "nan_reply.py")]), "--json", "nan-engine.json", *ONE_GAME),
             expect=(1,), check=_nan_reply_errored),
        # serve and fixtures.
        Item("serve-bad-lines", "one bad line kills serve", cli("serve"), expect=(0,), stdin=serve_input,
             check=_serve_answered_every_line),
        Item("fixtures-deep-toml", "deeply nested TOML in fixtures regenerate",
             cli("fixtures", "regenerate", "--dir", "fixtures-deep")),
        Item("fixtures-latin1", "non-UTF-8 fixture source", cli("fixtures", "regenerate", "--dir", "fixtures-latin1")),
        Item("fixtures-list-deep", "deeply nested fixture trace", cli("fixtures", "list", "--dir", "fixtures-list")),
        # The game engine's part: stalls and reshuffle orders (expected to fail until the engine checks them).
        engine_item("stall-simulate", "a deck of a single 0 hangs simulate",
                    cli("simulate", "-r", "ruleset-zero-deck.toml", "-g", "1"), expect=(0, 2)),
        engine_item("stall-simulate-out", "with --out, memory grows 14 MB/s",
                    cli("simulate", "-r", "ruleset-zero-deck.toml", "-g", "1", "--out", "stall.json"),
                    expect=(0, 2), slow=True),
        engine_item("stall-conform", "a deck of a single 0 hangs conform",
                    cli("conform", "--engine", engine("slow", "0"), "-r", "ruleset-zero-deck.toml", "--no-fixtures",
                        "--no-scoring", "-g", "1", "--no-progress"), expect=(0, 1, 2)),
        engine_item("stall-fixtures", "a deck of a single 0 hangs fixtures regenerate",
                    cli("fixtures", "regenerate", "--dir", "fixtures-stall"), expect=(0, 1, 2)),
        engine_item("stall-new-game", "a deck of a single 0 hangs new_game", library(
            "from flip7_spec import load_ruleset, new_game\n"
            "from flip7_spec.errors import Flip7Error\n"
            "try:\n    new_game(load_ruleset('ruleset-zero-deck.toml'), 3, ['0'], reshuffler=list)\n"
            "except Flip7Error as e:\n"
            "    print(e)\n"), expect=(0,)),
        engine_item("stall-unreachable-target", "an unreachable target score crashes after a million decisions",
                    cli("simulate", "-r", "ruleset-no-score.toml", "-g", "1"), expect=(0, 2)),
        engine_item("missing-reshuffle-leaves-game", "apply() leaves the game neither pending nor over", library(
            "from flip7_spec import cards, new_game, preset\nfrom flip7_spec.errors import ChanceError\n"
            "rs = preset('flip7')\ndeck = [c.text for c in rs.deck_cards(3)]\n"
            "game, _ = new_game(rs, 3, deck)\n"
            "while True:\n"
            "    before = game.observation()\n"
            "    try:\n        game.apply(game.pending.options[0])\n"
            "    except ChanceError:\n        break\n"
            "assert game.observation() == before, 'a rejected call changed the game'\n"
            "try:\n    game.apply(game.pending.options[0])\nexcept ChanceError:\n    pass\n"), expect=(0,)),
        engine_item("reshuffler-output-checked", "the reshuffler callback's output is never checked", library(
            "from flip7_spec import new_game, preset\nfrom flip7_spec.errors import Flip7Error\n"
            "rs = preset('flip7')\ndeck = [c.text for c in rs.deck_cards(3)]\n"
            "extra = rs.deck_cards(3)[:10]\n"
            "game, _ = new_game(rs, 3, deck, reshuffler=lambda discard: discard + extra)\n"
            "try:\n"
            "    while game.pending:\n        game.apply(game.pending.options[0])\n"
            "except Flip7Error:\n    raise SystemExit(0)\n"
            "raise SystemExit('a reshuffle with cards from nowhere was accepted')\n"), expect=(0,)),
    ]
    return listed + round_two(folder)


def in_folder(folder: str, *command: str | bytes) -> tuple[str | bytes, ...]:
    """``command`` run from the subfolder ``folder`` of the corpus (through ``sh -c 'cd ... && exec ...'``)."""
    return ("sh", "-c", 'cd "$0" && exec "$@"', folder, *command)


def cached(name: str, *args: str) -> tuple[str | bytes, ...]:
    """``flip7-spec ARGS`` with the scoring-hands cache in the corpus's folder ``NAME``."""
    return ("sh", "-c", 'FLIP7_SPEC_CACHE_DIR="$PWD/$0" exec "$@"', name, *cli(*args))


def isolated(*args: str | bytes) -> tuple[str | bytes, ...]:
    """``flip7-spec ARGS`` as the installed command runs it: the current folder is not put first on the
    path (``python -P``), so only flip7-spec itself could let a module there shadow an installed one."""
    return (sys.executable, "-P", "-m", "flip7_spec", *args)


SCORING_ONLY = ("--no-fixtures", "-g", "0", "--min-coverage", "0", "--no-progress")


def round_two(folder: Path) -> list[Item]:
    """The items of the second audit (issue 30). Those that repeat a case through another command, or that
    cost a z3 search or seconds of computation, are slow (``-m slow``); tests/test_scoring_hands.py checks
    each kind of cache entry in-process too."""
    f = folder
    marker = shlex.join([sys.executable, str(f / "engines" / "marker.py"), str(f / "engine-started")])
    bots = str(f / "policies" / "bots.py")
    engine_script = shlex.join([sys.executable, "eng.py"])
    return [
        # 1. Outputs never follow a link planted at NAME.partial, nor truncate a user's file there.
        Item("output-planted-link-simulate", "outputs follow a symlink planted at NAME.partial",
             cli("simulate", "-g", "3", "--out", "planted/games.jsonl"), expect=(0,),
             check=_simulated_through_planted),
        Item("output-planted-link-conform", "a user's own file named NAME.partial is truncated",
             cli("conform", "--engine", engine_script, "--json", "planted/report.json", "--html",
                 "planted/page.html", *ONE_GAME), expect=(0,), check=_reported_through_planted),
        # 2. The scoring-hands cache: a FIFO, deep nesting, an empty hands list, a big file, an old entry.
        Item("cache-fifo", "cache files can hang every run (a FIFO)",
             cached("cache-fifo", "conform", "--python", "inproc:Engine", "-r", "custom.toml", *SCORING_ONLY),
             expect=(0,), check=_cache_rebuilt("cache-fifo")),
        Item("cache-deep", "cache files crash a run (deep nesting: RecursionError)",
             cached("cache-deep", "conform", "--python", "inproc:Engine", "-r", "custom.toml", *SCORING_ONLY),
             expect=(0,), check=_cache_rebuilt("cache-deep"), slow=True),
        Item("cache-empty-hands", "drop 10 of 14 scoring cases without a word (an empty hands list)",
             cached("cache-empty", "conform", "--python", "inproc:Engine", "-r", "custom.toml", *SCORING_ONLY),
             expect=(0,), check=_cache_rebuilt("cache-empty")),
        Item("cache-old-entry", "a cut-short search cached as complete",
             cached("cache-old", "conform", "--python", "inproc:Engine", "-r", "custom.toml", *SCORING_ONLY),
             expect=(0,), check=_cache_rebuilt("cache-old"), slow=True),
        Item("cache-big", "run 10 minutes into a MemoryError (a big cache file)",
             cached("cache-big", "conform", "--python", "inproc:Engine", "-r", "custom.toml", *SCORING_ONLY),
             expect=(0,), check=_cache_rebuilt("cache-big"), slow=True),
        # 3. Every output checked before the run against every input, the engine's own files included.
        Item("conform-json-over-engine", "--json eng.py overwrites the engine under test",
             cli("conform", "--engine", engine_script, "--json", "eng.py", *QUICK), check=_unchanged("eng.py", ENG_PY)),
        Item("conform-html-over-python-module", "--html over the --python module",
             cli("conform", "--python", "inproc:Engine", "--html", "inproc.py", *QUICK),
             check=_unchanged("inproc.py", INPROC_PY)),
        Item("conform-fingerprint-missing-folder", "--fingerprint is not checked before the run",
             cli("conform", "--engine", marker, "--fingerprint", "no/such/folder/fp.json", *QUICK),
             check=_engine_never_started),
        Item("conform-fingerprint-over-engine", "--fingerprint over the engine's script",
             cli("conform", "--engine", engine_script, "--fingerprint", "eng.py", *QUICK)),
        # 4. New surfaces: workers, conform --trace, the analysis module, engines that check nothing.
        Item("simulate-policy-exits-j2", "simulate -j 2 hangs for ever when a --policy ends its process",
             cli("simulate", "-g", "400", "-j", "2", "--policy", f"{bots}:exits")),
        Item("simulate-policy-exits-j1", "with one worker the same policy gives exit 0 and no output",
             cli("simulate", "-g", "3", "--policy", f"{bots}:exits", "--out", "exits.jsonl")),
        Item("simulate-policy-hard-exit", "a policy that ends its process with os._exit",
             cli("simulate", "-g", "3", "--policy", f"{bots}:hard_exit", "--out", "hard-exit.jsonl")),
        Item("simulate-policy-hard-exit-j2", "a policy that ends a worker process with os._exit",
             cli("simulate", "-g", "400", "-j", "2", "--policy", f"{bots}:hard_exit")),
        Item("simulate-policy-crashes", "a policy that crashes its worker process",
             cli("simulate", "-g", "3", "--policy", f"{bots}:crashes")),
        Item("simulate-policy-hangs", "a policy that hangs in a worker",
             cli("simulate", "-g", "3", "-j", "2", "--policy", f"{bots}:hangs")),
        Item("inproc-engine-exits", "an in-process engine that ends its process gives exit 0 and no output",
             cli("conform", "--python", "inproc_bad:Exits", *ONE_GAME), expect=(1,), check=_errored("SystemExit")),
        Item("inproc-engine-hard-exit", "an in-process engine that ends its process with os._exit",
             cli("conform", "--python", "inproc_bad:HardExit", *ONE_GAME), expect=(1,),
             check=_errored("worker process running this case died")),
        Item("inproc-engine-hangs", "an in-process engine that hangs hangs the run",
             cli("conform", "--python", "inproc_bad:Hangs", "--timeout", "1", *ONE_GAME), expect=(1,),
             check=_errored("no answer to decide within 1 s")),
        Item("conform-trace-truncated", "conform --trace with a truncated trace exits 0",
             cli("conform", "--engine", marker, "--trace", "trace-truncated.json"), check=_engine_never_started),
        Item("conform-trace-empty", "conform --trace with an unreadable trace exits 0",
             cli("conform", "--engine", marker, "--trace", "trace-empty.jsonl"), check=_engine_never_started),
        Item("conform-trace-no-game", "conform --trace with a trace that is no game",
             cli("conform", "--engine", marker, "--trace", "trace-no-game.json"), check=_engine_never_started),
        Item("analysis-distinct-numbers", "flip7_spec.analysis runs without bound (100 distinct Numbers)", library(
            "from flip7_spec.analysis import never_stay, solitaire, solitaire_deck\n"
            "from flip7_spec.errors import Flip7Error\nfrom flip7_spec.rulesets import ruleset_from_json\n"
            "rs = ruleset_from_json({'base': 'flip7', 'name': 'wide', 'deck': {str(v): 1 for v in range(100)}})\n"
            "try:\n    solitaire(solitaire_deck(rs), never_stay)\nexcept Flip7Error as e:\n"
            "    assert 'analysis steps' in str(e), e\nelse:\n    raise SystemExit('not bounded')\n"), expect=(0,)),
        Item("analysis-big-deck", "flip7_spec.analysis runs without bound (10,000-card decks)", library(
            "from flip7_spec.analysis import solitaire, solitaire_deck, stay_with_cards\n"
            "from flip7_spec.errors import Flip7Error\nfrom flip7_spec.rulesets import ruleset_from_json\n"
            "rs = ruleset_from_json({'base': 'flip7', 'name': 'big', 'deck': {**{str(v): 600 for v in range(13)},"
            " '+2': 300, '+4': 300, '+6': 300, '+8': 300, '+10': 300, 'x2': 200}})\n"
            "try:\n    solitaire(solitaire_deck(rs, blanks={'x2'}), stay_with_cards(30))\n"
            "except Flip7Error as e:\n    assert 'analysis steps' in str(e), e\n"
            "else:\n    raise SystemExit('not bounded')\n"), expect=(0,), slow=True),
        Item("engine-declares-no-level", "an engine that declares no level passes",
             cli("conform", "--engine", shlex.join([sys.executable, str(f / "engines" / "no_levels.py")]),
                 *ONE_GAME), expect=(3,)),
        Item("engine-skips-after-hello", "an engine that skips everything after the handshake passes",
             cli("conform", "--engine", shlex.join([sys.executable, str(f / "engines" / "skips_after_hello.py")]),
                 *ONE_GAME), expect=(3,)),
        # 5. Resource costs within the documented limits.
        Item("conform-target-million", "target_score = 1000000 makes a 2-game conform use 7.3 GB",
             cli("conform", "--engine", marker, "-r", "ruleset-million.toml", "-g", "2"),
             check=_engine_never_started),
        Item("simulate-target-million", "simulate --out writes a trace that replay refuses",
             cli("simulate", "-r", "ruleset-million.toml", "-g", "1", "--out", "far.jsonl")),
        Item("simulate-game-length", "a game of 100 players to 1,000 points writes a trace replay refuses",
             cli("simulate", "-p", "100", "--option", "target_score=1000", "-g", "1", "--out", "wide.jsonl")),
        Item("simulate-sweep-huge", "--sweep 0:100000000 takes 3.8 GB before it is refused",
             cli("simulate", "-p", "1", "--option", "min_players=1", "--rounds", "10", "--fresh-deck", "--policy",
                 "threshold:5", "--sweep", "0:100000000")),
        Item("conform-min-coverage-huge", "--min-coverage has no upper bound",
             cli("conform", "--engine", marker, "--min-coverage", "1000000"), check=_engine_never_started),
        # 6. Tracebacks left.
        Item("ruleset-deviation-huge-rules", "a 5,000-digit deviation value",
             cli("rules", "-r", "ruleset-dev-huge.json")),
        Item("ruleset-deviation-huge-simulate", "a 5,000-digit deviation value",
             cli("simulate", "-r", "ruleset-dev-huge.json", "-g", "1"), slow=True),
        Item("ruleset-deviation-huge-score", "a 5,000-digit deviation value",
             cli("score", "-r", "ruleset-dev-huge.json", "3"), slow=True),
        Item("trace-deviation-huge", "a 5,000-digit deviation value in a trace header",
             cli("replay", "trace-dev-huge.json"), one_line=False),
        Item("ruleset-deviation-twice", "a deviation listed twice", cli("simulate", "-r", "ruleset-dev-twice.toml")),
        Item("ruleset-deviation-twice-rules", "a deviation listed twice", cli("rules", "-r", "ruleset-dev-twice.toml"),
             slow=True),
        Item("trace-deviation-twice-show", "a deviation listed twice in a trace header",
             cli("show", "trace-dev-twice.json")),
        Item("trace-float-replay", "a whole number written as a float in a trace", cli("replay", "trace-float.json"),
             one_line=False),
        Item("trace-float-show", "a whole number written as a float in a trace", cli("show", "trace-float.json"),
             slow=True),
        Item("trace-float-conform", "a whole number written as a float in a trace",
             cli("conform", "--engine", marker, "--trace", "trace-float.json"), check=_engine_never_started, slow=True),
        Item("show-invalid-trace", "show exits 0 on traces that replay refuses", cli("show", "trace-no-game.json")),
        Item("serve-command-object", "serve on a command that is an object", cli("serve"), expect=(0,),
             stdin=b'{"seq": 1, "cmd": {"x": 1}}\n{"seq": 2, "cmd": ["hello"]}\n{"seq": 3, "cmd": "quit"}\n'),
        Item("policy-error-repr-fails", "a policy error whose repr fails",
             cli("simulate", "-g", "3", "--policy", f"{bots}:opaque")),
        Item("fixtures-regenerate-players", "fixtures regenerate ignoring the player limit",
             cli("fixtures", "regenerate", "--dir", "fixtures-many-players"), expect=(2,), one_line=False),
        Item("save-failures-long-seed", "--save-failures names past the file-name length with a long seed",
             cli("conform", "--python", "tests.mutants.dealer_fixed:Engine", "--save-failures", "long-seed-failures",
                 "--seed", "s" * 1000, "-r", "flip7", "-g", "1", "--no-fixtures", "--no-scoring",
                 "--min-coverage", "0", "--no-progress", "--level", "game"),
             expect=(1,), check=_saved_with_a_long_seed),
        Item("library-untyped-errors", "20 untyped errors in the library and the analysis module", library(
            "from flip7_spec import card, preset, game_definition\n"
            "from flip7_spec.analysis import solitaire_deck, stay_at, stay_with_cards, threshold_table\n"
            "from flip7_spec.analysis import seven_distinct_probability\n"
            "from flip7_spec.errors import Flip7Error\n"
            "rs = preset('flip7')\n"
            "calls = [lambda: card(['5']), lambda: card({}), lambda: preset(['x']), lambda: game_definition({}),\n"
            "         lambda: rs.deck_cards('3'), lambda: rs.deck_cards(None), lambda: solitaire_deck('flip7'),\n"
            "         lambda: solitaire_deck(rs, blanks=5), lambda: stay_at('20'), lambda: stay_with_cards(None),\n"
            "         lambda: seven_distinct_probability(None), lambda: threshold_table(rs, 5),\n"
            "         lambda: threshold_table(rs, ['x'])]\n"
            "for call in calls:\n"
            "    try:\n        call()\n    except Flip7Error:\n        continue\n"
            "    raise SystemExit('accepted')\n"), expect=(0,)),
        Item("module-shadowing-policy", "--policy MODULE can shadow the package's own dependencies",
             in_folder("shadow", *isolated("simulate", "-g", "2", "--policy", "mybot:decide")), expect=(0,),
             check=_nothing_shadowed),
        Item("module-shadowing-python", "--python can shadow the package's own dependencies",
             in_folder("shadow", "env", "FLIP7_SPEC_CACHE_DIR=cache",
                       *isolated("conform", "--python", "inproc:Engine", "-r", "custom.toml", *SCORING_ONLY)),
             expect=(0,), check=_nothing_shadowed, slow=True),
        Item("module-clash", "a user module with an installed module's name is refused",
             in_folder("shadow", *isolated("simulate", "-g", "2", "--policy", "z3:decide"))),
        engine_item("supply-reshuffle-texts", "supply_reshuffle with texts leaves the game neither pending nor over",
                    library(
            "from flip7_spec import new_game, preset\nfrom flip7_spec.errors import Flip7Error\n"
            "rs = preset('flip7')\ngame, _ = new_game(rs, 3, [c.text for c in rs.deck_cards(3)])\n"
            "game.supply_reshuffle(['5', '6'])\n"
            "try:\n    while game.pending:\n        game.apply(game.pending.options[0])\n"
            "except Flip7Error:\n    pass\n"
            "assert game.pending or game.over, 'the game is neither pending nor over'\n"), expect=(0,)),
        engine_item("failing-reshuffler", "a failing reshuffler leaves the game neither pending nor over", library(
            "from flip7_spec import new_game, preset\nfrom flip7_spec.errors import Flip7Error\n"
            "rs = preset('flip7')\n"
            "game, _ = new_game(rs, 3, [c.text for c in rs.deck_cards(3)], reshuffler=lambda d: 1 / 0)\n"
            "try:\n    while game.pending:\n        game.apply(game.pending.options[0])\n"
            "except Flip7Error:\n    pass\n"
            "assert game.pending or game.over, 'the game is neither pending nor over'\n"), expect=(0,)),
    ]


def build(folder: Path) -> list[Item]:
    """Write the corpus's inputs into ``folder`` (which must exist and be empty) and return its items."""
    _files(folder)
    return items(folder)


def main(argv: Sequence[str]) -> int:
    """``python -m tests.hostile_corpus FOLDER``: write the corpus and print each item's command."""
    if len(argv) != 1:
        print("usage: python -m tests.hostile_corpus FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    for item in build(folder):
        command = shlex.join(os.fsdecode(part) for part in item.command)
        print(f"{item.id}: expect {item.expect}: {command}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
