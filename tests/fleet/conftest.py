"""Fixtures for the fleet tests: for each test a real mosquitto of its own (TLS, client
certificates, the site ACL, started by `station.central.services`) and a fresh PostgreSQL database
of its own, in one real cluster on loopback per test process (initdb and a cluster's start cost
seconds; a database, a tenth of one), the central ingest on a thread, and stations' journals in
tmp dirs. Nothing a test leaves in its broker (sessions, queued or retained messages) or its
database reaches another test.

Under `CI=true` a missing broker or database is a failure, never a skip (./dev installs both).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from station.journal.clock import Clock, ManualClock
from station.journal.codes import ActorRole, Code
from station.journal.rows import Entry
from station.journal.store import Journal

SITE = "t"


def _unavailable(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI: {why}")
    pytest.skip(why)


def _fleet_extras() -> None:
    try:
        import paho.mqtt  # noqa: F401
        import psycopg  # noqa: F401
    except ModuleNotFoundError as exc:
        _unavailable(f"the fleet extras are not installed: {exc.name}")
        raise


@pytest.fixture(scope="session")
def _cluster() -> Iterator[Any]:
    """One PostgreSQL cluster for the test process (each xdist worker has its own)."""
    _fleet_extras()
    from station.central.services import MissingError, Services

    try:
        started = Services(SITE).start(broker=False)
    except MissingError as exc:
        _unavailable(str(exc))
        raise
    with started:
        yield started.db


class Database:
    """A database of one test in the session's cluster, standing in for `Services.db` (the
    password, `dsn()`); `kill()`, which `Services.close()` calls, drops it."""

    _made = itertools.count(1)

    def __init__(self, cluster: Any) -> None:
        import psycopg

        self.cluster = cluster
        self.user, self.password, self.port = cluster.user, cluster.password, cluster.port
        self.database = f"fleet_{os.getpid()}_{next(self._made)}"
        with psycopg.connect(cluster.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.database}"'.encode())

    def dsn(self, database: str | None = None) -> str:
        return str(self.cluster.dsn(database or self.database))

    def kill(self, *, hard: bool = True) -> None:
        import psycopg

        with psycopg.connect(self.cluster.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)'.encode())


@pytest.fixture
def services(_cluster: Any) -> Iterator[Any]:
    """A broker of this test's own (its own folder, CA and port) and a fresh database."""
    from station.central.services import Services

    started = Services(SITE).start(database=False)
    with started:
        started.db = Database(_cluster)
        yield started


@dataclass
class RunningIngest:
    ingest: Any
    cfg: Any
    stop: threading.Event
    thread: threading.Thread

    def halt(self) -> None:
        self.stop.set()
        self.thread.join(15)

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.cfg.conninfo()) as conn:
            return list(conn.execute(sql.encode(), params).fetchall())

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> None:
        import psycopg

        with psycopg.connect(self.cfg.conninfo(), autocommit=True) as conn:
            conn.execute(sql.encode(), params)


def start_ingest(services: Any) -> RunningIngest:
    from station.central.config import load_central
    from station.central.ingest import Ingest

    cfg = load_central(services.write_central_toml())
    stop = threading.Event()
    ingest = Ingest(cfg)
    thread = threading.Thread(target=ingest.run, args=(stop,), name="ingest", daemon=True)
    thread.start()
    assert ingest.ready.wait(30), "the ingest did not start"
    return RunningIngest(ingest, cfg, stop, thread)


@pytest.fixture
def ingest(services: Any) -> Iterator[RunningIngest]:
    running = start_ingest(services)
    yield running
    running.halt()


def new_journal(path: Path, station: str, clock: Clock | None = None) -> Journal:
    return Journal.open(path, clock=clock or ManualClock(), station_id=station, create=True)


def append(journal: Journal, n: int, *, step_s: float = 0.0) -> None:
    """`n` rows, one transaction each, the manual clock moving `step_s` between them."""
    for i in range(n):
        if step_s and isinstance(journal.clock, ManualClock):
            journal.clock.advance(step_s)
        journal.append([Entry(Code.TILT_CLEARED, {"i": i}, "test", ActorRole.STATION)])


def fleet_config(services: Any, station: str, **kw: Any) -> Any:
    from station.config.model import FleetConfig

    ident = services.broker.identity(station)
    return FleetConfig(
        SITE, "127.0.0.1", services.broker.port, ident.ca, ident.cert, ident.key, **kw
    )


def forwarder(services: Any, path: Path, station: str, **kw: Any) -> Any:
    from station.fleet.factory import paho_factory
    from station.fleet.forwarder import Forwarder

    cfg_kw = {k: kw.pop(k) for k in ("window", "batch", "resend_s") if k in kw}
    return Forwarder(path, station, fleet_config(services, station, **cfg_kw), paho_factory, **kw)


def wait_until(pred: Callable[[], bool], timeout_s: float = 20.0, what: str = "") -> None:
    """Polls `pred` until it holds: every 50 ms at first, then less and less often (up to every
    250 ms), since many predicates reload a page or query the database, and the suite's cores
    are its limit."""
    deadline = time.monotonic() + timeout_s
    pause = 0.05
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(pause)
        pause = min(pause * 1.5, 0.25)
    raise AssertionError(f"timed out after {timeout_s} s waiting for {what or pred}")
