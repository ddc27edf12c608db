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
(at open), an anchor that does not name the last row (rows cut off the tail, or added behind
its back) moves to the real head, and a journal that does not hold the head its head witness
recorded (`witness.py`: WAL deleted, truncated, an older copy restored, the chain recomputed)
goes on from its own head; each time a critical `journal_integrity` tilt row says what was
found (and what was lost), and `verify` keeps reporting it. After each commit the witness is
moved to the new head.

Files are created owner-only (`files.py`; 0640 with `file_mode=GROUP_READ`); a new journal is
built beside its final path and renamed into place.
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
    JournalAccessError,
    JournalLinkedError,
    JournalNotFoundError,
    JournalStorageError,
    JournalWriteError,
    WrongStationError,
)
from station.journal.files import (
    OWNER_ONLY,
    SHM,
    WAL,
    cannot_write,
    companion,
    create_file,
    fsync_dir,
    is_access_error,
    tighten,
)
from station.journal.owner import reading_uri
from station.journal.rows import COLUMNS, GENESIS_HASH, Entry, LogRow, seal
from station.journal.schema import expected_trigger_sql, migrate, tampered_triggers
from station.journal.tamper import anchor_tilt, integrity_tilt
from station.journal.witness import (
    FileWitness,
    Finding,
    Head,
    WitnessError,
    WitnessSyncer,
    judge,
    witness_path,
)

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
        self.start_seq = head_seq  # the journal's head when the transaction began
        self._seq = head_seq
        self._hash = head_hash
        self._hand = hand
        self._utc = utc
        self._at_ns = at_ns
        self._clock_ok = clock_ok
        self.rows: list[LogRow] = []
        self.foreign: list[LogRow] = []  # rows other processes wrote since our last look

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
    def head_hash(self) -> str:
        """The hash of the last row (committed or added in this transaction)."""
        return self._hash

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
        self,
        conn: sqlite3.Connection,
        path: Path,
        station_id: str,
        boot_id: str,
        clock: Clock,
        witness: FileWitness | None = None,
    ) -> None:
        self.conn = conn
        self.path = path
        self.station_id = station_id
        self.boot_id = boot_id
        self.clock = clock
        self.witness = witness  # None while a new journal is built (and for bare test files)
        self.witness_fault = ""  # why the witness could not be written last time ("" fine)
        self._syncer: WitnessSyncer | None = None  # flushes the witness off the commit path
        self._witness_reported = ""  # the finding last put on record (said once, not per row)
        self._subscribers: list[Subscriber] = []
        self._seen = self.head()[0]
        self._offset_ns: int | None = None  # utc - monotonic at our last write (clock steps)
        self._bulk: list[int] | None = None  # [every, since the last commit] inside `bulk`
        self._bulk_head: tuple[int, str, int, bool] = (0, GENESIS_HASH, 0, False)

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
        file_mode: int = OWNER_ONLY,
    ) -> Journal:
        """Open the journal at `path`. `create=True` makes a new one (then `station_id` is
        required); an existing journal must belong to `station_id` when one is given. New
        files get `file_mode`; an existing journal's files lose any access by other users.

        A journal that is missing while its head witness is there was deleted or moved: without
        `create` that is said in the error; with it, the new journal's first rows put on record
        (a critical tilt) what the witness knew of the one that is gone."""
        p = Path(path)
        witness = FileWitness(witness_path(p), mode=file_mode, sync=False)
        if not p.exists():
            try:
                lost = witness.read()
            except WitnessError:
                lost = Head(0, "", source=f"{witness.name} (unreadable)")
            if not create:
                gone = "" if lost is None else f" (its head witness records seq {lost.seq})"
                raise JournalNotFoundError(f"no journal at {p}{gone}")
            if station_id is None:
                raise WrongStationError(f"{p}: a new journal needs a station id")
            try:
                _create_file(p, clock, station_id, boot_id or clock.boot_id(), file_mode, lost)
            except (OSError, sqlite3.Error) as exc:
                if not is_access_error(exc):
                    raise
                why = exc.strerror if isinstance(exc, OSError) else str(exc)
                raise JournalAccessError(cannot_write(p, str(why))) from None
        else:
            refuse_hard_links(p)
            tighten(p)
        conn = sqlite3.connect(p, isolation_level=None, timeout=10.0)
        try:
            journal = cls._setup(conn, p, clock, station_id, boot_id or clock.boot_id(), witness)
        except sqlite3.DatabaseError as exc:
            conn.close()
            if is_access_error(exc):
                place = p.parent if "DIRECTORY" in str(exc.sqlite_errorname) else p
                raise JournalAccessError(
                    cannot_write(place, f"{exc} (SQLite writes its -wal and -shm beside {p.name})")
                ) from None
            if str(getattr(exc, "sqlite_errorname", "")).startswith(
                ("SQLITE_FULL", "SQLITE_IOERR")
            ):
                # No room for the -wal and -shm, or the disk failed: storage, not damage.
                raise JournalStorageError(f"{p}: cannot open the journal: {exc}") from exc
            raise IntegrityError(
                f"{p}: the journal file is damaged or not a journal: {exc}"
            ) from exc
        except BaseException:
            conn.close()
            raise
        return journal

    @classmethod
    def open_reader(cls, path: str | Path, *, clock: Clock) -> Journal:
        """Open the journal at `path` to read it only, writing nothing in its folder: for a
        floor member, who may read the folder but not write in it (`Journal.open` must, for
        the -wal and -shm of a journal nobody has open). Any write through it fails."""
        p = Path(path)
        if not p.exists():
            raise JournalNotFoundError(f"no journal at {p}")
        conn = sqlite3.connect(reading_uri(p), uri=True, isolation_level=None, timeout=10.0)
        try:
            conn.execute("PRAGMA query_only = ON")
            row = conn.execute("SELECT value FROM meta WHERE key = 'station_id'").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            damaged = f"{p}: the journal file is damaged or not a journal: {exc}"
            raise IntegrityError(damaged) from exc
        if row is None:
            conn.close()
            raise IntegrityError(f"{p}: it names no station (not a journal, or never finished)")
        return cls(conn, p, str(row[0]), clock.boot_id(), clock, None)

    @classmethod
    def _setup(
        cls,
        conn: sqlite3.Connection,
        path: Path,
        clock: Clock,
        station_id: str | None,
        boot_id: str,
        witness: FileWitness | None,
        creating: tuple[Path, Head | None] | None = None,
    ) -> Journal:
        """`creating`: (final path, the lost journal's head) while a new journal is built."""
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
            journal = cls(conn, path, station_id, boot_id, clock, witness)
            final, lost = creating if creating is not None else (path, None)
            journal._create(station_id, witness_path(final).name, lost)
            return journal
        owner = str(row[0])
        if station_id is not None and owner != station_id:
            raise WrongStationError(f"{path} is the journal of station {owner}, not {station_id}")
        journal = cls(conn, path, owner, boot_id, clock, witness)
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

    def _create(self, station_id: str, witness_name: str, lost: Head | None) -> None:
        """The first rows of a new journal: created, the head witness it keeps from now on and,
        when it replaces a journal that is gone, what the old one's witness knew."""
        with self.transaction() as txn:
            txn.execute("INSERT INTO meta (key, value) VALUES ('station_id', ?)", (station_id,))
            txn.execute(
                "INSERT INTO meta (key, value) VALUES ('format', ?)", (str(FORMAT_VERSION),)
            )
            txn.add(
                Entry(
                    Code.JOURNAL_CREATED,
                    {"station_id": station_id, "format": FORMAT_VERSION, "witness": witness_name},
                    "station",
                    ActorRole.STATION,
                    hand=0,
                )
            )
            if lost is not None:
                detail = (
                    f"the journal was missing and a new one was started: {lost.source} recorded "
                    f"head seq {lost.seq}, hand {lost.hand}, at {lost.utc or 'an unknown time'}; "
                    "every row of that journal is lost here"
                )
                txn.add(integrity_tilt(detail, None))
                log.error("JOURNAL INTEGRITY: %s", detail)
        log.info("journal created for station %s at %s", station_id, self.path)

    def close(self) -> None:
        """Close the connection; the head witness is on the disk when this returns."""
        syncer, self._syncer = self._syncer, None
        if syncer is not None:
            syncer.close()
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
    def bulk(self, every: int = 2000) -> Iterator[None]:
        """Write transactions as savepoints of one SQLite transaction, committed every `every`
        of them and at the end: the speed of a bulk writer (`station bench startup --make`),
        the rows and chain exactly as ever. Never for a live table: a crash loses what was not
        yet committed, and the head witness moves only at those commits."""
        if self._bulk is not None:
            raise JournalWriteError("bulk writing is already on")
        self.conn.execute("BEGIN IMMEDIATE")
        self._bulk = [every, 0]
        seq, digest = self.head()
        last = self.conn.execute("SELECT hand FROM log WHERE seq = ?", (seq,)).fetchone()
        self._bulk_head = (seq, digest, int(last[0]) if last else 0, self.clock.synced())
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        finally:
            self._bulk = None
        self._witness_to_head()

    def _bulk_step(self) -> None:
        """After a transaction inside `bulk`: commit every `every` of them."""
        assert self._bulk is not None
        self._bulk[1] += 1
        if self._bulk[1] >= self._bulk[0]:
            self.conn.execute("COMMIT")
            self._witness_to_head()
            self.conn.execute("BEGIN IMMEDIATE")
            self._bulk[1] = 0

    def _witness_to_head(self) -> None:
        if self.witness is None:
            return
        seq, digest = self.head()
        found = self.conn.execute("SELECT hand, recorded_utc FROM log WHERE seq = ?", (seq,))
        hand, utc = found.fetchone() or (0, "")
        try:
            if self.witness.write(Head(seq, digest, int(hand), str(utc), self.station_id)):
                self._flush_witness()
        except OSError as exc:
            self.witness_fault = str(exc.strerror or exc)

    @contextmanager
    def transaction(self) -> Iterator[Txn]:
        """One write transaction. Commits when the block ends normally; rolls back (and
        re-raises) otherwise. Subscribers hear about the rows only after the commit, and the
        head witness is moved to the new head. (Inside `bulk`, a savepoint.)"""
        if self._bulk is not None:
            with self._savepoint() as txn:
                yield txn
            return
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            if is_access_error(exc):
                raise JournalAccessError(cannot_write(self.path, str(exc))) from exc
            raise JournalStorageError(f"cannot start a journal write: {exc}") from exc
        force_witness = False
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
            txn.foreign = foreign
            if anchor != (head_seq, head_hash):
                found = txn.add(anchor_tilt(anchor, head_seq))
                log.error("JOURNAL INTEGRITY: %s", found.data()["detail"])
            force_witness = self._check_witness(txn, head_seq, head_hash)
            self._note_clock_step(txn, round(utc.timestamp() * 1e9) - at_ns)
            yield txn
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error) and is_access_error(exc):
                raise JournalAccessError(cannot_write(self.path, str(exc))) from exc
            if isinstance(exc, sqlite3.Error):
                raise JournalStorageError(f"journal write failed: {exc}") from exc
            raise
        self._seen = txn.rows[-1].seq if txn.rows else head_seq
        if txn.rows or force_witness:
            self._advance_witness(txn, force_witness)
        for row in foreign:
            for fn in self._subscribers:
                fn(row, False)
        for row in txn.rows:
            for fn in self._subscribers:
                fn(row, True)

    @contextmanager
    def _savepoint(self) -> Iterator[Txn]:
        """A transaction inside `bulk`: no statement of its own (only this connection writes
        while `bulk` holds the write lock, so the head is known); a failure rolls back the
        whole bulk, as `bulk` re-raises it."""
        assert self._bulk is not None
        head_seq, head_hash, hand, synced = self._bulk_head
        txn = Txn(
            self,
            head_seq,
            head_hash,
            hand,
            format_utc(self.clock.utc()),
            self.clock.monotonic_ns(),
            synced,
        )
        yield txn
        if txn.rows:
            last = txn.rows[-1]
            self._bulk_head = (last.seq, last.hash, last.hand, synced)
        self._seen = txn.rows[-1].seq if txn.rows else head_seq
        for row in txn.rows:
            for fn in self._subscribers:
                fn(row, True)
        self._bulk_step()

    # --- the head witness ---------------------------------------------------------------------

    def check_head(self, known: Head) -> Finding | None:
        """Compare a head someone else knows of this journal (the fleet's central store, a
        copy of the witness) with the journal, and put a difference on record as a critical
        tilt. Returns what was found (None: the journal holds that head)."""
        with self.transaction() as txn:
            found = self._judge(known, txn.start_seq)
            if found is not None:
                txn.add(integrity_tilt(found.detail, found.seq))
                log.error("JOURNAL INTEGRITY: %s", found.detail)
        return found

    def _judge(self, known: Head, head_seq: int) -> Finding | None:
        head_hash = self._hash_at(head_seq) or GENESIS_HASH
        hand = self.conn.execute("SELECT hand FROM log WHERE seq = ?", (head_seq,)).fetchone()
        return judge(head_seq, head_hash, self._hash_at, known, int(hand[0]) if hand else None)

    def _hash_at(self, seq: int) -> str | None:
        if seq == 0:
            return GENESIS_HASH
        found = self.conn.execute("SELECT hash FROM log WHERE seq = ?", (seq,)).fetchone()
        return None if found is None else str(found[0])

    def _check_witness(self, txn: Txn, head_seq: int, head_hash: str) -> bool:
        """Inside a write transaction: does the journal still hold the head its witness
        recorded? What it does not is put on record (once) before anything else. Returns True
        when the witness must be moved to the new head whatever it holds."""
        witness = self.witness
        if witness is None:
            return False
        try:
            known = witness.read()
        except OSError as exc:
            return self._witness_finding(txn, f"{witness.name} is unreadable ({exc})", None)
        if known is None:
            started = witness_since(self.conn)
            if started is None:  # a journal from before the witness: it starts now
                txn.add(_witness_started(witness.path.name))
                log.info("head witness started at %s", witness.path)
                return True
            if int(started) == head_seq:  # created, but the witness was never written
                return True
            return self._witness_finding(
                txn,
                f"{witness.name} is missing (kept since seq {started}): rows after seq "
                f"{head_seq} may have been lost, or an older copy of the journal restored",
                None,
            )
        if known.station_id != self.station_id:
            return self._witness_finding(
                txn, f"{witness.name} belongs to station {known.station_id}", None
            )
        found = self._judge(known, head_seq)
        if found is None:
            self._witness_reported = ""
            return False
        return self._witness_finding(txn, found.detail, found.seq)

    def _witness_finding(self, txn: Txn, detail: str, seq: int | None) -> bool:
        if detail != self._witness_reported:
            txn.add(integrity_tilt(detail, seq))
            log.error("JOURNAL INTEGRITY: %s", detail)
            self._witness_reported = detail
        return True

    def _advance_witness(self, txn: Txn, force: bool) -> None:
        """After a commit: the witness records the new head. A failure to write it is logged
        and shown in diagnostics; the rows are committed whatever happens here."""
        if self.witness is None:
            return
        seq = txn.next_seq - 1
        head = Head(seq, txn.head_hash, txn.hand, txn.recorded_utc, self.station_id)
        try:
            written = self.witness.write(head, force=force)
        except OSError as exc:
            if not self.witness_fault:
                log.error("cannot write the head witness %s: %s", self.witness.path, exc)
            self.witness_fault = str(exc.strerror or exc)
            return
        if self.witness_fault:
            log.info("head witness %s written again", self.witness.path)
        self.witness_fault = ""
        if written:
            self._flush_witness()

    def _flush_witness(self) -> None:
        if self.witness is None or self.witness.sync:
            return
        if self._syncer is None:
            self._syncer = WitnessSyncer(self.witness.path)
        self._syncer.poke()

    def touch_witness(self) -> None:
        """Record the wall time in the witness without a row (the last time the station was
        known to run: a clock behind it at the next start is a step back)."""
        if self.witness is None:
            return
        seq, digest = self.head()
        found = self.conn.execute("SELECT hand FROM log WHERE seq = ?", (seq,)).fetchone()
        hand = int(found[0]) if found else 0
        head = Head(seq, digest, hand, format_utc(self.clock.utc()), self.station_id)
        try:
            if self.witness.write(head):
                self._flush_witness()
        except OSError as exc:
            self.witness_fault = str(exc.strerror or exc)

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

    def rows_before(self, seq: int, code: str) -> Iterator[LogRow]:
        """Rows of `code` before `seq`, newest first (through the `(code, seq)` index)."""
        cursor = self.conn.execute(
            f"{_SELECT} WHERE code = ? AND seq < ? ORDER BY seq DESC", (code, seq)
        )
        try:
            while batch := cursor.fetchmany(64):
                for t in batch:
                    yield LogRow.from_tuple(t)
        finally:
            cursor.close()

    def quick_check(self) -> list[str]:
        """`PRAGMA quick_check`: empty when sound."""
        return self._check("quick_check")

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


