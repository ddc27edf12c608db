"""Walking the hash chain over a stretch of the journal, fast: SQLite writes each row's hashed
text and Python only hashes it. Edge adapter (SQLite).

A row's hash is SHA-256 over its predecessor's hash and the canonical JSON of its columns
(`rows.LogRow.fields_json`). SQLite's own `json_quote` escapes text exactly as the canonical
JSON does (checked on every walk's first call: `_same_quoting`), so one query returns, per row,
the very text that was hashed, built in C; the walk then compares the hash and the link to the
row before. A row whose columns are not of the types the schema stores, or whose hash does not
match that text, is judged again the slow way (`LogRow`, `ChainChecker`): the fast path never
accepts a row the slow one would refuse, nor refuses one it would accept. Where SQLite has no
JSON functions the whole walk is the slow way.

This is what the history check after a start does over every row since the last verified
anchor (`history.check_history`); a full replay (recovery from the first row, the scrub) checks
the chain row by row as it re-derives.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from dataclasses import dataclass
from functools import cache

from station.journal.rows import COLUMNS, LogRow, _string
from station.journal.verify import ChainChecker, Problem

BATCH = 2048

_TEXT = (
    "prev_hash || '{\"actor\":' || json_quote(actor) || ',\"boot_id\":' || json_quote(boot_id)"
    " || ',\"clock_ok\":' || CASE clock_ok WHEN 1 THEN 'true' ELSE 'false' END"
    " || ',\"code\":' || json_quote(code) || ',\"hand\":' || hand"
    " || ',\"payload\":' || json_quote(payload) || ',\"recorded_at_ns\":' || recorded_at_ns"
    " || ',\"recorded_utc\":' || json_quote(recorded_utc)"
    " || ',\"ref\":' || COALESCE(ref, 'null') || ',\"role\":' || json_quote(role)"
    " || ',\"seq\":' || seq || ',\"station_id\":' || json_quote(station_id) || '}'"
)
# The types the schema stores (anything else is judged the slow way).
_TYPED = (
    "typeof(seq) = 'integer' AND typeof(hand) = 'integer' AND typeof(recorded_at_ns) = 'integer'"
    " AND typeof(clock_ok) = 'integer' AND clock_ok IN (0, 1)"
    " AND (ref IS NULL OR typeof(ref) = 'integer')"
    " AND typeof(station_id) = 'text' AND typeof(boot_id) = 'text'"
    " AND typeof(recorded_utc) = 'text' AND typeof(code) = 'text' AND typeof(actor) = 'text'"
    " AND typeof(role) = 'text' AND typeof(payload) = 'text'"
    " AND typeof(prev_hash) = 'text' AND typeof(hash) = 'text' AND length(prev_hash) = 64"
)
_FAST = (
    f"SELECT seq, hash, {_TEXT}, ({_TYPED}) AND station_id = ? FROM log"
    " WHERE seq > ? AND seq <= ? ORDER BY seq"
)
_ONE = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq = ?"
_SLOW = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq > ? AND seq <= ? ORDER BY seq"
_PROBE = '\x00\x01\x08\t\n\x0b\x0c\r\x1f "\\/\x7f\u00e9\u2028\U0001f600'


@dataclass(frozen=True, slots=True)
class Walked:
    rows: int
    last_seq: int
    last_hash: str
    problem: Problem | None
    stopped: bool = False  # `stop` was set before the end


def walk(
    conn: sqlite3.Connection,
    station_id: str,
    after: tuple[int, str],
    upto: int,
    stop: threading.Event | None = None,
) -> Walked:
    """Check the chain over rows after `after` (seq, hash) up to seq `upto`."""
    checker = ChainChecker(station_id)
    checker.expected, checker.prev_hash = after[0] + 1, after[1]
    if upto <= after[0]:
        return Walked(0, after[0], after[1], None)
    if not _same_quoting(conn):
        return _slow(conn, checker, after, upto, stop)
    rows = 0
    sha = hashlib.sha256
    cursor = conn.execute(_FAST, (station_id, after[0], upto))
    try:
        while batch := cursor.fetchmany(BATCH):
            if stop is not None and stop.is_set():
                return Walked(rows, checker.expected - 1, checker.prev_hash, None, stopped=True)
            for seq, digest, text, typed in batch:
                rows += 1
                if (
                    typed
                    and seq == checker.expected
                    and text.startswith(checker.prev_hash)
                    and sha(text.encode()).hexdigest() == digest
                ):
                    checker.expected, checker.prev_hash = seq + 1, digest
                    continue
                problem = _judge(conn, checker, seq)  # the slow way, for this row
                if problem is not None:
                    return Walked(rows, checker.expected - 1, checker.prev_hash, problem)
    finally:
        cursor.close()
    return _ended(checker, upto, rows)


def _judge(conn: sqlite3.Connection, checker: ChainChecker, seq: object) -> Problem | None:
    raw = conn.execute(_ONE, (seq,)).fetchone() if isinstance(seq, int) else None
    if raw is None:
        return checker.unreadable(None, f"row {seq!r} cannot be read")
    try:
        row = LogRow.from_tuple(raw)
    except (TypeError, ValueError) as exc:
        return checker.unreadable(raw[0] if isinstance(raw[0], int) else None, str(exc))
    return checker.check(row)


def _slow(
    conn: sqlite3.Connection,
    checker: ChainChecker,
    after: tuple[int, str],
    upto: int,
    stop: threading.Event | None,
) -> Walked:
    rows = 0
    cursor = conn.execute(_SLOW, (after[0], upto))
    try:
        while batch := cursor.fetchmany(BATCH // 4):
            if stop is not None and stop.is_set():
                return Walked(rows, checker.expected - 1, checker.prev_hash, None, stopped=True)
            for raw in batch:
                rows += 1
                problem: Problem | None
                try:
                    row = LogRow.from_tuple(raw)
                except (TypeError, ValueError) as exc:
                    seq = raw[0] if isinstance(raw[0], int) else None
                    problem = checker.unreadable(seq, str(exc))
                else:
                    problem = checker.check(row)
                if problem is not None:
                    return Walked(rows, checker.expected - 1, checker.prev_hash, problem)
    finally:
        cursor.close()
    return _ended(checker, upto, rows)


def _ended(checker: ChainChecker, upto: int, rows: int) -> Walked:
    if checker.expected != upto + 1:
        problem = Problem(checker.expected, f"seq {checker.expected} is missing (up to {upto})")
        return Walked(rows, checker.expected - 1, checker.prev_hash, problem)
    return Walked(rows, upto, checker.prev_hash, None)


@cache
def _quoting_of(version: str) -> bool:
    probe = sqlite3.connect(":memory:")
    try:
        found = probe.execute("SELECT json_quote(?)", (_PROBE,)).fetchone()[0]
    except sqlite3.Error:
        return False
    finally:
        probe.close()
    return bool(found == _string(_PROBE))


def _same_quoting(conn: sqlite3.Connection) -> bool:
    """SQLite quotes text as the canonical JSON does (one probe per SQLite version)."""
    del conn  # the library, not the connection, decides
    return _quoting_of(sqlite3.sqlite_version)
