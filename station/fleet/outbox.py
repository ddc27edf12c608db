"""The station's outbox: the journal itself, read after the fleet ack cursor. Edge adapter
(SQLite).

There is no separate queue to lose or to fall out of step: every row after `fleet_cursor`'s
`acked_seq` (journal migration `0004_fleet_cursor`) is still to be delivered, in sequence
order, and a row counts as delivered only when the central ingest acknowledges it after its
PostgreSQL commit. The forwarder reads with a connection of its own (WAL: it never blocks the
core's writes) and moves the cursor in short transactions with `synchronous=NORMAL`: a cursor
lost in a crash only means rows sent again, which the centre absorbs as duplicates.

`outbox_status(path)` is the read-only view for tools in other processes (`station diag`):
how many rows wait and since when.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from station.journal.owner import reading_uri
from station.journal.rows import COLUMNS, GENESIS_HASH, LogRow

_SELECT = f"SELECT {', '.join(COLUMNS)} FROM log"


@dataclass(frozen=True, slots=True)
class OutboxStatus:
    """How far the centre has acknowledged this journal."""

    head_seq: int  # the journal's last row
    acked_seq: int  # the last row the centre acknowledged after its commit
    oldest_unacked_utc: str | None  # recorded_utc of the first row still to deliver

    @property
    def rows(self) -> int:
        return max(0, self.head_seq - self.acked_seq)

    def age_s(self, now: datetime) -> float | None:
        """How long the oldest undelivered row has waited (None: nothing waits)."""
        if self.oldest_unacked_utc is None:
            return None
        then = datetime.fromisoformat(self.oldest_unacked_utc.replace("Z", "+00:00"))
        return max(0.0, (now - then).total_seconds())


class Outbox:
    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, path: Path) -> Outbox:
        conn = sqlite3.connect(path, isolation_level=None, timeout=10.0, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("PRAGMA synchronous = NORMAL")
        if _cursor_row(conn) is None:
            conn.close()
            raise sqlite3.OperationalError(f"{path}: no fleet cursor (open the journal first)")
        return cls(conn, path)

    def close(self) -> None:
        self.conn.close()

    def head(self) -> tuple[int, str]:
        row = self.conn.execute("SELECT seq, hash FROM log ORDER BY seq DESC LIMIT 1").fetchone()
        return (0, GENESIS_HASH) if row is None else (int(row[0]), str(row[1]))

    def cursor(self) -> tuple[int, str]:
        found = _cursor_row(self.conn)
        return (0, GENESIS_HASH) if found is None else (int(found[0]), str(found[1]))

    def set_cursor(self, seq: int, digest: str, utc: str) -> None:
        self.conn.execute(
            "UPDATE fleet_cursor SET acked_seq = ?, acked_hash = ?, acked_utc = ? WHERE id = 1",
            (seq, digest, utc),
        )

    def rows_after(self, seq: int, limit: int) -> list[LogRow]:
        found = self.conn.execute(
            f"{_SELECT} WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit)
        ).fetchall()
        return [LogRow.from_tuple(t) for t in found]

    def row_hash(self, seq: int) -> str | None:
        found = self.conn.execute("SELECT hash FROM log WHERE seq = ?", (seq,)).fetchone()
        return None if found is None else str(found[0])

    def status(self) -> OutboxStatus:
        return _status(self.conn)


def _cursor_row(conn: sqlite3.Connection) -> tuple[int, str] | None:
    try:
        row = conn.execute("SELECT acked_seq, acked_hash FROM fleet_cursor WHERE id = 1").fetchone()
    except sqlite3.OperationalError:  # a journal from before migration 0004
        return None
    return None if row is None else (int(row[0]), str(row[1]))


def _status(conn: sqlite3.Connection) -> OutboxStatus:
    head = conn.execute("SELECT MAX(seq) FROM log").fetchone()[0] or 0
    found = _cursor_row(conn)
    acked = found[0] if found is not None else 0
    oldest = None
    if head > acked:
        row = conn.execute("SELECT recorded_utc FROM log WHERE seq = ?", (acked + 1,)).fetchone()
        oldest = None if row is None else str(row[0])
    return OutboxStatus(int(head), int(acked), oldest)


def outbox_status(path: Path) -> OutboxStatus:
    """The outbox of the journal at `path`, read-only (for `station diag` and other tools)."""
    conn = sqlite3.connect(reading_uri(path), uri=True, timeout=10.0)
    try:
        return _status(conn)
    finally:
        conn.close()
