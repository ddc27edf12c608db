"""The central store anchors each station's chain (docs/performance.md:
"journal rollback ... detected at the station's start and centrally"): a journal put
back to an older state, or rewritten, is flagged by the ingest (an alarm row) and by the
station's forwarder at its next start (which the daemon turns into a critical tilt)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from station.fleet.forwarder import AlarmKind, FleetAlarm, FleetState
from station.journal.clock import SystemClock
from station.journal.store import Journal
from tests.fleet.conftest import SITE, RunningIngest, append, forwarder, new_journal, wait_until

ROOT = Path(__file__).resolve().parents[2]


def forward_all(services: Any, path: Path, journal: Journal, station: str) -> None:
    fwd = forwarder(services, path, station)
    fwd.start()
    try:
        head = journal.head()[0]
        wait_until(lambda: fwd.status().acked_seq == head, what="every row acked")
    finally:
        fwd.stop()


def start_again(services: Any, path: Path, station: str) -> tuple[Any, list[FleetAlarm]]:
    alarms: list[FleetAlarm] = []
    fwd = forwarder(services, path, station, on_alarm=alarms.append)
    fwd.start()
    wait_until(lambda: bool(alarms), what="the station's alarm")
    return fwd, alarms


def open_alarms(ingest: RunningIngest, station: str) -> list[tuple[Any, ...]]:
    return ingest.query(
        "SELECT kind, seq FROM alarms WHERE station_id = %s AND cleared_at IS NULL ORDER BY id",
        (station,),
    )


def test_an_older_copy_put_back_is_a_rollback_centrally_and_at_the_next_start(
    services: Any, ingest: RunningIngest, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite"
    journal = new_journal(path, "T01")
    append(journal, 20)
    journal.close()  # merges the WAL: the file alone is the journal
    shutil.copy(path, tmp_path / "older.sqlite")
    journal = Journal.open(path, clock=SystemClock(), station_id="T01")
    append(journal, 30)
    forward_all(services, path, journal, "T01")
    central_head = journal.head()[0]
    journal.close()

    shutil.copy(tmp_path / "older.sqlite", path)  # the technician restores last week's copy
    journal = Journal.open(path, clock=SystemClock(), station_id="T01")
    assert journal.head()[0] < central_head
    fwd, alarms = start_again(services, path, "T01")
    try:
        assert alarms[0].kind is AlarmKind.ROLLBACK
        assert alarms[0].seq == central_head
        # the alarm is called from inside the forwarder's step; the status it shows is published
        # at the end of that step
        wait_until(lambda: fwd.status().state is FleetState.FORKED, what="FORKED shown")
        wait_until(lambda: ("rollback", journal.head()[0]) in open_alarms(ingest, "T01"))
    finally:
        fwd.stop()
        journal.close()


def test_a_deleted_wal_after_kill_9_is_a_rollback_centrally_and_at_the_next_start(
    services: Any, ingest: RunningIngest, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite"
    ident = services.broker.identity("T02")
    child = subprocess.Popen(
        [
            sys.executable, "-m", "tests.fleet.wal_child", str(path), "T02", "40", "127.0.0.1",
            str(services.broker.port), str(ident.ca), str(ident.cert), str(ident.key), SITE,
        ],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.startswith("acked "), line
        acked = int(line.split()[1])
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
        if child.stdout is not None:
            child.stdout.close()
    wal = path.with_name(path.name + "-wal")
    assert wal.exists()
    wal.unlink()
    path.with_name(path.name + "-shm").unlink(missing_ok=True)

    journal = Journal.open(path, clock=SystemClock(), station_id="T02")
    assert journal.head()[0] < acked  # the rows in the WAL are gone, silently
    fwd, alarms = start_again(services, path, "T02")
    try:
        assert alarms[0].kind is AlarmKind.ROLLBACK
        assert alarms[0].seq == acked
        wait_until(lambda: any(k == "rollback" for k, _ in open_alarms(ingest, "T02")))
    finally:
        fwd.stop()
        journal.close()


def test_a_rewritten_history_is_a_fork_centrally_and_at_the_station(
    services: Any, ingest: RunningIngest, tmp_path: Path
) -> None:
    """Another journal under the same station id (a rewritten file): the same seqs with other
    hashes. The centre keeps its chain, stores the offered row as evidence and alarms."""
    original = tmp_path / "original.sqlite"
    journal = new_journal(original, "T03")
    append(journal, 10)
    forward_all(services, original, journal, "T03")
    stored_head = journal.head()
    journal.close()

    forged = tmp_path / "forged.sqlite"
    other = new_journal(forged, "T03")
    append(other, 15, step_s=1.0)  # other times: other hashes from the first rows on
    fwd, alarms = start_again(services, forged, "T03")
    try:
        assert alarms[0].kind is AlarmKind.FORK
        wait_until(lambda: any(k == "fork" for k, _ in open_alarms(ingest, "T03")))
        heads = ingest.query("SELECT head_seq, head_hash FROM stations WHERE station_id = 'T03'")
        assert heads == [stored_head]  # the centre kept its chain
        assert (
            ingest.query("SELECT count(*) FROM conflict_rows WHERE station_id = 'T03'")[0][0] >= 1
        )
    finally:
        fwd.stop()
        other.close()
