"""Walking the hash chain over a stretch of the journal, fast. Edge adapter (SQLite).

A row's hash is SHA-256 over its predecessor's hash and the canonical JSON of its columns
(`rows.LogRow.fields_json`). The walk reads the columns and writes that text straight from the
row's tuple, with the same C-accelerated quoting, checking the hash and the link to the row
before; a row whose columns are not of the types the schema stores, or that does not check out,
is judged again the slow way (`LogRow`, `ChainChecker`), so the fast path never accepts a row the
slow one would refuse, nor refuses one it would accept. (SQLite building the text itself, with
`json_quote`, was slower: its string functions cost more than Python's formatting.)

This is what the history check after a start does over every row since the last verified
anchor (`history.check_history`); a full replay (recovery from the first row, the scrub) checks
the chain row by row as it re-derives.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from dataclasses import dataclass
from itertools import islice

from station.journal.rows import COLUMNS, LogRow, _string
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
    sha = hashlib.sha256
    q = _string
    quoted_station = q(station_id)
    cursor = conn.execute(_SELECT, (after[0], upto))
    try:
        while True:
            if stop is not None and stop.is_set():
                return Walked(rows, expected - 1, prev_hash, None, stopped=True)
            batch_start = rows
            # Row by row off the cursor (islice), not a fetched list: a list of BATCH tuples
            # kept alive makes the garbage collector walk them, a third of the walk's time.
            for t in islice(cursor, BATCH):
                rows += 1
                seq, sid, boot, utc, at_ns, ok, hand, code, actor, role, ref, payload, prev, h = t
                if (
                    seq == expected
                    and prev == prev_hash
                    and sid == station_id
                    and type(hand) is int
                    and type(at_ns) is int
                    and (ref is None or type(ref) is int)
                ):
                    try:  # a text column of another type: TypeError, the slow way
                        text = (
                            f'{prev}{{"actor":{q(actor)},"boot_id":{q(boot)},'
                            f'"clock_ok":{"true" if ok else "false"},"code":{q(code)},'
                            f'"hand":{hand},"payload":{q(payload)},"recorded_at_ns":{at_ns},'
                            f'"recorded_utc":{q(utc)},"ref":{"null" if ref is None else ref},'
                            f'"role":{q(role)},"seq":{seq},"station_id":{quoted_station}}}'
                        )
                    except TypeError:
                        text = ""
                    if text and sha(text.encode()).hexdigest() == h:
                        expected, prev_hash = seq + 1, h
                        continue
                checker.expected, checker.prev_hash = expected, prev_hash
                problem = _judge(conn, checker, seq)  # the slow way, for this row
                if problem is not None:
                    return Walked(rows, checker.expected - 1, checker.prev_hash, problem)
                expected, prev_hash = checker.expected, checker.prev_hash
            if rows - batch_start < BATCH:
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
