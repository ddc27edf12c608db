"""The console's indexer: each station's stored rows folded by the station's own folds into
`console_incidents` (one row per incident, what the queue filters on) and `console_fold` (the
table's operational state for the map: CALL FLOOR, tilts, links, who is signed in). Edge
adapter (PostgreSQL through psycopg 3).

The folds are `station.incidents.records.IncidentFold` and `station.journal.ops.OpsTracker`,
the code the station itself runs, fed the same rows in the same order, so the console shows
the incidents and the CALL FLOOR the table shows. The indexer reads only the rows after its
cursor (`console_fold.seq`); the fold's context and the incidents that a later row can still
change without naming them (no next deal yet) are kept in memory and stored beside the cursor,
in the same transaction as the incidents, so a restart resumes exactly. A workflow row names
its incident: an older one is loaded from `console_incidents` when it is needed.

Each station's catch-up takes a transaction-level advisory lock on the station, so two console
processes never fold the same rows at once.
"""

from __future__ import annotations

import json
import logging
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

import psycopg

from station.central.console.records import (
    fold_from_json,
    fold_to_json,
    ops_from_json,
    ops_to_json,
    people,
    record_from_json,
    record_to_json,
    severity,
)
from station.incidents.records import FOLD_CODES, IncidentFold, IncidentRecord
from station.journal import opstate
from station.journal.codes import Code
from station.journal.ops import OpsTracker
from station.journal.rows import COLUMNS, LogRow

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

CHUNK: Final = 5000
OPS_CODES: Final = frozenset(opstate.OPS_CODES)  # the rows the station's own fold reads
CODES: Final = sorted({*FOLD_CODES, *OPS_CODES})
WORKFLOW: Final = frozenset({Code.INCIDENT_RULED, Code.INCIDENT_REVIEWED, Code.INCIDENT_CLOSED})
_SELECT = (
    f"SELECT {', '.join(COLUMNS)} FROM rows WHERE station_id = %s AND seq > %s"
    " AND code = ANY(%s) ORDER BY seq LIMIT %s"
)
_UPSERT = (
    "INSERT INTO console_incidents (station_id, id, hand, rule, source, engine_ruling, ruling,"
    " state, severity, detected, people, record, updated_at)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s::timestamptz, %s, %s, now())"
    " ON CONFLICT (station_id, id) DO UPDATE SET hand = EXCLUDED.hand, rule = EXCLUDED.rule,"
    " source = EXCLUDED.source, engine_ruling = EXCLUDED.engine_ruling,"
    " ruling = EXCLUDED.ruling, state = EXCLUDED.state, severity = EXCLUDED.severity,"
    " detected = EXCLUDED.detected, people = EXCLUDED.people, record = EXCLUDED.record,"
    " updated_at = now()"
)


@dataclass
class _Station:
    seq: int
    fold: IncidentFold
    ops: OpsTracker


@dataclass(frozen=True, slots=True)
class CatchUp:
    station: str
    rows: int  # rows folded
    incidents: tuple[int, ...]  # incidents opened or changed
    ops_changed: bool  # the table's operational state changed (CALL FLOOR, tilts, ...)


