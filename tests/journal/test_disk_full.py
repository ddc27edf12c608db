"""A full disk, on a real small file system (tests/smallfs.py): a commit that cannot be written
loses nothing already committed, the recorder stays in step with the journal and goes on once
there is room again; `journal verify` on a full disk says "cannot read: disk full" (exit 2),
never that the journal was tampered with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from station.bench.crashcheck import snapshot_digest
from station.bench.scripted import nlhe_session
from station.journal.clock import ManualClock
from station.journal.codes import INPUT_CODES, ActorRole
from station.journal.exc import JournalWriteError
from station.journal.recorder import Recorder
from station.journal.store import Journal
from station.journal.verify import verify_file
from tests.smallfs import fill, small_fs

from .conftest import STATION, station

CHILD = """
import os, sys
from station.journal import ActorRole, Journal, ManualClock, Recorder
from station.bench.scripted import nlhe_session
journal = Journal.open(sys.argv[1], clock=ManualClock(), station_id="T01", create=True)
recorder = Recorder(journal)
recorder.recover()
for item in nlhe_session(2, seed=5).events[:40]:
    recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
os._exit(0)  # killed: the WAL and SHM stay behind
"""


def test_verify_on_a_full_disk_says_cannot_read_never_tampered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with small_fs(tmp_path / "fs") as fs:
        path = fs / "journal.sqlite"
        subprocess.run([sys.executable, "-c", CHILD, str(path)], check=True, timeout=60)
        path.with_name("journal.sqlite-shm").unlink()  # reading the WAL must rebuild it
        assert verify_file(path).ok
        path.with_name("journal.sqlite-shm").unlink()
        filler = fill(fs)
        assert station("journal", "verify", "--journal", str(path)) == 2
        captured = capsys.readouterr()
        assert "TAMPERED" not in captured.out
        assert captured.err.startswith(f"station journal: cannot read {path}: disk full")
        filler.unlink()
        assert station("journal", "verify", "--journal", str(path)) == 0


def _digest(journal: Journal, recorder: Recorder) -> str:
    ordinal_of = {r.seq: i + 1 for i, r in enumerate(journal.rows(codes=INPUT_CODES))}
    return snapshot_digest(recorder.snapshot(), ordinal_of)


def test_a_commit_the_disk_cannot_hold_loses_nothing_and_recording_goes_on(
    tmp_path: Path,
) -> None:
    events = nlhe_session(3, seed=5).events
    with Journal.open(
        tmp_path / "reference.sqlite", clock=ManualClock(), station_id=STATION, create=True
    ) as reference:
        uninterrupted = Recorder(reference)
        uninterrupted.recover()
        for item in events:
            uninterrupted.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
        wanted = _digest(reference, uninterrupted)
    with small_fs(tmp_path / "fs") as fs:
        path = fs / "journal.sqlite"
        with Journal.open(path, clock=ManualClock(), station_id=STATION, create=True) as journal:
            recorder = Recorder(journal)
            recorder.recover()
            fed = 0
            for item in events[:30]:
                recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
                fed += 1
            before = [(r.seq, r.hash) for r in journal.rows()]
            filler = fill(fs)
            failure: JournalWriteError | None = None
            while failure is None and fed < len(events):
                item = events[fed]
                try:
                    recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
                except JournalWriteError as exc:
                    failure = exc
                else:
                    fed += 1
            assert failure is not None and "full" in str(failure)
            # Every input before the one that failed is committed, that one is not, and nothing
            # committed before the disk filled changed.
            assert sum(1 for _ in journal.rows(codes=INPUT_CODES)) == fed
            assert [(r.seq, r.hash) for r in journal.rows()][: len(before)] == before
            filler.unlink()
            for item in events[fed:]:  # the failed input again, then the rest
                recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)
            assert _digest(journal, recorder) == wanted  # the engine never went out of step
        assert verify_file(path).ok
