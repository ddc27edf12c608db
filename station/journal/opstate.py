"""The operational state (mode, sessions, CALL FLOOR, tilts) folded from a journal file by
reading only the rows that change it. Edge adapter (reads SQLite).

`OpsTracker.apply` looks at a handful of codes; selecting those rows by the `(code, seq)` index,
and only those after the newest `table.resume` row (which carries the fold), keeps `station
journal status` and `station diag` quick on a long journal, where folding every row took
seconds.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Final

from station.journal.codes import Code
from station.journal.ops import OpState, OpsTracker
from station.journal.rows import COLUMNS, LogRow

# The rows `OpsTracker.apply` reads: FLOOR keys and floor-ruled incidents raise CALL FLOOR; the
# rest are its own codes (device inputs only move its resume cursors, not needed here).
OPS_CODES: Final = (
    Code.FLOOR_CALL_RAISED,
    Code.FLOOR_CALL_CLEARED,
    Code.LOGIN,
    Code.LOGOUT,
    Code.PERSON_DISABLED,
    Code.MODE_CHANGED,
    Code.TILT_RAISED,
    Code.TILT_CLEARED,
    Code.LINK_DOWN,
    Code.LINK_UP,
    Code.ENGINE_FAULT,
    Code.INPUT_KEY,
    Code.DECISION_INCIDENT,
)


def op_state(conn: sqlite3.Connection) -> OpState:
    """The fold, from the newest `table.resume` row's (when it has one this code reads) and the
    rows after it that change it."""
    ops, after = _from_resume(conn)
    marks = ", ".join("?" * len(OPS_CODES))
    cursor = conn.execute(
        f"SELECT {', '.join(COLUMNS)} FROM log WHERE code IN ({marks}) AND seq > ? ORDER BY seq",
        (*OPS_CODES, after),
    )
    try:
        while batch := cursor.fetchmany(512):
            for t in batch:
                ops.apply(LogRow.from_tuple(t))
    finally:
        cursor.close()
    return ops.state()


def _from_resume(conn: sqlite3.Connection) -> tuple[OpsTracker, int]:
    found = conn.execute(
        "SELECT seq, payload FROM log WHERE code = ? ORDER BY seq DESC LIMIT 1",
        (Code.TABLE_RESUME.value,),
    ).fetchone()
    if found is not None:
        try:
            ops = OpsTracker.from_doc(json.loads(found[1]).get("ops"), int(found[0]))
        except (ValueError, TypeError, AttributeError):
            pass
        else:
            return ops, int(found[0])
    return OpsTracker(), 0
