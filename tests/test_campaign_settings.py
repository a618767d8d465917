"""What a campaign holds a resumed run to (flip7_spec/conformance/campaign.py, docs/campaigns.md): the arguments
that decide which cases run and what they find, as this version counts them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flip7_spec.conformance.campaign import FILE_CONTENTS, FORMAT, Campaign, CampaignError


def started_by_an_earlier_version(directory: Path, arguments: dict[str, object]) -> None:
    directory.mkdir()
    (directory / "campaign.json").write_text(json.dumps({"format": FORMAT, "arguments": arguments}), encoding="utf-8")


def test_an_argument_an_earlier_version_recorded_that_no_longer_decides_does_not_stop_a_resume(tmp_path: Path) -> None:
    """A campaign started when ``--log-protocol`` was among the deciding arguments resumes with the same
    command: the log's path decides nothing now."""
    started_by_an_earlier_version(tmp_path / "c", {"games": 4, "seed": "0", "log_path": "/x/log.jsonl"})
    Campaign.open(tmp_path / "c", {"games": 4, "seed": "0"}).close()


def test_a_deciding_argument_changed_or_a_file_changed_still_stops_it(tmp_path: Path) -> None:
    started_by_an_earlier_version(tmp_path / "c", {"games": 4, "seed": "0", FILE_CONTENTS: {"r.toml": "ab"}})
    with pytest.raises(CampaignError, match="started with other arguments: games 4 there, 5 here"):
        Campaign.open(tmp_path / "c", {"games": 5, "seed": "0", FILE_CONTENTS: {"r.toml": "ab"}})
    with pytest.raises(CampaignError, match="started with other arguments: file_contents"):
        Campaign.open(tmp_path / "c", {"games": 4, "seed": "0"})  # the ruleset file is gone from the command
