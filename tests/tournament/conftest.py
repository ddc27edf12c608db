"""Fixtures for the tournament director's tests: a real PostgreSQL (`station.central.services`)
for the module, a fresh migrated database for each test, and stations' rows written into the
central store as the ingest stores them (the station's own codes and payloads).

Under `CI=true` a missing database is a failure, never a skip."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    try:
        import psycopg  # noqa: F401

        from station.central.services import MissingError, Services
    except ModuleNotFoundError as exc:
        _unavailable(f"the central extra is not installed: {exc.name}")
        raise
    try:
        started = Services("t").start(broker=False)
    except MissingError as exc:
        _unavailable(str(exc))
        raise
    with started:
        yield started.db


@dataclass
class Store:
    """A migrated database and the stations' rows written into it."""

    conn: Any
    seqs: dict[str, int] = field(default_factory=dict)
    minute: int = 0

    def row(self, station: str, code: str, payload: dict[str, Any], hand: int = 0) -> int:
        """One stored row of `station` (its next seq), as the ingest stores it."""
        if station not in self.seqs:
            self.conn.execute(
                "INSERT INTO stations (station_id, site, head_hash) VALUES (%s, 't', %s)"
                " ON CONFLICT DO NOTHING",
                (station, "0" * 64),
            )
            self.seqs[station] = 0
        self.seqs[station] += 1
        seq = self.seqs[station]
        self.minute += 1
        utc = f"2025-06-01T10:{self.minute // 60:02d}:{self.minute % 60:02d}.000+00:00"
        self.conn.execute(
            "INSERT INTO rows (station_id, seq, boot_id, recorded_utc, recorded_at_ns, clock_ok,"
            " hand, code, actor, role, ref, payload, prev_hash, hash, recorded) VALUES"
            " (%s, %s, 'b', %s, 0, true, %s, %s, 'x', 'station', NULL, %s, %s, %s, %s)",
            (station, seq, utc, hand, code, json.dumps(payload), "0" * 64,
             secrets.token_hex(32), utc),
        )  # fmt: skip
        return seq

    def commands(
        self, station: str | None = None, kind: str = ""
    ) -> list[tuple[str, str, dict[str, Any]]]:
        rows = self.conn.execute(
            "SELECT station_id, kind, body FROM commands ORDER BY id"
        ).fetchall()
        return [
            (str(s), str(k), dict(b))
            for s, k, b in rows
            if (station is None or s == station) and (not kind or k == kind)
        ]


@pytest.fixture
def store(postgres: Any) -> Iterator[Store]:
    import psycopg

    from station.central.schema import migrate

    name = "t" + secrets.token_hex(6)
    with psycopg.connect(postgres.dsn("postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        with psycopg.connect(postgres.dsn(name), autocommit=True) as conn:
            migrate(conn)
            conn.autocommit = True
            yield Store(conn)
    finally:
        with psycopg.connect(postgres.dsn("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
