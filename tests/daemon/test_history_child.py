"""The history check and the scrub in a child process, as the daemon runs them: the runner
spawns `station.daemon.history_child` on a real journal, reads its reports and posts them to the
core's queue; a stopped scrub says where it was."""

from __future__ import annotations

import os
import time
from pathlib import Path

from station.bench.scripted import nlhe_session
from station.daemon.history_runner import HistoryRunner
from station.daemon.items import HistoryChecked, Item, ScrubProgressed
from station.journal.clock import ManualClock, SystemClock
from station.journal.codes import ActorRole
from station.journal.recorder import Recorder
from station.journal.scrub import ScrubProgress
from station.journal.store import Journal

STATION = "T09"


def _journal(path: Path, hands: int) -> Recorder:
    clock = ManualClock()
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        for item in nlhe_session(hands, seed=4).events:
            recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
    journal = Journal.open(path, clock=clock)
    again = Recorder(journal)
    again.recover()
    return again


def _wait(items: list[Item], done: object, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if any(done(i) for i in items):  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError(f"no report within {timeout_s} s: {items}")


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _wait_cpu(pid: int, more_s: float, timeout_s: float = 60.0) -> None:
    """Until process `pid` has had `more_s` more seconds of CPU."""
    start, deadline = _cpu_s(pid), time.monotonic() + timeout_s
    while _cpu_s(pid) - start < more_s:
        assert time.monotonic() < deadline, f"no {more_s} s of CPU in {timeout_s} s"
        time.sleep(0.02)


def test_the_check_and_the_scrub_run_in_a_child_and_report_to_the_core(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    recorder = _journal(path, 6)
    plan = recorder.history
    assert plan is not None
    items: list[Item] = []
    runner = HistoryRunner(path, STATION, None, items.append)
    try:
        runner.check(plan)
        _wait(items, lambda i: isinstance(i, HistoryChecked))
        (checked,) = [i for i in items if isinstance(i, HistoryChecked)]
        assert checked.report.ok and checked.report.upto_seq == plan.start[0]
        assert checked.report.rederived_rows > 0 and checked.report.anchor == plan.upto
        runner.stop()
        head = recorder.journal.head()[0]
        runner.scrub(ScrubProgress(run=7, target_seq=head), duty=1.0)
        _wait(items, lambda i: isinstance(i, ScrubProgressed) and i.progress.done)
        ended = [i.progress for i in items if isinstance(i, ScrubProgressed)][-1]
        assert ended.ok and ended.run == 7 and ended.upto_seq == head and ended.hands >= 6
    finally:
        runner.stop()
        recorder.journal.close()


def test_a_stopped_scrub_says_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    recorder = _journal(path, 60)
    head = recorder.journal.head()[0]
    recorder.journal.close()
    items: list[Item] = []
    runner = HistoryRunner(path, STATION, None, items.append)
    runner.scrub(ScrubProgress(run=3, target_seq=head), duty=0.05)  # slow: mostly resting
    _wait(items, lambda i: isinstance(i, ScrubProgressed))  # under way
    # Then let it work a little: the child runs at idle priority, so on a busy machine (the
    # suite's other workers) half a second may give it no CPU at all - wait for 50 ms of its
    # own CPU time (Linux: /proc/PID/stat), not for a time.
    assert runner._proc is not None
    _wait_cpu(runner._proc.pid, 0.05)
    runner.stop()
    found = [i.progress for i in items if isinstance(i, ScrubProgressed)]
    assert len(found) >= 2 and not found[-1].done and found[-1].run == 3
    assert 0 < found[-1].upto_seq < head  # (it got somewhere, and said so when stopped)


def test_the_floor_screens_first_fold_after_a_start_does_not_read_the_whole_journal(
    tmp_path: Path,
) -> None:
    """A start on a long journal folds the incidents of the last FLOOR_HANDS hands at most
    (and the last hands' recall, newest first through the index), never every row."""
    from station.bench.make_journal import write_journal
    from station.daemon.views import FLOOR_HANDS, FloorViews

    path = tmp_path / "long.sqlite3"
    write_journal(path, FLOOR_HANDS + 30, STATION)
    with Journal.open(path, clock=SystemClock()) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        views = FloorViews(recorder)
        start = views._first_fold()
        first, head = journal.row(start + 1), journal.row(journal.head()[0])
        assert first is not None and head is not None
        assert head.hand == FLOOR_HANDS + 31  # (the journal ends in the hand after the last)
        assert first.hand == head.hand - FLOOR_HANDS and journal.row(start) is not None
        built = views.build()
        assert built.incidents == () and len(built.hands) == 100
        ended = FLOOR_HANDS + 30
        assert [h.hand for h in built.hands] == list(range(ended, ended - 100, -1))
