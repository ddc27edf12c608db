"""The head witness: a journal that is shorter or older than it was is detected, at the next
write (a critical tilt saying what was lost) and by `journal verify` (exit 1), never silently
continued. Real files, real SQLite, a real child process killed with SIGKILL.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from station.bench.scripted import nlhe_session
from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code, TiltCode
from station.journal.recorder import Recorder
from station.journal.rows import GENESIS_HASH, Entry
from station.journal.store import Journal
from station.journal.verify import verify_file
from station.journal.witness import SLOT, FileWitness, Head, judge, witness_path

from .conftest import STATION, station


def _record(journal: Journal, clock: ManualClock, hands: int = 2) -> None:
    recorder = Recorder(journal)
    recorder.recover()
    for item in nlhe_session(hands, seed=5).events:
        clock.advance(0.5)
        recorder.record(item.event, actor="table", role=ActorRole.DEVICE, at=item.t)


def _tilts(journal: Journal) -> list[dict[str, object]]:
    return [r.data() for r in journal.rows(codes={Code.TILT_RAISED})]


# --- the file ------------------------------------------------------------------------------------


def test_the_witness_follows_every_commit_and_is_owner_only(
    journal: Journal, clock: ManualClock
) -> None:
    _record(journal, clock, 1)
    known = FileWitness(witness_path(journal.path)).read()
    assert known is not None
    assert (known.seq, known.hash, known.station_id) == (*journal.head(), STATION)
    assert stat.S_IMODE(witness_path(journal.path).stat().st_mode) == 0o600


def test_a_torn_slot_falls_back_to_the_other(tmp_path: Path) -> None:
    w = FileWitness(tmp_path / "w-head")
    w.write(Head(5, "a" * 64, 1, "2025-01-01T00:00:00.000Z", "T01"))
    w.write(Head(6, "b" * 64, 1, "2025-01-01T00:00:01.000Z", "T01"))
    newest = w.read()
    assert newest is not None and newest.seq == 6
    with open(w.path, "r+b") as f:  # a power cut in the middle of the next write of slot n%2
        f.seek((newest.n % 2) * SLOT + 10)
        f.write(b"\0garbage")
    survivor = w.read()
    assert survivor is not None and survivor.seq == 5


def test_the_witness_never_moves_back_unless_forced(tmp_path: Path) -> None:
    w = FileWitness(tmp_path / "w-head")
    assert w.write(Head(9, "a" * 64, 2, "2025-01-01T00:00:00.000Z", "T01"))
    assert not w.write(Head(8, "b" * 64, 2, "2025-01-01T00:00:05.000Z", "T01"))
    assert w.read() == Head(9, "a" * 64, 2, "2025-01-01T00:00:00.000Z", "T01", 1, w.name)
    assert w.write(Head(8, "b" * 64, 2, "2025-01-01T00:00:05.000Z", "T01"), force=True)
    found = w.read()
    assert found is not None and found.seq == 8


def test_judge_names_the_rows_lost_and_a_rewritten_head() -> None:
    hashes = {1: "h1", 2: "h2", 3: "h3"}
    known = Head(7, "h7", hand=4, utc="2025-01-01T00:00:00.000Z", source="W")
    lost = judge(3, "h3", hashes.get, known, head_hand=1)
    assert lost is not None
    assert (lost.seq, lost.lost_from, lost.lost_to, lost.lost_rows) == (4, 4, 7, 4)
    assert "4 row(s) lost, seq 4-7 (hands 1-4" in lost.detail
    assert judge(3, "h3", hashes.get, Head(2, "h2")) is None  # the journal went on: fine
    assert judge(3, "h3", hashes.get, Head(3, "h3")) is None
    rewritten = judge(3, "hX", hashes.get, Head(3, "h3"))
    assert rewritten is not None and rewritten.seq == 3 and "rewritten" in rewritten.detail
    assert judge(0, GENESIS_HASH, hashes.get, Head(0, GENESIS_HASH)) is None


# --- at the next write: a critical tilt ----------------------------------------------------------


def test_an_older_copy_restored_is_a_critical_tilt_naming_what_was_lost(
    path: Path, clock: ManualClock
) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        _record(journal, clock, 1)
        journal.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        backup = path.with_name("backup.sqlite3")
        shutil.copyfile(path, backup)
        old_head = journal.head()[0]
        _record(journal, clock, 2)  # (a second recorder: the same scripted table again)
        head = journal.head()[0]
    os.replace(backup, path)
    with Journal.open(path, clock=clock, station_id=STATION) as journal:
        recorder = Recorder(journal)
        recorder.recover()
        state = recorder.op_state()
        tilt = state.tilts[TiltCode.JOURNAL_INTEGRITY.value]
        assert tilt.critical and state.why_play_stops
        assert f"{head - old_head} row(s) lost, seq {old_head + 1}-{head}" in tilt.detail
        assert tilt.detail.startswith("journal shorter than it was")
        rows_after = journal.head()[0]
    report = verify_file(path)
    assert not report.ok and report.first_bad_seq == old_head + 1
    # Once on record it stays so, and the witness follows the journal from here on: a further
    # start does not say it again.
    with Journal.open(path, clock=clock, station_id=STATION) as journal:
        journal.append([Entry(Code.CONFIG_LOADED, {"path": "x"}, "station", ActorRole.STATION)])
        assert journal.head()[0] == rows_after + 1
    assert not verify_file(path).ok


def test_the_wal_deleted_after_kill_9_is_detected_by_verify_and_at_start(tmp_path: Path) -> None:
    """The issue's case: a real process killed with SIGKILL, then its WAL and SHM deleted."""
    path = tmp_path / "journal.sqlite"
    child = subprocess.Popen(
        [sys.executable, "-m", "station.bench.crash_child", "--journal", str(path),
         "--hands", "12", "--seed", "3"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("go 100\n")
    child.stdin.flush()
    acked = 0
    while acked < 100:
        acked += child.stdout.readline().startswith("ack ")
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdin.close()
    child.stdout.close()
    before = verify_file(path)
    assert before.ok, before.problems
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink()
    report = verify_file(path)
    assert not report.ok
    assert report.problems[0].text.startswith("journal shorter than it was")
    assert station("journal", "verify", "--journal", str(path)) == 1
    with Journal.open(path, clock=ManualClock(), station_id="crash-table") as journal:
        recorder = Recorder(journal)
        recorder.recover()
        tilt = recorder.op_state().tilts[TiltCode.JOURNAL_INTEGRITY.value]
        assert tilt.critical and "lost" in tilt.detail


def test_a_deleted_journal_starts_again_with_the_loss_on_record(
    path: Path, clock: ManualClock
) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        _record(journal, clock, 1)
        head = journal.head()[0]
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    assert station("journal", "verify", "--journal", str(path)) == 2  # no journal
    assert station("journal", "init", "--journal", str(path), "--station", STATION) == 2
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        tilts = _tilts(journal)
    assert len(tilts) == 1 and f"recorded head seq {head}" in str(tilts[0]["detail"])
    assert not verify_file(path).ok  # the new journal carries it


def test_a_missing_witness_is_on_record_and_fails_verify(path: Path, clock: ManualClock) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        _record(journal, clock, 1)
    witness_path(path).unlink()
    report = verify_file(path)
    assert not report.ok and "head witness" in report.problems[0].text
    assert "is missing (the journal keeps one since seq 1)" in report.problems[0].text
    with Journal.open(path, clock=clock, station_id=STATION) as journal:
        journal.append([Entry(Code.CONFIG_LOADED, {"path": "x"}, "station", ActorRole.STATION)])
        assert "missing" in str(_tilts(journal)[0]["detail"])
    assert witness_path(path).exists()  # kept again from here


def test_a_journal_from_before_the_witness_starts_one_without_alarm(
    path: Path, clock: ManualClock
) -> None:
    """A journal made before this version: no witness and no row saying one is kept."""
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        _record(journal, clock, 1)
    conn = sqlite3.connect(path, isolation_level=None)  # as the old code wrote row 1
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE log SET payload = ? WHERE seq = 1", ('{"format":1,"station_id":"T01"}',))
    conn.close()
    witness_path(path).unlink()
    notes = verify_file(path).notes
    assert notes and "no head witness" in notes[0]
    with Journal.open(path, clock=clock, station_id=STATION) as journal:
        codes = [r.code for r in journal.rows(journal.head()[0] - 3)]
    assert Code.WITNESS_STARTED in codes
    assert witness_path(path).exists()


def test_a_head_known_elsewhere_catches_a_rewrite_of_journal_and_witness_together(
    path: Path, clock: ManualClock
) -> None:
    """Beyond a local check, what the fleet's central head adds (`Journal.check_head`)."""
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        _record(journal, clock, 1)
        central = Head(*journal.head(), source="the central store")
        journal.append([Entry(Code.CONFIG_LOADED, {"path": "x"}, "station", ActorRole.STATION)])
        assert journal.check_head(central) is None  # the journal went on from it: fine
    conn = sqlite3.connect(path, isolation_level=None)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DELETE FROM log WHERE seq > 20")
    seq, digest = conn.execute("SELECT seq, hash FROM log WHERE seq = 20").fetchone()
    conn.execute("UPDATE anchor SET head_seq = ?, head_hash = ?", (seq, digest))
    for _, sql in triggers:
        conn.execute(sql)
    conn.close()
    FileWitness(witness_path(path)).write(Head(seq, digest, 1, "", STATION), force=True)
    assert verify_file(path).ok  # consistent in itself: no local check can tell
    assert not verify_file(path, heads=[central]).ok
    given = f"{central.seq}:{central.hash}"
    assert station("journal", "verify", "--journal", str(path), "--head", given) == 1
    with Journal.open(path, clock=clock, station_id=STATION) as journal:
        found = journal.check_head(central)
        assert found is not None and found.lost_rows == central.seq - 20
        assert TiltCode.JOURNAL_INTEGRITY.value in {str(t["tilt"]) for t in _tilts(journal)}


# --- verify never writes -------------------------------------------------------------------------


def _md5(p: Path) -> str | None:
    return hashlib.md5(p.read_bytes()).hexdigest() if p.exists() else None


def test_verify_reads_a_live_journal_without_merging_its_wal(
    journal: Journal, clock: ManualClock
) -> None:
    _record(journal, clock, 1)  # the journal stays open: its WAL holds the rows
    files = [journal.path, journal.path.with_name(journal.path.name + "-wal")]
    before = [_md5(p) for p in files]
    assert verify_file(journal.path).ok
    assert station("journal", "verify", "--journal", str(journal.path)) == 0
    assert [_md5(p) for p in files] == before


def test_verify_of_a_closed_journal_creates_nothing_beside_it(
    path: Path, clock: ManualClock
) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as journal:
        _record(journal, clock, 1)
    listing = sorted(p.name for p in path.parent.iterdir())
    before = _md5(path)
    assert verify_file(path).ok
    assert sorted(p.name for p in path.parent.iterdir()) == listing
    assert _md5(path) == before


def test_the_witness_is_flushed_off_the_commit_path_and_on_close(
    journal: Journal, clock: ManualClock
) -> None:
    """Written in the committing thread (current at once, survives kill -9), fdatasynced on a
    thread of its own (a power cut), and flushed before close returns."""
    _record(journal, clock, 1)
    syncer = journal._syncer
    assert syncer is not None and syncer._thread.is_alive()
    journal.close()
    assert syncer.syncs >= 1 and not syncer._thread.is_alive()
    known = FileWitness(witness_path(journal.path)).read()
    assert known is not None and known.seq > 1