def refuse_hard_links(path: Path) -> None:
    """Raise JournalLinkedError when the journal file has more than one name: SQLite keeps its
    WAL beside the name it was opened by, so writers through two names fork the chain."""
    try:
        links = path.stat().st_nlink
    except OSError:
        return
    if links > 1:
        raise JournalLinkedError(
            f"{path} has {links} names (hard links): two names would fork the journal (SQLite "
            f"keeps its write-ahead log beside each name). Find the others (find / -xdev -samefile "
            f"{path}) and remove them; copy the journal with `cp`, never `ln`"
        )


def _create_file(
    path: Path, clock: Clock, station_id: str, boot_id: str, mode: int, lost: Head | None
) -> None:
    """Build a new journal beside `path` and move it into place in one step, so that a crash
    while creating leaves either no journal or a complete one; then start its head witness.
    (A crash between the two leaves a journal whose witness was never written: the next
    writer writes it.)"""
    _remove_leftovers(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.creating")
    create_file(tmp, mode)  # SQLite gives its -wal and -shm the main file's mode
    conn = sqlite3.connect(tmp, isolation_level=None, timeout=10.0)
    try:
        journal = Journal._setup(conn, tmp, clock, station_id, boot_id, None, (path, lost))
        seq, digest = journal.head()
        utc = journal.row(seq)
        journal.close()
    except BaseException:
        conn.close()
        for name in (tmp, companion(tmp, WAL), companion(tmp, SHM)):
            name.unlink(missing_ok=True)
        raise
    companion(tmp, WAL).unlink(missing_ok=True)  # closed cleanly: nothing left in them
    companion(tmp, SHM).unlink(missing_ok=True)
    os.replace(tmp, path)
    fsync_dir(path.parent)  # the rename itself must survive a power cut
    witness = FileWitness(witness_path(path), mode=mode)
    witness.write(Head(seq, digest, 0, utc.recorded_utc if utc else "", station_id), force=True)


def _remove_leftovers(path: Path) -> None:
    """Half-built journals of creators that are gone (killed while creating)."""
    for leftover in path.parent.glob(f".{path.name}.*.creating*"):
        pid = leftover.name[len(path.name) + 2 :].split(".", 1)[0]
        if pid.isdigit() and (int(pid) == os.getpid() or not _alive(int(pid))):
            leftover.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def witness_since(conn: sqlite3.Connection) -> int | None:
    """The row from which the journal says its head witness is kept (None: never, a journal
    from before the witness): the creation row of a new journal, else the last
    `station.witness_started` row."""
    found = conn.execute(
        "SELECT MAX(seq) FROM log WHERE code = ?", (Code.WITNESS_STARTED.value,)
    ).fetchone()[0]
    if found is not None:
        return int(found)
    first = conn.execute("SELECT code, payload FROM log WHERE seq = 1").fetchone()
    if first is not None and first[0] == Code.JOURNAL_CREATED and '"witness"' in str(first[1]):
        return 1
    return None


def _witness_started(name: str) -> Entry:
    return Entry(Code.WITNESS_STARTED, {"file": name}, "station", ActorRole.STATION)


def _problems(result: list[tuple[Any, ...]]) -> list[str]:
    lines = [str(r[0]) for r in result]
    return [] if lines == ["ok"] else lines
