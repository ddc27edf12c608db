"""A raked table in the journal: the schedule and each hand's rake are journaled, a restart
replays them to the same rows, recall shows the rake and PHH export carries it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from station.formats.session import read_session
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.phh.export import hand_to_phh
from station.recall.hands import load_hand

from .conftest import STATION

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "MISC-TIME-COLLECTION"


def record(journal: Journal, name: str) -> None:
    recorder = Recorder(journal)
    recorder.recover()
    for line in read_session(SCENARIOS / name).lines:
        recorder.record(line.event, actor="table", role=ActorRole.DEVICE, at=line.t)


def test_a_raked_hand_is_journaled_replayed_recalled_and_exported(
    journal: Journal, path: Path, clock: ManualClock
) -> None:
    record(journal, "gn_rake_stops_at_the_six_dollar_maximum.jsonl")
    clock.reboot("boot-2", down_s=5)
    with Journal.open(path, clock=clock, station_id=STATION) as again:
        rec = Recorder(again)
        rec.recover(strict=True, use_resume=False)  # strict: the same rows, rake included
        assert rec.last_recovery is not None and rec.last_recovery.ok
        recall = load_hand(again, 1)
    assert recall is not None and recall.hand_end is not None
    assert recall.hand_end.rake is not None and recall.hand_end.rake.total == 6
    assert any(s.text == "prompt: DROP 6" for s in recall.steps)
    assert any(s.text.endswith("; rake 6") for s in recall.steps)
    phh = tomllib.loads(hand_to_phh(recall))
    assert phh["_rake"] == 6
    assert sum(phh["finishing_stacks"]) == 600 - 6  # after the rake (PHH: post-rake winnings)


def test_time_collected_is_exported_per_player(journal: Journal) -> None:
    record(journal, "rr11_time_collected_from_each_player_before_the_deal.jsonl")
    recall = load_hand(journal, 1)
    assert recall is not None
    phh = tomllib.loads(hand_to_phh(recall))
    assert phh["_rake"] == 0 and phh["_time_collected"] == [5, 5, 5]
