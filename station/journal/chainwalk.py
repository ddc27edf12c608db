"""Walking the hash chain over a stretch of the journal, fast. Edge adapter (SQLite).

A row's hash is SHA-256 over its predecessor's hash and the canonical JSON of its columns
(`rows.LogRow.fields_json`). The walk reads the columns and its inner loop (`chainfast`, compiled
with the engine where built) writes that text straight from the row's tuple, with the same
C-accelerated quoting, checking the hash and the link to the row before; a row whose columns are
not of the types the schema stores, or that does not check out, is judged again the slow way
(`LogRow`, `ChainChecker`), so the fast path never accepts a row the slow one would refuse, nor
refuses one it would accept. (SQLite building the text itself, with `json_quote`, was slower:
its string functions cost more than Python's formatting; so was concatenating the repeating
columns in SQL to fetch fewer. `PRAGMA mmap_size`, a larger page cache, the garbage collector
off and a SELECT without `station_id` (checked in the WHERE instead) each changed the walk by
2 % or less, not worth their risks.)

This is what the history check after a start does over every row since the last verified
anchor (`history.check_history`); a full replay (recovery from the first row, the scrub) checks
the chain row by row as it re-derives.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass

from station.journal.chainfast import check_rows
from station.journal.rows import COLUMNS, LogRow
from station.journal.verify import ChainChecker, Problem

BATCH = 2048

_SELECT = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq > ? AND seq <= ? ORDER BY seq"
_ONE = f"SELECT {', '.join(COLUMNS)} FROM log WHERE seq = ?"


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
    expected, prev_hash = after[0] + 1, after[1]
    checker.expected, checker.prev_hash = expected, prev_hash
    if upto <= after[0]:
        return Walked(0, after[0], after[1], None)
    rows = 0
    cursor = conn.execute(_SELECT, (after[0], upto))
    try:
        while True:
            if stop is not None and stop.is_set():
                return Walked(rows, expected - 1, prev_hash, None, stopped=True)
            # Row by row off the cursor, not a fetched list: a list of BATCH tuples kept alive
            # makes the garbage collector walk them, a third of the walk's time.
            taken, expected, prev_hash, odd = check_rows(
                cursor, station_id, expected, prev_hash, BATCH
            )
            rows += taken
            if odd is not None:  # the slow way, for this row
                checker.expected, checker.prev_hash = expected, prev_hash
                problem = _judge(conn, checker, odd[0])
                if problem is not None:
                    return Walked(rows, checker.expected - 1, checker.prev_hash, problem)
                expected, prev_hash = checker.expected, checker.prev_hash
            elif taken < BATCH:
                break
    finally:
        cursor.close()
    checker.expected, checker.prev_hash = expected, prev_hash
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


def _ended(checker: ChainChecker, upto: int, rows: int) -> Walked:
    if checker.expected != upto + 1:
        problem = Problem(checker.expected, f"seq {checker.expected} is missing (up to {upto})")
        return Walked(rows, checker.expected - 1, checker.prev_hash, problem)
    return Walked(rows, upto, checker.prev_hash, None)
