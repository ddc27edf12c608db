"""The central store's PostgreSQL schema: numbered SQL migrations applied in order, recorded in
`schema_migrations`. Edge adapter (psycopg 3).

Each file `station/central/migrations/NNNN_name.sql` runs in one transaction under an advisory
lock (two ingests starting together apply it once). A database holding a migration this code
does not know was migrated by a newer version and is refused. Never edit a shipped migration.
"""

from __future__ import annotations

from importlib import resources
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import psycopg

LOCK_KEY: Final = 0x5354_4E44  # pg_advisory_xact_lock key of the migrations


class SchemaError(RuntimeError):
    """The database was migrated by a newer version."""


def migrations() -> list[tuple[str, str]]:
    """(name, sql) of every shipped migration, in order."""
    folder = resources.files("station.central") / "migrations"
    found = sorted(
        (p.name.removesuffix(".sql"), p.read_text(encoding="utf-8"))
        for p in folder.iterdir()
        if p.name.endswith(".sql")
    )
    return found


def migrate(conn: psycopg.Connection[tuple[object, ...]]) -> list[str]:
    """Apply the missing migrations; return the names applied now."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
    )
    conn.commit()
    known = migrations()
    names = {name for name, _ in known}
    done = {str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations")}
    conn.commit()
    unknown = sorted(done - names)
    if unknown:
        raise SchemaError(f"the database has migrations this version does not know: {unknown}")
    applied = []
    for name, sql in known:
        if name in done:
            continue
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
            again = conn.execute(
                "SELECT 1 FROM schema_migrations WHERE name = %s", (name,)
            ).fetchone()
            if again is not None:
                continue
            conn.execute(sql.encode("utf-8"))
            conn.execute("INSERT INTO schema_migrations (name) VALUES (%s)", (name,))
        applied.append(name)
    return applied
