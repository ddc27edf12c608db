"""Fixtures for the tournament director's tests: a real PostgreSQL (`station.central.services`)
for the module, a fresh migrated database for each test, and stations' rows written into the
central store as the ingest stores them (the station's own codes and payloads).

Under `CI=true` a missing database is a failure, never a skip."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from tests.tournament.stored import Store


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