class Indexer:
    def __init__(self) -> None:
        self._stations: dict[str, _Station] = {}
        self.skipped = 0  # rows the folds could not read

    def forget(self) -> None:
        """Drop what is in memory (after a database error): the next catch-up reloads it."""
        self._stations.clear()

    def catch_up_all(self, conn: Conn) -> list[CatchUp]:
        stations = [str(r[0]) for r in conn.execute("SELECT station_id FROM stations")]
        conn.commit()
        return [c for s in sorted(stations) if (c := self.catch_up(conn, s)).rows]

    def catch_up(self, conn: Conn, station: str) -> CatchUp:
        """Fold the station's rows stored since the last catch-up (each chunk one
        transaction)."""
        total, changed_ids, ops_changed = 0, set[int](), False
        while True:
            try:
                with conn.transaction():
                    conn.execute(
                        "SELECT pg_advisory_xact_lock(%s)",
                        (zlib.crc32(f"console-fold:{station}".encode()),),
                    )
                    n, ids, ops = self._chunk(conn, station)
            except BaseException:
                self._stations.pop(station, None)  # memory may be ahead of the database
                raise
            total += n
            changed_ids |= ids
            ops_changed |= ops
            if n < CHUNK:
                return CatchUp(station, total, tuple(sorted(changed_ids)), ops_changed)

    def _load(self, conn: Conn, station: str) -> _Station:
        found = conn.execute(
            "SELECT seq, state, ops FROM console_fold WHERE station_id = %s", (station,)
        ).fetchone()
        if found is None:
            return _Station(0, IncidentFold(), OpsTracker())
        seq, state, ops = int(found[0]), dict(found[1]), dict(found[2])
        live_ids = [int(i) for i in state.get("live", ())]
        live = self._records(conn, station, live_ids).values() if live_ids else ()
        return _Station(seq, fold_from_json(state, list(live)), ops_from_json(ops))

    def _records(self, conn: Conn, station: str, ids: Iterable[int]) -> dict[int, IncidentRecord]:
        found = conn.execute(
            "SELECT id, record FROM console_incidents WHERE station_id = %s AND id = ANY(%s)",
            (station, list(ids)),
        ).fetchall()
        return {int(i): record_from_json(dict(rec)) for i, rec in found}

    def _chunk(self, conn: Conn, station: str) -> tuple[int, set[int], bool]:
        st = self._stations.get(station)
        if st is None:
            st = self._stations[station] = self._load(conn, station)
        raw = conn.execute(_SELECT, (station, st.seq, CODES, CHUNK)).fetchall()
        if not raw:
            return 0, set(), False
        rows = [LogRow.from_tuple(_cols(r)) for r in raw]
        fold = st.fold
        # Workflow rows name their incident: bring back the ones no longer kept in memory.
        wanted = {
            int(r.data()["incident"])
            for r in rows
            if r.code in WORKFLOW and isinstance(r.data().get("incident"), int)
        } - fold.incidents.keys()
        if wanted:
            fold.incidents.update(self._records(conn, station, wanted))
        before = dict(fold.incidents)
        ops_before = ops_to_json(st.ops)
        for row in rows:
            try:
                if row.code in FOLD_CODES:
                    fold.row(row)
                if row.code in OPS_CODES:
                    st.ops.apply(row)
            except (KeyError, ValueError, TypeError) as exc:
                # A row the folds cannot read (a station's bug, stored as it was chained):
                # skipped here, never a stop for every other table.
                self.skipped += 1
                log.error("console: %s row %d (%s) not folded: %r", station, row.seq, row.code, exc)
        st.seq = rows[-1].seq
        changed = [rec for i, rec in fold.incidents.items() if before.get(i) is not rec]
        gone = [i for i in before if i not in fold.incidents]
        if changed:
            conn.cursor().executemany(_UPSERT, [_params(station, rec) for rec in changed])
        if gone:
            conn.execute(
                "DELETE FROM console_incidents WHERE station_id = %s AND id = ANY(%s)",
                (station, gone),
            )
        # Keep in memory only what a later row can change without naming it.
        fold.incidents = {i: r for i, r in fold.incidents.items() if r.next_deal_seq is None}
        state = fold_to_json(fold, st.seq - CHUNK) | {"live": sorted(fold.incidents)}
        ops_now = ops_to_json(st.ops)
        conn.execute(
            "INSERT INTO console_fold (station_id, seq, state, ops, updated_at)"
            " VALUES (%s, %s, %s, %s, now()) ON CONFLICT (station_id) DO UPDATE SET"
            " seq = EXCLUDED.seq, state = EXCLUDED.state, ops = EXCLUDED.ops, updated_at = now()",
            (station, st.seq, json.dumps(state), json.dumps(ops_now)),
        )
        ids = {rec.id for rec in changed} | set(gone)
        ops_moved = {**ops_now, "last_seq": 0} != {**ops_before, "last_seq": 0}
        return len(rows), ids, ops_moved


def _cols(r: tuple[Any, ...]) -> tuple[Any, ...]:
    # PostgreSQL's boolean clock_ok back to the journal's 0/1 (the hash covers it as stored).
    cols = list(r)
    cols[COLUMNS.index("clock_ok")] = int(bool(cols[COLUMNS.index("clock_ok")]))
    return tuple(cols)


def _params(station: str, rec: IncidentRecord) -> tuple[object, ...]:
    ruling = rec.ruling.text if rec.ruling is not None else None
    return (
        station,
        rec.id,
        rec.hand,
        rec.rule,
        rec.source,
        rec.engine_ruling,
        ruling,
        rec.state.value,
        severity(rec),
        rec.detected_utc or None,
        people(rec),
        json.dumps(record_to_json(rec)),
    )
