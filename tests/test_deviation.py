"""A ruleset's deviations read once into the readings they name (:class:`Deviation`): an option read at a value
(``reshuffle_moment="when_emptied"``, RULES.md's reshuffle moment, F7-RESHUFFLE's other reading) or a
misreading of the game's catalogue by name; written back as the same text, so rulesets, fingerprints and
reports keep their JSON."""

from __future__ import annotations

import pytest

from flip7_spec.errors import RulesetError
from flip7_spec.misreadings import Deviation, catalogue
from flip7_spec.rulesets import preset, ruleset_from_json


def test_an_option_reading_and_a_misreading_are_told_apart_and_written_back() -> None:
    option = Deviation.parse('reshuffle_moment="when_emptied"')
    assert (option.option, option.value, option.misreading) == ("reshuffle_moment", "when_emptied", None)
    assert option.text == 'reshuffle_moment="when_emptied"' == str(option)
    assert Deviation.parse("target_score=100").value == 100, "the value is JSON: a number stays a number"
    name = next(iter(catalogue("flip7")))
    misread = Deviation.parse(name)
    assert (misread.misreading, misread.option) == (name, None) and misread.text == name
    assert Deviation.of_option("initial_deal", False).text == "initial_deal=false"


def test_a_value_that_is_not_json_is_refused_with_the_reading() -> None:
    with pytest.raises(RulesetError, match="reshuffle_moment=when_emptied"):
        Deviation.parse("reshuffle_moment=when_emptied")
    with pytest.raises(RulesetError, match="within the limits"):
        Deviation.parse("target_score=NaN")


def test_a_ruleset_plays_its_option_readings_and_lists_its_misreadings() -> None:
    name = next(iter(catalogue("flip7")))
    base = preset("flip7")
    assert base.reshuffle_moment != "when_emptied"
    written = {**base.to_json(), "deviations": ['reshuffle_moment="when_emptied"', name]}
    ruleset = ruleset_from_json(written)
    assert ruleset.readings() == (Deviation.of_option("reshuffle_moment", "when_emptied"), Deviation(name))
    assert ruleset.played().reshuffle_moment == "when_emptied"
    assert ruleset.misreadings() == (name,)
    assert ruleset.to_json()["deviations"] == written["deviations"], "the ruleset's JSON is unchanged"


def test_a_reading_equals_its_text_as_a_results_deviations_did_when_they_were_strings() -> None:
    reading = Deviation.parse('reshuffle_moment="when_emptied"')
    assert reading == 'reshuffle_moment="when_emptied"' and reading != "reshuffle_moment"
    assert "freeze_not_self" in (Deviation.parse("freeze_not_self"), reading)
    assert reading == Deviation.of_option("reshuffle_moment", "when_emptied")
    assert len({reading, Deviation.of_option("reshuffle_moment", "when_emptied")}) == 1
