"""The journal's SQLite schema as named migrations, applied in order. Edge adapter (SQLite).

Each migration runs in its own transaction and is recorded in `migrations(name, applied_utc)`.
A database holding a migration this code does not know was written by a newer station and is
refused. Names are stable: never edit a shipped migration, add a new one.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from station.journal.exc import SchemaError
from station.journal.rows import GENESIS_HASH

_ABORT = "SELECT RAISE(ABORT, '{}');"

MIGRATIONS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    (
        "0001_log_anchor_meta",
        (
            # Facts about this journal, written once.
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TRIGGER meta_no_update BEFORE UPDATE ON meta BEGIN "
            + _ABORT.format("journal meta is write-once")
            + " END",
            "CREATE TRIGGER meta_no_delete BEFORE DELETE ON meta BEGIN "
            + _ABORT.format("journal meta is write-once")
            + " END",
            # The one chained log of everything that happens.
            """CREATE TABLE log (
                seq INTEGER PRIMARY KEY CHECK (seq >= 1),
                station_id TEXT NOT NULL,
                boot_id TEXT NOT NULL,
                recorded_utc TEXT NOT NULL,
                recorded_at_ns INTEGER NOT NULL,
                clock_ok INTEGER NOT NULL CHECK (clock_ok IN (0, 1)),
                hand INTEGER NOT NULL,
                code TEXT NOT NULL,
                actor TEXT NOT NULL,
                role TEXT NOT NULL,
                ref INTEGER,
                payload TEXT NOT NULL,
                prev_hash TEXT NOT NULL,
                hash TEXT NOT NULL UNIQUE
            )""",
            "CREATE INDEX log_hand ON log (hand, seq)",
            "CREATE INDEX log_code ON log (code, seq)",
            "CREATE INDEX log_actor ON log (actor, seq)",
            "CREATE INDEX log_boot ON log (boot_id, seq)",
            "CREATE TRIGGER log_no_update BEFORE UPDATE ON log BEGIN "
            + _ABORT.format("journal rows are append-only")
            + " END",
            "CREATE TRIGGER log_no_delete BEFORE DELETE ON log BEGIN "
            + _ABORT.format("journal rows are append-only")
            + " END",
            # The anchor: the chain head, moved forward by the insert itself (same transaction),
            # so that cutting rows off the tail is visible.
            """CREATE TABLE anchor (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                head_seq INTEGER NOT NULL,
                head_hash TEXT NOT NULL
            )""",
            f"INSERT INTO anchor (id, head_seq, head_hash) VALUES (1, 0, '{GENESIS_HASH}')",
            "CREATE TRIGGER anchor_no_insert BEFORE INSERT ON anchor BEGIN "
            + _ABORT.format("the anchor has one row")
            + " END",
            "CREATE TRIGGER anchor_no_delete BEFORE DELETE ON anchor BEGIN "
            + _ABORT.format("the anchor has one row")
            + " END",
            "CREATE TRIGGER anchor_follows_head BEFORE UPDATE ON anchor "
            "WHEN NEW.id IS NOT OLD.id "
            "OR NEW.head_seq IS NOT (SELECT MAX(seq) FROM log) "
            "OR NEW.head_hash IS NOT (SELECT hash FROM log WHERE seq = NEW.head_seq) BEGIN "
            + _ABORT.format("the anchor only follows the chain head")
            + " END",
            "CREATE TRIGGER log_extends_head BEFORE INSERT ON log "
            "WHEN NEW.seq IS NOT (SELECT IFNULL(MAX(seq), 0) + 1 FROM log) "
            "OR NEW.prev_hash IS NOT IFNULL((SELECT hash FROM log ORDER BY seq DESC LIMIT 1), "
            f"'{GENESIS_HASH}') BEGIN "
            + _ABORT.format("journal rows must extend the chain head")
            + " END",
            "CREATE TRIGGER log_moves_anchor AFTER INSERT ON log BEGIN "
            "UPDATE anchor SET head_seq = NEW.seq, head_hash = NEW.hash WHERE id = 1; END",
        ),
    ),
    (
        "0002_people",
        (
            # Credentials. Role and activity are journaled (people.* rows); the credential itself
            # is here, bound to the journal by a digest in its people.* row.
            """CREATE TABLE people (
                name TEXT PRIMARY KEY,
                role TEXT NOT NULL,
                active INTEGER NOT NULL CHECK (active IN (0, 1)),
                kdf TEXT NOT NULL,
                salt BLOB NOT NULL,
                pin_hash BLOB NOT NULL,
                changed_seq INTEGER NOT NULL
            )""",
            "CREATE TRIGGER people_no_delete BEFORE DELETE ON people BEGIN "
            + _ABORT.format("people are disabled, never deleted")
            + " END",
        ),
    ),
    (
        "0003_checkpoint",
        (
            # Recovery checkpoints (pickled states, a cache beside the chain) of the stations
            # before resume rows (`table.resume`, resume_rows.py). Unused since: a recovery
            # empties it; the table stays because migrations are never rewritten.
            """CREATE TABLE checkpoint (
                seq INTEGER PRIMARY KEY,
                row_hash TEXT NOT NULL,
                code TEXT NOT NULL,
                state BLOB NOT NULL,
                sha256 TEXT NOT NULL
            )""",
        ),
    ),
    (
        "0004_fleet_cursor",
        (
            # The fleet forwarder's ack cursor (station.fleet.outbox): the last row the central
            # store acknowledged after its commit, with its hash. The log is the outbox; the
            # rows after this one are still to be delivered. Beside the chain, not part of it.
            """CREATE TABLE fleet_cursor (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                acked_seq INTEGER NOT NULL,
                acked_hash TEXT NOT NULL,
                acked_utc TEXT NOT NULL
            )""",
            f"INSERT INTO fleet_cursor VALUES (1, 0, '{GENESIS_HASH}', '')",
        ),
    ),
)

# Triggers whose absence `journal verify` reports as tampering.
PROTECTIVE_TRIGGERS: Final = (
    "meta_no_update",
    "meta_no_delete",
    "log_no_update",
    "log_no_delete",
    "anchor_no_insert",
    "anchor_no_delete",
    "anchor_follows_head",
    "log_extends_head",
    "log_moves_anchor",
    "people_no_delete",
)


def applied(conn: sqlite3.Connection) -> list[str]:
    has = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'"
    ).fetchone()
    if has is None:
        return []
    return [str(r[0]) for r in conn.execute("SELECT name FROM migrations ORDER BY name")]


def migrate(conn: sqlite3.Connection, applied_utc: str) -> list[str]:
    """Apply the missing migrations in order; return the names applied now."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_utc TEXT NOT NULL)"
    )
    done = set(applied(conn))
    known = {name for name, _ in MIGRATIONS}
    unknown = sorted(done - known)
    if unknown:
        raise SchemaError(
            f"the journal has migrations this station does not know: {', '.join(unknown)}"
        )
    now: list[str] = []
    for name, statements in MIGRATIONS:
        if name in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
                conn.execute("ROLLBACK")  # another process applied it meanwhile
                continue
            for statement in statements:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO migrations (name, applied_utc) VALUES (?, ?)", (name, applied_utc)
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        now.append(name)
    return now


def _expected_triggers() -> dict[str, str]:
    out: dict[str, str] = {}
    for _, statements in MIGRATIONS:
        for statement in statements:
            if statement.startswith("CREATE TRIGGER "):
                out[statement.split()[2]] = statement
    return out


def expected_trigger_sql(name: str) -> str:
    return _expected_triggers()[name]


def tampered_triggers(conn: sqlite3.Connection) -> list[str]:
    """Protective triggers that are missing or whose text differs from the shipped one."""
    expected = _expected_triggers()
    present = {
        str(r[0]): str(r[1])
        for r in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
    }
    return [t for t in PROTECTIVE_TRIGGERS if present.get(t) != expected[t]]
