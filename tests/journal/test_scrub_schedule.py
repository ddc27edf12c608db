"""When the scrub runs: the newest `station.scrub` row decides (an unfinished run of this code
goes on, a finished one is followed `every_h` hours after it began, at once after an upgrade);
the first run of a journal is due `every_h` hours after its first row."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from station.journal.codes import ActorRole, Code
from station.journal.rows import Entry, LogRow, seal
from station.journal.scrub import ScrubProgress, due, progress_entries

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
CODE = "c" * 64


def _row(progress: ScrubProgress, utc: str) -> tuple[LogRow, ScrubProgress]:
    entry = Entry(Code.SCRUB, progress.to_dict(), "station", ActorRole.STATION)
    row = seal(
        seq=progress.run or 1,
        station_id="T01",
        boot_id="b",
        recorded_utc=utc,
        recorded_at_ns=0,
        clock_ok=True,
        hand=0,
        entry=entry,
        prev_hash="0" * 64,
    )
    return row, ScrubProgress.from_dict(row.data())


def _due(last: tuple[LogRow, ScrubProgress] | None, **kw: object) -> ScrubProgress | None:
    args: dict[str, object] = {
        "now": NOW,
        "every_h": 24,
        "after_upgrade": True,
        "running": CODE,
        "head_seq": 900,
        "journal_began": NOW - timedelta(hours=2),
    }
    args.update(kw)
    return due(last, **args)  # type: ignore[arg-type]


def test_the_first_run_is_due_a_period_after_the_journal_began() -> None:
    assert _due(None) is None
    fresh = _due(None, journal_began=NOW - timedelta(hours=25))
    assert fresh is not None and fresh.run == 0 and fresh.target_seq == 900
    assert _due(None, journal_began=NOW - timedelta(days=9), every_h=0) is None


def test_a_finished_run_is_followed_a_period_after_it_began() -> None:
    began = (NOW - timedelta(hours=23)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    done = ScrubProgress(run=5, target_seq=400, upto_seq=400, done=True, engine=CODE)
    last = _row(replace(done, started_utc=began), began)
    assert _due(last) is None
    assert _due(last, now=NOW + timedelta(hours=2)) is not None
    assert _due(last, running="d" * 64) is not None  # an upgrade: at once
    assert _due(last, running="d" * 64, after_upgrade=False) is None


def test_an_unfinished_run_of_this_code_goes_on_and_one_of_another_starts_afresh() -> None:
    began = NOW.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    going = ScrubProgress(run=5, target_seq=400, upto_seq=200, resume_seq=190, engine=CODE)
    last = _row(going, began)
    again = _due(last)
    assert again is not None and (again.run, again.resume_seq) == (5, 190)
    other = _due(last, running="d" * 64)
    assert other is not None and (other.run, other.resume_seq) == (0, 0)


def test_a_run_that_ends_with_a_mismatch_raises_a_critical_tilt_and_drift_does_not() -> None:
    mismatch = ScrubProgress(run=1, target_seq=9, done=True, mismatches=2, first_mismatch="x")
    assert [e.code for e in progress_entries(mismatch)] == [Code.SCRUB, Code.TILT_RAISED]
    drift = ScrubProgress(run=1, target_seq=9, done=True, drift=5)
    assert [e.code for e in progress_entries(drift)] == [Code.SCRUB]
    damaged = ScrubProgress(run=1, target_seq=9, done=True, integrity=("page 4: bad",))
    (_, tilt) = progress_entries(damaged)
    assert (
        tilt.payload["tilt"] == "journal_integrity" and "integrity_check" in tilt.payload["detail"]
    )
