"""Fixtures for the fleet tests: a real mosquitto (TLS, client certificates, the site ACL) and a
real PostgreSQL cluster on loopback, started for each test by `station.central.services`, the
central ingest on a thread, and stations' journals in tmp dirs.

Under `CI=true` a missing broker or database is a failure, never a skip (./dev installs both).
"""

from __future__ import annotations

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


@pytest.fixture
def services() -> Iterator[Any]:
    try:
        import paho.mqtt  # noqa: F401
        import psycopg  # noqa: F401

        from station.central.services import MissingError, Services
    except ModuleNotFoundError as exc:
        _unavailable(f"the fleet extras are not installed: {exc.name}")
        raise
    try:
        started = Services(SITE).start()
    except MissingError as exc:
        _unavailable(str(exc))
        raise
    with started:
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
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout_s} s waiting for {what or pred}")
