"""The journal store: one SQLite file, one connection, append-only chained rows. Edge adapter.

`Journal.open` sets WAL and `synchronous=FULL`, applies the named migrations and checks that the
file belongs to this station. Every write goes through `Journal.transaction()` (or `append`, its
short form): `BEGIN IMMEDIATE`, read the chain head (the last row), insert the sealed rows,
`COMMIT`. Only after the commit returns does the caller show or act on anything, and only then
are subscribers told about the new rows. Reading the head inside the write lock keeps the chain
gap-free even when a second process (the `station` CLI) appends between two of our writes;
those foreign rows are handed to subscribers first, in sequence order.

Tampering found by a writer is put on record before anything else is written, because the next
insert would otherwise hide it: protective triggers that are missing or altered are re-installed
(at open), and an anchor that does not name the last row (rows cut off the tail, or added behind
its back) moves to the real head; each time a critical `journal_integrity` tilt row says what was
found, and `verify` keeps reporting it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from station.journal.clock import Clock, format_utc
from station.journal.codes import ActorRole, Code
from station.journal.exc import (
    IntegrityError,
    JournalNotFoundError,
    JournalWriteError,
    WrongStationError,
)
from station.journal.rows import COLUMNS, GENESIS_HASH, Entry, LogRow, seal
from station.journal.schema import expected_trigger_sql, migrate, tampered_triggers
from station.journal.tamper import anchor_tilt, integrity_tilt

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
CLOCK_STEP_S = 1.0  # a wall-clock jump larger than this is a significant event (req. 14)
_SELECT = f"SELECT {', '.join(COLUMNS)} FROM log"
Subscriber = Callable[[LogRow, bool], None]  # (row, written by this connection)


class Txn:
    """One open write transaction. Rows are inserted as they are added; all or none commit."""

    def __init__(
        self,
        journal: Journal,
        head_seq: int,
        head_hash: str,
        hand: int,
        utc: str,
        at_ns: int,
        clock_ok: bool,
    ) -> None:
        self._journal = journal
        self._seq = head_seq
        self._hash = head_hash
        self._hand = hand
        self._utc = utc
        self._at_ns = at_ns
        self._clock_ok = clock_ok
        self.rows: list[LogRow] = []

    @property
    def next_seq(self) -> int:
        return self._seq + 1

    @property
    def hand(self) -> int:
        """The hand of the last row (committed or added in this transaction)."""
        return self._hand

    @property
    def recorded_utc(self) -> str:
        return self._utc

    @property
    def recorded_at_ns(self) -> int:
        return self._at_ns

    def add(self, entry: Entry) -> LogRow:
        hand = self._hand if entry.hand is None else entry.hand
        row = seal(
            seq=self._seq + 1,
            station_id=self._journal.station_id,
            boot_id=self._journal.boot_id,
            recorded_utc=self._utc,
            recorded_at_ns=self._at_ns,
            clock_ok=self._clock_ok,
            hand=hand,
            entry=entry,
            prev_hash=self._hash,
        )
        self._journal.conn.execute(
            f"INSERT INTO log ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
            row.as_tuple(),
        )
        self._seq, self._hash, self._hand = row.seq, row.hash, hand
        self.rows.append(row)
        return row

    def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        """A further statement in the same transaction (people table updates)."""
        return self._journal.conn.execute(sql, params)


class Journal:
    """The station's record of truth. Use `Journal.open`; close it (or use `with`)."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, station_id: str, boot_id: str, clock: Clock
    ) -> None:
        self.conn = conn
        self.path = path
        self.station_id = station_id
        self.boot_id = boot_id
        self.clock = clock
        self._subscribers: list[Subscriber] = []
        self._seen = self.head()[0]
        self._offset_ns: int | None = None  # utc - monotonic at our last write (clock steps)

    # --- opening and closing ------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        clock: Clock,
        station_id: str | None = None,
        boot_id: str | None = None,
        create: bool = False,
    ) -> Journal:
        """Open the journal at `path`. `create=True` makes a new one (then `station_id` is
        required); an existing journal must belong to `station_id` when one is given."""
        p = Path(path)
        if not p.exists():
            if not create:
                raise JournalNotFoundError(f"no journal at {p}")
            if station_id is None:
                raise WrongStationError(f"{p}: a new journal needs a station id")
            _create_file(p, clock, station_id, boot_id or clock.boot_id())
        conn = sqlite3.connect(p, isolation_level=None, timeout=10.0)
        try:
            journal = cls._setup(conn, p, clock, station_id, boot_id or clock.boot_id())
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise IntegrityError(
                f"{p}: the journal file is damaged or not a journal: {exc}"
            ) from exc
        except BaseException:
            conn.close()
            raise
        return journal

    @classmethod
    def _setup(
        cls,
        conn: sqlite3.Connection,
        path: Path,
        clock: Clock,
        station_id: str | None,
        boot_id: str,
    ) -> Journal:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalWriteError(f"{path}: cannot switch the journal to WAL mode ({mode})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA busy_timeout = 10000")
        migrate(conn, format_utc(clock.utc()))
        row = conn.execute("SELECT value FROM meta WHERE key = 'station_id'").fetchone()
        if row is None:
            if station_id is None:
                raise WrongStationError(f"{path}: a new journal needs a station id")
            journal = cls(conn, path, station_id, boot_id, clock)
            journal._create(station_id)
            return journal
        owner = str(row[0])
        if station_id is not None and owner != station_id:
            raise WrongStationError(f"{path} is the journal of station {owner}, not {station_id}")
        journal = cls(conn, path, owner, boot_id, clock)
        journal._heal_triggers()
        return journal

    def _heal_triggers(self) -> None:
        """Put back what protects the journal, and say so in it."""
        broken = tampered_triggers(self.conn)
        if self.anchor() is None and "anchor_no_insert" not in broken:
            broken.append("anchor_no_insert")  # dropped and re-created around the insert
        if not broken:
            return
        with self.transaction() as txn:
            for name in broken:
                txn.execute(f"DROP TRIGGER IF EXISTS {name}")
            if self.anchor() is None:
                seq, digest = self.head()
                txn.execute("INSERT INTO anchor VALUES (1, ?, ?)", (seq, digest))
            for name in broken:
                txn.execute(expected_trigger_sql(name))
            detail = f"protective triggers missing or altered: {', '.join(broken)}"
            txn.add(integrity_tilt(detail, None))
        log.error("JOURNAL INTEGRITY: %s (re-installed)", detail)

    def _create(self, station_id: str) -> None:
        with self.transaction() as txn:
            txn.execute("INSERT INTO meta (key, value) VALUES ('station_id', ?)", (station_id,))
            txn.execute(
                "INSERT INTO meta (key, value) VALUES ('format', ?)", (str(FORMAT_VERSION),)
            )
            txn.add(
                Entry(
                    Code.JOURNAL_CREATED,
                    {"station_id": station_id, "format": FORMAT_VERSION},
                    "station",
                    ActorRole.STATION,
                    hand=0,
                )
            )
        log.info("journal created for station %s at %s", station_id, self.path)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ------------------------------------------------------------------------------

    def subscribe(self, fn: Subscriber) -> None:
        """`fn(row, own)` is called with every row committed after this point, in sequence
        order; `own` is False for rows another process wrote."""
        self._subscribers.append(fn)

    @contextmanager
    def transaction(self) -> Iterator[Txn]:
        """One write transaction. Commits when the block ends normally; rolls back (and
        re-raises) otherwise. Subscribers hear about the rows only after the commit."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise JournalWriteError(f"cannot start a journal write: {exc}") from exc
        try:
            head_seq, head_hash = self.head()
            anchor = self.anchor()
            foreign = self._rows_between(self._seen, head_seq) if head_seq != self._seen else []
            last = self.conn.execute("SELECT hand FROM log WHERE seq = ?", (head_seq,)).fetchone()
            utc = self.clock.utc()
            at_ns = self.clock.monotonic_ns()
            txn = Txn(
                self,
                head_seq,
                head_hash,
                int(last[0]) if last else 0,
                format_utc(utc),
                at_ns,
                self.clock.synced(),
            )
            if anchor != (head_seq, head_hash):
                found = txn.add(anchor_tilt(anchor, head_seq))
                log.error("JOURNAL INTEGRITY: %s", found.data()["detail"])
            self._note_clock_step(txn, round(utc.timestamp() * 1e9) - at_ns)
            yield txn
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalWriteError(f"journal write failed: {exc}") from exc
            raise
        self._seen = txn.rows[-1].seq if txn.rows else head_seq
        for row in foreign:
            for fn in self._subscribers:
                fn(row, False)
        for row in txn.rows:
            for fn in self._subscribers:
                fn(row, True)

    def _note_clock_step(self, txn: Txn, offset_ns: int) -> None:
        previous, self._offset_ns = self._offset_ns, offset_ns
        if previous is not None and abs(offset_ns - previous) > CLOCK_STEP_S * 1e9:
            step_s = round((offset_ns - previous) / 1e9, 3)
            txn.add(Entry(Code.CLOCK_STEP, {"step_s": step_s}, "station", ActorRole.STATION))
            log.warning("wall clock stepped by %.3f s", step_s)

    def append(self, entries: Iterable[Entry]) -> list[LogRow]:
        """Append entries in one transaction; return the committed rows."""
        with self.transaction() as txn:
            for entry in entries:
                txn.add(entry)
        return txn.rows

    def poll(self) -> list[LogRow]:
        """Rows other processes committed since our last look; subscribers hear about them."""
        head = self.head()[0]
        if head == self._seen:
            return []
        rows = self._rows_between(self._seen, head)
        self._seen = head
        for row in rows:
            for fn in self._subscribers:
                fn(row, False)
        return rows

    # --- reading ------------------------------------------------------------------------------

    def head(self) -> tuple[int, str]:
        """(seq, hash) of the last row: where the next row chains on."""
        row = self.conn.execute("SELECT seq, hash FROM log ORDER BY seq DESC LIMIT 1").fetchone()
        return (0, GENESIS_HASH) if row is None else (int(row[0]), str(row[1]))

    def anchor(self) -> tuple[int, str] | None:
        """(seq, hash) the anchor records; equal to `head()` unless rows were cut or added
        behind its back. None when the anchor row itself is gone."""
        row = self.conn.execute("SELECT head_seq, head_hash FROM anchor WHERE id = 1").fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def row(self, seq: int) -> LogRow | None:
        found = self.conn.execute(f"{_SELECT} WHERE seq = ?", (seq,)).fetchone()
        return None if found is None else LogRow.from_tuple(found)

    def rows(
        self, start: int = 1, stop: int | None = None, codes: Iterable[str] | None = None
    ) -> Iterator[LogRow]:
        """Rows with start <= seq (< stop), in sequence order, optionally of some codes."""
        sql = f"{_SELECT} WHERE seq >= ?"
        params: list[object] = [start]
        if stop is not None:
            sql += " AND seq < ?"
            params.append(stop)
        if codes is not None:
            wanted = sorted(set(codes))
            sql += f" AND code IN ({', '.join('?' * len(wanted))})"
            params.extend(wanted)
        cursor = self.conn.execute(sql + " ORDER BY seq", params)
        try:
            while batch := cursor.fetchmany(512):
                for t in batch:
                    yield LogRow.from_tuple(t)
        finally:
            cursor.close()

    def quick_check(self) -> list[str]:
        """`PRAGMA quick_check`: empty when sound."""
        return self._check("quick_check")

    def integrity_check(self) -> list[str]:
        """`PRAGMA integrity_check`: empty when sound."""
        return self._check("integrity_check")

    def _check(self, pragma: str) -> list[str]:
        try:
            return _problems(self.conn.execute(f"PRAGMA {pragma}").fetchall())
        except sqlite3.DatabaseError as exc:  # too damaged even to be checked
            return [str(exc)]

    def _rows_between(self, after: int, upto: int) -> list[LogRow]:
        found = self.conn.execute(
            f"{_SELECT} WHERE seq > ? AND seq <= ? ORDER BY seq", (after, upto)
        ).fetchall()
        return [LogRow.from_tuple(t) for t in found]


def _create_file(path: Path, clock: Clock, station_id: str, boot_id: str) -> None:
    """Build a new journal beside `path` and move it into place in one step, so that a crash
    while creating leaves either no journal or a complete one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.creating")
    for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
        leftover.unlink(missing_ok=True)
    conn = sqlite3.connect(tmp, isolation_level=None, timeout=10.0)
    try:
        Journal._setup(conn, tmp, clock, station_id, boot_id).close()
    except BaseException:
        conn.close()
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)  # the rename itself must survive a power cut
    finally:
        os.close(fd)


def _problems(result: list[tuple[Any, ...]]) -> list[str]:
    lines = [str(r[0]) for r in result]
    return [] if lines == ["ok"] else lines
