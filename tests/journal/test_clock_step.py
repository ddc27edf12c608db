"""The wall clock: a clock behind the last wall time the station recorded (it went back while
the station was off, or the machine woke up in 1993) is a journaled `clock.step` at start and a
diagnostics warning; the time-sync state of every row comes from the kernel's own flag."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from station.daemon.views import diagnostics
from station.journal.clock import ManualClock, SystemClock, kernel_clock_synced
from station.journal.codes import ActorRole, Code
from station.journal.recorder import Recorder
from station.journal.rows import Entry
from station.journal.store import Journal

from .conftest import STATION


def _start(path: Path, clock: ManualClock) -> tuple[list[dict[str, object]], str]:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        steps = [r.data() for r in journal.rows(codes={Code.CLOCK_STEP})]
        words = diagnostics(recorder, (), {}, None).platform.clock_warning
        return steps, words


def _note(journal: Journal) -> None:
    journal.append([Entry(Code.CONFIG_LOADED, {"path": "x"}, "station", ActorRole.STATION)])


def test_a_clock_that_went_back_while_the_station_was_off_is_a_journaled_step(
    path: Path,
) -> None:
    clock = ManualClock()
    assert _start(path, clock) == ([], "")
    clock.reboot("boot-2", down_s=-3 * 3600)  # off, and the clock is now 3 h behind
    steps, words = _start(path, clock)
    assert len(steps) == 1
    assert steps[0]["step_s"] == -3 * 3600
    assert steps[0]["last_utc"] == "2025-01-01T12:00:00.000Z"
    assert words == "BEHIND THE JOURNAL BY 3.0 H"


def test_a_reboot_into_1993_is_seen_against_the_witness_time(path: Path) -> None:
    """The last row may be old (an idle table): the daemon refreshes the witness's wall time
    every minute, and the start compares with the later of the two."""
    clock = ManualClock()
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        _note(journal)
        clock.advance(7200)  # two idle hours, no row: the witness keeps the time
        journal.touch_witness()
    clock.reboot("boot-2", down_s=-3600)  # an hour behind the witness, an hour after the row
    steps, words = _start(path, clock)
    assert [s["last_utc"] for s in steps] == ["2025-01-01T14:00:00.000Z"]
    assert words == "BEHIND THE JOURNAL BY 1.0 H"
    clock2 = ManualClock(start_utc=datetime(1993, 1, 1, tzinfo=UTC), boot="boot-3")
    steps, words = _start(path, clock2)
    assert steps[-1]["now_utc"] == "1993-01-01T00:00:00.000Z"
    assert words.startswith("BEHIND THE JOURNAL BY ")


def test_a_clock_that_moved_on_is_no_step(path: Path) -> None:
    clock = ManualClock()
    _start(path, clock)
    clock.reboot("boot-2", down_s=600)
    assert _start(path, clock) == ([], "")


def test_clock_ok_comes_from_the_kernel_by_default(path: Path) -> None:
    kernel = kernel_clock_synced()
    assert SystemClock().synced() is (kernel is True)
    assert SystemClock(lambda: False).synced() is False
    with Journal.open(path, clock=SystemClock(), station_id=STATION, create=True) as journal:
        _note(journal)
        rows = list(journal.rows())
    assert {r.clock_ok for r in rows} == {kernel is True}
