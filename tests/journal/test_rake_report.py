"""`station report rake`: the house's take per table, gaming day, shift and dealer signed in,
from the journal (hand ends carry their rake; logins say who dealt; wrong drops counted)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from station.cli import main
from station.daemon.operations import StationOps
from station.engine.events import Key, KeyPress
from station.formats.session import SessionLine, read_session
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.recall.rake_report import Calendar, Window, parse_shifts, report, takes

from .conftest import PINS, STATION

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "MISC-TIME-COLLECTION"
# Hand 1 rakes 2 (dropped right), hand 2 rakes 3 (5 dropped: a wrong drop).
WRONG_DROP = SCENARIOS / "gn_wrong_drop_is_a_floor_matter.jsonl"
# Hand 1 and hand 3 collect 5 from each of three seats; no pot is raked.
TIMED = SCENARIOS / "rr11_time_collected_from_each_player_before_the_deal.jsonl"


def _hands(lines: tuple[SessionLine, ...]) -> list[list[SessionLine]]:
    """The session cut before each NEW_HAND after the first (so a test can act between)."""
    parts: list[list[SessionLine]] = [[]]
    dealt = False
    for line in lines:
        if isinstance(line.event, KeyPress) and line.event.key is Key.NEW_HAND:
            if dealt:
                parts.append([])
            dealt = True
        parts[-1].append(line)
    return parts


@pytest.fixture
def played(staffed: Journal, clock: ManualClock) -> Journal:
    """Dan deals the wrong-drop session, its second hand eight hours later (the next shift);
    then nobody is signed in for the time game's three hands."""
    recorder = Recorder(staffed)
    recorder.recover()
    ops = StationOps(recorder)
    ops.login("dan", PINS["dan"])
    first, second = _hands(read_session(WRONG_DROP).lines)
    for line in first:
        recorder.record(line.event, actor="table", role=ActorRole.DEVICE, at=line.t)
    clock.advance(8 * 3600)
    for line in second:
        recorder.record(line.event, actor="table", role=ActorRole.DEVICE, at=line.t)
    ops.logout("dan")
    clock.advance(3600)
    for line in read_session(TIMED).lines:
        recorder.record(line.event, actor="table", role=ActorRole.DEVICE, at=line.t)
    recorder.finish(actor="table", role=ActorRole.DEVICE)
    return staffed


SHIFTS = Calendar(ZoneInfo("UTC"), parse_shifts("06:00,14:00,22:00"))


def test_the_take_per_day_shift_and_dealer(played: Journal) -> None:
    """The clock starts 2025-01-01 12:00 UTC: hand 1 in the 06:00 shift, hand 2 at 20:00 in the
    14:00 shift, the time game from 21:00 (still 14:00's), all on the gaming day of the 1st. The
    table's rake zone (seen in the first session) stayed empty while the time game collected
    its time in its first and third hands: two more wrong drops."""
    got = report(takes(played.rows(), STATION), SHIFTS, Window()).as_rows()
    assert got == [
        {"table": STATION, "day": "2025-01-01", "shift": "06:00", "dealer": "dan", "hands": 1,
         "hands_raked": 1, "pots_raked": 1, "rake": 2, "time": 0, "wrong_drops": 0},
        {"table": STATION, "day": "2025-01-01", "shift": "14:00", "dealer": "-", "hands": 3,
         "hands_raked": 0, "pots_raked": 0, "rake": 0, "time": 30, "wrong_drops": 2},
        {"table": STATION, "day": "2025-01-01", "shift": "14:00", "dealer": "dan", "hands": 1,
         "hands_raked": 1, "pots_raked": 1, "rake": 3, "time": 0, "wrong_drops": 1},
    ]  # fmt: skip


def test_a_window_and_fewer_dimensions(played: Journal) -> None:
    evening = Window(datetime(2025, 1, 1, 19, tzinfo=UTC), None)
    got = report(takes(played.rows(), STATION), SHIFTS, evening, ("dealer",)).as_rows()
    assert [(r["dealer"], r["hands"], r["rake"], r["time"]) for r in got] == [
        ("-", 3, 0, 30),
        ("dan", 1, 3, 0),
    ]


def test_the_gaming_day_begins_with_the_first_shift() -> None:
    vegas = Calendar(ZoneInfo("America/Los_Angeles"), parse_shifts("22:00,06:00,14:00"))
    assert vegas.shifts == (time(6), time(14), time(22))
    # 2025-01-02 10:00 UTC is 02:00 in Las Vegas: the night shift of the 1st.
    day, shift = vegas.place(datetime(2025, 1, 2, 10, tzinfo=UTC))
    assert (day.isoformat(), shift) == ("2025-01-01", "22:00")
    day, shift = vegas.place(datetime(2025, 1, 2, 15, tzinfo=UTC))  # 07:00 local
    assert (day.isoformat(), shift) == ("2025-01-02", "06:00")
    with pytest.raises(ValueError, match="'6am' is not a time of day"):
        parse_shifts("6am")


def test_station_report_rake_as_csv_json_and_text(
    played: Journal, path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played.close()
    base = ["report", "rake", "--journal", str(path), "--tz", "UTC"]
    assert main([*base, "--format", "csv", "--by", "dealer"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["dealer"], r["hands"], r["rake"], r["time"], r["wrong_drops"]) for r in rows] == [
        ("-", "3", "0", "30", "2"),
        ("dan", "2", "5", "0", "1"),
    ]
    assert main([*base, "--format", "json", "--from", "2025-01-01", "--to", "2025-01-01"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["tables"] == [STATION] and doc["tz"] == "UTC"
    assert doc["total"] == {"hands": 5, "hands_raked": 2, "pots_raked": 2, "rake": 5,
                            "time": 30, "wrong_drops": 3}  # fmt: skip
    assert main([*base, "--from", "2025-01-02"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-1].split() == ["total", "0", "0", "0", "0", "0", "0"]
    assert main([*base, "--by", "table"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[1].split() == ["table", "hands", "raked", "pots", "rake", "time", "wrong", "drops"]
    assert text[2].split() == [STATION, "5", "2", "2", "5", "30", "3"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--tz", "Mars/Olympus"], "unknown time zone"),
        (["--shifts", "6am"], "--shifts"),
        (["--by", "seat"], "--by"),
        (["--from", "yesterday"], "--from"),
    ],
)
def test_bad_arguments_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    """Checked before any journal is opened."""
    assert main(["report", "rake", "--journal", str(tmp_path / "j.sqlite"), *extra]) == 2
    assert message in capsys.readouterr().err


def test_no_journal_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "rake", "--journal", str(tmp_path / "none.sqlite")]) == 2
    assert "no journal" in capsys.readouterr().err
