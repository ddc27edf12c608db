"""Verifying a journal: gap-free sequence, hash chain, anchored head, the head witness (and any
other known head), protective triggers and SQLite's own integrity check, plus any table checks
a higher layer passes in (`checks`: the people table against its rows is
`station.people.check`, which composes `verify_journal`, what `station journal verify` runs).
`ChainChecker` is pure; `verify_file` is the edge adapter and never writes to the file it
checks: it opens it read-only (`mode=ro`, so the WAL is read but
never merged into the main file; `immutable=1` when there is no WAL, so nothing is created
beside it), and a file that cannot be read (disk full, I/O error, no permission) is reported as
such (`cannot_read`), never as tampering.

How the first bad row is named:
- a row whose own hash does not match its content (edited field, edited `prev_hash`, a row
  inserted or moved, since the sequence number is hashed) -> that row;
- a sequence number missing (a deleted row) -> the missing number;
- a row whose hash is right but chained to a hash that is not its predecessor's -> the
  predecessor, which was rewritten and re-hashed;
- rows missing from the tail (truncation) -> the first missing number, known from the anchor,
  a one-row table moved by a trigger in the same transaction as every insert. Cutting the tail
  therefore needs the anchor rewritten too: that defeats a local check, and only an off-station
  copy of the head (standards-ux requirement 6, the forwarder) closes the gap;
- a journal shorter or older than its head witness recorded (WAL deleted after a crash, an
  older copy restored, the tail cut and the anchor rewritten) -> the first row lost, with how
  many rows and which hands; a head row that differs from the witness's (the chain recomputed
  on the same file) -> that row;
- tampering the station itself found and put on record (a `journal_integrity` or
  `replay_mismatch` tilt row) -> the seq that tilt names: once found, always reported.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from station.journal.codes import Code, TiltCode
from station.journal.files import WAL, companion
from station.journal.rows import COLUMNS, GENESIS_HASH, LogRow
from station.journal.schema import tampered_triggers
from station.journal.store import witness_since
from station.journal.witness import FileWitness, Head, WitnessError, judge, witness_path


@dataclass(frozen=True, slots=True)
class Problem:
    seq: int | None  # the first bad sequence number, when the problem has one
    text: str


# A check of a table the journal file holds beside the log, against the log's own rows: given the
# (read-only) connection, the problems found. Run only when the chain is intact.
TableCheck = Callable[[sqlite3.Connection], list[Problem]]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    rows: int
    head_seq: int
    head_hash: str
    problems: tuple[Problem, ...]
    cannot_read: str = ""  # the file could not be read at all (disk full, I/O): no verdict
    witness: Head | None = None  # the head the witness recorded, when there was one
    notes: tuple[str, ...] = ()  # what could not be checked, without being a problem

    @property
    def ok(self) -> bool:
        return not self.problems and not self.cannot_read

    @property
    def first_bad_seq(self) -> int | None:
        seqs = [p.seq for p in self.problems if p.seq is not None]
        return min(seqs) if seqs else None


class ChainChecker:
    """Walks rows in sequence order; remembers the first chain problem and stops judging there
    (everything after a break is suspect anyway)."""

    def __init__(self, station_id: str) -> None:
        self.station_id = station_id
        self.expected = 1
        self.prev_hash = GENESIS_HASH
        self.problem: Problem | None = None
        self.count = 0

    def check(self, row: LogRow) -> Problem | None:
        if self.problem is not None:
            return self.problem
        self.count += 1
        if row.seq != self.expected:
            if row.seq > self.expected:
                return self._bad(
                    self.expected,
                    f"seq {self.expected} is missing (the next row is seq {row.seq}): "
                    "a row was deleted",
                )
            return self._bad(row.seq, f"seq {row.seq} is out of order")
        if row.computed_hash() != row.hash:
            return self._bad(row.seq, "hash mismatch: the row's content was changed")
        if row.prev_hash != self.prev_hash:
            if row.seq == 1:
                return self._bad(1, "the first row does not start the chain")
            return self._bad(
                row.seq - 1,
                f"seq {row.seq} is chained to a different hash: seq {row.seq - 1} was "
                "rewritten and re-hashed",
            )
        if row.station_id != self.station_id:
            return self._bad(row.seq, f"row of another station ({row.station_id})")
        self.prev_hash = row.hash
        self.expected += 1
        return None

    def unreadable(self, seq: int | None, why: str) -> Problem:
        return self._bad(seq if seq is not None else self.expected, f"unreadable row: {why}")

    def finish(self, anchor: tuple[int, str] | None) -> Problem | None:
        """Compare the end of the chain with the anchored head."""
        if self.problem is not None:
            return self.problem
        last = self.expected - 1
        if anchor is None:
            return self._bad(None, "the anchor is missing: truncation cannot be ruled out")
        head_seq, head_hash = anchor
        if head_seq > last:
            return self._bad(
                last + 1,
                f"truncated: the anchor records head seq {head_seq} but the journal ends at "
                f"seq {last}",
            )
        if head_seq < last:
            return self._bad(head_seq + 1, f"rows after the anchored head seq {head_seq}")
        if head_hash != self.prev_hash:
            return self._bad(
                head_seq,
                f"the head hash differs from the anchor: the chain was rewritten at or before "
                f"seq {head_seq}",
            )
        return None

    def _bad(self, seq: int | None, text: str) -> Problem:
        self.problem = Problem(seq, text)
        return self.problem


def verify_file(
    path: str | Path,
    *,
    witness: Path | None = None,
    heads: Sequence[Head] = (),
    checks: Sequence[TableCheck] = (),
) -> VerifyReport:
    """The log's checks, and `checks`. Opens the file read-only, never migrates or writes.
    `witness`: the head witness file (default: beside the journal); `heads`: other heads of this
    journal known elsewhere (the fleet's central store, an earlier export); `checks`: the
    higher layers' checks of their tables (run when the chain holds)."""
    p = Path(path)
    if not p.is_file():
        return VerifyReport(0, 0, GENESIS_HASH, (Problem(None, f"no journal at {p}"),))
    # The witness is read first: it is written after each commit, so read before the journal
    # it can only be behind it (a live station may commit meanwhile).
    source = FileWitness(witness or witness_path(p))
    unreadable_witness = ""
    try:
        known = source.read()
    except WitnessError as exc:
        known, unreadable_witness = None, str(exc.strerror or exc)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EIO):
            return _cannot_read(p, exc)
        known, unreadable_witness = None, str(exc.strerror or exc)
    try:
        report = _verify_read_only(p, known, source, unreadable_witness, heads, checks)
    except sqlite3.DatabaseError as exc:
        why = _read_failure(exc, p.parent)
        if why:
            return VerifyReport(0, 0, GENESIS_HASH, (), cannot_read=why)
        return VerifyReport(0, 0, GENESIS_HASH, (Problem(None, f"not a readable journal: {exc}"),))
    except OSError as exc:
        return _cannot_read(p, exc)
    return report


