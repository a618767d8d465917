"""The distinguishing scoring hands: shipped for the presets, cached on disk for other rulesets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flip7_spec import cards, load_ruleset, preset, preset_names, round_score
from flip7_spec.conformance import scoring_hands
from flip7_spec.conformance.scoring_hands import CACHE_VARIABLE, Hand, hands_for, ruleset_hash, shipped_path


def test_the_shipped_file_covers_every_preset_with_its_current_hash() -> None:
    document = json.loads(shipped_path().read_text(encoding="utf-8"))
    assert set(document["rulesets"]) == set(preset_names())
    for name, entry in document["rulesets"].items():
        assert entry["hash"] == ruleset_hash(preset(name)), f"{name}: run `flip7-spec fixtures regenerate`"
        assert entry["hands"], name


def test_each_shipped_hand_is_scored_by_the_specification() -> None:
    # The expected score of every hand is what the reference scoring gives (the searches only choose hands).
    document = json.loads(shipped_path().read_text(encoding="utf-8"))
    for name, entry in document["rulesets"].items():
        for hand in entry["hands"]:
            assert round_score(preset(name), cards(hand["cards"]), hand["busted"]) == hand["expected"], hand["id"]


def test_presets_are_read_from_the_shipped_file_without_searching(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(scoring_hands, "_memory", {})
    monkeypatch.setattr(scoring_hands, "search", lambda ruleset: pytest.fail("searched a preset"))
    assert hands_for(preset("flip7"))
    assert not any(tmp_path.rglob("*.json"))  # nothing written for a preset


def test_a_custom_ruleset_is_searched_once_then_read_from_the_cache(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(scoring_hands, "_memory", {})
    custom = load_ruleset(str(Path(__file__).resolve().parents[1] / "fixtures" / "rulesets" /
                              "seed-003-modifiers.toml"))
    calls: list[str] = []
    made = Hand("MR-TEST", "a test misreading", "F7-SCORE", ("3", "x2"), False, 6)
    monkeypatch.setattr(scoring_hands, "search", lambda ruleset: calls.append(ruleset.name) or [made])
    assert hands_for(custom) == (made,)
    files = list(tmp_path.rglob("*.json"))
    assert [f.stem for f in files] == [ruleset_hash(custom)]
    monkeypatch.setattr(scoring_hands, "_memory", {})  # a new process: only the disk remains
    assert hands_for(custom) == (made,)
    assert calls == [custom.name]  # searched once
    files[0].write_text("{not json", encoding="utf-8")  # a damaged cache file is searched again
    monkeypatch.setattr(scoring_hands, "_memory", {})
    assert hands_for(custom) == (made,) and len(calls) == 2
    assert hands_for(custom, fresh=True) == (made,) and len(calls) == 3


def test_the_hash_ignores_name_and_description_but_not_options() -> None:
    base = preset("flip7")
    assert ruleset_hash(base) == ruleset_hash(base.with_options(target_score=200))
    assert ruleset_hash(base) != ruleset_hash(base.with_options(flip7_bonus=25))
    from dataclasses import replace

    assert ruleset_hash(base) == ruleset_hash(replace(base, name="mine", description="my copy"))


def test_regenerate_check_reports_a_stale_file_and_writes_nothing(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    shipped = tmp_path / "data" / "scoring-hands.json"
    shipped.parent.mkdir()
    shipped.write_text('{"format": 1, "rulesets": {}}\n', encoding="utf-8")
    monkeypatch.setattr(scoring_hands, "shipped_path", lambda: shipped)
    monkeypatch.setattr(scoring_hands, "shipped_document", lambda: '{"format": 1, "rulesets": {"x": 1}}\n')
    assert scoring_hands.regenerate_shipped(check=True) == (shipped, True)
    assert shipped.read_text(encoding="utf-8") == '{"format": 1, "rulesets": {}}\n'
    assert scoring_hands.regenerate_shipped() == (shipped, True)
    assert shipped.read_text(encoding="utf-8") == '{"format": 1, "rulesets": {"x": 1}}\n'
    assert scoring_hands.regenerate_shipped(check=True) == (shipped, False)
