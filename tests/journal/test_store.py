"""The journal store on a real SQLite file: durability settings, named migrations, append-only
rows, the gap-free chain and its anchor, row fields, clock steps, concurrent writers."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from station.journal.clock import ManualClock
from station.journal.codes import ActorRole, Code
from station.journal.exc import JournalNotFoundError, SchemaError, WrongStationError
from station.journal.rows import GENESIS_HASH, Entry, LogRow
from station.journal.schema import MIGRATIONS, PROTECTIVE_TRIGGERS, tampered_triggers
from station.journal.store import Journal

from .conftest import STATION


def _note(text: str, hand: int | None = None) -> Entry:
    return Entry(Code.CONFIG_LOADED, {"path": text}, "station", ActorRole.STATION, hand=hand)


def test_wal_and_synchronous_full(journal: Journal) -> None:
    assert journal.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_named_migrations_are_recorded_and_not_reapplied(path: Path, clock: ManualClock) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as j:
        names = [r[0] for r in j.conn.execute("SELECT name FROM migrations ORDER BY name")]
    assert names == [name for name, _ in MIGRATIONS]
    with Journal.open(path, clock=clock, station_id=STATION) as j:
        again = [r[0] for r in j.conn.execute("SELECT name FROM migrations ORDER BY name")]
    assert again == names


def test_a_journal_from_a_newer_station_is_refused(path: Path, clock: ManualClock) -> None:
    with Journal.open(path, clock=clock, station_id=STATION, create=True) as j:
        j.conn.execute("INSERT INTO migrations VALUES ('0099_future', 'x')")
    with pytest.raises(SchemaError, match="0099_future"):
        Journal.open(path, clock=clock)


def test_open_refuses_a_missing_journal_and_another_station(path: Path, clock: ManualClock) -> None:
    with pytest.raises(JournalNotFoundError):
        Journal.open(path, clock=clock)
    Journal.open(path, clock=clock, station_id=STATION, create=True).close()
    with pytest.raises(WrongStationError, match="T01"):
        Journal.open(path, clock=clock, station_id="T02")
    assert sorted(p.name for p in path.parent.iterdir() if "creating" in p.name) == []


def test_rows_are_append_only(journal: Journal, path: Path) -> None:
    journal.append([_note("a"), _note("b")])
    raw = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("UPDATE log SET actor = 'x' WHERE seq = 2")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            raw.execute("DELETE FROM log WHERE seq = 3")
        with pytest.raises(sqlite3.IntegrityError, match="extend the chain head"):
            raw.execute("INSERT INTO log SELECT * FROM log WHERE seq = 3")
        with pytest.raises(sqlite3.IntegrityError, match="follows the chain head"):
            raw.execute("UPDATE anchor SET head_seq = 1")
        with pytest.raises(sqlite3.IntegrityError, match="one row"):
            raw.execute("DELETE FROM anchor")
    finally:
        raw.close()
    assert [r.payload for r in journal.rows(2)] == ['{"path":"a"}', '{"path":"b"}']


def test_each_row_carries_the_required_fields_and_chains(journal: Journal) -> None:
    journal.clock.advance(1.5)  # type: ignore[attr-defined]
    rows = journal.append([_note("a", hand=7), _note("b")])
    first = journal.row(1)
    assert first is not None and first.code == Code.JOURNAL_CREATED
    assert first.prev_hash == GENESIS_HASH
    a, b = rows
    assert (a.seq, b.seq) == (2, 3)
    assert (a.station_id, a.boot_id, a.actor, a.role) == (
        STATION,
        "manual-boot-1",
        "station",
        "station",
    )
    assert a.recorded_utc == "2025-01-01T12:00:01.500Z"
    assert a.recorded_at_ns == 2_500_000_000
    assert a.clock_ok is True
    assert (a.hand, b.hand) == (7, 7)  # no hand given: the previous row's
    assert a.prev_hash == first.hash and b.prev_hash == a.hash
    assert a.hash == a.computed_hash() and len(a.hash) == 64
    assert journal.head() == (3, b.hash)


def test_sequence_is_gap_free_across_restarts(path: Path, clock: ManualClock) -> None:
    for boot in range(4):
        clock.reboot(f"boot-{boot}", down_s=30)
        with Journal.open(path, clock=clock, station_id=STATION, create=True) as j:
            j.append([_note(f"{boot}-{i}") for i in range(boot + 1)])
    with Journal.open(path, clock=clock) as j:
        rows = list(j.rows())
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    assert {r.boot_id for r in rows[1:]} == {f"boot-{b}" for b in range(4)}
    assert all(r.prev_hash == p.hash for p, r in itertools.pairwise(rows))


def test_a_failed_transaction_leaves_nothing(journal: Journal) -> None:
    head = journal.head()

    def half_written() -> None:
        with journal.transaction() as txn:
            txn.add(_note("half"))
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        half_written()
    assert journal.head() == head
    assert journal.append([_note("next")])[0].seq == head[0] + 1


def test_a_wall_clock_step_is_journaled(journal: Journal, clock: ManualClock) -> None:
    journal.append([_note("before")])
    clock.advance(0.5)
    journal.append([_note("small drift is no step")])
    clock.step_utc(-3.0)
    rows = journal.append([_note("after")])
    assert [r.code for r in rows] == [Code.CLOCK_STEP, Code.CONFIG_LOADED]
    assert rows[0].data() == {"step_s": -3.0}


def test_clock_ok_false_when_the_clock_is_not_synchronised(
    journal: Journal, clock: ManualClock
) -> None:
    clock.is_synced = False
    assert journal.append([_note("x")])[0].clock_ok is False


def test_another_writer_keeps_the_chain_and_is_heard(path: Path, clock: ManualClock) -> None:
    heard: list[tuple[int, bool]] = []
    with (
        Journal.open(path, clock=clock, station_id=STATION, create=True) as daemon,
        Journal.open(path, clock=clock) as cli,
    ):
        daemon.subscribe(lambda row, own: heard.append((row.seq, own)))
        daemon.append([_note("daemon 1")])
        cli.append([_note("cli 1"), _note("cli 2")])
        daemon.append([_note("daemon 2")])
        assert [r.seq for r in cli.poll()] == [5]
        rows: list[LogRow] = list(daemon.rows())
    assert heard == [(2, True), (3, False), (4, False), (5, True)]
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5]


def test_every_protective_trigger_is_in_place(journal: Journal) -> None:
    assert tampered_triggers(journal.conn) == []
    assert len(PROTECTIVE_TRIGGERS) == 10
