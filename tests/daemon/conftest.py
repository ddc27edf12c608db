"""Fixtures for the daemon tests: a station.toml in a temp folder, a fake NOTIFY_SOCKET (a real
AF_UNIX datagram socket), and a daemon run on a thread with everything closed afterwards."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from hardware.betzone.settling import ZoneSettler
from hardware.inputs.clock import FakeClock
from station.config.model import PeopleConfig
from station.config.station_toml import load_station
from station.daemon.core import Core, CoreParts
from station.daemon.daemon import Daemon, Overrides
from station.daemon.display_requests import DisplayCommands
from station.daemon.items import Inbox
from station.daemon.notify import Notifier
from station.daemon.operations import StationOps
from station.daemon.sink import NullSink
from station.journal import Recorder

TINY = """\
station_id = "T07"
log_level = "info"

[table]
game = "nlhe"
seats = [1, 2, 3]
button = 3
[table.stakes]
sb = 1
bb = 2

[shoe]
{shoe}
[betzones]
{zones}
settle_ms = 40

[inputs]
backend = "mock"

[display]
driver = "none"

[journal]
path = "journal.sqlite"
"""


def offline_core(recorder: Recorder) -> tuple[Core, Inbox, NullSink, FakeClock]:
    """The daemon's core on a recovered recorder, without devices or a display thread: the
    real command path (PIN checks, sessions), a `NullSink` for the screen and a `FakeClock`."""
    clock, inbox, sink = FakeClock(1000.0), Inbox(), NullSink()
    parts = CoreParts(
        recorder=recorder,
        inbox=inbox,
        display=sink,
        notifier=Notifier({}),
        commands=DisplayCommands(StationOps(recorder), PeopleConfig()),
        settler=ZoneSettler(10),
        clock=clock,
    )
    return Core(parts, ()), inbox, sink, clock


def write_config(
    folder: Path, *, shoe: str = "enabled = false", zones: str = "enabled = false", extra: str = ""
) -> Path:
    path = folder / "station.toml"
    path.write_text(TINY.format(shoe=shoe, zones=zones) + extra, encoding="utf-8")
    return path


class NotifyListener:
    """What systemd would receive on $NOTIFY_SOCKET: datagrams with their arrival times."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))

    def recv(self, timeout_s: float) -> tuple[float, str] | None:
        self.sock.settimeout(timeout_s)
        try:
            data = self.sock.recv(4096)
        except TimeoutError:
            return None
        return time.monotonic(), data.decode("utf-8")

    def until(self, predicate: str, timeout_s: float) -> list[tuple[float, str]]:
        """Every datagram up to and including the first containing `predicate`."""
        got: list[tuple[float, str]] = []
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            item = self.recv(left)
            if item is None:
                break
            got.append(item)
            if predicate in item[1]:
                return got
        raise AssertionError(f"no {predicate!r} within {timeout_s} s; got {got}")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[NotifyListener]:
    listener = NotifyListener(tmp_path / "notify.sock")
    yield listener
    listener.close()


@dataclass
class Running:
    """A daemon on a thread of its own: open, run and close all happen on that thread (the
    journal's SQLite connection belongs to the thread that opened it)."""

    daemon: Daemon
    thread: threading.Thread
    opened: threading.Event = field(default_factory=threading.Event)
    result: list[str] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)

    def stop(self) -> str:
        self.daemon.stop("test over")
        self.thread.join(10)
        assert not self.thread.is_alive(), "the core did not stop"
        if self.error:
            raise self.error[0]
        return self.result[0] if self.result else ""


def start_daemon(config: Path, overrides: Overrides) -> Running:
    daemon = Daemon(load_station(config), overrides)
    running = Running(daemon, threading.Thread(target=lambda: None))

    def serve() -> None:
        try:
            daemon.open()
            running.opened.set()
            running.result.append(daemon.run())
        except BaseException as exc:  # reported by stop() on the test's thread
            running.error.append(exc)
        finally:
            running.opened.set()
            daemon.close()

    running.thread = threading.Thread(target=serve, name="core", daemon=True)
    running.thread.start()
    assert running.opened.wait(10), "the daemon did not open"
    if running.error:
        running.thread.join(10)
        raise running.error[0]
    return running


@pytest.fixture
def daemons() -> Iterator[list[Running]]:
    """Daemons started by a test; each is stopped afterwards, whatever happened."""
    started: list[Running] = []
    yield started
    for running in started:
        if running.thread.is_alive():
            running.daemon.stop("teardown")
            running.thread.join(10)
