"""A room of stored tables in the central store, for the floor map's size and speed: one real
table's session (`console_data.build_template`: hands through the station's engine, dealer
mistakes and the floor's rulings) copied under each table's id, then given the states a busy
floor has at any moment: CALL FLOOR at three tables, two offline (one said so, one silent), a
shoe link down, a chain alarm, a ruling on its way. Edge adapter (PostgreSQL through psycopg 3,
a SQLite file).

Used by `station bench console` (the 60-table map's render time) and by the console's tests
(the 60-table map on one 1920x1080 screen). Only the store is written: the console folds these
rows exactly as it folds what the ingest stores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from station.bench.console_data import Template, build_template
from station.journal import Journal, SystemClock
from station.journal.rows import COLUMNS

CALLS: Final = (7, 23, 41)  # tables calling the floor (1-based)
OFFLINE: Final = 12  # stopped cleanly: the station said so
SILENT: Final = 35  # gone without a word
SHOE_DOWN: Final = 52
ALARM: Final = 18
PENDING: Final = 29


@dataclass(frozen=True, slots=True)
class Room:
    tables: tuple[str, ...]
    template: Template
    rows: int


def table_id(k: int, tables: int) -> str:
    return f"T{k:0{max(2, len(str(tables)))}d}"


def copy_template(conn: Any, template: Template, names_sql: str, count: int) -> int:
    """The template's rows under `count` station ids (`names_sql`: an SQL expression of the
    1-based series number `g`), each copy's times shifted; their `stations` rows online with
    a fresh status. Returns the rows stored."""
    cols = ", ".join(COLUMNS)
    journal = Journal.open(template.path, clock=SystemClock())
    try:
        conn.execute(
            "CREATE TEMP TABLE IF NOT EXISTS tpl (seq bigint, station_id text, boot_id text,"
            " recorded_utc text, recorded_at_ns bigint, clock_ok boolean, hand bigint,"
            " code text, actor text, role text, ref bigint, payload text, prev_hash text,"
            " hash text)"
        )
        conn.execute("TRUNCATE tpl")
        with conn.cursor().copy(f"COPY tpl ({cols}) FROM STDIN") as copy:
            for row in journal.rows():
                values = list(row.as_tuple())
                values[COLUMNS.index("clock_ok")] = bool(values[COLUMNS.index("clock_ok")])
                copy.write_row(values)
        setup = next((r.payload for r in journal.rows(codes=["input.setup"])), "{}")
        head_seq, head_hash = journal.head()
        hand = max((r.hand for r in journal.rows(codes=["table.hand_start"])), default=0)
    finally:
        journal.close()
    with conn.transaction():
        conn.execute(
            "INSERT INTO stations (station_id, site, head_seq, head_hash, head_utc, hand, setup,"
            " last_row_at, online, status, status_at)"
            f" SELECT {names_sql}, 'bench', %s, %s, NULL, %s, %s::jsonb,"
            " now() - make_interval(secs => g), true,"
            " jsonb_build_object('v', 1, 'state', 'online', 'head_seq', %s, 'acked_seq', %s,"
            " 'outbox_rows', 0), now() FROM generate_series(1, %s) g",
            (head_seq, head_hash, hand, setup, head_seq, head_seq, count),
        )
        shifted = "(t.recorded_utc::timestamptz - make_interval(secs => g * 37))"
        conn.execute(
            f"INSERT INTO rows ({cols}, recorded)"
            f" SELECT t.seq, {names_sql}, t.boot_id,"
            f" to_char({shifted} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'),"
            " t.recorded_at_ns, t.clock_ok, t.hand, t.code, t.actor, t.role, t.ref, t.payload,"
            f" t.prev_hash, t.hash, {shifted}"
            " FROM tpl t CROSS JOIN generate_series(1, %s) g",
            (count,),
        )
    return template.rows * count


def fill_room(conn: Any, folder: Path, tables: int = 60, rows_per_table: int = 250) -> Room:
    """`tables` stored tables T01..Tnn with a busy floor's states (see the module's doc)."""
    template = build_template(folder / "room-template.sqlite", "TPL", rows_per_table, every=2)
    width = max(2, len(str(tables)))
    rows = copy_template(conn, template, f"'T' || lpad(g::text, {width}, '0')", tables)
    names = tuple(table_id(k, tables) for k in range(1, tables + 1))
    _busy(conn, names, template)
    conn.execute("ANALYZE rows")
    return Room(names, template, rows)


def _append(conn: Any, station: str, code: str, payload: dict[str, Any], actor: str) -> None:
    """One more row at the end of a stored table (as the ingest would store it)."""
    head = conn.execute(
        "SELECT max(seq), max(hand) FROM rows WHERE station_id = %s", (station,)
    ).fetchone()
    seq, hand = int(head[0]) + 1, int(head[1])
    conn.execute(
        "INSERT INTO rows (station_id, seq, boot_id, recorded_utc, recorded_at_ns, clock_ok,"
        " hand, code, actor, role, ref, payload, prev_hash, hash, recorded)"
        " VALUES (%s, %s, 'room', to_char(now() AT TIME ZONE 'UTC',"
        " 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), 0, true, %s, %s, %s, 'dealer', NULL, %s,"
        " repeat('0', 64), repeat('0', 64), now())",
        (station, seq, hand, code, actor, json.dumps(payload, separators=(",", ":"))),
    )
    conn.execute(
        "UPDATE stations SET head_seq = %s, last_row_at = now() WHERE station_id = %s",
        (seq, station),
    )


def _busy(conn: Any, names: tuple[str, ...], template: Template) -> None:
    n = len(names)

    def pick(k: int) -> str | None:
        return names[k - 1] if k <= n else None

    for k in CALLS:
        if (station := pick(k)) is not None:
            _append(conn, station, "floor.call_raised", {"reason": "FLOOR key"}, "dan")
    if (station := pick(SHOE_DOWN)) is not None:
        _append(conn, station, "link.down", {"device": "shoe"}, "station")
    if (station := pick(OFFLINE)) is not None:
        conn.execute(
            "UPDATE stations SET online = false, status_at = now() - interval '4 minutes',"
            " status = jsonb_set(status, '{state}', '\"offline\"') WHERE station_id = %s",
            (station,),
        )
    if (station := pick(SILENT)) is not None:
        conn.execute(
            "UPDATE stations SET status_at = now() - interval '3 minutes',"
            " last_row_at = now() - interval '3 minutes' WHERE station_id = %s",
            (station,),
        )
    if (station := pick(ALARM)) is not None:
        conn.execute(
            "INSERT INTO alarms (station_id, kind, seq, detail) VALUES (%s, 'fork', %s, %s)",
            (station, template.rows, json.dumps({"detail": "another history at this seq"})),
        )
    if (station := pick(PENDING)) is not None:
        conn.execute(
            "INSERT INTO commands (station_id, kind, body, created_by) VALUES"
            " (%s, 'incident.review', '{}', 'fay')",
            (station,),
        )