def _cannot_read(p: Path, exc: OSError) -> VerifyReport:
    full = exc.errno == errno.ENOSPC or _disk_full(p.parent)
    why = "disk full" if full else str(exc.strerror or exc)
    return VerifyReport(0, 0, GENESIS_HASH, (), cannot_read=why)


def _disk_full(folder: Path) -> bool:
    """No room left where the journal is: reading a WAL needs SQLite's -shm index built there,
    and a full disk shows as an I/O error, not as SQLITE_FULL."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


# SQLite result codes (the primary code, the low byte): the file could not be read at all, as
# opposed to a file that reads but is damaged (SQLITE_CORRUPT, SQLITE_NOTADB).
_READ_FAILURES = {
    3: "no permission",  # SQLITE_PERM
    5: "the journal is locked",  # SQLITE_BUSY
    7: "out of memory",  # SQLITE_NOMEM
    8: "read-only",  # SQLITE_READONLY
    10: "I/O error",  # SQLITE_IOERR
    13: "disk full",  # SQLITE_FULL
    14: "cannot open the file",  # SQLITE_CANTOPEN
    23: "no permission",  # SQLITE_AUTH
}


def _read_failure(exc: sqlite3.DatabaseError, folder: Path) -> str:
    """Why the file could not be read at all, or "" when it read but is damaged."""
    code = getattr(exc, "sqlite_errorcode", None)
    text = str(exc)
    if code is None:
        why = "disk full" if "disk is full" in text else ""
    else:
        why = _READ_FAILURES.get(int(code) & 0xFF, "")
    if why and _disk_full(folder):
        return "disk full"
    return f"{why} ({text})" if why and why != "disk full" else why


def _verify_read_only(
    p: Path,
    known: Head | None,
    source: FileWitness,
    unreadable_witness: str,
    heads: Sequence[Head],
    checks: Sequence[TableCheck],
) -> VerifyReport:
    wal = companion(p, WAL)
    had_wal = wal.exists()
    # Without a WAL nobody has the journal open: read the file as it is, creating nothing
    # beside it. With one, read it through the WAL (mode=ro: never merged, never deleted).
    uri = p.resolve().as_uri() + ("?mode=ro" if had_wal else "?immutable=1")
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA query_only = ON")
        report = _verify(conn, known, source, unreadable_witness, heads, checks)
    finally:
        conn.close()
    if not had_wal and wal.exists():  # a station opened it meanwhile: read it through its WAL
        return _verify_read_only(p, known, source, unreadable_witness, heads, checks)
    return report


def _verify(
    conn: sqlite3.Connection,
    known: Head | None = None,
    source: FileWitness | None = None,
    unreadable_witness: str = "",
    heads: Sequence[Head] = (),
    checks: Sequence[TableCheck] = (),
) -> VerifyReport:
    problems: list[Problem] = []
    notes: list[str] = []
    integrity = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if integrity != ["ok"]:
        problems.append(Problem(None, "SQLite integrity_check: " + "; ".join(integrity[:5])))
    found = conn.execute("SELECT value FROM meta WHERE key = 'station_id'").fetchone()
    if found is None:
        return VerifyReport(0, 0, GENESIS_HASH, (Problem(None, "journal meta is missing"),))
    station_id = str(found[0])
    anchor_row = conn.execute("SELECT head_seq, head_hash FROM anchor WHERE id = 1").fetchone()
    anchor = None if anchor_row is None else (int(anchor_row[0]), str(anchor_row[1]))
    checker = ChainChecker(station_id)
    recorded: list[Problem] = []
    cursor = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM log ORDER BY seq")
    for raw in cursor:
        try:
            row = LogRow.from_tuple(raw)
        except (TypeError, ValueError) as exc:
            checker.unreadable(raw[0] if isinstance(raw[0], int) else None, str(exc))
            break
        if checker.check(row) is not None:
            break
        if row.code == Code.TILT_RAISED:
            found_by_station = _recorded_tampering(row)
            if found_by_station is not None:
                recorded.append(found_by_station)
    cursor.close()
    chain_problem = checker.finish(anchor)
    if chain_problem is not None:
        problems.insert(0, chain_problem)
    problems.extend(_head_problems(conn, station_id, known, source, unreadable_witness, heads))
    no_witness = source is not None and known is None and not unreadable_witness
    if no_witness and witness_since(conn) is None:
        notes.append(
            "no head witness (a journal from before it): a shorter or older copy of it "
            "cannot be told from the original"
        )
    problems.extend(recorded)
    for name in tampered_triggers(conn):
        problems.append(Problem(None, f"protective trigger {name} is missing or altered"))
    if chain_problem is None:
        for check in checks:
            problems.extend(check(conn))
    head = anchor if anchor is not None else (0, GENESIS_HASH)
    return VerifyReport(
        checker.count, head[0], head[1], tuple(problems), witness=known, notes=tuple(notes)
    )


def _head_problems(
    conn: sqlite3.Connection,
    station_id: str,
    known: Head | None,
    source: FileWitness | None,
    unreadable_witness: str,
    heads: Sequence[Head],
) -> list[Problem]:
    """The witness and any other known head against the journal's last row."""
    last = conn.execute("SELECT seq, hash, hand FROM log ORDER BY seq DESC LIMIT 1").fetchone()
    head_seq, head_hash, hand = (int(last[0]), str(last[1]), int(last[2])) if last else (0, "", 0)

    def hash_at(seq: int) -> str | None:
        if seq == 0:
            return GENESIS_HASH
        row = conn.execute("SELECT hash FROM log WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else str(row[0])

    problems = []
    if source is not None:
        if unreadable_witness:
            problems.append(Problem(None, f"{source.name} is unreadable ({unreadable_witness})"))
        elif known is None:
            since = witness_since(conn)
            if since is not None:
                problems.append(
                    Problem(
                        None,
                        f"{source.name} is missing (the journal keeps one since seq {since}): "
                        f"rows after seq {head_seq} may have been lost or an older copy "
                        "restored; copy the witness with the journal, or name it with --witness",
                    )
                )
        elif known.station_id != station_id:
            problems.append(Problem(None, f"{source.name} belongs to station {known.station_id}"))
    mine = known is not None and known.station_id == station_id
    for other in ([known] if known is not None and mine else []) + list(heads):
        finding = judge(head_seq, head_hash, hash_at, other, hand)
        if finding is not None:
            problems.append(Problem(finding.seq, finding.detail))
    return problems


def _recorded_tampering(row: LogRow) -> Problem | None:
    """A tilt in which the station itself recorded finding the journal tampered with."""
    d = row.data()
    if d.get("tilt") not in (TiltCode.JOURNAL_INTEGRITY, TiltCode.REPLAY_MISMATCH):
        return None
    seq = d.get("seq")
    where = seq if isinstance(seq, int) else None
    return Problem(where, f"the station recorded at seq {row.seq}: {d['tilt']}: {d.get('detail')}")
