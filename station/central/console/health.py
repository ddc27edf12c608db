"""The centre's health as the floor console tells it: the broker, the ingest and whether the
centre hears the tables at all. Edge adapter (PostgreSQL through psycopg 3, a TCP probe of the
broker's port); the judgement itself (`judge`) is pure.

- The ingest writes a heartbeat every second (`central_health`, `station.central.heartbeat`);
  one older than `INGEST_STALE_S` is an ingest that is not running (killed, crashed, host
  down), one marked stopped was stopped on purpose.
- The broker: the console opens a TCP connection to the broker's port itself (`BrokerProbe`,
  at most every `PROBE_EVERY_S`), and the ingest's heartbeat says whether the ingest is
  connected to it (and why not).
- The centre *hears* the tables only when both are up. While it does not, nothing a station
  said before is current: the map says so instead of "up to date" (`station.central.console.
  floor`), and a queued command says it cannot go out now.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

import psycopg

from station.central.console.views import age_text
from station.central.heartbeat import INGEST

INGEST_STALE_S: Final = 4.0  # four missed beats
PROBE_EVERY_S: Final = 2.0
PROBE_TIMEOUT_S: Final = 1.0

Conn = psycopg.Connection[tuple[Any, ...]]


class Up(StrEnum):
    UP = "up"
    DOWN = "down"
    STOPPED = "stopped"  # the ingest was stopped on purpose
    NEVER = "never"  # no heartbeat ever: the ingest has not run on this database


@dataclass(frozen=True, slots=True)
class Probe:
    ok: bool
    detail: str  # why not
    age_s: float  # how old this answer is


class BrokerProbe:
    """A TCP connection to the broker's port, at most every `every_s` (the answer is kept
    meanwhile). Thread-safe: the console's request threads share one."""

    def __init__(self, host: str, port: int, every_s: float = PROBE_EVERY_S) -> None:
        self.host = host
        self.port = port
        self.every_s = every_s
        self._lock = threading.Lock()
        self._last: tuple[float, bool, str] | None = None

    def check(self) -> Probe:
        with self._lock:
            now = time.monotonic()
            if self._last is None or now - self._last[0] >= self.every_s:
                ok, detail = self._connect()
                self._last = (time.monotonic(), ok, detail)
            at, ok, detail = self._last
            return Probe(ok, detail, time.monotonic() - at)

    def _connect(self) -> tuple[bool, str]:
        try:
            with socket.create_connection((self.host, self.port), PROBE_TIMEOUT_S):
                return True, ""
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            return False, f"{self.host}:{self.port} does not answer ({why.lower()})"


@dataclass(frozen=True, slots=True)
class Beat:
    """The ingest's last heartbeat as stored."""

    age_s: float
    stopped: bool
    host: str
    pid: int
    started_at: datetime
    broker_connected: bool
    broker_for_s: float  # since broker_connected last changed
    broker_detail: str


def read_beat(conn: Conn) -> Beat | None:
    found = conn.execute(
        "SELECT extract(epoch FROM now() - beat_at), stopped, host, pid, started_at,"
        " broker_connected, extract(epoch FROM now() - broker_since), broker_detail"
        " FROM central_health WHERE service = %s",
        (INGEST,),
    ).fetchone()
    if found is None:
        return None
    age, stopped, host, pid, started, connected, since, detail = found
    return Beat(
        max(0.0, float(age)), bool(stopped), str(host), int(pid), started, bool(connected),
        max(0.0, float(since)), str(detail),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Centre:
    """The broker and the ingest, judged."""

    ingest: Up
    ingest_text: str  # in words, for the floor
    broker: Up
    broker_text: str
    beat: Beat | None
    probe: Probe

    @property
    def hearing(self) -> bool:
        """The centre hears the tables now: the ingest runs and is connected to the broker."""
        return self.ingest is Up.UP and self.broker is Up.UP

    @property
    def problems(self) -> list[str]:
        """What is wrong, most basic first, in words (empty when the centre hears)."""
        out = []
        if self.broker is not Up.UP:
            out.append(f"BROKER DOWN: {self.broker_text}")
        if self.ingest is not Up.UP:
            out.append(f"INGEST NOT RUNNING: {self.ingest_text}")
        return out

    @property
    def deaf_because(self) -> str:
        """Why the centre hears nothing, short (a tile's or a command's words)."""
        if self.broker is not Up.UP:
            return "the broker is down"
        if self.ingest is not Up.UP:
            return "the ingest is not running"
        return ""

    @property
    def key(self) -> str:
        """Changes when what the page says changes (the map refreshes its tables on it)."""
        return f"{self.broker.value}/{self.ingest.value}"


def judge(beat: Beat | None, probe: Probe, *, stale_s: float = INGEST_STALE_S) -> Centre:
    """The broker and the ingest from the ingest's heartbeat and the console's probe. Pure."""
    if beat is None:
        ingest, ingest_text = Up.NEVER, "it has never run on this database"
    elif beat.stopped:
        ingest, ingest_text = Up.STOPPED, f"stopped {age_text(beat.age_s)} ago"
    elif beat.age_s > stale_s:
        ingest, ingest_text = Up.DOWN, f"not heard for {age_text(beat.age_s)}"
    else:
        ingest, ingest_text = Up.UP, f"heard {age_text(beat.age_s)} ago"
    if not probe.ok:
        broker, broker_text = Up.DOWN, f"the console cannot reach it: {probe.detail}"
    elif ingest is Up.UP and beat is not None and not beat.broker_connected:
        why = f" ({beat.broker_detail})" if beat.broker_detail else ""
        broker = Up.DOWN
        broker_text = f"the ingest lost it {age_text(beat.broker_for_s)} ago{why}"
    else:
        broker, broker_text = Up.UP, "it answers"
    return Centre(ingest, ingest_text, broker, broker_text, beat, probe)


def centre(conn: Conn, probe: BrokerProbe) -> Centre:
    return judge(read_beat(conn), probe.check())
