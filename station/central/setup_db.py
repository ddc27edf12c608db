"""The database part of `station central setup`, run as PostgreSQL's administrator (on a Debian
server the OS user `postgres`, over its socket): the service's role (the service's user name,
so that peer authentication works too) with its password, and the site's database owned by it.
Idempotent. Edge adapter (PostgreSQL through psycopg 3).

`python -m station.central.setup_db` reads `{"admin": DSN, "role": NAME, "password": TEXT,
"database": NAME}` as JSON on stdin (setup runs it as the administrator's OS user) and prints
what it did, one line each.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import psycopg
from psycopg import sql


def prepare(admin: str, role: str, password: str, database: str) -> list[str]:
    done = []
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        verb = "set the password of" if exists else "created"
        if not exists:
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        conn.execute(
            sql.SQL("ALTER ROLE {} WITH LOGIN PASSWORD {}").format(
                sql.Identifier(role), sql.Literal(password)
            )
        )
        done.append(f"database role {role}: {verb}")
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
        if found is None:
            conn.execute(
                sql.SQL("CREATE DATABASE {} OWNER {} ENCODING 'UTF8'").format(
                    sql.Identifier(database), sql.Identifier(role)
                )
            )
            done.append(f"database {database}: created, owned by {role}")
        else:
            conn.execute(
                sql.SQL("ALTER DATABASE {} OWNER TO {}").format(
                    sql.Identifier(database), sql.Identifier(role)
                )
            )
            done.append(f"database {database}: kept, owned by {role}")
    return done


def main() -> int:
    spec: dict[str, Any] = json.loads(sys.stdin.read())
    try:
        for line in prepare(spec["admin"], spec["role"], spec["password"], spec["database"]):
            print(line)
    except psycopg.Error as exc:
        print(f"database: {exc}".strip(), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
